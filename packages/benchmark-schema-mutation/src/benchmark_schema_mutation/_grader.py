"""The deterministic grader (no judge). docs/grading.md lists the failure modes it handles.

1. Find the submitted call: the last native tool call in `trace.tool_calls`, else the last
   `{"name", "arguments"}` object in the answer (prose, code fences and `arguments` given as a
   JSON-encoded string are tolerated).
2. Compare it with the task's expected call as canonical JSON: object keys in any order, numbers by
   value (25 == 25.0), strings never equal to numbers, booleans never equal to numbers, arrays in
   order.
3. Score 1 on an exact match. Otherwise score 0 with a typed outcome: `staleSchemaUsed` when the
   call is exactly the pre-migration call, `mismatch` with the first differing path, `noToolCall`
   when no call can be found, `emptyAnswer` when nothing was submitted.

Whatever the outcome, `details` says whether the call is valid against the current schema and
lists its `staleSignals`: each mutated element it took from the old schema, so that a half-adapted
answer is counted and not only an exact copy of the stale call. An answer holding several distinct
calls is still graded on its last one, and `details` counts them (`distinctCalls`) and says whether
an earlier one matched the expected call (`anotherCallMatched`).

The grader reads only the task (`expected`, `tools`, `metadata`), never the generator's catalogue,
so alternate task files are graded the same way. It never raises on a submission.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Optional

from attrs import frozen
from benchmark_core import JsonObject, Task, TaskScore, ToolCall, ToolSpec, Trace, provider_safe_name
from benchmark_core.wire import SchemaError, first_difference, first_violation, key_path, show

from ._extract import answer_items, calls_only, decline_offered, declined, decode_object

EXACT_MATCH = "exactMatch"
STALE_SCHEMA_USED = "staleSchemaUsed"
MISMATCH = "mismatch"
NO_TOOL_CALL = "noToolCall"
EMPTY_ANSWER = "emptyAnswer"
#: The answer declined: right on a noCall task, a false abstention anywhere else.
DECLINED = "declined"
#: A call on a noCall task.
UNEXPECTED_CALL = "unexpectedCall"
#: A drift episode ended with the expected call after the API refused the stale one.
ADAPTED = "adapted"
#: Every outcome the grader reports, as `details["outcome"]` and the first word of the reason.
OUTCOMES: tuple[str, ...] = (
    EXACT_MATCH,
    STALE_SCHEMA_USED,
    MISMATCH,
    NO_TOOL_CALL,
    EMPTY_ANSWER,
    DECLINED,
    UNEXPECTED_CALL,
    ADAPTED,
)


@frozen
class SubmittedCall:
    """The call a submission makes. `source` is "toolCalls" (native mode) or "answer" (text)."""

    name: Any
    arguments: Any
    source: str


def submitted_calls(trace: Trace, known_names: Iterable[str] = ()) -> list[SubmittedCall]:
    """Every call a trace makes, in order: its native tool calls when there are any, else the calls
    in the answer. The last one is graded (`submitted_call`); the others are counted in `details`.

    A native call may name a tool the model was never offered (the old, memorised one) in the
    provider-safe spelling the API forced on it (`issues_create`); such a name is read as the
    `known_names` entry it spells, so the stale habit is still seen.
    """
    if trace.tool_calls and isinstance(trace.tool_calls[-1], ToolCall):
        known = set(known_names)
        native: list[SubmittedCall] = []
        # A submission read from JSON may hold anything in its list; only tool calls are counted.
        sent: list[Any] = list(trace.tool_calls)
        for tool_call in sent:
            if not isinstance(tool_call, ToolCall):
                continue
            arguments: Any = tool_call.arguments
            if isinstance(arguments, str):
                # A JSON-encoded string is decoded (F6); anything else stays as sent and mismatches.
                decoded = decode_object(arguments)
                arguments = arguments if decoded is None else decoded
            native.append(
                SubmittedCall(name=_known_spelling(tool_call.name, known), arguments=arguments, source="toolCalls")
            )
        return native
    calls = calls_only(answer_items(trace.answer))
    return [SubmittedCall(name=name, arguments=arguments, source="answer") for name, arguments in calls]


def submitted_call(trace: Trace, known_names: Iterable[str] = ()) -> Optional[SubmittedCall]:
    """The call a trace is graded on: the last native tool call when there are any, else the
    answer's last call (F5)."""
    calls = submitted_calls(trace, known_names)
    return calls[-1] if calls else None


def distinct_calls(calls: Sequence[SubmittedCall]) -> list[SubmittedCall]:
    """The calls without repeats, in first-seen order. Two calls are the same when they are equal as
    canonical JSON (keys in any order, 25 == 25.0), the rule the grade itself uses."""
    if len(calls) < 2:
        return list(calls)
    seen: set[str] = set()
    unique: list[SubmittedCall] = []
    for call in calls:
        key = _canonical_key(call)
        if key not in seen:
            seen.add(key)
            unique.append(call)
    return unique


def _canonical_key(call: SubmittedCall) -> str:
    def canonical(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            return {str(k): canonical(v) for k, v in value.items()}
        if isinstance(value, list):
            return [canonical(v) for v in value]
        return value

    try:
        return json.dumps([call.name, canonical(call.arguments)], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return f"<uncomparable {id(call)}>"


def _known_spelling(name: str, known: set[str]) -> str:
    if name in known:
        return name
    matches = sorted(k for k in known if provider_safe_name(k) == name)
    return matches[0] if len(matches) == 1 else name


def _is_empty(trace: Trace) -> bool:
    answer = trace.answer
    no_text = answer is None or (isinstance(answer, str) and not answer.strip())
    return no_text and not trace.tool_calls


# -- canonical comparison --------------------------------------------------------------------------


def call_difference(expected: Any, call: SubmittedCall) -> Optional[str]:
    """The first difference between an expected `{"name", "arguments"}` and a submitted call: the
    name first, then the arguments with their keys in sorted order."""
    if not isinstance(expected, dict):
        return "expected call is missing from the task"
    # The tool name is compared before the arguments: calling the wrong tool is the headline.
    return first_difference(expected.get("name"), call.name, "name") or first_difference(
        expected.get("arguments"), call.arguments, "arguments"
    )


# -- schema validity and stale signals -------------------------------------------------------------


def schema_check(tools: Sequence[ToolSpec], call: SubmittedCall) -> Optional[str]:
    """None when the call names a current tool and its arguments are valid against that tool's
    parameters; else what is wrong."""
    for tool in tools:
        if tool.name == call.name:
            try:
                violation = first_violation(call.arguments, tool.parameters, root="arguments")
            except SchemaError as exc:
                return f"the tool's schema is invalid at {exc}"
            return None if violation is None else str(violation)
    offered = ", ".join(tool.name for tool in tools) or "none"
    return f"name: {show(call.name)} is not a current tool (current: {offered})"


def _valid(schema: Any, value: Any) -> bool:
    try:
        return first_violation(value, schema) is None
    except SchemaError:
        return False


def _elements(metadata: JsonObject) -> list[JsonObject]:
    raw = metadata.get("mutatedElements")
    return [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []


def _tool_names(task: Task) -> set[str]:
    names = {tool.name for tool in task.tools}
    previous = task.metadata.get("previousTools")
    if isinstance(previous, list):
        names.update(t["name"] for t in previous if isinstance(t, dict) and isinstance(t.get("name"), str))
    stale = task.metadata.get("staleCall")
    if isinstance(stale, dict) and isinstance(stale.get("name"), str):
        names.add(stale["name"])
    return names


def stale_signals(task: Task, call: SubmittedCall, tool_names: Optional[set[str]] = None) -> list[JsonObject]:
    """The mutated elements this call took from the previous schema, in the task's element order.

    Only calls to this API (a current tool or the previous one, `tool_names`, by default those of
    the task) are examined: a call to some unrelated tool says nothing about which version of this
    schema the model followed.
    """
    names = _tool_names(task) if tool_names is None else tool_names
    if not isinstance(call.name, str) or call.name not in names:
        return []
    arguments = call.arguments if isinstance(call.arguments, dict) else {}
    signals: list[JsonObject] = []
    for element in _elements(task.metadata):
        signal, field = element.get("signal"), element.get("field")
        if signal in ("oldUnsplitTool", "deprecatedTool"):
            if call.name == element.get("tool"):
                signals.append({"signal": signal, "path": "name", "value": call.name})
            continue
        if not isinstance(field, str):
            continue
        path = key_path("arguments", field)
        present = arguments.get(field) is not None
        if (signal in ("oldFieldName", "oldPaginationField") and field in arguments) or (
            signal in ("missingNewRequired", "missingScope") and not present
        ):
            signals.append({"signal": signal, "path": path})
        elif signal == "oldEnumValue":
            value = arguments.get(field)
            old_values = element.get("oldValues")
            if isinstance(value, str) and isinstance(old_values, list) and value in old_values:
                signals.append({"signal": signal, "path": path, "value": value})
        elif signal == "oldUnit" and field in arguments and _old_unit(element, arguments[field]):
            signals.append({"signal": signal, "path": path})
    return signals


def _old_unit(element: JsonObject, value: Any) -> bool:
    """The value is the request's value in the old unit, or has the old type and not the new one."""
    if "staleValue" in element and first_difference(element["staleValue"], value, "") is None:
        return True
    previous, current = element.get("previousSchema"), element.get("currentSchema")
    return previous is not None and current is not None and _valid(previous, value) and not _valid(current, value)


# -- the grader ------------------------------------------------------------------------------------


def _verdict(
    task: Task,
    outcome: str,
    reason: str,
    *,
    call: Optional[SubmittedCall] = None,
    signals: Iterable[JsonObject] = (),
    schema_error: Optional[str] = None,
    difference: Optional[str] = None,
    several: Optional[JsonObject] = None,
    right_decline: bool = False,
) -> TaskScore:
    passed = outcome == EXACT_MATCH or (right_decline and outcome == DECLINED)
    metadata = task.metadata
    # Only tasks whose prompt offers the decline format say whether the answer declined.
    offered = {"declined": outcome == DECLINED} if decline_offered(task) else {}
    return TaskScore(
        score=1.0 if passed else 0.0,
        passed=passed,
        reason=f"{outcome}: {reason}",
        details={
            "mutationKind": metadata.get("mutationKind"),
            "schemaVersion": metadata.get("schemaVersion"),
            "outcome": outcome,
            "staleSchemaUsed": outcome == STALE_SCHEMA_USED,
            "staleSignals": list(signals),
            "callFound": call is not None,
            "callSource": call.source if call is not None else None,
            "validAgainstCurrentSchema": call is not None and schema_error is None,
            "schemaError": schema_error,
            "firstDifference": difference,
            "distinctCalls": 0 if several is None else several["distinctCalls"],
            "anotherCallMatched": False if several is None else several["anotherCallMatched"],
            **offered,
        },
    )


def grade_call(task: Task, trace: Trace) -> TaskScore:
    """Grade one trace against one task (see the module docstring)."""
    if decline_offered(task):
        why = declined(trace)
        if why is not None:
            return _verdict(task, DECLINED, f"the answer declined ({why[:120]}) although a call was possible")
    if _is_empty(trace):
        return _verdict(task, EMPTY_ANSWER, "no answer text and no tool calls")
    names = _tool_names(task)
    calls = submitted_calls(trace, names)
    if not calls:
        return _verdict(task, NO_TOOL_CALL, 'the answer holds no JSON object with "name" and "arguments"')
    call = calls[-1]
    unique = distinct_calls(calls)
    several: JsonObject = {"distinctCalls": len(unique), "anotherCallMatched": False}
    try:
        schema_error = schema_check(task.tools, call)
        difference = call_difference(task.expected, call)
        if difference is None:
            reason = f"{call.name} called with the expected arguments"
            if len(unique) > 1:
                reason += f" (the last of {len(unique)} distinct calls)"
            return _verdict(task, EXACT_MATCH, reason, call=call, schema_error=schema_error, several=several)
        # The last call is graded; an earlier one that matched is reported, never scored (F5).
        several["anotherCallMatched"] = any(call_difference(task.expected, other) is None for other in unique)
        signals = stale_signals(task, call, names)
        stale = task.metadata.get("staleCall")
        is_stale = isinstance(stale, dict) and call_difference(stale, call) is None
    except RecursionError:
        return _verdict(
            task,
            MISMATCH,
            "the call is nested too deeply to compare",
            call=call,
            schema_error="too deep",
            several=several,
        )
    if is_stale:
        previous = task.metadata.get("previousVersion", "?")
        current = task.metadata.get("schemaVersion", "?")
        mutation = task.metadata.get("mutation", "the schema changed")
        reason = f"the call is exactly what schema {previous} asked for; {current} changed it ({mutation})"
        outcome = STALE_SCHEMA_USED
    else:
        validity = "valid" if schema_error is None else "not valid"
        reason = f"{difference}; the call is {validity} against the current schema"
        if signals:
            reason += "; stale signals: " + ", ".join(str(s["signal"]) for s in signals)
        outcome = MISMATCH
    if several["anotherCallMatched"]:
        reason += (
            f"; an earlier one of the {several['distinctCalls']} distinct calls matched, but the last call is graded"
        )
    elif len(unique) > 1:
        reason += f"; the last of {len(unique)} distinct calls is graded"
    return _verdict(
        task,
        outcome,
        reason,
        call=call,
        signals=signals,
        schema_error=schema_error,
        difference=difference,
        several=several,
    )
