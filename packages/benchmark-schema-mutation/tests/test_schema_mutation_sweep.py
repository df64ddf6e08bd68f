"""schema-mutation in a sweep, listed twice with two task sets (issue 26 §5): each entry gets a folder
of its own (the first where a sweep always put it), the leaderboard ranks each task set apart, and
the same benchmark and task set twice is refused with the line of the entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_core.errors import ConfigurationError
from benchmark_core.sweep import build_leaderboard, plan_sweep, run_sweep

BENCHMARK = "benchmark-schema-mutation"
MODELS = """
[options]
cache = false

[[models]]
label = "offline"
provider = "mock"
model = "mock-1"

[[models]]
label = "other"
provider = "mock"
model = "mock-2"
"""


def _sweep(folder: Path, benchmarks: str) -> Path:
    path = folder / "sweep.toml"
    path.write_text(MODELS + benchmarks, encoding="utf-8")
    return path


def test_a_benchmark_with_two_task_sets_gets_a_folder_for_each(tmp_path: Path) -> None:
    path = _sweep(
        tmp_path,
        f'[[benchmarks]]\nid = "{BENCHMARK}"\n\n[[benchmarks]]\nid = "{BENCHMARK}"\ntasks = "tasks-extended"\n',
    )
    outcome = run_sweep(path)
    assert outcome.completed
    results = tmp_path / "results"
    reports = sorted(p.relative_to(results).as_posix() for p in results.rglob("report.json"))
    assert reports == [
        f"{BENCHMARK}/offline/report.json",
        f"{BENCHMARK}/other/report.json",
        f"{BENCHMARK}@tasks-extended/offline/report.json",
        f"{BENCHMARK}@tasks-extended/other/report.json",
    ]
    assert [cell.cell.name for cell in outcome.cells][2:] == [
        f"{BENCHMARK}@tasks-extended/offline",
        f"{BENCHMARK}@tasks-extended/other",
    ]
    board = build_leaderboard(results)
    assert sorted((g.tasks, len(g.entries)) for g in board.groups) == [(36, 2), (60, 2)]
    # rerunning skips every cell: the folders are stable
    again = run_sweep(path)
    assert [cell.status for cell in again.cells] == ["skipped"] * 4


def test_listed_once_a_benchmark_keeps_its_folder_and_task_ids_name_theirs(tmp_path: Path) -> None:
    once = plan_sweep(_sweep(tmp_path, f'[[benchmarks]]\nid = "{BENCHMARK}"\ntasks = "full"\n'))
    assert {cell.output.relative_to(once.results).parts[0] for cell in once.cells} == {BENCHMARK}
    path = _sweep(
        tmp_path,
        f'[[benchmarks]]\nid = "{BENCHMARK}"\n\n[[benchmarks]]\nid = "{BENCHMARK}"\ntask = ["sm-001", "sm-002"]\n',
    )
    folders = {cell.output.relative_to(once.results).parts[0] for cell in plan_sweep(path).cells}
    assert BENCHMARK in folders and len(folders) == 2
    [subset] = folders - {BENCHMARK}
    assert subset.startswith(f"{BENCHMARK}@default+") and len(subset) == len(f"{BENCHMARK}@default+") + 8


def test_the_same_benchmark_and_task_set_twice_is_refused(tmp_path: Path) -> None:
    path = _sweep(
        tmp_path,
        f'[[benchmarks]]\nid = "{BENCHMARK}"\ntasks = "full"\n\n[[benchmarks]]\nid = "{BENCHMARK}"\ntasks = "full"\n',
    )
    with pytest.raises(ConfigurationError) as raised:
        plan_sweep(path)
    line = MODELS.count("\n") + 5
    assert raised.value.message == (
        f"{path}:{line}: benchmarks[1]: benchmark {BENCHMARK!r} is listed twice with the same task set (full); "
        "each benchmark and task set gets one folder"
    )
