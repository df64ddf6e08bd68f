"""The package's docs say what the code does: docs/grading.md lists the failure modes before the code
that handles them and every failure mode has a test; the README's mock run and the grading example are
real output. The docs ship in the sdist next to the tests, not in the wheel."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import Trace
from benchmark_core.cli import create_cli
from benchmark_schema_mutation import OUTCOMES, STALE_SIGNALS, benchmark, generate_tasks, grade_call
from click.testing import CliRunner

PACKAGE = Path(__file__).resolve().parents[1]
GRADING = (PACKAGE / "docs" / "grading.md").read_text(encoding="utf-8")
README = (PACKAGE / "README.md").read_text(encoding="utf-8")
FAILURE_MODE_ROW = re.compile(r"^\| (F\d+) \|", re.MULTILINE)


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def test_grading_doc_lists_the_failure_modes_before_the_code() -> None:
    modes = GRADING.index("## 1. Failure modes")
    outcomes = GRADING.index("## 2. Outcomes")
    code = GRADING.index("## 3. The code that handles them")
    assert modes < outcomes < code
    listed = FAILURE_MODE_ROW.findall(_section(GRADING, "## 1. Failure modes"))
    assert listed == [f"F{n}" for n in range(1, len(listed) + 1)] and len(listed) >= 20
    handled = set(re.findall(r"\bF\d+\b", _section(GRADING, "## 3. The code that handles them")))
    assert set(listed) <= handled, sorted(set(listed) - handled, key=lambda f: int(f[1:]))


def test_every_failure_mode_has_a_test_named_for_it() -> None:
    names = "\n".join(path.read_text(encoding="utf-8") for path in Path(__file__).parent.glob("test_*.py"))
    proved = {f"F{n}" for prefix in re.findall(r"def test_((?:f\d+_)+)", names) for n in re.findall(r"\d+", prefix)}
    listed = set(FAILURE_MODE_ROW.findall(GRADING))
    assert listed <= proved, sorted(listed - proved, key=lambda f: int(f[1:]))


def test_the_grading_doc_details_example_is_real_output() -> None:
    """The `details` example: a feature request answered with the old enum value and a retyped title."""
    example = json.loads(GRADING.split("`details` on every row", 1)[1].split("```json\n", 1)[1].split("```", 1)[0])
    task = next(t for t in generate_tasks(1, "hidden") if t.id == "hid-issues-enum-change")
    answer = copy.deepcopy(task.metadata["staleCall"])
    answer["arguments"]["title"] = answer["arguments"]["title"].lower()
    assert grade_call(task, Trace(answer=json.dumps(answer))).details == example


@pytest.mark.parametrize(
    "command",
    [
        "benchmark-schema-mutation run --model offline --provider mock",
        "benchmark-schema-mutation run --model offline --provider mock --mode native",
        "benchmark-schema-mutation run --model offline --provider mock --tasks tasks-extended",
        "benchmark-schema-mutation run --model offline --provider mock --tasks full",
        "benchmark-schema-mutation run --model offline --provider mock --tasks real",
    ],
)
def test_the_readme_shows_the_real_mock_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's example runs are pasted from the command line; this keeps them current. A bare
    `--tasks` name is the shipped split even away from the package."""
    monkeypatch.chdir(tmp_path)
    block = README.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(create_cli(benchmark, "benchmark-schema-mutation"), command.split()[1:])
    assert result.exit_code == 0, result.output
    assert block.strip() == result.stdout.strip()


def test_the_readme_names_every_outcome_and_stale_signal() -> None:
    for name in (*OUTCOMES, *STALE_SIGNALS, "staleSchemaUsedRate", "staleSignalRate", "perMutationKind"):
        assert f"`{name}`" in README, name
        assert f"`{name}`" in GRADING or name == "perMutationKind", name


def test_the_readme_sdk_example_prints_what_it_shows() -> None:
    code = README.split("## SDK\n\n```python\n", 1)[1].split("\n```\n", 1)[0]
    shown = README.split("prints\n\n```text\n", 1)[1].split("```", 1)[0]
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == shown


def test_the_repository_readme_shows_the_real_main_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first command a newcomer copies prints what the repository README says it prints."""
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    command = "benchmark-schema-mutation run --model offline --provider mock"
    assert command in readme
    block = readme.split("```text\n# Schema Mutation\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(create_cli(benchmark, "benchmark-schema-mutation"), command.split()[1:])
    assert result.exit_code == 0, result.output
    assert "# Schema Mutation\n" + block == result.stdout


@pytest.mark.parametrize("script", ["mcp_client.py", "mcp_session.py"])
def test_the_surfaces_guides_mcp_clients_print_what_it_shows(script: str, tmp_path: Path) -> None:
    """docs/surfaces.md's two Python MCP clients (mcp 2.x `mcp.Client`, and the 1.x-style
    `stdio_client` + `ClientSession`), run as written against the installed command."""
    guide = (PACKAGE.parents[1] / "docs" / "surfaces.md").read_text(encoding="utf-8")
    code = guide.split(f'```python title="{script}"\n', 1)[1].split("```", 1)[0]
    shown = guide.split(f"$ python {script}\n", 1)[1].split("$ ", 1)[0].split("```", 1)[0]
    (tmp_path / script).write_text(code, encoding="utf-8")
    # The command as an activated venv finds it: this interpreter's scripts first on PATH.
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    done = subprocess.run(
        [sys.executable, script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
