"""How the offline mock answers: right on even task positions, wrong on odd ones (core's rule).

The wrong half is made of the two ways a memorised schema leaks into an answer, so that a mock run
shows a non-zero `staleSchemaUsedRate` and a larger `staleSignalRate`:

- where the migration renamed or removed a field (`renamedField`, `splitEndpoint`), a half-adapted
  call: the current call plus the old field with its old value, as a model that adapted the call
  but kept a memorised argument would write it (stale signals, but not the exact stale call);
- everywhere else, the exact pre-migration call (`staleSchemaUsed`).

Good text answers come wrapped in prose and a code fence, as chat models often write them, so the
mock exercises the grader's extraction too.

On a control of the real split (an additive change) the old call is still right, so the bad answer
adds the new optional parameter with an invented value instead (`over_adapted_call`).

On a noCall task the good answer declines (the decline object; no tool call in native mode) and the
bad one makes the pre-migration call. In a drift episode both scripts first send the stale call the
client's tools describe; after the API's error the good script sends the expected call, the bad one
repeats the stale call once and gives up.
"""

from __future__ import annotations

import json
from typing import Any

from benchmark_core import JsonObject, MockPolicies, ScriptedTurn, Task, ToolCall, mulberry32

from ._real_values import value_for


def _call(value: Any) -> JsonObject:
    return value if isinstance(value, dict) else {"name": "", "arguments": {}}


def _old_fields(task: Task) -> list[str]:
    """Fields the migration renamed or removed (the `oldFieldName` elements of the task)."""
    elements = task.metadata.get("mutatedElements")
    if not isinstance(elements, list):
        return []
    return [
        e["field"]
        for e in elements
        if isinstance(e, dict) and e.get("signal") == "oldFieldName" and isinstance(e.get("field"), str)
    ]


def half_adapted_call(task: Task) -> JsonObject:
    """The expected call plus every old field name (renamed or removed) with its stale value."""
    expected = _call(task.expected)
    stale_arguments = _call(task.metadata.get("staleCall")).get("arguments", {})
    arguments = dict(expected.get("arguments", {}))
    for field in _old_fields(task):
        if field in stale_arguments:
            arguments[field] = stale_arguments[field]
    return {"name": expected.get("name"), "arguments": arguments}


def over_adapted_call(task: Task) -> JsonObject:
    """A control's wrong call: the old call, still right, plus the new optional parameter with an
    invented value, as a model that "adapts" without need writes it."""
    expected = _call(task.expected)
    field = task.metadata.get("addedField")
    schema: Any = {}
    for tool in task.tools:
        schema = tool.parameters.get("properties", {}).get(field, schema)
    invented = value_for(str(field), schema if isinstance(schema, dict) else {}, mulberry32(0))
    return {"name": expected.get("name"), "arguments": {**expected.get("arguments", {}), str(field): invented}}


def bad_call(task: Task) -> JsonObject:
    """The mock's wrong call: over-adapted on a control, half-adapted where a field was renamed or
    removed, else the stale call."""
    if task.metadata.get("mutationKind") == "control":
        return over_adapted_call(task)
    return half_adapted_call(task) if _old_fields(task) else _call(task.metadata.get("staleCall"))


def _no_call(task: Task) -> bool:
    return task.metadata.get("mutationKind") == "noCall"


def good_answer(task: Task) -> str:
    if _no_call(task):
        return json.dumps(task.expected, ensure_ascii=False)
    text = json.dumps(_call(task.expected), ensure_ascii=False)
    return f"Here is the call for the current schema:\n\n```json\n{text}\n```\n"


def bad_answer(task: Task) -> str:
    return json.dumps(bad_call(task), ensure_ascii=False)


def _as_tool_calls(call: JsonObject) -> list[ToolCall]:
    return [ToolCall(name=str(call.get("name")), arguments=dict(call.get("arguments", {})))]


def good_calls(task: Task) -> list[ToolCall]:
    return [] if _no_call(task) else _as_tool_calls(_call(task.expected))


def bad_calls(task: Task) -> list[ToolCall]:
    return _as_tool_calls(bad_call(task))


def good_script(task: Task) -> list[ScriptedTurn]:
    """Drift episode, good: the stale call, then (after the API's error) the expected call."""
    stale = _as_tool_calls(_call(task.metadata.get("staleCall")))
    return [ScriptedTurn(tool_calls=stale), ScriptedTurn(tool_calls=_as_tool_calls(_call(task.expected)))]


def bad_script(task: Task) -> list[ScriptedTurn]:
    """Drift episode, bad: the stale call twice, then a final answer without the adapted call."""
    stale = _as_tool_calls(_call(task.metadata.get("staleCall")))
    return [
        ScriptedTurn(tool_calls=stale),
        ScriptedTurn(tool_calls=stale),
        ScriptedTurn.say("The API keeps refusing the call."),
    ]


MOCK_POLICIES = MockPolicies(
    good_answer=good_answer,
    bad_answer=bad_answer,
    good_calls=good_calls,
    bad_calls=bad_calls,
    good_script=good_script,
    bad_script=bad_script,
)
