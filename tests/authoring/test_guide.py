"""docs/writing-a-benchmark.md, followed literally: its file blocks build a package that installs,
runs with the output the guide shows and passes its own tests; its blocks are exactly what
`benchmark-core new` writes; its one-file benchmark runs as shown."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Install = Callable[[Path, Path], dict[str, str]]

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-benchmark.md"
_BLOCK = re.compile(r'^(`{3,})(\w+)(?: title="([^"]+)")?\n(.*?)^\1$', re.MULTILINE | re.DOTALL)
#: Files `new` writes that the guide does not show: generated data, an empty marker, an ignore list.
NOT_SHOWN = {".gitignore", "py.typed", "tasks.jsonl", "PROVENANCE.md"}


def _guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def _files() -> dict[str, str]:
    return {m.group(3): m.group(4) for m in _BLOCK.finditer(_guide()) if m.group(3)}


def _console() -> list[tuple[str, str]]:
    """Each `$ command` of the console blocks, with the output the guide shows after it."""
    shown: list[tuple[str, str]] = []
    for match in _BLOCK.finditer(_guide()):
        if match.group(2) != "console":
            continue
        for part in re.split(r"^\$ ", match.group(4), flags=re.MULTILINE)[1:]:
            command, _, output = part.partition("\n")
            shown.append((command, output))
    return shown


def _command(prefix: str) -> tuple[list[str], str]:
    found = [(command, output) for command, output in _console() if command.startswith(prefix)]
    assert len(found) == 1, f"the guide should show `{prefix}...` once"
    return shlex.split(found[0][0]), found[0][1]


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{argv}: {done.stderr}"
    return done


@pytest.fixture
def env() -> dict[str, str]:
    """This environment's scripts first on PATH, as in an activated venv; only the benchmarks built here."""
    return {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}


def test_the_guides_blocks_are_what_new_writes(tmp_path: Path, env: dict[str, str]) -> None:
    argv, shown_output = _command("benchmark-core new ")
    created = _run(argv, tmp_path, env)
    assert created.stdout == shown_output, "`new`'s output differs from the guide's"
    written = {
        p.relative_to(tmp_path).as_posix(): p.read_text(encoding="utf-8")
        for p in tmp_path.rglob("*")
        if p.is_file() and p.name not in NOT_SHOWN
    }
    shown = {path: text for path, text in _files().items() if path != "idea.py"}
    assert sorted(shown) == sorted(written)
    for path, text in written.items():
        assert shown[path] == text, f"{path} differs from what `benchmark-core new` writes"


def test_the_package_the_guide_describes_installs_runs_and_passes_its_tests(
    tmp_path: Path, env: dict[str, str], install: Install
) -> None:
    for path, text in _files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    package = tmp_path / "letter-bench"
    (package / "src" / "letter_bench" / "py.typed").touch()
    # Data, as the guide says: the generator, run on the sources (what an editable install gives).
    generate, _ = _command("python -m letter_bench.generator")
    _run(generate, package, {**env, "PYTHONPATH": str(package / "src")})
    assert (package / "src" / "letter_bench" / "data" / "tasks.jsonl").is_file()

    installed = install(package, tmp_path / "site")
    argv, shown = _command("letter-bench run ")
    ran = _run(argv, tmp_path, installed)
    assert ran.stdout == shown, "the first run's output differs from the guide's"

    (tmp_path / "scratch").mkdir()
    tests = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib"]
    done = _run([*tests, str(package / "tests")], tmp_path / "scratch", installed)
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_the_one_file_benchmark_runs_as_shown(tmp_path: Path, env: dict[str, str]) -> None:
    (tmp_path / "idea.py").write_text(_files()["idea.py"], encoding="utf-8")
    argv, shown = _command("benchmark-core --benchmark idea.py")
    ran = _run(argv, tmp_path, {**env, "BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert ran.stdout == shown
