"""The Markdown run report, the index entry and the provenance document."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest
from benchmark_core import Benchmark, Provenance, RunReport, RunRow, Task, mock_adapter, run
from benchmark_core.reports import ConfidenceInterval, Totals, Usage
from benchmark_core.reports._report import index_entry, provenance_markdown, render_markdown
from benchmark_core.wire import to_wire

MakeBenchmark = Callable[..., Benchmark]


def make_report(**overrides: Any) -> RunReport:
    rows = [
        RunRow(task_id="add-1", score=1.0, passed=True, reason="exact match: 42", attempts=1, latency_ms=12),
        RunRow(
            task_id="add-2",
            score=0.0,
            passed=False,
            reason='expected 7, got "a | b"\nsecond line',
            attempts=2,
            latency_ms=1534,
        ),
        RunRow(
            task_id="order-lookup",
            score=0.0,
            passed=False,
            reason="error: HTTP 500 (after 3 attempts)",
            attempts=3,
            latency_ms=20,
            error="HTTP 500 (after 3 attempts)",
        ),
    ]
    values: dict[str, Any] = {
        "benchmark": "tiny",
        "version": "0.0.1",
        "model": "vendor/model-x",
        "provider": "openrouter",
        "seed": 7,
        "mean": 1 / 3,
        "confidence_interval95": ConfidenceInterval(low=0.0, high=1.0),
        "totals": Totals(tasks=3, passed=1, failed=1),
        "usage": Usage(prompt_tokens=1200, completion_tokens=345, cost_usd=0.0123),
        "rows": rows,
    }
    values.update(overrides)
    return RunReport(**values)


EXPECTED_MARKDOWN = """\
# tiny

- Model: `vendor/model-x` (openrouter, prompt mode)
- Score: 33.3% (errored rows count as 0; 50.0% over the 2 completed rows)
- 95% CI: 0.0%–100.0%
- Tasks: 3 (1 passed, 1 errored)
- Tokens: 1,200 prompt, 345 completion
- Cost: $0.0123
- Seed: 7
- Version: 0.0.1

| Task | Score | Passed | Attempts | Latency | Reason |
| --- | ---: | :---: | ---: | ---: | --- |
| add-1 | 1.00 | yes | 1 | 12 ms | exact match: 42 |
| add-2 | 0.00 | no | 2 | 1,534 ms | expected 7, got "a \\| b" second line |
| order-lookup | 0.00 | error | 3 | 20 ms | error: HTTP 500 (after 3 attempts) |

## Errors

| Task | Code | Message |
| --- | --- | --- |
| order-lookup | ERROR | HTTP 500 (after 3 attempts) |
"""


def test_render_markdown_summary_and_table() -> None:
    assert render_markdown(make_report()) == EXPECTED_MARKDOWN


def test_render_markdown_is_deterministic() -> None:
    report = make_report()
    assert render_markdown(report) == render_markdown(report)


def test_render_markdown_omits_an_unknown_cost_and_shows_small_ones() -> None:
    unknown = render_markdown(make_report(usage=Usage(prompt_tokens=5, completion_tokens=6)))
    assert "Cost" not in unknown
    assert "- Tokens: 5 prompt, 6 completion\n" in unknown
    tiny = render_markdown(make_report(usage=Usage(prompt_tokens=5, completion_tokens=6, cost_usd=0.000042)))
    assert "- Cost: $0.000042\n" in tiny


def test_render_markdown_shows_timestamps_only_when_the_report_has_them() -> None:
    text = render_markdown(make_report(started_at="2026-10-15T00:00:00.000Z", finished_at="2026-10-15T00:01:00.000Z"))
    assert "- Started: 2026-10-15T00:00:00.000Z\n- Finished: 2026-10-15T00:01:00.000Z\n" in text
    assert "Started" not in render_markdown(make_report())


def test_render_markdown_keeps_hostile_text_inside_its_cell_and_code_span() -> None:
    row = RunRow(task_id="a|b", score=0.5, passed=True, reason="x\r\ny | z\rw", attempts=1, latency_ms=0)
    text = render_markdown(make_report(model="weird`model", rows=[row]))
    assert "- Model: ``weird`model`` (openrouter, prompt mode)\n" in text
    assert "| a\\|b | 0.50 | yes | 1 | 0 ms | x y \\| z w |\n" in text
    table = text.split("\n\n", 2)[2]
    assert all(line.startswith("| ") and line.endswith(" |") for line in table.splitlines())


def test_render_markdown_shortens_very_long_reasons() -> None:
    row = RunRow(task_id="t", score=0.0, passed=False, reason="x" * 5000, attempts=1, latency_ms=1)
    line = render_markdown(make_report(rows=[row])).splitlines()[-1]
    assert line.endswith("x… |")
    assert len(line) < 400


def test_the_errors_section_lists_each_errored_row_with_its_code_and_message_start_and_end() -> None:
    long = "upstream said: " + "word " * 400 + "and the cause: invalid_api_key"
    rows = [
        RunRow(task_id="a|1", epoch=2, score=0.0, passed=False, reason="", attempts=1, latency_ms=1, error=long,
               error_code="AUTHENTICATION_FAILED"),
        RunRow(task_id="b", score=1.0, passed=True, reason="ok", attempts=1, latency_ms=1),
        RunRow(task_id="c", score=0.0, passed=False, reason="", attempts=1, latency_ms=1, error="x | y\nz",
               error_code="GRADER_ERROR"),
    ]  # fmt: skip
    section = render_markdown(make_report(rows=rows)).split("\n## Errors\n\n", 1)[1].splitlines()
    first, second = section[2:]
    assert first.startswith("| a\\|1 (epoch 2) | AUTHENTICATION_FAILED | upstream said: word word")
    assert " word … word " in first and first.endswith(" word and the cause: invalid_api_key |") and len(first) < 1100
    assert second == "| c | GRADER_ERROR | x \\| y z |"
    assert "## Errors" not in render_markdown(make_report(rows=rows[1:2]))


def test_render_markdown_without_rows() -> None:
    text = render_markdown(make_report(rows=[], totals=Totals(tasks=0, passed=0, failed=0)))
    assert text.endswith("- Version: 0.0.1\n\nNo tasks were run.\n")


def test_render_markdown_uses_the_benchmark_name_and_appends_its_summary(make_benchmark: MakeBenchmark) -> None:
    def summary(report: RunReport) -> str:
        return f"## Per kind\n\n| kind | mean |\n| --- | ---: |\n| rename | {report.mean:.2f} |\n\n\n"

    plain = make_benchmark()
    with_summary = make_benchmark(summary_markdown=summary)
    report = make_report()
    assert render_markdown(report, plain) == EXPECTED_MARKDOWN.replace("# tiny\n", "# Tiny\n", 1)
    text = render_markdown(report, with_summary)
    assert text.startswith("# Tiny\n")
    assert text.endswith(
        "| order-lookup | ERROR | HTTP 500 (after 3 attempts) |\n"
        "\n## Per kind\n\n| kind | mean |\n| --- | ---: |\n| rename | 0.33 |\n"
    )


async def test_render_markdown_of_a_real_run(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark()
    report = await run(benchmark, mock_adapter(seed=3), seed=5)
    text = render_markdown(report, benchmark)
    table = [line for line in text.splitlines() if line.startswith("| t")]
    assert [line.split(" | ")[0] for line in table] == [f"| t{i}" for i in range(6)]
    assert [line.split(" | ")[2] for line in table] == ["yes", "no"] * 3
    assert "- Model: `offline` (mock, prompt mode)\n" in text
    assert "- Score: 50.0%\n" in text
    assert "- Tasks: 6 (3 passed, 0 errored)\n" in text
    assert "- Seed: 5\n" in text


# -- index_entry ---------------------------------------------------------------------------------


def test_index_entry_describes_the_benchmark(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark()
    entry = index_entry(benchmark)
    assert entry.id == "tiny"
    assert entry.task_count == 6
    assert entry.task_kinds == ["single"]
    assert entry.provenance == benchmark.provenance
    assert to_wire(entry) == {
        "id": "tiny",
        "name": "Tiny",
        "tagline": "A tiny benchmark for tests.",
        "version": "0.0.1",
        "status": "alpha",
        "category": "test",
        "tags": ["test"],
        "whatItMeasures": "Nothing real.",
        "gradingMethod": "Exact string match.",
        "taskCount": 6,
        "taskKinds": ["single"],
        "provenance": [to_wire(benchmark.provenance[0])],
    }


def test_index_entry_counts_given_tasks_and_orders_kinds(make_benchmark: MakeBenchmark) -> None:
    tasks = [
        Task(id="e", kind="episode", prompt="Do it."),
        Task(id="s", kind="single", prompt="Say it."),
        Task(id="e2", kind="episode", prompt="Again."),
    ]
    entry = index_entry(make_benchmark(), tasks)
    assert (entry.task_count, entry.task_kinds) == (3, ["single", "episode"])
    assert index_entry(make_benchmark(), []).task_kinds == []


def test_index_entry_lists_are_copies(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark()
    entry = index_entry(benchmark)
    entry.tags.append("changed")
    assert benchmark.tags == ["test"]


# -- provenance_markdown -------------------------------------------------------------------------

EXPECTED_PROVENANCE = """\
# Provenance: Tiny

This file is generated from the definition of the benchmark `tiny` by `benchmark_core.data.provenance_markdown`. \
Edit the definition, not this file.

## What it measures

Nothing real.

## Sources

### 1. test tasks

- Kind: synthetic
- URL: <https://example.invalid/tasks>
- Licence: MIT
- How to get it: Built in the test.
- Retrieved at: 2026-10-15T00:00:00Z
- Contamination notes: None.
- Refresh: Never.

## Grading method

Exact string match.
"""


def test_provenance_markdown_renders_the_records(make_benchmark: MakeBenchmark) -> None:
    assert provenance_markdown(make_benchmark()) == EXPECTED_PROVENANCE


def test_provenance_markdown_keeps_records_in_order_with_fields_in_a_fixed_order(
    make_benchmark: MakeBenchmark,
) -> None:
    second = Provenance(
        name="Hand-written controls",
        kind="human-written",
        url="data/controls.jsonl",
        licence="CC-BY-4.0",
        how_to_get="Read data/controls.jsonl.\r\nOr ask the maintainers.   \n",
        retrieved_at="",
        contamination_notes="Public.\n\nUse a hidden split for final comparisons.",
        refresh="Quarterly.",
    )
    benchmark = make_benchmark(provenance=[second, *make_benchmark().provenance])
    text = provenance_markdown(benchmark)
    assert (
        "### 1. Hand-written controls\n\n"
        "- Kind: human-written\n"
        "- URL: data/controls.jsonl\n"
        "- Licence: CC-BY-4.0\n"
        "- How to get it: Read data/controls.jsonl.\n"
        "  Or ask the maintainers.\n"
        "- Retrieved at: (not given)\n"
        "- Contamination notes: Public.\n"
        "\n"
        "  Use a hidden split for final comparisons.\n"
        "- Refresh: Quarterly.\n"
        "\n"
        "### 2. test tasks\n"
    ) in text
    labels = [line.split(":")[0] for line in text.splitlines() if line.startswith("- ")]
    order = ["- Kind", "- URL", "- Licence", "- How to get it", "- Retrieved at", "- Contamination notes", "- Refresh"]
    assert labels == order * 2


@pytest.mark.parametrize("grading", ["Exact match.\n\n\n", "\n  Exact match.  \r\n", "Exact match."])
def test_provenance_markdown_ends_with_exactly_one_newline(make_benchmark: MakeBenchmark, grading: str) -> None:
    text = provenance_markdown(make_benchmark(grading_method=grading))
    assert text.endswith("\n## Grading method\n\nExact match.\n")
    assert "\r" not in text
    assert all(line == line.rstrip() for line in text.splitlines())


def test_provenance_markdown_does_not_depend_on_the_version(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark()
    bumped = attrs.evolve(benchmark, version="9.9.9")
    assert provenance_markdown(bumped) == provenance_markdown(benchmark)
