"""A benchmark defined in one Python file, addressed with `--benchmark path/to/file.py:NAME`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ONE_FILE = """\
from benchmark_core import Provenance, Task, TaskScore, Trace, GradeContext, define_benchmark


def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    right = (trace.answer or "").strip() == task.expected
    return TaskScore(1.0 if right else 0.0, right, "right" if right else "wrong")


quick = define_benchmark(
    id="quick-idea", name="Quick idea", tagline="Tried before packaging.", tags=[], category="test",
    what_it_measures="Echoing a word.", version="0.0.1", status="alpha", grading_method="Exact match.",
    provenance=[Provenance("hand-written", "synthetic", "-", "MIT", "in the file", "2026", "none", "never")],
    tasks=[Task(id=f"w{n}", kind="single", prompt=f"Say w{n}.", expected=f"w{n}") for n in range(4)],
    grade=grade,
)
helper = 42
"""


BAD_ID = 'quick = define_benchmark(**{**options, "id": "Bad Id"})\n'


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


@pytest.fixture
def idea(tmp_path: Path) -> Path:
    (tmp_path / "ideas").mkdir()
    path = tmp_path / "ideas" / "idea.py"
    path.write_text(ONE_FILE, encoding="utf-8")
    return path


def test_every_command_addresses_a_file_benchmark(idea: Path) -> None:
    spec = "ideas/idea.py:quick"
    cwd = idea.parent.parent
    listed = _cli(cwd, "--benchmark", spec, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [t["id"] for t in json.loads(listed.stdout)["tasks"]] == ["w0", "w1", "w2", "w3"]
    ran = _cli(
        cwd, "--benchmark", spec, "run", "--model", "offline", "--provider", "mock", "--json", "--output", "r.json"
    )
    assert ran.returncode == 0, ran.stderr
    assert (json.loads(ran.stdout)["benchmark"], json.loads(ran.stdout)["mean"]) == ("quick-idea", 0.5)
    rescored = _cli(cwd, "--benchmark", spec, "score", "r.json", "--json")
    assert (rescored.returncode, json.loads(rescored.stdout)["mean"]) == (0, 0.5)
    shown = _cli(cwd, "--benchmark", spec, "show", "w2", "--json")
    assert json.loads(shown.stdout)["prompt"] == "Say w2."
    provenance = _cli(cwd, "--benchmark", spec, "provenance", "--json")
    assert json.loads(provenance.stdout)["benchmark"] == "quick-idea"


def test_the_attribute_defaults_to_benchmark_and_a_missing_one_lists_what_the_file_defines(idea: Path) -> None:
    done = _cli(idea.parent, "--benchmark", "idea.py", "list")
    assert done.returncode == 1
    assert done.stderr == "error: idea.py defines no 'benchmark'; its Benchmark objects: quick\n"
    wrong = _cli(idea.parent, "--benchmark", "idea.py:helper", "list", "--json")
    assert wrong.returncode == 1
    error = json.loads(wrong.stdout)["error"]
    assert error == {
        "code": "INVALID_BENCHMARK_FILE",
        "message": "idea.py:helper is a int, not a benchmark_core.Benchmark (build it with define_benchmark); "
        "its Benchmark objects: quick",
    }


def test_a_file_without_a_benchmark_lists_its_names(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_text("import os\nanswer = 42\n", encoding="utf-8")
    done = _cli(tmp_path, "--benchmark", "empty.py:benchmark", "list")
    assert done.stderr == "error: empty.py defines no 'benchmark'; it defines no Benchmark; its names: answer, os\n"


def test_a_syntax_error_names_the_file_and_line(idea: Path) -> None:
    idea.write_text(ONE_FILE.replace("helper = 42", "helper = (42"), encoding="utf-8")
    done = _cli(idea.parent, "--benchmark", "idea.py:quick", "list")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {idea}:16: SyntaxError: ")
    assert "Traceback" not in done.stderr


def test_an_exception_while_the_file_runs_names_the_file_and_line(idea: Path) -> None:
    # One line per call: Python 3.10 and 3.11 disagree on the line of a call spanning several.
    idea.write_text(ONE_FILE.replace("quick = define_benchmark(", "options = dict(") + BAD_ID, encoding="utf-8")
    done = _cli(idea.parent, "--benchmark", "idea.py:quick", "run", "--model", "m", "--provider", "mock")
    assert done.returncode == 1
    assert done.stderr == (
        f"error: {idea}:17: INVALID_DEFINITION: invalid benchmark id 'Bad Id': use lowercase letters, digits and '-'\n"
    )
    idea.write_text("import no_such_module_here\n", encoding="utf-8")
    done = _cli(idea.parent, "--benchmark", "idea.py", "list")
    assert done.stderr == f"error: {idea}:1: ModuleNotFoundError: No module named 'no_such_module_here'\n"


def test_a_missing_file_or_a_spec_that_is_not_a_python_file(tmp_path: Path) -> None:
    missing = _cli(tmp_path, "--benchmark", "nope.py:benchmark", "list")
    assert (missing.returncode, missing.stderr) == (1, f"error: benchmark file not found: {tmp_path / 'nope.py'}\n")
    odd = _cli(tmp_path, "--benchmark", "notes.txt:benchmark", "list")
    assert odd.returncode == 1
    assert "expected an installed benchmark id or path/to/file.py[:attribute]" in odd.stderr
