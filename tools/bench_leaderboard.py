"""Leaderboard benchmark: 20 models x the 792 tasks of schema-mutation's full split, ranked.

The script runs the offline mock on the full split (`tasks = full`) once per model, through the SDK,
each model a mock of its own skill (`mock_adapter(skill=P)`, as `run --mock-skill P`: its good answer
on a share P of the tasks, drawn from the model name and the task id, from 45% to 74% in steps of 1.5
points; the plain mock answers well on every other task), and writes each
report where a sweep would (`<results>/benchmark-schema-mutation/<model>/report.json`). Then it
times, each the median of `--repeat` runs:

- reading the 20 reports (each file's JSON parsed, strictly, into a `RunReport`, as the leaderboard
  reads them), the floor any leaderboard pays;
- `build_leaderboard(results)`: reading them again, grouping, ranking, the rank intervals and the
  verdicts against the top;
- `write_leaderboard(results, board)`: rendering `leaderboard.md` and `index.html` and writing them.

It prints the figures and the ratio of the leaderboard (build and write) to reading; the target
is at most 3x. Then, from outside (issue 30's measure), `--repeat` runs each, with their spread:

- `json.load` of the 20 reports, nothing else: the floor;
- the whole `benchmark-core leaderboard RESULTS` command in a subprocess (start-up, reading,
  ranking, writing both files), against that floor; the target is at most 1.5x.

The CPU time of this process is printed beside the wall time: on a machine shared with other work,
the wall time follows the load.

This is a benchmark, not a test: slow figures do not fail it.

    python tools/bench_leaderboard.py [--models 20 | --skill 0.5 --skill 0.7 ...] [--repeat 3] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from benchmark_core import RunReport, mock_adapter, resolve_benchmark
from benchmark_core.sweep import build_leaderboard, write_leaderboard
from benchmark_core.wire import dumps, from_wire, loads

TARGET_RATIO = 3.0
COMMAND_TARGET = 1.5
BENCHMARK = "benchmark-schema-mutation"
T = TypeVar("T")


def _results(folder: Path, skills: list[float]) -> tuple[int, float]:
    """Write one report per model (of each skill) into `folder`, keeping one a kept folder already
    holds (the mock's runs are deterministic); the number of tasks and the MB of JSON."""
    benchmark = resolve_benchmark(BENCHMARK)
    tasks = benchmark.task_file("full")
    size = 0
    count = 0
    for number, skill in enumerate(skills):
        label = f"model-{number:02d}"
        path = folder / BENCHMARK / label / "report.json"
        if path.exists():
            count = len(_read(path).rows)
        else:
            mock = mock_adapter(model=label, skill=skill)  # good on a `skill` share of the tasks (run --mock-skill)
            report = benchmark.run(mock, tasks=tasks, concurrency=50, cache=False)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
            count = len(report.rows)
        size += path.stat().st_size
    return count, size / 1e6


def _read(path: Path) -> RunReport:
    return from_wire(loads(path.read_bytes()), RunReport, what="run report")


def _timed(repeat: int, work: Callable[[], T]) -> tuple[float, float, T]:
    """The median wall and CPU seconds of `repeat` runs of `work`, and its last result."""
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        result = work()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def _spread(repeat: int, work: Callable[[], object]) -> list[float]:
    """The wall seconds of `repeat` runs of `work`, sorted."""
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        walls.append(time.perf_counter() - started)
    return sorted(walls)


def _json_load(files: list[Path]) -> None:
    for path in files:
        with path.open(encoding="utf-8") as handle:
            json.load(handle)


def _command(folder: Path) -> None:
    command = [sys.executable, "-m", "benchmark_core", "leaderboard", str(folder)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _shown(walls: list[float]) -> str:
    return f"median {statistics.median(walls):.3f} s (min {walls[0]:.3f}, max {walls[-1]:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument(
        "--skill",
        type=float,
        action="append",
        help="the skill of one model (repeat it; default: --models models from 45%% in steps of 1.5 points)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--keep",
        type=Path,
        help="write the results here (and keep them) instead of a temporary folder; reports there are reused",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep if args.keep is not None else Path(tmp) / "results"
        started = time.perf_counter()
        skills = args.skill or [0.45 + 0.015 * number for number in range(args.models)]
        tasks, size = _results(folder, skills)
        spent = time.perf_counter() - started
        print(f"{len(skills)} reports x {tasks} tasks ({size:.0f} MB of JSON) ready in {spent:.1f} s")
        files = sorted(folder.rglob("report.json"))
        read_s, read_cpu, _ = _timed(args.repeat, lambda: [_read(path) for path in files])
        build_s, build_cpu, board = _timed(args.repeat, lambda: build_leaderboard(folder))
        write_s, write_cpu, _ = _timed(args.repeat, lambda: write_leaderboard(folder, board))
        print(f"read the reports     {read_s:7.3f} s   ({read_cpu:7.3f} s CPU)")
        print(f"build_leaderboard    {build_s:7.3f} s   ({build_cpu:7.3f} s CPU)")
        print(f"write_leaderboard    {write_s:7.3f} s   ({write_cpu:7.3f} s CPU)")
        total, total_cpu = build_s + write_s, build_cpu + write_cpu
        ratio, ratio_cpu = total / read_s, total_cpu / read_cpu
        verdict = "within" if ratio <= TARGET_RATIO else "over"
        print(
            f"leaderboard {total:.3f} s = {ratio:.2f}x reading ({ratio_cpu:.2f}x in CPU time): "
            f"{verdict} the {TARGET_RATIO:g}x target"
        )
        floor = _spread(args.repeat, lambda: _json_load(files))
        whole = _spread(args.repeat, lambda: _command(folder))
        print(f"json.load, {len(files)} reports         {_shown(floor)}")
        print(f"`leaderboard` command, whole  {_shown(whole)}")
        ratio = statistics.median(whole) / statistics.median(floor)
        verdict = "within" if ratio <= COMMAND_TARGET else "over"
        print(f"the command = {ratio:.2f}x json.load (medians): {verdict} the {COMMAND_TARGET:g}x target")


if __name__ == "__main__":
    main()
