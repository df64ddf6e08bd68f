"""`compare`: reports matched task by task, refused when they differ, verdicts, groups, and the CLI
output a user reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import attrs
import pytest
from benchmark_core import RunReport, RunRow, define_benchmark, mock_adapter
from benchmark_core._model import Provenance, Task, TaskScore, Trace
from benchmark_core.cli import create_cli
from benchmark_core.errors import DefinitionError, IncomparableReportsError
from benchmark_core.example import benchmark
from benchmark_core.reports import ConfidenceInterval, GroupMean, Totals, Usage
from benchmark_core.stats import compare_reports, render_comparison
from benchmark_core.wire import dumps
from click.testing import CliRunner, Result

CLI = create_cli(benchmark, "benchmark-core", umbrella=True)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(CLI, list(args), catch_exceptions=False)


def _report(
    scores: list[float],
    *,
    model: str = "m",
    ids: list[str] | None = None,
    benchmark: str = "benchmark-core-example",
    version: str = "0.1.0",
    mode: str = "prompt",
) -> RunReport:
    task_ids = ids if ids is not None else [f"t{i:03d}" for i in range(len(scores))]
    rows = [
        RunRow(
            task_id=task_id,
            score=score,
            passed=score == 1.0,
            reason="",
            attempts=1,
            latency_ms=0,
            groups={"half": "early" if i < len(scores) // 2 else "late"},
        )
        for i, (task_id, score) in enumerate(zip(task_ids, scores))
    ]
    return RunReport(
        benchmark=benchmark,
        version=version,
        mode=mode,
        model=model,
        provider="mock",
        seed=1,
        mean=sum(scores) / len(scores),
        confidence_interval95=ConfidenceInterval(0.0, 1.0),
        totals=Totals(len(scores), sum(1 for s in scores if s == 1.0), 0),
        usage=Usage(),
        rows=rows,
    )


def test_a_report_against_itself_shows_no_difference(tmp_path: Path) -> None:
    report = benchmark.run(mock_adapter())
    path = tmp_path / "run.json"
    path.write_text(dumps(report, indent=2))
    result = invoke("compare", str(path), str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    diff = data["differences"][0]
    assert diff["meanDifference"] == 0.0
    assert diff["confidenceInterval95"] == {"low": 0.0, "high": 0.0}
    assert diff["verdict"] == "no detectable difference"
    assert diff["mcnemar"] == {"onlyFirst": 0, "onlySecond": 0, "pValue": 1.0}
    assert diff["summary"] == (
        f"{path} #2 - {path} = +0.0 points (95% CI +0.0 to +0.0), p = 1.00: no detectable difference"
    )
    # The run's own interval, recomputed over the compared tasks, is the report's.
    run = data["runs"][0]
    assert run["confidenceInterval95"] == {
        "low": report.confidence_interval95.low,
        "high": report.confidence_interval95.high,
    }


def test_a_clear_improvement_is_called_better_with_its_figures() -> None:
    first = _report([1.0] * 50 + [0.0] * 150, model="a")
    second = _report([1.0] * 50 + [0.0] * 50 + [1.0] * 40 + [0.0] * 60, model="b")
    comparison = compare_reports([first, second])
    diff = comparison.differences[0]
    assert diff.mean_difference == pytest.approx(0.2)
    assert diff.verdict == "better"
    assert diff.mcnemar is not None and (diff.mcnemar.only_first, diff.mcnemar.only_second) == (0, 40)
    assert diff.summary.startswith("b - a = +20.0 points (95% CI +")
    assert diff.summary.endswith("p < 0.001: b is better")
    assert 0.13 < diff.confidence_interval95.low < 0.2 < diff.confidence_interval95.high < 0.27
    # Per group: the first half of the tasks did not change, the second half gained 40 of 100.
    early, late = diff.groups["half"]["early"], diff.groups["half"]["late"]
    assert (early.tasks, early.mean_difference, early.confidence_interval95) == (100, 0.0, ConfidenceInterval(0.0, 0.0))
    assert (late.tasks, late.first_mean, late.second_mean) == (100, 0.0, 0.4)
    worse = compare_reports([second, first]).differences[0]
    assert worse.verdict == "worse" and worse.summary.endswith("a is worse")


def test_partial_credit_scores_have_no_mcnemar_test() -> None:
    first = _report([0.5, 0.25, 1.0, 0.0] * 10)
    second = _report([0.5, 0.5, 1.0, 0.0] * 10, model="n")
    diff = compare_reports([first, second]).differences[0]
    assert diff.mcnemar is None and "p =" not in diff.summary
    assert diff.mean_difference == pytest.approx(0.0625)


def test_three_reports_get_a_leaderboard_sorted_by_mean() -> None:
    reports = [_report([1.0] * k + [0.0] * (30 - k), model=f"m{k}") for k in (10, 25, 15)]
    comparison = compare_reports(reports)
    assert comparison.leaderboard == ["m25", "m15", "m10"]
    text = render_comparison(comparison)
    board = text.index("## Leaderboard")
    assert board < text.index("## m25 vs m10") < text.index("## m15 vs m10")
    assert "| 1 | m25 | m25 | 83.3% |" in text
    assert compare_reports(reports[:2]).leaderboard is None


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"benchmark": "other"}, "different benchmarks (other vs benchmark-core-example)"),
        ({"version": "0.2.0"}, "different benchmark versions (0.2.0 vs 0.1.0)"),
        ({"mode": "native"}, "different answer modes (native vs prompt)"),
    ],
)
def test_reports_of_different_benchmarks_versions_or_modes_are_refused(changes: dict[str, Any], reason: str) -> None:
    other = attrs.evolve(_report([1.0, 0.0], model="x"), **changes)
    with pytest.raises(IncomparableReportsError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        compare_reports([_report([1.0, 0.0]), other], allow_different_tasks=True)


def test_different_task_sets_are_refused_unless_allowed() -> None:
    first = _report([1.0, 0.0, 1.0, 0.0], ids=["a", "b", "c", "d"])
    second = _report([1.0, 1.0, 1.0], ids=["a", "b", "e"], model="x")
    with pytest.raises(IncomparableReportsError) as info:
        compare_reports([first, second])
    assert info.value.message == (
        "x has 1 task(s) that m lacks (e); x lacks 2 of m's tasks (c, d); "
        "to compare only the 2 task(s) they share, allow different tasks (--allow-different-tasks)"
    )
    comparison = compare_reports([first, second], allow_different_tasks=True)
    assert comparison.tasks == 2 and comparison.not_compared == {"m": 2, "x": 1}
    assert comparison.differences[0].mean_difference == 0.5
    assert "- Tasks compared: 2 shared by every run (left out: m 2, x 1)" in render_comparison(comparison)
    with pytest.raises(IncomparableReportsError, match="share no task"):
        compare_reports([first, _report([1.0], ids=["z"], model="y")], allow_different_tasks=True)


def test_duplicate_task_rows_are_refused() -> None:
    with pytest.raises(IncomparableReportsError, match="task 'a' twice"):
        compare_reports([_report([1.0, 0.0], ids=["a", "a"]), _report([1.0, 0.0], ids=["a", "b"], model="x")])


def _write(path: Path, report: RunReport) -> str:
    path.write_text(dumps(report, indent=2))
    return str(path)


def test_cli_refuses_with_exit_1_and_the_reason(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", _report([1.0, 0.0, 1.0]))
    b = _write(tmp_path / "b.json", _report([1.0, 0.0], model="x"))
    other = _write(tmp_path / "o.json", _report([1.0, 0.0, 1.0], benchmark="benchmark-rollback-recovery"))
    result = invoke("compare", a, b, "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "INCOMPARABLE_REPORTS" and "lacks 1 of" in error["message"]
    plain = invoke("compare", a, b)
    assert plain.exit_code == 1 and plain.stdout == "" and "--allow-different-tasks" in plain.stderr
    assert "Traceback" not in plain.stderr
    foreign = invoke("compare", a, other)
    assert foreign.exit_code == 1 and "is a report of benchmark 'benchmark-rollback-recovery'" in foreign.stderr
    assert invoke("compare", a).exit_code == 1
    assert invoke("compare", a, str(tmp_path / "missing.json")).exit_code == 1
    allowed = invoke("compare", a, b, "--allow-different-tasks")
    assert allowed.exit_code == 0 and "- Tasks compared: 2 shared by every run (left out:" in allowed.stdout


def test_cli_prints_and_writes_the_same_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Short relative names: table cells shorten long labels, and a temporary folder's path is long.
    monkeypatch.chdir(tmp_path)
    a = _write(Path("a.json"), _report([1.0] * 30 + [0.0] * 30))
    b = _write(Path("b.json"), _report([1.0] * 45 + [0.0] * 15, model="x"))
    out = tmp_path / "cmp" / "comparison.md"
    result = invoke("compare", a, b, "--markdown", str(out), "--seed", "3", "--resamples", "500")
    assert result.exit_code == 0
    assert out.read_text(encoding="utf-8") == result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == "# Comparison: benchmark-core-example 0.1.0, prompt mode"
    assert (
        "- Paired bootstrap over tasks: 500 resamples, seed 3; exact McNemar test when every score is pass/fail"
        in lines
    )
    assert any(
        line.startswith(f"**{b} - {a} = +25.0 points (95% CI +") and line.endswith(f"{b} is better**") for line in lines
    )
    assert f"- McNemar: 0 task(s) passed only in {a}, 15 only in {b}; p < 0.001" in lines
    assert "| half | late | 30 | 0.0% | 50.0% | +50.0 |" in result.stdout
    data = json.loads(invoke("compare", a, b, "--json", "--seed", "3", "--resamples", "500").stdout)
    assert data["resamples"] == 500 and data["differences"][0]["verdict"] == "better"


def test_reports_carry_group_means_in_declared_order() -> None:
    tasks = [
        Task(
            id=f"q{i}",
            kind="single",
            prompt=f"say {i}",
            expected=str(i),
            metadata={"size": "big" if i % 3 else "small"},
        )
        for i in range(6)
    ]

    def grade(task: Task, trace: Trace, ctx: object) -> TaskScore:
        ok = trace.answer == task.expected
        return TaskScore(1.0 if ok else 0.0, ok, "")

    bench = define_benchmark(
        id="grouped",
        name="Grouped",
        tagline="t",
        tags=[],
        category="c",
        what_it_measures="w",
        version="1",
        status="alpha",
        grade=grade,
        provenance=[Provenance("n", "synthetic", "u", "MIT", "h", "r", "c", "f")],
        grading_method="g",
        tasks=tasks,
        groups=lambda task: {
            "size": str(task.metadata["size"]),
            "parity": "even" if int(task.id[1:]) % 2 == 0 else "odd",
        },
    )
    report = bench.run(mock_adapter())
    # The mock answers even positions well: q0, q2, q4 pass.
    assert list(report.groups) == ["size", "parity"]
    assert report.groups["parity"] == {"even": GroupMean(1.0, 3), "odd": GroupMean(0.0, 3)}
    assert list(report.groups["size"]) == ["big", "small"]
    assert report.groups["size"]["small"] == GroupMean(0.5, 2)
    assert report.rows[3].groups == {"size": "small", "parity": "odd"}
    broken = attrs.evolve(bench, groups=cast(Any, lambda task: {"size": 3}))
    with pytest.raises(DefinitionError, match="groups of task 'q0' must map dimension names to group names"):
        broken.run(mock_adapter())
