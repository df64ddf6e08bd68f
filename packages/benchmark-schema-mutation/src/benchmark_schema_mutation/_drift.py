"""Schema drift in the middle of a conversation: the full split's episodes (`mutationKind: "drift"`).

The model is given the tools as its client last knew them (the previous version, `previousTools`)
and the user's request. The API behind them has moved on (`tools`, the current version). The
simulator answers a call that still uses the old schema with the error a real API gives, naming
what changed and the version:

- a renamed field: `400 Bad Request: unknown field 'title'; use 'subject' (API version 5.0.0)`;
- a new required field: `400 Bad Request: missing required field 'priority' (API version 5.0.0), ...`
  with the field's schema;
- replaced enum values: `400 Bad Request: invalid value 'feature' for 'kind'; API version 5.0.0
  accepts ...`;
- a changed type or unit: `422 Unprocessable Entity: 'amount' changed in API version 5.0.0: ...`
  with the new schema;
- a removed or deprecated tool: `410 Gone: ... was removed in API version 5.0.0; use ...`.

The real split's episodes (`apiErrors: "twilio"`) answer instead with the JSON body Twilio's API
returns (`twilio_error`): `{"code": 20001, "message": "Missing required parameter MessageFlow in the
post body", ...}`, or `Unknown parameter SinkSid ...` for one it no longer takes.

A call valid against the current schema is accepted and ends the episode; any other call gets the
standard `INVALID_ARGUMENTS` or `UNKNOWN_TOOL` of core's `Toolbox`. The simulator is a pure function
of the task: the same calls get the same answers, so the grader replays the tool log (core's
`replay`) and never trusts a submitted result.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from benchmark_core import (
    EnvironmentStart,
    GradeContext,
    JsonObject,
    JsonValue,
    Task,
    TaskScore,
    Toolbox,
    ToolError,
    ToolLogEntry,
    ToolResult,
    ToolSpec,
    Trace,
    replay,
)
from benchmark_core.wire import key_path

from ._grader import (
    ADAPTED,
    EXACT_MATCH,
    MISMATCH,
    NO_TOOL_CALL,
    STALE_SCHEMA_USED,
    SubmittedCall,
    call_difference,
    stale_signals,
)

DRIFT = "drift"
SYSTEM_MESSAGE = (
    "You act for the user through the tools provided: the {title} API as your client knows it, schema version "
    "{version}. Make the call the request needs. When a call succeeds, reply with one short sentence."
)

#: The error codes of the drift answers, by stale signal: (HTTP status line, code).
DRIFT_ERRORS: dict[str, tuple[str, str]] = {
    "oldFieldName": ("400 Bad Request", "UNKNOWN_FIELD"),
    "oldPaginationField": ("400 Bad Request", "UNKNOWN_FIELD"),
    "missingNewRequired": ("400 Bad Request", "MISSING_FIELD"),
    "missingScope": ("400 Bad Request", "MISSING_FIELD"),
    "oldEnumValue": ("400 Bad Request", "INVALID_VALUE"),
    "oldUnit": ("422 Unprocessable Entity", "INVALID_TYPE"),
    "oldUnsplitTool": ("410 Gone", "GONE"),
    "deprecatedTool": ("410 Gone", "GONE"),
}
DRIFT_CODES = frozenset(code for _, code in DRIFT_ERRORS.values())


def _schema_text(schema: Any) -> str:
    return json.dumps(schema, ensure_ascii=False, sort_keys=True)


def _field_schema(task: Task, field: str) -> Any:
    for tool in task.tools:
        properties = tool.parameters.get("properties")
        if isinstance(properties, dict) and field in properties:
            return properties[field]
    return None


def _element(task: Task, signal: str, path: str) -> JsonObject:
    """The task's mutated element behind a stale signal (matched by signal and field)."""
    elements = task.metadata.get("mutatedElements")
    for element in elements if isinstance(elements, list) else []:
        if isinstance(element, dict) and element.get("signal") == signal:
            field = element.get("field")
            if field is None or key_path("arguments", field) == path:
                return element
    return {}


#: Twilio's error for a parameter it cannot take: its code, and the page the error links to.
TWILIO_CODE = 20001
TWILIO_MORE_INFO = "https://www.twilio.com/docs/errors/20001"


def twilio_error(task: Task, name: str, field: Any) -> ToolError:
    """The error Twilio's API answers a stale call of the real split with: its JSON body (`code`,
    `message`, `more_info`, `status`), for a parameter it requires and did not get, or one it no
    longer takes. It names the parameter and never the fix, as Twilio's errors do."""
    _, code = DRIFT_ERRORS.get(name, ("400 Bad Request", "INVALID_ARGUMENTS"))
    where = "in the post body" if task.metadata.get("httpMethod") == "POST" else "in the request"
    if name == "missingNewRequired":
        message = f"Missing required parameter {field} {where}"
    else:
        message = f"Unknown parameter {field} {where}"
    body = {"code": TWILIO_CODE, "message": message, "more_info": TWILIO_MORE_INFO, "status": 400}
    return ToolError(code=code, message=f"400 Bad Request: {json.dumps(body)}")


def drift_message(task: Task, signal: JsonObject) -> ToolError:
    """The error a real API answers to a call showing `signal` (one of `stale_signals`)."""
    name = str(signal.get("signal"))
    status, code = DRIFT_ERRORS.get(name, ("400 Bad Request", "INVALID_ARGUMENTS"))
    element = _element(task, name, str(signal.get("path", "")))
    if task.metadata.get("apiErrors") == "twilio":
        return twilio_error(task, name, element.get("field"))
    version = f"API version {task.metadata.get('schemaVersion', '?')}"
    field = element.get("field")
    if name in ("oldFieldName", "oldPaginationField"):
        replacement = element.get("replacement")
        fix = f"; use '{replacement}'" if isinstance(replacement, str) else ""
        text = f"unknown field '{field}'{fix} ({version})"
    elif name in ("missingNewRequired", "missingScope"):
        text = f"missing required field '{field}' ({version}); it takes {_schema_text(_field_schema(task, str(field)))}"
    elif name == "oldEnumValue":
        accepted = ", ".join(f"'{value}'" for value in element.get("newValues", []))
        text = f"invalid value '{signal.get('value')}' for '{field}'; {version} accepts {accepted}"
    elif name == "oldUnit":
        schema = _schema_text(element.get("currentSchema"))
        text = f"'{field}' changed in {version}: {element.get('change')}; it now takes {schema}"
    else:
        successors = element.get("replacements") or [element.get("replacement")]
        text = f"{signal.get('value')} was removed in {version}; use {' or '.join(str(s) for s in successors)}"
    return ToolError(code=code, message=f"{status}: {text}")


class DriftSimulator:
    """The API at its current version, behind a client that still has the previous tool list."""

    def __init__(self) -> None:
        self._task: Optional[Task] = None
        self._toolbox: Toolbox[DriftSimulator] = Toolbox()
        self._calls = 0
        self._accepted: Optional[JsonObject] = None

    def reset(self, task: Task, seed: int) -> EnvironmentStart:
        self._task = task
        self._calls = 0
        self._accepted = None
        self._toolbox = Toolbox()
        for tool in task.tools:
            self._toolbox.add(tool, _accepting(tool.name))
        previous = task.metadata.get("previousTools")
        shown = [_spec(t) for t in previous if isinstance(t, dict)] if isinstance(previous, list) else []
        system = SYSTEM_MESSAGE.format(
            title=task.metadata.get("apiTitle", "service"), version=task.metadata.get("previousVersion", "?")
        )
        return EnvironmentStart(system=system, tools=shown)

    def accept(self, name: str, arguments: dict[str, Any]) -> JsonValue:
        self._accepted = {"name": name, "arguments": arguments}
        return {"status": 200, "ok": True, "tool": name}

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        assert self._task is not None, "reset the simulator first"
        self._calls += 1
        signals = stale_signals(self._task, SubmittedCall(name=name, arguments=arguments, source="toolLog"))
        if signals:
            return ToolResult(error=drift_message(self._task, signals[0]))
        return self._toolbox.call(self, name, arguments)

    def state(self) -> JsonValue:
        return {"calls": self._calls, "accepted": self._accepted}

    def done(self) -> bool:
        return self._accepted is not None


def _accepting(name: str) -> Any:
    def handler(env: DriftSimulator, arguments: dict[str, Any]) -> JsonValue:
        return env.accept(name, arguments)

    return handler


def _spec(wire: dict[str, Any]) -> ToolSpec:
    return ToolSpec(
        name=str(wire.get("name", "")),
        description=str(wire.get("description", "")),
        parameters=dict(wire.get("parameters") or {}),
    )


# -- grading -----------------------------------------------------------------------------------------


def _as_call(entry: ToolLogEntry) -> SubmittedCall:
    return SubmittedCall(name=entry.name, arguments=entry.arguments, source="toolLog")


def _same(expected: Any, entry: ToolLogEntry) -> bool:
    try:
        return isinstance(expected, dict) and call_difference(expected, _as_call(entry)) is None
    except RecursionError:
        return False


def _refusal(log: list[ToolLogEntry]) -> Optional[int]:
    """The position of the first call the API refused as stale (a drift error), if any."""
    for position, entry in enumerate(log):
        if entry.error is not None and entry.error.code in DRIFT_CODES:
            return position
    return None


def _outcome(task: Task, log: list[ToolLogEntry], refused: Optional[int], passed: bool) -> tuple[str, str]:
    if not log:
        return NO_TOOL_CALL, "the episode made no tool call"
    last = log[-1]
    if passed:
        if refused is None:
            return EXACT_MATCH, f"{last.name} accepted with the expected arguments"
        error = log[refused].error
        code = error.code if error is not None else "?"
        return (
            ADAPTED,
            f"{last.name} accepted with the expected arguments after the API refused the stale call ({code})",
        )
    if _same(task.metadata.get("staleCall"), last):
        previous = task.metadata.get("previousVersion", "?")
        return STALE_SCHEMA_USED, f"the last call is exactly what schema {previous} asked for"
    expected = task.expected
    difference = call_difference(expected, _as_call(last)) if isinstance(expected, dict) else "no expected call"
    return MISMATCH, f"the last call differs from the expected one: {difference}"


def grade_drift(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    """Replay the episode's tool log in a fresh simulator and grade what the API answered.

    Passed: the last call is the expected one and the API accepted it. `adaptedAfterError`: it came
    after the API refused a stale call; `turnsToAdapt`: the calls from that first refusal to the
    accepted one (1 when the next call adapted); `staleRepeats`: how many times the exact stale call
    was sent again after the refusal.
    """
    env = ctx.environment() if ctx.environment is not None else DriftSimulator()
    played = replay(env, task, trace.tool_log or [], ctx.seed, limits=ctx.limits)
    log = played.tool_log
    refused = _refusal(log)
    after = log[refused + 1 :] if refused is not None else []
    repeats = sum(1 for entry in after if _same(task.metadata.get("staleCall"), entry))
    last = log[-1] if log else None
    passed = last is not None and last.error is None and _same(task.expected, last)
    adapted = passed and refused is not None
    outcome, reason = _outcome(task, log, refused, passed)
    if repeats:
        reason += f"; the stale call was repeated {repeats} time(s) after the error"
    if played.abort_detail:
        reason += f"; {played.abort_detail}"
    refusal = log[refused].error if refused is not None else None
    return TaskScore(
        score=1.0 if passed else 0.0,
        passed=passed,
        reason=f"{outcome}: {reason}",
        details={
            "mutationKind": DRIFT,
            "driftOf": task.metadata.get("driftOf"),
            "schemaVersion": task.metadata.get("schemaVersion"),
            "outcome": outcome,
            "staleSchemaUsed": outcome == STALE_SCHEMA_USED,
            "staleSignals": stale_signals(task, _as_call(last)) if last is not None else [],
            "calls": len(log),
            "driftError": refusal.code if refusal is not None else None,
            "adaptedAfterError": adapted,
            "turnsToAdapt": len(log) - 1 - refused if adapted and refused is not None else None,
            "staleRepeats": repeats,
            # As in native mode: no call, and an answer in words (an empty one says nothing).
            "declined": last is None and isinstance(trace.answer, str) and bool(trace.answer.strip()),
        },
    )
