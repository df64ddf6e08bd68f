"""`benchmark-core new NAME`: the package it writes, run from its sources. (The `authoring` nox
session installs such a package and runs its own tests.)"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import __version__
from benchmark_core.errors import ScaffoldError
from benchmark_core.packaging import scaffold_package

FILES = [
    ".gitignore",
    "README.md",
    "pyproject.toml",
    "src/demo_bench/__about__.py",
    "src/demo_bench/__init__.py",
    "src/demo_bench/__main__.py",
    "src/demo_bench/_definition.py",
    "src/demo_bench/_environment.py",
    "src/demo_bench/_grader.py",
    "src/demo_bench/_policies.py",
    "src/demo_bench/_provenance.py",
    "src/demo_bench/_summary.py",
    "src/demo_bench/cli.py",
    "src/demo_bench/data/PROVENANCE.md",
    "src/demo_bench/data/tasks.jsonl",
    "src/demo_bench/generator.py",
    "src/demo_bench/py.typed",
    "tests/conftest.py",
    "tests/test_benchmark.py",
    "tests/test_examples.py",
]


def _core(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args], capture_output=True, text=True, cwd=cwd, check=False
    )


def _from_sources(package: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package / "src")}
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=env, check=False)


def test_new_writes_a_whole_package_that_runs(tmp_path: Path) -> None:
    done = _core(tmp_path, "new", "demo-bench", "--seed", "7", "--date", "2026-11-30", "--json")
    assert done.returncode == 0, done.stderr
    created = json.loads(done.stdout)
    assert created == {
        "path": "demo-bench",
        "name": "demo-bench",
        "module": "demo_bench",
        "seed": 7,
        "date": "2026-11-30",
        "files": FILES,
    }
    package = tmp_path / "demo-bench"
    assert sorted(p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()) == FILES
    for name in FILES:
        assert "${" not in (package / name).read_text(encoding="utf-8"), name
    pyproject = (package / "pyproject.toml").read_text(encoding="utf-8")
    major, minor = (int(part) for part in __version__.split(".")[:2])
    assert f'dependencies = ["benchmark-core>={major}.{minor},<{major}.{minor + 1}"]' in pyproject  # while 0.x
    assert '[project.entry-points."benchmark_core.benchmarks"]\ndemo-bench = "demo_bench:benchmark"' in pyproject
    assert 'demo-bench = "demo_bench.cli:main"' in pyproject
    ran = _from_sources(package, "demo_bench", "run", "--model", "offline", "--provider", "mock")
    assert ran.returncode == 0, ran.stderr
    # The README quotes the first run, made when the package was created.
    assert f"```text\n{ran.stdout}```" in (package / "README.md").read_text(encoding="utf-8")
    assert "- Score: 50.0%\n- 95% CI: 12.5%–87.5%\n- Tasks: 8 (4 passed, 0 errored)" in ran.stdout


def test_the_data_comes_from_the_packages_own_generator_and_its_seed(tmp_path: Path) -> None:
    day = datetime.date(2026, 11, 30)
    first = scaffold_package("first-bench", tmp_path, date=day)
    second = scaffold_package("second-bench", tmp_path, seed=20261130, date=day)
    other = scaffold_package("other-bench", tmp_path, seed=5, date=day)
    assert first.seed == 20261130

    def tasks(result_path: Path, module: str) -> list[dict[str, object]]:
        text = (result_path / "src" / module / "data" / "tasks.jsonl").read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines()]

    assert tasks(first.path, "first_bench") == tasks(second.path, "second_bench")
    assert tasks(other.path, "other_bench") != tasks(first.path, "first_bench")
    regenerated = _from_sources(first.path, "first_bench.generator", "--out", str(tmp_path / "again"))
    assert regenerated.returncode == 0, regenerated.stderr
    data = first.path / "src" / "first_bench" / "data"
    for name in ("tasks.jsonl", "PROVENANCE.md"):
        assert (tmp_path / "again" / name).read_bytes() == (data / name).read_bytes()


def test_the_same_name_date_and_seed_give_the_same_bytes(tmp_path: Path) -> None:
    day = datetime.date(2026, 11, 30)
    for folder in "abc":
        (tmp_path / folder).mkdir()
    first = scaffold_package("demo-bench", tmp_path / "a", date=day)
    second = scaffold_package("demo-bench", tmp_path / "b", date=day)
    assert (first.seed, first.date, first.files) == (20261130, day, FILES)
    for name in FILES:
        assert (first.path / name).read_bytes() == (second.path / name).read_bytes(), name
    provenance = (first.path / "src" / "demo_bench" / "data" / "PROVENANCE.md").read_text(encoding="utf-8")
    assert "2026-11-30T00:00:00Z" in provenance
    # Another day is another package: the provenance's date and the default seed follow it.
    later = scaffold_package("demo-bench", tmp_path / "c", date=datetime.date(2026, 12, 1))
    assert later.seed == 20261201
    provenance_py = "src/demo_bench/_provenance.py"
    assert (later.path / provenance_py).read_bytes() != (first.path / provenance_py).read_bytes()


def test_a_date_that_is_not_year_month_day_is_refused(tmp_path: Path) -> None:
    done = _core(tmp_path, "new", "demo-bench", "--date", "30/11/2026")
    assert done.returncode == 1
    assert "'30/11/2026' does not match the format '%Y-%m-%d'" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Demo", "invalid package name 'Demo': use lowercase letters"),
        ("demo_bench", "invalid package name 'demo_bench': use lowercase letters"),
        ("1-bench", "its import name '1_bench' is not a Python identifier"),
        ("json", "its import name 'json' would shadow another module"),
        ("benchmark-core", "its import name 'benchmark_core' would shadow another module"),
    ],
)
def test_names_that_cannot_be_a_package_are_refused(tmp_path: Path, name: str, problem: str) -> None:
    done = _core(tmp_path, "new", name)
    assert done.returncode == 1
    assert problem in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_is_not_empty_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "demo-bench").mkdir()
    (tmp_path / "demo-bench" / "notes.txt").write_text("mine", encoding="utf-8")
    done = _core(tmp_path, "new", "demo-bench", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "INVALID_SCAFFOLD"
    assert [p.name for p in tmp_path.rglob("*")] == ["demo-bench", "notes.txt"]
    with pytest.raises(ScaffoldError, match="already exists and is not an empty folder"):
        scaffold_package("demo-bench", tmp_path)


def test_the_text_output_says_what_to_do_next(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    done = _core(tmp_path, "new", "demo-bench", "-C", "sub")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [
        f'  pip install -e ".{os.sep}sub{os.sep}demo-bench[test]"',
        "  demo-bench run --model offline --provider mock",
        f"  pytest .{os.sep}sub{os.sep}demo-bench{os.sep}tests",
    ]


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("0.2.0", ">=0.2,<0.3"),
        ("0.2.7", ">=0.2,<0.3"),
        ("0.10.1", ">=0.10,<0.11"),
        ("1.4.2", ">=1.4,<2"),
        ("2.0", ">=2.0,<3"),
    ],
)
def test_a_new_package_accepts_every_core_release_that_keeps_its_api(version: str, expected: str) -> None:
    from benchmark_core.packaging._scaffold import compatible_range

    assert compatible_range(version) == expected
