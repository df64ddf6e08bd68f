"""Statistics benchmark: how long the bootstrap intervals take on large runs.

For 100,000 rows of each score shape (pass/fail; five partial-credit levels; 20,000 tasks x 5 epochs
of pass/fail, clustered by task; a paired pass/fail comparison at 10,000 resamples; and all-distinct
scores) the script prints the wall time of one interval and the interval itself. The target is
under one second for 100,000 rows of pass/fail or few-level scores; all-distinct scores have no
shortcut (one draw per task per resample) and are printed for honesty, not held to the target.

This is a benchmark, not a test: slow figures do not fail it.

    python tools/bench_stats.py [--rows 100000] [--skip-distinct]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmark_core.reports import ConfidenceInterval
from benchmark_core.stats import bootstrap_ci, cluster_bootstrap_ci, paired_bootstrap_ci


def _timed(label: str, compute: Callable[[], ConfidenceInterval]) -> float:
    started = time.perf_counter()
    ci = compute()
    elapsed = time.perf_counter() - started
    print(f"{label:<52} {elapsed:7.3f} s   CI [{ci.low:.5f}, {ci.high:.5f}]")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--skip-distinct", action="store_true", help="skip the slow all-distinct case")
    args = parser.parse_args()
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
