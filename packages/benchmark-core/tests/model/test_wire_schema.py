"""JSON Schemas derived from the model agree with what the wire converter emits and accepts."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # installed with mcp, which validates with it
import pytest
from benchmark_core import RunReport, Task, TaskScore, Trace, mock_adapter
from benchmark_core.errors import UsageError
from benchmark_core.example import benchmark as example
from benchmark_core.reports import IndexEntry
from benchmark_core.reports._report import index_entry
from benchmark_core.wire import from_wire, to_wire
from benchmark_core.wire._schema import wire_schema


def _valid(schema: dict[str, Any], data: Any) -> bool:
    jsonschema.Draft202012Validator.check_schema(schema)
    return not list(jsonschema.Draft202012Validator(schema).iter_errors(data))


async def test_outgoing_documents_match_their_schemas() -> None:
    report = await example.run_async(mock_adapter(policies=example.mock_policies), seed=2)
    tasks = await example.load_tasks()
    assert _valid(wire_schema(RunReport), to_wire(report))
    assert all(_valid(wire_schema(Task), to_wire(task)) for task in tasks)
    assert all(_valid(wire_schema(Trace), to_wire(row.trace)) for row in report.rows)
    assert _valid(wire_schema(IndexEntry), to_wire(index_entry(example, tasks)))
    assert _valid(wire_schema(TaskScore), to_wire(TaskScore(0.5, False, "half", {"k": [1]})))


def test_outgoing_documents_require_every_key_and_incoming_ones_only_those_without_defaults() -> None:
    assert wire_schema(Trace)["required"] == ["answer", "toolCalls", "toolLog", "finalState"]
    assert wire_schema(Trace, incoming=True)["required"] == []
    assert wire_schema(Task, incoming=True)["required"] == ["id", "kind", "prompt"]


def test_a_run_report_allows_its_summary_fields_at_the_top_level() -> None:
    schema = wire_schema(RunReport)
    assert "summary" not in schema["properties"]
    assert schema["additionalProperties"] is True
    assert wire_schema(Task)["additionalProperties"] is False


@pytest.mark.parametrize(
    "submission",
    [
        {},
        {"answer": "1"},
        {"answer": {"any": ["json"]}, "finalState": None},
        {"toolLog": [{"name": "f", "arguments": {"x": 1}, "error": {"code": "E", "message": "m"}}]},
        {"toolCalls": [{"name": "f"}]},
        {"answr": "1"},
        {"toolLog": [{"arguments": {}}]},
        {"toolLog": [{"name": "f", "error": {"code": "E"}}]},
        {"toolCalls": [{"name": "f", "extra": 1}]},
    ],
)
def test_the_incoming_trace_schema_agrees_with_the_converter(submission: dict[str, Any]) -> None:
    try:
        from_wire(submission, Trace)
        accepted = True
    except UsageError:
        accepted = False
    assert _valid(wire_schema(Trace, incoming=True), submission) is accepted


def test_only_attrs_classes_have_wire_schemas() -> None:
    with pytest.raises(TypeError):
        wire_schema(dict)
