"""`benchmark-core new demo-bench`, then install it, run it and run its own tests, with no edits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

Install = Callable[[Path, Path], dict[str, str]]


def test_a_new_package_installs_runs_and_passes_its_own_tests(tmp_path: Path, install: Install) -> None:
    # This environment's scripts (benchmark-core) first on PATH, as in an activated venv.
    core_env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    created = subprocess.run(
        ["benchmark-core", "new", "demo-bench"], cwd=tmp_path, env=core_env, capture_output=True, text=True, check=False
    )
    assert created.returncode == 0, created.stderr
    env = install(tmp_path / "demo-bench", tmp_path / "site")

    ran = subprocess.run(
        ["demo-bench", "run", "--model", "offline", "--provider", "mock", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert (report["benchmark"], report["mean"], report["totals"]["tasks"]) == ("demo-bench", 0.5, 8)

    listed = subprocess.run(
        ["benchmark-core", "benchmarks", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert listed.returncode == 0, listed.stderr
    entry = next(b for b in json.loads(listed.stdout)["benchmarks"] if b["id"] == "demo-bench")
    assert (entry["distribution"], entry["tasks"], entry["error"]) == ("demo-bench", 8, None)

    # Its tests, against the installed package, from a folder where src/ is not importable.
    (tmp_path / "scratch").mkdir()
    tests = str(tmp_path / "demo-bench" / "tests")
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib", tests]
    done = subprocess.run(
        pytest_run,
        cwd=tmp_path / "scratch",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_a_new_package_passes_its_own_ruff_and_mypy_settings(tmp_path: Path) -> None:
    """The guide says `ruff check`, `ruff format --check` and `mypy src tests` pass on a new package."""
    core_env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    created = subprocess.run(
        ["benchmark-core", "new", "lint-bench"], cwd=tmp_path, env=core_env, capture_output=True, text=True, check=False
    )
    assert created.returncode == 0, created.stderr
    for check in (["ruff", "check", "--no-cache", "."], ["ruff", "format", "--check", "--no-cache", "."]):
        done = subprocess.run(
            [sys.executable, "-m", *check], cwd=tmp_path / "lint-bench", capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "src", "tests"],
        cwd=tmp_path / "lint-bench",
        capture_output=True,
        text=True,
        check=False,
    )
    assert typed.returncode == 0, typed.stdout + typed.stderr
    assert typed.stdout.startswith("Success: no issues found in 15 source files")
