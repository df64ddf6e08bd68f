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
    assert typed.stdout.startswith("Success: no issues found in 14 source files")


ROOT = Path(__file__).resolve().parents[2]
#: Distributions and path hooks of ours in this environment, which the fresh venv must not see.
OURS = ("benchmark_core", "benchmark_schema_mutation", "benchmark_rollback_recovery", "__editable__", "_editable_impl")


def _new(name: str, folder: Path) -> Path:
    core_env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    created = subprocess.run(
        ["benchmark-core", "new", name], cwd=folder, env=core_env, capture_output=True, text=True, check=False
    )
    assert created.returncode == 0, created.stderr
    return folder / name


def _third_party_view(folder: Path) -> Path:
    """This environment's third-party distributions (ours left out), linked into `folder`, so that a
    fresh venv can see them through a .pth file: pip then finds its dependencies installed, offline,
    and benchmark-core nowhere but in the wheel folder it is given."""
    import sysconfig

    folder.mkdir()
    for site in dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]):
        for entry in Path(site).iterdir():
            if entry.name.startswith(OURS) or entry.suffix == ".pth" or (folder / entry.name).exists():
                continue
            (folder / entry.name).symlink_to(entry)
    return folder


def test_a_fresh_venv_installs_a_new_package_against_a_local_core_wheel_offline(tmp_path: Path) -> None:
    package = _new("unit-convert", tmp_path)
    pyproject = (package / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dependencies = ["benchmark-core>=0.2,<0.3"]' in pyproject  # a range, not the exact version

    # The wheel, as the guide says to build it until benchmark-core is published.
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation"]
    built = subprocess.run(
        [*build, "--wheel-dir", str(wheels), str(ROOT / "packages" / "benchmark-core")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    assert [p.name.split("-")[0] for p in wheels.iterdir()] == ["benchmark_core"]

    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "third_party.pth").write_text(f"{_third_party_view(tmp_path / 'deps')}\n", encoding="utf-8")
    missing = subprocess.run([str(python), "-c", "import benchmark_core"], capture_output=True, text=True, check=False)
    assert missing.returncode == 1, "the fresh venv sees a benchmark-core before the wheel is installed"

    # The guide's command: editable, the wheel folder as the only source of benchmark-core, no index.
    install = [str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", "--find-links", str(wheels)]
    done = subprocess.run([*install, "-e", f"{package}[test]"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import benchmark_core, unit_convert; print(benchmark_core.__file__, unit_convert.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert where[0].startswith(site) and where[1] == str(package / "src" / "unit_convert" / "__init__.py")

    ran = subprocess.run(
        [str(venv / "bin" / "unit-convert"), "run", "--model", "offline", "--provider", "mock", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["mean"] == 0.5

    # From the editable install the generator writes into the sources.
    tasks_file = package / "src" / "unit_convert" / "data" / "tasks.jsonl"
    before = tasks_file.read_bytes()
    tasks_file.write_text("", encoding="utf-8")
    generated = subprocess.run(
        [str(python), "-m", "unit_convert.generator"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert generated.returncode == 0, generated.stderr
    assert f"wrote {tasks_file}\n" in generated.stderr and tasks_file.read_bytes() == before


def test_the_generator_of_an_installed_copy_refuses_with_the_fix(tmp_path: Path, install: Install) -> None:
    package = _new("copy-bench", tmp_path)
    env = install(package, tmp_path / "site")
    installed = tmp_path / "site" / "copy_bench" / "data"
    committed = (installed / "tasks.jsonl").read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "copy_bench.generator"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"python -m copy_bench.generator: error: {installed} is in an installed copy of copy_bench, not in its "
        f"source: the source's data/ would not change. Install the project editable (pip install -e {package}) "
        "and run this again, or give --out FOLDER"
    )
    assert (installed / "tasks.jsonl").read_bytes() == committed  # nothing written
    # --out still writes where it is told.
    elsewhere = subprocess.run(
        [sys.executable, "-m", "copy_bench.generator", "--out", str(tmp_path / "out")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert elsewhere.returncode == 0 and (tmp_path / "out" / "tasks.jsonl").read_bytes() == committed


SUM_GENERATOR = '''"""Sums of two numbers, from a seed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from benchmark_core import Task, mulberry32
from benchmark_core.data import dump_task_file, provenance_markdown, split_generator_main

SEED = 7
DATA_DIR = Path(__file__).parent / "data"


def generate(seed: int = SEED, split: str = "public") -> list[Task]:
    rng = mulberry32(seed)
    prefix = "" if split == "public" else "hidden-"
    tasks = []
    for n in range(1, 8):
        a, b = 1000 + rng.randint(9000), 1000 + rng.randint(9000)
        prompt = f"What is {a} + {b} metres, in metres?"
        tasks.append(Task(id=f"{prefix}sum-{n}", kind="single", prompt=prompt, expected=a + b))
    return tasks


def render_split(split: str, seed: int) -> dict[str, str]:
    if split == "hidden":
        return {"tasks.jsonl": dump_task_file(generate(seed, "hidden"))}
    from ._definition import benchmark

    return {"tasks.jsonl": dump_task_file(generate(seed)), "PROVENANCE.md": provenance_markdown(benchmark)}


def main(argv: Optional[Sequence[str]] = None) -> None:
    split_generator_main(argv, prog="sum", description="sums", public_seed=SEED, data_dir=DATA_DIR, render=render_split)


if __name__ == "__main__":
    main()
'''
SUM_GRADER = """from __future__ import annotations

from benchmark_core import GradeContext, Task, TaskScore, Trace
from benchmark_core.graders import numeric_within


def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    return numeric_within(task.expected, 0, trace.answer, units=("m", "metres"), thousands=True)
"""
SUM_POLICIES = """from __future__ import annotations

from benchmark_core import MockPolicies, Task


def good_answer(task: Task) -> str:
    return f"{task.expected:,} metres"


def bad_answer(task: Task) -> str:
    return f"{task.expected - 10} m"


MOCK_POLICIES = MockPolicies(good_answer=good_answer, bad_answer=bad_answer)
"""
SUM_SUMMARY = """from __future__ import annotations

from collections.abc import Mapping, Sequence

from benchmark_core import JsonObject, RunReport, RunRow, Task


def task_groups(task: Task) -> Mapping[str, str]:
    return {"kind": "sum"}


def summarize(tasks: Sequence[Task], rows: Sequence[RunRow]) -> JsonObject:
    return {}


def summary_markdown(report: RunReport) -> str:
    return ""
"""


def _edit(path: Path, *replacements: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, f"{path.name}: {old!r}"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def test_the_scaffolds_tests_hold_unchanged_once_the_example_is_replaced(tmp_path: Path, install: Install) -> None:
    """The checklist of docs/writing-a-benchmark.md followed for a benchmark without episodes: new
    tasks, grader, policies and summary, the environment removed, the example tests replaced, the data
    regenerated and the README's run refreshed; test_benchmark.py and conftest.py stay as `new` wrote them."""
    package = _new("sum-bench", tmp_path)
    source = package / "src" / "sum_bench"
    kept = {name: (package / "tests" / name).read_bytes() for name in ("test_benchmark.py", "conftest.py")}
    (source / "generator.py").write_text(SUM_GENERATOR, encoding="utf-8")
    (source / "_grader.py").write_text(SUM_GRADER, encoding="utf-8")
    (source / "_policies.py").write_text(SUM_POLICIES, encoding="utf-8")
    (source / "_summary.py").write_text(SUM_SUMMARY, encoding="utf-8")
    (source / "_environment.py").unlink()
    _edit(
        source / "_definition.py", ("from ._environment import Warehouse\n", ""), ("    environment=Warehouse,\n", "")
    )
    _edit(
        source / "__init__.py",
        ("from ._environment import TOOLS, Warehouse\n", ""),
        ('    "TOOLS",\n', ""),
        ('    "Warehouse",\n', ""),
    )
    (package / "tests" / "test_examples.py").write_text(
        "from sum_bench import score\n\n\ndef test_a_sum_with_separators_and_a_unit() -> None:\n"
        '    assert score("sum-1", {"answer": "1 m"}).passed is False\n',
        encoding="utf-8",
    )
    sources = {**os.environ, "PYTHONPATH": str(package / "src")}  # what the editable install gives
    for step in (["sum_bench.generator"], ["sum_bench", "run", "--model", "offline", "--provider", "mock"]):
        done = subprocess.run([sys.executable, "-m", *step], cwd=tmp_path, env=sources, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    readme = package / "README.md"
    text = readme.read_text(encoding="utf-8")
    start = text.index("```text\n") + len("```text\n")
    readme.write_text(text[:start] + done.stdout + text[text.index("```", start) :], encoding="utf-8")

    env = install(package, tmp_path / "site")
    (tmp_path / "scratch").mkdir()
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib", "-rs"]
    tested = subprocess.run(
        [*pytest_run, str(package / "tests")], cwd=tmp_path / "scratch", env=env, capture_output=True, text=True
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "the benchmark has no episodes" in tested.stdout  # the one test that needs episodes says why it skips
    assert {name: (package / "tests" / name).read_bytes() for name in kept} == kept
