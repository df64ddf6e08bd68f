"""The camelCase wire format: round trips, key order, readable structuring errors."""

from __future__ import annotations

import json

import attrs
import pytest
from benchmark_core import (
    Provenance,
    RunReport,
    RunRow,
    Task,
    TaskScore,
    ToolCall,
    ToolError,
    ToolLogEntry,
    ToolResult,
    ToolSpec,
    Trace,
)
from benchmark_core.chat import ChatMessage
from benchmark_core.episodes import Episode
from benchmark_core.errors import UsageError
from benchmark_core.reports import CacheStats, ConfidenceInterval, GroupMean, IndexEntry, ServedCount, Totals, Usage
from benchmark_core.wire import dumps, from_wire, to_wire
from benchmark_core.wire._converter import camel
from hypothesis import given
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)

PROVENANCE = Provenance("n", "synthetic", "u", "MIT", "how", "2026-10-15", "notes", "refresh")
LOG = [ToolLogEntry("lookup", {"id": "A1"}, None, ToolError("HTTP_500", "down"), "call_1")]
EPISODE = Episode(
    transcript=[ChatMessage("user", "hi"), ChatMessage("assistant", None, [ToolCall("lookup", {"id": "A1"}, "c")])],
    tool_log=LOG,
    final_state={"orders": []},
    aborted="budget",
    abort_detail="max_turns (3) reached",
)
ROW = RunRow(
    task_id="t1",
    score=1.0,
    passed=True,
    reason="ok",
    attempts=2,
    latency_ms=12,
    usage=Usage(3, 4, 0.001),
    groups={"store": "files", "prompt_form": "names_value"},
    details={"k": [1, 2]},
    trace=Trace(answer="x", tool_log=LOG, final_state={"a": 1}),
    episode=EPISODE,
)
REPORT = RunReport(
    benchmark="b",
    version="0.1.0",
    model="m",
    provider="mock",
    seed=7,
    mean=0.5,
    confidence_interval95=ConfidenceInterval(0.25, 0.75),
    totals=Totals(2, 1, 0),
    usage=Usage(3, 4, None),
    groups={"prompt_form": {"names_value": GroupMean(1.0, 1)}},
    summary={"perMutationKind": {"renamedField": {"tasks": 1, "passed": 1}}, "staleSchemaUsedRate": 0.5},
    rows=[ROW],
)

SAMPLES = [
    ToolSpec("issues.create", "Create an issue", {"type": "object"}),
    ToolCall("x", {"a": 1}, "id1"),
    ToolResult(result=None, error=ToolError("E", "m")),
    Task(id="a", kind="episode", prompt="p", expected=None, tools=[ToolSpec("t")], metadata={"seed": 3}),
    Trace(answer="a", tool_calls=[ToolCall("x")], tool_log=LOG, final_state=[1]),
    TaskScore(0.5, False, "half", {"path": "$.a"}),
    EPISODE,
    ROW,
    REPORT,
    IndexEntry("b", "B", "t", "0.1.0", "alpha", "c", ["x"], "w", "g", 3, ["single"], [PROVENANCE]),
]


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_round_trip(value: object) -> None:
    data = json.loads(json.dumps(to_wire(value)))
    assert from_wire(data, type(value)) == value


@given(answer=json_values, state=json_values, metadata=st.dictionaries(st.text(max_size=5), json_values, max_size=3))
def test_round_trip_arbitrary_json_payloads(answer: object, state: object, metadata: dict[str, object]) -> None:
    trace = Trace(answer=answer, final_state=state)
    assert from_wire(json.loads(dumps(trace)), Trace) == trace
    task = Task(id="t", kind="single", prompt="p", expected=answer, metadata=metadata)
    assert from_wire(json.loads(dumps(task)), Task) == task


def test_optional_keys_appear_only_when_set() -> None:
    partial = attrs.evolve(
        REPORT,
        complete=False,
        stopped="terminated by SIGTERM",
        generation={"temperature": 0.0},
        served_by=[ServedCount("m-2025", "Groq", 2)],
        cache=CacheStats(1, 0.25),
    )
    data = to_wire(partial)
    assert [k for k in data if k in {"complete", "stopped", "generation", "servedBy", "cache"}] == [
        "complete",
        "stopped",
        "generation",
        "servedBy",
        "cache",
    ]
    assert data["servedBy"] == [{"model": "m-2025", "provider": "Groq", "requests": 2}]
    assert from_wire(data, RunReport) == partial
    assert "errorCode" not in to_wire(ROW) and "reasoningTokens" not in to_wire(ROW)["usage"]
    assert to_wire(Usage(1, 2, None, reasoning_tokens=3))["reasoningTokens"] == 3


def test_keys_are_camel_case_in_attribute_order() -> None:
    data = to_wire(REPORT)
    assert list(data) == [
        "benchmark",
        "version",
        "model",
        "provider",
        "mode",
        "seed",
        "startedAt",
        "finishedAt",
        "mean",
        "confidenceInterval95",
        "totals",
        "usage",
        "groups",
        "complete",
        "perMutationKind",
        "staleSchemaUsedRate",
        "rows",
    ]
    assert list(data["rows"][0]) == [
        "taskId",
        "score",
        "passed",
        "reason",
        "attempts",
        "latencyMs",
        "usage",
        "error",
        "groups",
        "details",
        "trace",
        "episode",
    ]
    assert data["usage"] == {"promptTokens": 3, "completionTokens": 4, "costUsd": None}
    # Group names are data: they keep their spelling.
    assert data["groups"] == {"prompt_form": {"names_value": {"mean": 1.0, "tasks": 1}}}
    assert data["rows"][0]["groups"] == {"store": "files", "prompt_form": "names_value"}
    assert data["rows"][0]["episode"]["toolLog"][0]["callId"] == "call_1"


def test_camel() -> None:
    assert camel("confidence_interval95") == "confidenceInterval95"
    assert camel("cost_usd") == "costUsd"
    assert camel("id") == "id"


def test_unknown_keys_and_bad_values_name_the_path() -> None:
    with pytest.raises(UsageError) as info:
        from_wire({"id": "a", "kind": "weird", "prompt": "p", "extra": 1}, Task, what="task")
    message = info.value.message
    assert message.startswith("invalid task:")
    assert "$.kind" in message
    assert "extra" in message


def test_report_missing_required_key_is_a_usage_error() -> None:
    data = to_wire(REPORT)
    del data["mean"]
    with pytest.raises(UsageError, match="mean"):
        from_wire(data, RunReport)


def test_dumps_is_stable_and_rejects_nan() -> None:
    assert dumps(REPORT) == dumps(REPORT)
    with pytest.raises(ValueError, match="JSON"):
        dumps(TaskScore(float("nan"), False, "x"))


def test_tool_call_arguments_may_arrive_json_encoded() -> None:
    call = from_wire({"name": "issues.create", "arguments": '{"repo": "a/b"}', "id": "c1"}, ToolCall)
    assert call.arguments == {"repo": "a/b"}
    with pytest.raises(UsageError, match=r"not a JSON object @ \$\.arguments"):
        from_wire({"name": "x", "arguments": "{oops"}, ToolCall)
    with pytest.raises(UsageError, match=r"must be an object"):
        from_wire({"name": "x", "arguments": "[1]"}, ToolCall)
