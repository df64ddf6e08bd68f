"""The generic core command line, bound to this benchmark (click's CliRunner; one real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmark_core import Task, create_cli, dump_task_file
from benchmark_schema_mutation import benchmark
from click.testing import CliRunner

CLI = create_cli(benchmark, "benchmark-schema-mutation")


def test_run_with_the_mock_prints_half_and_the_stale_rates() -> None:
    result = CliRunner().invoke(CLI, ["run", "--model", "offline", "--provider", "mock", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["mean"] == 0.5 and report["totals"]["tasks"] == 60
    assert report["staleSchemaUsedRate"] == 0.3 and report["staleSignalRate"] == 0.5


def test_run_markdown_ends_with_the_per_kind_table() -> None:
    result = CliRunner().invoke(CLI, ["run", "--model", "offline", "--provider", "mock", "--mode", "native"])
    assert result.exit_code == 0, result.output
    assert "Score: 50.0%" in result.stdout and "native mode" in result.stdout
    assert result.stdout.index("## Per mutation kind") > result.stdout.index("Score:")
    assert "| **all** | 60 | 30 | 50.0% | 18 (30.0%) | 30 (50.0%) |" in result.stdout


def test_list_show_and_alternate_tasks(tmp_path: Path, tasks: list[Task]) -> None:
    runner = CliRunner()
    listed = json.loads(runner.invoke(CLI, ["list", "--json"]).stdout)
    assert listed["count"] == 60
    shown = json.loads(runner.invoke(CLI, ["show", "sm-issues-split-endpoint", "--json"]).stdout)
    assert shown["metadata"]["mutationKind"] == "splitEndpoint" and len(shown["tools"]) == 2
    path = tmp_path / "few.jsonl"
    path.write_text(dump_task_file(tasks[:4]), encoding="utf-8")
    result = runner.invoke(CLI, ["run", "--model", "m", "--provider", "mock", "--tasks", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["tasks"] == 4
    missing = runner.invoke(CLI, ["show", "no-such-task", "--json"])
    assert missing.exit_code == 1
    assert json.loads(missing.stdout)["error"]["code"] == "TASK_NOT_FOUND"


def test_python_dash_m_runs_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "benchmark_schema_mutation", "list", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["benchmark"] == "benchmark-schema-mutation"
