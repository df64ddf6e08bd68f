"""The generic core command line, bound to this benchmark (click's CliRunner; real subprocesses for the
console script and `python -m`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import Task
from benchmark_core.cli import create_cli
from benchmark_schema_mutation import benchmark
from click.testing import CliRunner, Result

CLI = create_cli(benchmark, "benchmark-schema-mutation")
MOCK_RUN = ["run", "--model", "offline", "--provider", "mock"]


def invoke(*arguments: str) -> Result:
    return CliRunner().invoke(CLI, list(arguments))


def test_the_mock_run_prints_half_its_interval_sixty_tasks_and_the_stale_rates() -> None:
    result = invoke(*MOCK_RUN)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "- Model: `offline` (mock, prompt mode)" in text
    assert "- Score: 50.0%" in text
    clustered = r" \(resampling 12 baseSchema clusters, each with all its tasks\)"
    assert re.search(r"^- 95% CI: \d+\.\d%–\d+\.\d%" + clustered + "$", text, re.MULTILINE)
    assert "- Tasks: 60 (30 passed, 0 errored)" in text
    assert text.index("## Per mutation kind") > text.index("- Score:")
    assert "| **all** | 60 | 30 | 50.0% | 18 (30.0%) | 30 (50.0%) |" in text


def test_json_run_in_native_mode_has_the_summary_fields() -> None:
    result = invoke(*MOCK_RUN, "--mode", "native", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["mode"], report["mean"], report["totals"]["tasks"]) == ("native", 0.5, 60)
    assert report["staleSchemaUsedRate"] == 0.3 and report["staleSignalRate"] == 0.5
    assert "rows" not in report


def test_every_command_takes_an_alternate_task_file(
    tmp_path: Path, alternate_file: Path, alternate_tasks: list[Task]
) -> None:
    tasks = ["--tasks", str(alternate_file)]
    listed = json.loads(invoke("list", *tasks, "--json").stdout)
    assert [t["id"] for t in listed["tasks"]] == [t.id for t in alternate_tasks]
    shown = json.loads(invoke("show", alternate_tasks[3].id, *tasks, "--json").stdout)
    assert shown["metadata"]["mutationKind"] == "splitEndpoint" and len(shown["tools"]) == 2
    assert json.loads(invoke("index-entry", *tasks, "--json").stdout)["taskCount"] == 5
    assert invoke("provenance", *tasks).exit_code == 0

    report_path = tmp_path / "report.json"
    ran = invoke(*MOCK_RUN, *tasks, "--json", "--output", str(report_path))
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.stdout)["totals"]["tasks"] == 5
    regraded = json.loads(invoke("score", str(report_path), *tasks, "--json").stdout)
    assert (regraded["count"], regraded["changed"]) == (5, 0)
    assert invoke("card", str(report_path), str(tmp_path / "card.svg"), *tasks).exit_code == 0

    submissions = tmp_path / "submissions.jsonl"
    submissions.write_text(
        "".join(
            json.dumps({"taskId": t.id, "submission": {"answer": json.dumps(t.metadata["staleCall"])}}) + "\n"
            for t in alternate_tasks
        ),
        encoding="utf-8",
    )
    scored = json.loads(invoke("score", str(submissions), *tasks, "--json").stdout)
    assert [r["details"]["outcome"] for r in scored["results"]] == ["staleSchemaUsed"] * 5
    # Without --tasks the ids are unknown: the shipped split is the default.
    missing = invoke("score", str(submissions), "--json")
    assert missing.exit_code == 1
    assert json.loads(missing.stdout)["error"]["code"] == "TASK_NOT_FOUND"


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_servers_refuse_a_bad_task_file_before_starting(command: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    result = invoke(command, "--tasks", str(bad), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "INVALID_TASK_FILE"


def test_unknown_tasks_and_modes_are_usage_errors() -> None:
    missing = invoke("show", "no-such-task", "--json")
    assert missing.exit_code == 1
    assert json.loads(missing.stdout)["error"]["code"] == "TASK_NOT_FOUND"
    bad_mode = invoke(*MOCK_RUN, "--mode", "both", "--json")
    assert bad_mode.exit_code == 1
    assert json.loads(bad_mode.stdout)["error"]["code"] == "INVALID_USAGE"


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=120, check=False)


def test_python_dash_m_and_the_console_script_run_the_command_line() -> None:
    result = _run(sys.executable, "-m", "benchmark_schema_mutation", "list", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["benchmark"] == "benchmark-schema-mutation"
    script = shutil.which("benchmark-schema-mutation", path=str(Path(sys.executable).parent))
    assert script is not None, "the console script is not installed next to this interpreter"
    result = _run(script, "show", "sm-issues-renamed-field", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["metadata"]["schemaVersion"] == "4.0.0"


def test_list_json_imports_neither_the_grader_nor_the_schema_tables() -> None:
    # Nor the native messages, nor core's trace, chat and report classes: see tools/bench_startup.py.
    probe = (
        "import sys\n"
        "from benchmark_schema_mutation.cli import main\n"
        "sys.argv = ['benchmark-schema-mutation', 'list', '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "names = ('grader', 'schemas', 'held_out', 'mutations', 'summary', 'policies', 'native')\n"
        "core = ('_model_traces', '_model_chat', '_model_reports', '_hooks', '_runner', 'adapters')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('benchmark_schema_mutation.')\n"
        "                and m.rpartition('.')[2].lstrip('_') in names)\n"
        "loaded += sorted(m for m in sys.modules if m.startswith('benchmark_core.') and m.split('.')[1] in core)\n"
        "print(loaded, file=sys.stderr)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    result = _run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout)["count"] == 60
    # The deferred grader is still the grader: scoring through the same package loads and uses it.
    probe = (
        "import sys\n"
        "from benchmark_schema_mutation import benchmark\n"
        "verdict = benchmark.score('sm-issues-renamed-field', {'answer': 'no call here'})\n"
        "print(verdict.passed, 'benchmark_schema_mutation._grader' in sys.modules)\n"
    )
    result = _run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["False", "True"]


def test_list_show_and_help_import_neither_aiohttp_nor_mcp() -> None:
    probe = (
        "import sys\n"
        "from benchmark_schema_mutation.cli import main\n"
        "for argv in (['list'], ['show', 'sm-issues-renamed-field'], ['--help']):\n"
        "    sys.argv = ['benchmark-schema-mutation', *argv]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code == 0, exc.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('aiohttp', 'mcp'))\n"
        "print(heavy, file=sys.stderr)\n"
        "sys.exit(1 if heavy else 0)\n"
    )
    result = _run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr[-2000:]
