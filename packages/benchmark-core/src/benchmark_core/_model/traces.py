"""What a model did on a task and the verdict on it: tool calls, tool results and the log of executed
calls, the `Trace` (the universal submission) and the grader's `TaskScore`."""

from __future__ import annotations

from typing import Optional

from attrs import Factory, field, frozen

from .tasks import MAY_BE_JSON_STRING, JsonObject, JsonValue


@frozen
class ToolCall:
    """One call a model asked for."""

    name: str
    arguments: JsonObject = field(factory=dict, metadata=MAY_BE_JSON_STRING)
    id: str = ""


@frozen
class ToolError:
    """A tool failure returned to the agent (never raised): unknown id, bad arguments, outages."""

    code: str
    message: str


@frozen
class ToolResult:
    """What an environment answers to a tool call: a result, or an error."""

    result: JsonValue = None
    error: Optional[ToolError] = None


@frozen
class ToolLogEntry:
    """One executed tool call, in order, with what the environment answered."""

    name: str
    arguments: JsonObject = Factory(dict)
    result: JsonValue = None
    error: Optional[ToolError] = None
    call_id: str = ""


@frozen
class Trace:
    """The universal submission: a final answer, the tool calls a model made, and the state it left.

    `tool_calls` carries calls a model made through native tool calling on a single task; episodes
    put executed calls in `tool_log` instead.
    """

    answer: JsonValue = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_log: Optional[list[ToolLogEntry]] = None
    final_state: JsonValue = None


@frozen
class TaskScore:
    """A grader's verdict on one trace. `score` is in [0, 1]; `details` is benchmark-defined."""

    score: float
    passed: bool
    reason: str
    details: JsonObject = Factory(dict)
