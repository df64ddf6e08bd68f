"""Whole runs through core: the mock run, the report's subscores, the CLI, the plugin and allow-list."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from benchmark_core import JsonObject, RunReport, Task, load_benchmark, mock_adapter
from benchmark_core.cli import create_cli
from benchmark_core.data import dump_task_file, resolve_remote_tasks
from benchmark_core.errors import TasksNotAllowedError
from benchmark_core.reports import render_markdown
from benchmark_core.wire import to_wire
from benchmark_rollback_recovery import benchmark, generate, run
from benchmark_rollback_recovery._policies import CONTROL_FAILURES, INCIDENT_FAILURES, bad_mode
from click.testing import CliRunner

SUBSCORES = ("noticed", "repaired", "disclosed", "collateralFree", "collateralHits")


@pytest.fixture(scope="module")
def mock_report() -> RunReport:
    return run(mock_adapter(policies=benchmark.mock_policies))


def test_the_mock_run_sits_strictly_between_0_and_1(mock_report: RunReport) -> None:
    assert mock_report.mode == "native"
    assert 0.0 < mock_report.mean < 1.0
    ci = mock_report.confidence_interval95
    assert 0.0 < ci.low < mock_report.mean < ci.high < 1.0
    assert mock_report.totals.tasks == 48 and mock_report.totals.failed == 0
    assert [r.passed for r in mock_report.rows] == [i % 2 == 0 for i in range(48)]


def test_the_mock_run_is_deterministic(mock_report: RunReport) -> None:
    again = run(mock_adapter(policies=benchmark.mock_policies), concurrency=7)
    assert (again.mean, again.confidence_interval95, again.summary) == (
        mock_report.mean,
        mock_report.confidence_interval95,
        mock_report.summary,
    )
    assert [(r.task_id, r.score, r.reason, r.details) for r in again.rows] == [
        (r.task_id, r.score, r.reason, r.details) for r in mock_report.rows
    ]


def test_rows_carry_subscores_and_the_report_their_totals(mock_report: RunReport) -> None:
    for row in mock_report.rows:
        assert all(name in row.details for name in SUBSCORES), row.task_id
        assert row.episode is not None and row.episode.aborted is None
    totals = mock_report.summary["subscores"]
    assert list(totals) == list(SUBSCORES)
    for name in SUBSCORES[:4]:
        assert totals[name] == sum(1 for r in mock_report.rows if r.details[name] is True)
    assert totals["collateralHits"] == sum(r.details["collateralHits"] for r in mock_report.rows)
    assert 24 <= totals["repaired"] < 48 and totals["collateralHits"] > 0
    wire = to_wire(mock_report)
    assert list(wire).index("subscores") == list(wire).index("rows") - 1


def test_the_mock_plays_every_failure_mode(tasks: list[Task]) -> None:
    played = {bad_mode(task) for position, task in enumerate(tasks) if position % 2 == 1}
    assert played == set(INCIDENT_FAILURES) | set(CONTROL_FAILURES)


def test_the_markdown_report_has_the_subscore_table(mock_report: RunReport) -> None:
    text = render_markdown(mock_report, benchmark)
    assert "## Rollback recovery subscores" in text
    assert "| all tasks | 48 | 24 |" in text
    assert "| clean controls | 12 |" in text


def _cli_run(*options: str) -> JsonObject:
    result = CliRunner().invoke(
        create_cli(benchmark, "benchmark-rollback-recovery"),
        ["run", "--model", "offline", "--provider", "mock", "--json", *options],
    )
    assert result.exit_code == 0, result.output
    doc: JsonObject = json.loads(result.stdout)
    return doc


def test_cli_run_json_prints_mean_ci_totals_and_subscores_deterministically(mock_report: RunReport) -> None:
    doc = _cli_run()
    assert doc["mean"] == mock_report.mean == 0.5
    assert doc["confidenceInterval95"] == to_wire(mock_report.confidence_interval95)
    assert doc["totals"] == {"tasks": 48, "passed": 24, "failed": 0}
    assert doc["subscores"] == mock_report.summary["subscores"]
    assert "rows" not in doc
    again = _cli_run("--concurrency", "1")
    timestamps = ("startedAt", "finishedAt")
    assert {k: v for k, v in again.items() if k not in timestamps} == {
        k: v for k, v in doc.items() if k not in timestamps
    }


def test_cli_runs_an_alternate_task_file(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text(dump_task_file(generate(5, prefix="hid")[:6]), encoding="utf-8")
    doc = _cli_run("--tasks", str(hidden))
    assert doc["totals"] == {"tasks": 6, "passed": 3, "failed": 0}
    assert set(doc["subscores"]) == set(SUBSCORES)


def test_the_benchmark_is_an_installed_plugin() -> None:
    names = {ep.name: ep.value for ep in entry_points(group="benchmark_core.benchmarks")}
    assert names["benchmark-rollback-recovery"] == "benchmark_rollback_recovery:benchmark"
    assert load_benchmark("benchmark-rollback-recovery") is benchmark
    scripts = {ep.name: ep.value for ep in entry_points(group="console_scripts")}
    assert scripts["benchmark-rollback-recovery"] == "benchmark_rollback_recovery.cli:main"
    assert benchmark.tasks_allow_env == "RRB_TASKS_ALLOW"


def test_python_m_lists_the_tasks_without_importing_servers() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "benchmark_rollback_recovery", "list", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert listed["count"] == 48
    assert [t["id"] for t in listed["tasks"]][::47] == ["rrb-001", "rrb-048"]
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in done.stderr.splitlines()}
    assert "benchmark_rollback_recovery" in imported
    assert not imported & {"aiohttp", "mcp"}


def test_list_json_loads_no_grader_simulator_or_report_classes() -> None:
    # importtime does not log modules imported on first attribute access; sys.modules has them all.
    probe = (
        "import sys\n"
        "from benchmark_rollback_recovery.cli import main\n"
        "sys.argv = ['benchmark-rollback-recovery', 'list', '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print('MODULES', *sorted(sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout)["count"] == 48
    modules = next(line for line in done.stderr.splitlines() if line.startswith("MODULES ")).split()[1:]
    ours = {m.rpartition(".")[2] for m in modules if m.startswith("benchmark_rollback_recovery.")}
    assert ours <= {"__about__", "_definition", "_provenance", "cli"}
    heavy = ("_model_traces", "_model_chat", "_model_reports", "_hooks", "_runner", "adapters")
    assert [m for m in modules if m.startswith("benchmark_core.") and m.split(".")[1] in heavy] == []


def test_alternate_task_files_follow_the_allow_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text(dump_task_file(generate(7, prefix="hid")[:4]), encoding="utf-8")
    monkeypatch.delenv("RRB_TASKS_ALLOW", raising=False)
    with pytest.raises(TasksNotAllowedError, match="RRB_TASKS_ALLOW"):
        resolve_remote_tasks(benchmark, str(hidden))
    monkeypatch.setenv("RRB_TASKS_ALLOW", str(hidden))
    assert resolve_remote_tasks(benchmark, str(hidden)) == hidden.resolve()
    assert resolve_remote_tasks(benchmark, "tasks") == (benchmark.data_dir / "tasks.jsonl").resolve()  # type: ignore[operator]
    report = run(mock_adapter(policies=benchmark.mock_policies), tasks=str(hidden))
    assert [r.task_id for r in report.rows] == ["hid-001", "hid-002", "hid-003", "hid-004"]
    assert [r.passed for r in report.rows] == [True, False, True, False]


def test_cli_run_tasks_full_is_the_full_split_with_its_honesty_figures() -> None:
    # issue 18's "done when": `run --model offline --provider mock --tasks full --json`
    doc = _cli_run("--tasks", "full")
    assert doc["totals"] == {"tasks": 272, "passed": 136, "failed": 0} and doc["mean"] == 0.5
    assert doc["clusteredBy"] == "template" and doc["clusters"] == 29
    assert sum(g["tasks"] for g in doc["groups"]["store"].values()) == 272
    assert set(doc["groups"]["store"]) == {"contacts", "files", "messages", "calendar", "tracker"}
    assert doc["groups"]["scenario"]["control"]["tasks"] == 80
    assert {"irreparable", "silentFailure", "partial"} <= set(doc["groups"]["incidentKind"])
    interval = doc["falseAlarmInterval95"]
    assert doc["falseAlarmRate"] == interval["alarms"] / interval["controls"] and interval["controls"] == 80
    assert interval["low"] < doc["falseAlarmRate"] < interval["high"]
    assert isinstance(doc["honestyFailures"], int) and doc["honestyFailures"] > 0
    assert 0 < doc["irreparableDisclosedRate"] < 1
    # the figures are those of the rows: every claim the replay contradicts, every false alarm
    report = run(mock_adapter(), tasks="full")
    assert doc["honestyFailures"] == sum(row.details["honestyFailures"] for row in report.rows)
    assert interval["alarms"] == sum(1 for row in report.rows if row.details["falseAlarm"] is True)
    text = render_markdown(report, benchmark)
    assert f"- False alarms on clean controls: {interval['alarms']} of 80 (" in text
    assert f"- Honesty failures (report claims the replay contradicts): {doc['honestyFailures']}" in text
    assert "| incidents: calendar | 40 |" in text and "| incidents: tracker | 40 |" in text
