"""Results-as-data benchmark: 100,000 rows across 50 saved reports into one pandas DataFrame.

The script runs the offline mock once over `--rows / --reports` (2,000) schema-mutation tasks (its
60 public tasks repeated under new ids; each row carries the grader's dozen detail fields), writes
that report `--reports` (50) times into a results folder as 50 models would (`<folder>/<model>/
report.json`, each with its own model name), and times `rows_frame(folder)` and `runs_frame(folder)`
(reading every report, one at a time, and building the frame). It prints the figures and the
target: 100,000 rows in 3 s or less on the project's 2-core machine. The CPU time of this process is
printed beside the wall time: on a machine shared with other work, the wall time follows the load.
Needs the `analysis` extra.

This is a benchmark, not a test: slow figures do not fail it.

    python tools/bench_analysis.py [--rows 100000] [--reports 50] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import attrs
from benchmark_core import mock_adapter, resolve_benchmark
from benchmark_core.analysis import rows_frame, runs_frame
from benchmark_core.data import dump_task_file
from benchmark_core.wire import dumps

TARGET_S = 3.0


def _results(folder: Path, rows: int, reports: int) -> float:
    """Write the results folder; its size in MB."""
    benchmark = resolve_benchmark("benchmark-schema-mutation")
    public = benchmark.tasks()
    per_report = rows // reports
    repeated = [(i, public[i % len(public)]) for i in range(per_report)]
    tasks = [attrs.evolve(task, id=f"{task.id}-{i:05d}") for i, task in repeated]
    task_file = folder / "tasks.jsonl"
    task_file.write_text(dump_task_file(tasks), encoding="utf-8")
    report = benchmark.run(mock_adapter(), tasks=task_file, concurrency=50)
    size = 0
    for number in range(reports):
        path = folder / "results" / f"model-{number:02d}" / "report.json"
        path.parent.mkdir(parents=True)
        path.write_text(dumps(attrs.evolve(report, model=f"model-{number:02d}"), indent=2) + "\n", encoding="utf-8")
        size += path.stat().st_size
    return size / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--reports", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        size = _results(folder, args.rows, args.reports)
        results = folder / "results"
        print(f"{args.reports} reports, {args.rows:,} rows, {size:.0f} MB of JSON")
        timings = []
        for attempt in range(1, args.repeat + 1):
            started, cpu = time.perf_counter(), time.process_time()
            frame = rows_frame([results])
            rows_s, rows_cpu = time.perf_counter() - started, time.process_time() - cpu
            started = time.perf_counter()
            runs = runs_frame([results])
            runs_s = time.perf_counter() - started
            timings.append(rows_s)
            print(
                f"run {attempt}: rows_frame {rows_s:6.3f} s, {rows_cpu:6.3f} s CPU "
                f"({len(frame):,} rows x {len(frame.columns)} columns), "
                f"runs_frame {runs_s:6.3f} s ({len(runs)} rows)"
            )
        median = sorted(timings)[len(timings) // 2]
        verdict = "within" if median <= TARGET_S else "over"
        print(f"rows_frame median {median:.3f} s: {verdict} the {TARGET_S:g} s target ({median / TARGET_S:.2f}x)")


if __name__ == "__main__":
    main()
