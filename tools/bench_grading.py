"""Grading throughput benchmark: how many submissions each benchmark's grader scores per second.

The submissions are the offline mock's own traces (a mock run of each benchmark: good on even task
positions, bad on odd ones), graded again and again in this one process by the benchmark's grader
with the benchmark's grade context, as `score` and the runner call it:

- benchmark-rollback-recovery: each episode's tool log is replayed in a fresh simulator and checked
  (target >= 5,000 episodes/s), on the public split and on the full split (`--tasks full`). Floor:
  the replay alone (`benchmark_core.replay` in a fresh simulator, no checks), the part of grading no
  grader can skip.
- benchmark-schema-mutation: each answer (prose with a fenced JSON call, or native tool calls) is
  extracted, compared and checked against the current schema (target >= 40,000 answers/s). Floor:
  `json.loads` of the expected call's JSON text plus one `json_equal` with the expected call, the
  least a grader that compares a parsed call can do.

For each it prints the rate, the target and the rate's ratio to it, the floor's rate and how many
times slower than the floor grading is, and checks that every pass (the same traces graded again)
gives the same scores and reasons as the first. This is a benchmark, not a test: slow figures do not
fail it; it exits 1 only when grading is not deterministic or a figure cannot be produced.

    python tools/bench_grading.py [--seconds 2] [--profile rollback|schema]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections.abc import Callable
from typing import Optional

from benchmark_core import Benchmark, RunRow, Task, TaskScore, Trace, mock_adapter, replay
from benchmark_core.wire import json_equal


def _mock_rows(benchmark: Benchmark, source: Optional[str] = None) -> list[tuple[Task, Trace]]:
    report = benchmark.run(mock_adapter(), tasks=source, cache=False)
    tasks = {task.id: task for task in benchmark.tasks(source)}
    rows: list[RunRow] = report.rows
    return [(tasks[row.task_id], row.trace) for row in rows if row.trace is not None]


def _rate(work: Callable[[], object], items: int, seconds: float) -> float:
    """Items per second over repeated rounds of `work` (one round = `items` items), after a warm-up."""
    work()
    rounds, started = 0, time.perf_counter()
    while True:
        work()
        rounds += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return rounds * items / elapsed


def _grader(benchmark: Benchmark, rows: list[tuple[Task, Trace]]) -> Callable[[], list[TaskScore]]:
    ctx = benchmark.grade_context()
    grade = benchmark.grader

    def run() -> list[TaskScore]:
        scores: list[TaskScore] = []
        for task, trace in rows:
            verdict = grade(task, trace, ctx)
            assert isinstance(verdict, TaskScore)
            scores.append(verdict)
        return scores

    return run


def _replay_floor(benchmark: Benchmark, rows: list[tuple[Task, Trace]]) -> Callable[[], object]:
    factory = benchmark.environment
    assert factory is not None

    def run() -> None:
        for task, trace in rows:
            replay(factory(), task, trace.tool_log or [])

    return run


def _compare_floor(rows: list[tuple[Task, Trace]]) -> Callable[[], object]:
    texts = [(task.expected, json.dumps(task.expected)) for task, _ in rows]

    def run() -> None:
        for expected, text in texts:
            json_equal(expected, json.loads(text))

    return run


def _measure(
    name: str, unit: str, benchmark: Benchmark, target: float, floor: str, seconds: float, source: Optional[str] = None
) -> bool:
    rows = _mock_rows(benchmark, source)
    grade = _grader(benchmark, rows)
    first = [(s.score, s.reason) for s in grade()]
    rate = _rate(grade, len(rows), seconds)
    same = [(s.score, s.reason) for s in grade()] == first
    work = _replay_floor(benchmark, rows) if floor == "replay" else _compare_floor(rows)
    floor_rate = _rate(work, len(rows), seconds)
    passed = sum(1 for score, _ in first if score == 1.0)
    print(f"{name}: {len(rows)} mock {unit} ({passed} passing), graded repeatedly for {seconds:g} s")
    print(f"  grading     {rate:>10,.0f} {unit}/s   target {target:>8,.0f}/s   ratio to target {rate / target:5.2f}")
    print(f"  floor       {floor_rate:>10,.0f} {unit}/s   ({floor}; grading takes {floor_rate / rate:.2f}x the floor)")
    print(f"  per item    {1e6 / rate:>10.1f} us       deterministic: {'yes' if same else 'NO'}")
    return same


def _profile(benchmark: Benchmark) -> None:
    rows = _mock_rows(benchmark)
    grade = _grader(benchmark, rows)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(max(1, 20_000 // len(rows))):
        grade()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="how long each figure is measured")
    parser.add_argument("--profile", choices=("rollback", "schema"), help="print a cProfile of one grader instead")
    args = parser.parse_args()
    import benchmark_rollback_recovery
    import benchmark_schema_mutation

    rollback, schema = benchmark_rollback_recovery.benchmark, benchmark_schema_mutation.benchmark
    if args.profile:
        _profile(rollback if args.profile == "rollback" else schema)
        return
    ok = _measure("benchmark-rollback-recovery", "episodes", rollback, 5_000, "replay", args.seconds)
    full = _measure(
        "benchmark-rollback-recovery --tasks full", "episodes", rollback, 5_000, "replay", args.seconds, "full"
    )
    ok = full and ok
    ok = _measure("benchmark-schema-mutation", "answers", schema, 40_000, "compare", args.seconds) and ok
    if not ok:
        print("grading gave different scores or reasons on a later pass", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
