"""Whole runs through the SDK with the offline mock, summaries, alternate task files, discovery."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, RunRow, Task, load_benchmark, mock_adapter
from benchmark_core.data import resolve_remote_tasks
from benchmark_core.errors import ConfigurationError, TaskNotFoundError, TasksNotAllowedError
from benchmark_core.reports import render_markdown
from benchmark_core.wire import dumps, to_wire
from benchmark_schema_mutation import (
    MUTATION_KINDS,
    TASKS_ALLOW_ENV,
    benchmark,
    run,
    run_async,
    score,
    score_async,
    summarize,
    summary_markdown,
)


def _mock_run(**options: Any) -> RunReport:
    return run(mock_adapter(policies=benchmark.mock_policies), **options)


@pytest.mark.parametrize("mode", ["prompt", "native"])
def test_mock_run_scores_exactly_half_with_stale_rates(mode: str) -> None:
    report = _mock_run(mode=mode)
    assert report.mode == mode
    assert report.mean == 0.5
    assert (report.totals.tasks, report.totals.passed, report.totals.failed) == (60, 30, 0)
    assert 0.0 < report.confidence_interval95.low < 0.5 < report.confidence_interval95.high < 1.0
    summary = report.summary
    assert 0.0 < summary["staleSchemaUsedRate"] < summary["staleSignalRate"]
    assert summary["staleSchemaUsedRate"] == 0.3 and summary["staleSignalRate"] == 0.5
    per_kind = summary["perMutationKind"]
    assert list(per_kind) == list(MUTATION_KINDS)
    assert all(entry["tasks"] == 12 and entry["passed"] == 6 for entry in per_kind.values())
    assert sum(entry["staleSchemaUsed"] for entry in per_kind.values()) == 18
    assert report.usage.prompt_tokens > 0 and report.usage.completion_tokens > 0
    for row in report.rows:
        assert {"mutationKind", "staleSchemaUsed", "staleSignals", "validAgainstCurrentSchema"} <= set(row.details)
        assert row.details["callSource"] == ("toolCalls" if mode == "native" else "answer")


def test_f19_prompt_is_the_default_mode_and_each_report_records_its_own() -> None:
    prompt, native = _mock_run(), _mock_run(mode="native")
    assert benchmark.answer_modes[0] == "prompt"
    assert (to_wire(prompt)["mode"], to_wire(native)["mode"]) == ("prompt", "native")
    assert all(row.details["callSource"] == "answer" for row in prompt.rows)
    assert all(row.details["callSource"] == "toolCalls" for row in native.rows)
    with pytest.raises(ConfigurationError, match="answer modes prompt, native"):
        _mock_run(mode="mixed")


def test_report_wire_form_carries_the_summary_at_the_top_level() -> None:
    wire = to_wire(_mock_run())
    keys = list(wire)
    for key in ("perMutationKind", "staleSchemaUsedRate", "staleSignalRate"):
        assert keys.index("usage") < keys.index(key) < keys.index("rows")
    assert wire["rows"][1]["details"]["mutationKind"] == "newRequired"


def _stable(report: RunReport) -> str:
    wire = to_wire(report)
    wire["startedAt"] = wire["finishedAt"] = ""
    for row in wire["rows"]:
        row["latencyMs"] = 0
    return json.dumps(wire, ensure_ascii=False)


def test_report_bytes_are_deterministic_apart_from_time() -> None:
    first, second = _mock_run(concurrency=8), _mock_run(concurrency=3)
    assert _stable(first) == _stable(second)
    assert dumps(first.rows[0].details) == dumps(second.rows[0].details)


def test_markdown_report_ends_with_the_per_kind_breakdown() -> None:
    report = _mock_run()
    text = render_markdown(report, benchmark)
    section = text[text.index("## Per mutation kind") :]
    assert "| **all** | 60 | 30 | 50.0% | 18 (30.0%) | 30 (50.0%) | 0 |" in section
    for kind in MUTATION_KINDS:
        assert f"| {kind} | 12 | 6 | 50.0% |" in section
    assert text.rstrip().endswith("had an earlier call that matched.")
    assert "Tool-call rate" not in text  # a prompt-mode report has no tool calls to count
    assert "| sm-issues-new-required |" in text[: text.index("## Per mutation kind")]


def test_summary_counts_errored_rows_and_handles_empty_runs(tasks: list[Task]) -> None:
    rows = [
        RunRow(
            task_id=tasks[0].id, score=0.0, passed=False, reason="error: down", attempts=3, latency_ms=1, error="down"
        ),
        RunRow(
            task_id=tasks[1].id,
            score=0.0,
            passed=False,
            reason="staleSchemaUsed: ...",
            attempts=1,
            latency_ms=1,
            details={"staleSchemaUsed": True, "staleSignals": [{"signal": "missingNewRequired"}]},
        ),
    ]
    summary = summarize(tasks[:2], rows)
    counts = {"severalCalls": 0, "anotherCallMatched": 0}
    assert summary["perMutationKind"] == {
        "renamedField": {"tasks": 1, "passed": 0, "staleSchemaUsed": 0, "withStaleSignals": 0, **counts},
        "newRequired": {"tasks": 1, "passed": 0, "staleSchemaUsed": 1, "withStaleSignals": 1, **counts},
    }
    assert summary["staleSchemaUsedRate"] == summary["staleSignalRate"] == 0.5
    assert summary["staleSignalCounts"]["missingNewRequired"] == 1
    empty = summarize([], [])
    assert empty["perMutationKind"] == {} and empty["staleSchemaUsedRate"] == 0.0
    report = _mock_run(task_ids=[tasks[0].id])
    assert "no per-kind breakdown" in summary_markdown(attrs.evolve(report, summary={}))
    # A report read back from a file may hold anything; what is not a count renders as 0.
    odd = {"perMutationKind": {"renamedField": {"tasks": 2, "passed": "1", "staleSchemaUsed": True}, "x": [1]}}
    text = summary_markdown(attrs.evolve(report, summary=odd))
    assert "| renamedField | 2 | 0 | 0.0% | 0 | 0 | 0 |" in text and "| x | 0 | 0 | n/a | 0 | 0 | 0 |" in text


def test_alternate_task_file_through_the_sdk(alternate_file: Path, alternate_tasks: list[Task]) -> None:
    report = _mock_run(tasks=alternate_file)
    assert [row.task_id for row in report.rows] == [task.id for task in alternate_tasks]
    assert report.totals.tasks == 5
    assert list(report.summary["perMutationKind"]) == list(MUTATION_KINDS)
    task = alternate_tasks[1]
    verdict = score(task.id, {"answer": json.dumps(task.metadata["staleCall"])}, tasks=alternate_file)
    assert verdict.details["outcome"] == "staleSchemaUsed"
    assert score(task.id, {"answer": json.dumps(task.expected)}, tasks=str(alternate_file)).passed
    with pytest.raises(TaskNotFoundError):
        score(task.id, {"answer": "{}"})


async def test_alternate_task_file_through_the_async_sdk(alternate_file: Path, alternate_tasks: list[Task]) -> None:
    report = await run_async(mock_adapter(policies=benchmark.mock_policies), tasks=alternate_file, mode="native")
    assert (report.mode, report.totals.tasks) == ("native", 5)
    task = alternate_tasks[0]
    verdict = await score_async(task.id, {"toolCalls": [task.expected]}, tasks=alternate_file)
    assert verdict.passed


def test_remote_surfaces_follow_the_allow_list(alternate_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert benchmark.tasks_allow_env == TASKS_ALLOW_ENV == "BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW"
    assert benchmark.data_dir is not None
    assert resolve_remote_tasks(benchmark, "tasks") == (benchmark.data_dir / "tasks.jsonl").resolve()
    monkeypatch.delenv(TASKS_ALLOW_ENV, raising=False)
    with pytest.raises(TasksNotAllowedError):
        resolve_remote_tasks(benchmark, str(alternate_file))
    monkeypatch.setenv(TASKS_ALLOW_ENV, str(alternate_file))
    assert resolve_remote_tasks(benchmark, str(alternate_file)) == alternate_file.resolve()


def test_the_entry_point_loads_this_benchmark() -> None:
    assert load_benchmark("benchmark-schema-mutation") is benchmark
    assert benchmark.distribution == "benchmark-schema-mutation"


def test_the_extended_split_runs_and_is_reported_per_kind() -> None:
    from benchmark_schema_mutation import EXTENDED_KINDS

    report = _mock_run(tasks="tasks-extended")
    assert report.totals.tasks == 36 and report.mean == 0.5
    per_kind = report.summary["perMutationKind"]
    assert list(per_kind) == list(EXTENDED_KINDS)
    for kind in EXTENDED_KINDS:
        assert per_kind[kind]["tasks"] == 12 and per_kind[kind]["passed"] == 6
        # The mock's wrong answers are the exact pre-migration calls, each with its signal.
        assert per_kind[kind]["staleSchemaUsed"] == 6 == per_kind[kind]["withStaleSignals"]
    counts = report.summary["staleSignalCounts"]
    assert counts["deprecatedTool"] == counts["missingScope"] == 6 and counts["oldPaginationField"] >= 6
    text = render_markdown(report, benchmark)
    assert "| deprecation | 12 | 6 | 50.0% | 6 | 6 | 0 |" in text


def test_per_kind_table_counts_answers_with_several_calls(tasks: list[Task]) -> None:
    def several(task: Task) -> str:
        return f"{json.dumps(task.expected)}\nPreviously: {json.dumps(task.metadata['staleCall'])}"

    policies = attrs.evolve(benchmark.mock_policies, bad_answer=several)
    report = run(mock_adapter(policies=policies), task_ids=[t.id for t in tasks[:10]])
    per_kind = report.summary["perMutationKind"]
    assert sum(entry["severalCalls"] for entry in per_kind.values()) == 5
    assert sum(entry["anotherCallMatched"] for entry in per_kind.values()) == 5
    assert "| **all** | 10 | 5 | 50.0% | 5 (50.0%) | 5 (50.0%) | 5 (5 matched earlier) |" in render_markdown(
        report, benchmark
    )
