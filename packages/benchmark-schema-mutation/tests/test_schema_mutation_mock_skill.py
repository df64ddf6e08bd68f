"""The mock's skill on the full split (issue 27): `mock_skill` P answers a share P of the tasks with the
good policy, so a mock's mean is P within 0.03, in both answer modes, for any model name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import mock_adapter
from benchmark_schema_mutation import benchmark


@pytest.mark.parametrize(("model", "skill"), [("mock-a", 0.2), ("mock-b", 0.5), ("mock-c", 0.8), ("mock-a", 0.8)])
@pytest.mark.parametrize("mode", ["prompt", "native"])
def test_the_mean_is_the_skill_within_three_points_on_the_full_split(model: str, skill: float, mode: str) -> None:
    report = benchmark.run(mock_adapter(model=model), tasks="full", mode=mode, mock_skill=skill, concurrency=32)
    assert report.totals.tasks == len(benchmark.tasks("full")) > 700
    assert report.totals.failed == 0
    assert abs(report.mean - skill) <= 0.03, report.mean


def test_without_a_skill_the_full_split_mean_is_the_documented_half() -> None:
    report = benchmark.run(mock_adapter(), tasks="full", concurrency=32)
    assert report.mean == sum(n % 2 == 0 for n in range(report.totals.tasks)) / report.totals.tasks


def test_the_offline_sweep_of_the_sweep_guide_gives_the_leaderboard_it_shows(tmp_path: Path) -> None:
    guide = (Path(__file__).resolve().parents[3] / "docs" / "sweeps.md").read_text(encoding="utf-8")
    section = guide[guide.index("## A first sweep, offline") : guide.index("## Running it")]
    toml = section.split('```toml title="sweep.toml"\n', 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    sweep_shown, leaderboard_shown = shown.split("$ benchmark-core leaderboard results\n")
    (tmp_path / "sweep.toml").write_text(toml, encoding="utf-8")
    env = {**os.environ, "BENCHMARK_CORE_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "benchmark_core", "sweep", "sweep.toml"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    folder = sweep_shown.split(" into ", 1)[1].split("\n", 1)[0].removesuffix("/results")
    expected = sweep_shown.removeprefix("$ benchmark-core sweep sweep.toml\n").replace(folder, str(tmp_path))
    assert done.stderr + done.stdout == expected
    board = (tmp_path / "results" / "leaderboard.md").read_text(encoding="utf-8")
    # The heading names the folder as given, shortened when long (pytest's tmp_path can be).
    heading, _, rest = board.partition("\n")
    shown_heading, _, shown_rest = leaderboard_shown.partition("\n")
    assert shown_heading == "# Leaderboard: results" and heading.startswith("# Leaderboard: ")
    assert rest.replace(str(tmp_path / "results"), "results") == shown_rest
