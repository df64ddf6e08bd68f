"""Merge benchmark: 8 shard reports of 20,000 rows in total joined into the whole run's report.

The script builds a task file of `--tasks` (20,000) schema-mutation tasks (its 60 public tasks
repeated under new ids), runs the offline mock over it once whole and once per shard (`--shards`, 8)
and writes each shard's report as `run --shard I/N --output` does. It then times what `merge`
does: reading the shard reports, checking them and rebuilding the report (`merge_shards`: rows in task
order, interval, groups, the benchmark's summary), and writing the merged report, and prints each
part, the total against the target (2 s on the project's 2-core machine) and whether the merged
report equals the unsharded one with timestamps and latencies blanked. The CPU time of this process
is printed beside the wall time: on a machine shared with other work, the wall time follows the load.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when the merged
report differs from the unsharded one.

    python tools/bench_merge.py [--tasks 20000] [--shards 8] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import attrs
from benchmark_core import Benchmark, mock_adapter, resolve_benchmark
from benchmark_core.data import dump_task_file
from benchmark_core.runs import merge_shards
from benchmark_core.testing import stable_report
from benchmark_core.wire import dumps, to_wire

TARGET_S = 2.0


def _task_file(benchmark: Benchmark, count: int, folder: Path) -> Path:
    public = benchmark.tasks()
    tasks = [attrs.evolve(public[i % len(public)], id=f"{public[i % len(public)].id}-{i:05d}") for i in range(count)]
    path = folder / "tasks.jsonl"
    path.write_text(dump_task_file(tasks), encoding="utf-8")
    return path


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20_000)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3, help="merges timed (the best and the median are printed)")
    parser.add_argument(
        "--benchmark",
        default="benchmark-core-example",
        help="the installed benchmark whose public tasks are repeated (benchmark-schema-mutation's carry "
        "migrated tool schemas, about 5 kB of JSON a task)",
    )
    args = parser.parse_args()
    benchmark = resolve_benchmark(args.benchmark)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tasks = _task_file(benchmark, args.tasks, folder)
        whole = benchmark.run(mock_adapter(), tasks=tasks, concurrency=50)
        paths = []
        for index in range(1, args.shards + 1):
            shard = benchmark.run(mock_adapter(), tasks=tasks, concurrency=50, shard=f"{index}/{args.shards}")
            path = folder / f"shard-{index}.json"
            _write(path, dumps(shard, indent=2) + "\n")
            paths.append(path)
        size = sum(p.stat().st_size for p in paths) / 1e6
        print(f"{args.shards} shard reports, {len(whole.rows):,} rows in total, {size:.1f} MB of JSON")
        totals: list[float] = []
        for attempt in range(1, args.repeat + 1):
            started, cpu = time.perf_counter(), time.process_time()
            merged = merge_shards(benchmark, paths, tasks=tasks)
            merged_at = time.perf_counter()
            _write(folder / "merged.json", dumps(merged, indent=2) + "\n")
            done = time.perf_counter()
            totals.append(done - started)
            used = time.process_time() - cpu
            print(
                f"merge {attempt}: read, check and rebuild {merged_at - started:6.3f} s, "
                f"write {done - merged_at:6.3f} s, total {done - started:6.3f} s ({used:.3f} s CPU)"
            )
        ordered = sorted(totals)
        best, median = ordered[0], ordered[len(ordered) // 2]
        verdict = "within" if median <= TARGET_S else "over"
        ratio = median / TARGET_S
        print(f"best {best:.3f} s, median {median:.3f} s: {verdict} the {TARGET_S:g} s target ({ratio:.2f}x)")
        merged_doc = json.loads((folder / "merged.json").read_text(encoding="utf-8"))
        same = stable_report(merged_doc) == stable_report(to_wire(whole))
        print(f"merged report equals the unsharded one (timestamps and latencies aside): {same}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
