"""Statistics benchmark: how long the bootstrap intervals take on large runs.

For 100,000 rows of each score shape (pass/fail; five partial-credit levels; 20,000 tasks x 5 epochs
of pass/fail, clustered by task; a paired pass/fail comparison at 10,000 resamples; and all-distinct
scores) the script prints the wall time of one interval and the interval itself. The target is
under one second for 100,000 rows of pass/fail or few-level scores; all-distinct scores have no
shortcut (one draw per task per resample) and are printed for honesty, not held to the target.

With `--standings FOLDER` it times, instead, `rank_reports` of every report under FOLDER (one group,
e.g. the 50 x 792 reports `bench_view.py` makes): the joint bootstrap behind the rank intervals and
max-t verdicts, 10,000 resamples. First in a fresh process, then again with one report's first row
flipped, as a results browser ranks a group again when one report changed.

This is a benchmark, not a test: slow figures do not fail it.

    python tools/bench_stats.py [--rows 100000] [--skip-distinct] [--standings FOLDER]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

import attrs
from benchmark_core import RunReport
from benchmark_core.reports import ConfidenceInterval
from benchmark_core.stats import bootstrap_ci, cluster_bootstrap_ci, paired_bootstrap_ci
from benchmark_core.sweep import rank_reports
from benchmark_core.wire import from_wire, loads


def _timed(label: str, compute: Callable[[], ConfidenceInterval]) -> float:
    started = time.perf_counter()
    ci = compute()
    elapsed = time.perf_counter() - started
    print(f"{label:<52} {elapsed:7.3f} s   CI [{ci.low:.5f}, {ci.high:.5f}]")
    return elapsed


def _standings_figures(folder: Path) -> None:
    found = [
        (path.relative_to(folder).as_posix(), from_wire(loads(path.read_bytes()), RunReport, what="run report"))
        for path in sorted(folder.rglob("report.json"))
    ]

    def ranked(reports: list[tuple[str, RunReport]]) -> str:
        started, cpu = time.perf_counter(), time.process_time()
        rank_reports(str(folder), reports, resamples=10_000, seed=1)
        return f"{time.perf_counter() - started:7.3f} s ({time.process_time() - cpu:.3f} s CPU)"

    (relative, first), row = found[0], found[0][1].rows[0]
    changed = attrs.evolve(first, rows=[attrs.evolve(row, score=1.0 - row.score), *first.rows[1:]])
    tasks = len(first.rows)
    print(f"rank_reports, {len(found)} reports x {tasks} rows, first              {ranked(found)}")
    print(f"rank_reports again, one report's first row flipped      {ranked([(relative, changed), *found[1:]])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--skip-distinct", action="store_true", help="skip the slow all-distinct case")
    parser.add_argument("--standings", type=Path, help="time a group's standings of the reports under this folder")
    args = parser.parse_args()
    if args.standings is not None:
        _standings_figures(args.standings)
        return
    n = args.rows
    rng = random.Random(7)
    pass_fail = [float(rng.random() < 0.62) for _ in range(n)]
    levels = [rng.randrange(5) / 4 for _ in range(n)]
    epochs = 5
    clusters = [pass_fail[i : i + epochs] for i in range(0, n, epochs)]
    other = [float(rng.random() < 0.65) for _ in range(n)]
    print(f"{n:,} rows, 2,000 resamples unless stated")
    _timed("bootstrap_ci, pass/fail", lambda: bootstrap_ci(pass_fail))
    _timed("bootstrap_ci, five score levels", lambda: bootstrap_ci(levels))
    _timed(f"cluster_bootstrap_ci, {n // epochs:,} tasks x {epochs} epochs", lambda: cluster_bootstrap_ci(clusters))
    _timed("paired_bootstrap_ci, pass/fail, 10,000 resamples", lambda: paired_bootstrap_ci(pass_fail, other))
    if not args.skip_distinct:
        distinct = [rng.random() for _ in range(n)]
        _timed("bootstrap_ci, all-distinct scores", lambda: bootstrap_ci(distinct))


if __name__ == "__main__":
    main()
