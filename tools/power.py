"""Power of a benchmark split: the difference two models must have to be told apart.

For each split the script simulates paired runs of two models A and B on the split's tasks, with
B's true pass rate `--baseline` + d and A's `--baseline`, and finds the smallest d (in whole
percentage points) that a test at p < 0.05 detects, in B's favour, in at least 80% of the runs
(bisection over d, `--sims` runs per step, seeded: the same arguments print the same table).

The model of a run (stated in the output):

- a task's two outcomes are correlated at `--correlation` (the phi coefficient of the pair; a task
  hard for A tends to be hard for B), drawn exactly from the 2x2 table with those margins;
- with cluster effects `s:t` (`--cluster-effects`), each cluster (a base schema, say) shifts both
  models' pass probability on the probit scale by s x N(0, 1) (a schema hard for both) and each
  model's by a further t x N(0, 1) of its own (a schema on which one model is better than on the
  others: the model x cluster interaction), margins rescaled so that the mean pass rates stay the
  baseline and baseline + d. Its tasks then succeed and fail together. The shared part cancels in a
  paired comparison; the interaction is what makes tasks of one cluster count for less than
  independent ones.

Two tests:

- **McNemar**: the exact paired test over tasks (what `compare` runs without clusters), which treats
  tasks as independent;
- **clustered**: the clustered McNemar test of Durkalski et al. (2003, Stat Med 22:1417), the
  per-cluster discordant differences D_c = (B only) - (A only) and X = (sum D_c)^2 / sum D_c^2 on
  one degree of freedom: what resampling clusters, as `compare` does with `clusteredBy`, amounts to.

With cluster effects the script also prints how often each test calls a difference (either way)
when there is none (d = 0): its false-positive rate, which should be 5%.

A split is `BENCHMARK:TASKS` (an installed benchmark's id and a `--tasks` value: `full`,
`tasks-extended`, a path), its clusters the groups of the benchmark's `cluster_by` dimension; or
`NAME=TASKS[xCLUSTERS]` for a split of that many tasks in that many equal clusters.

    python tools/power.py                        # both benchmarks' public and full splits (and extended)
    python tools/power.py --split benchmark-rollback-recovery:tasks --split n500=500x36
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from statistics import NormalDist

from attrs import frozen
from benchmark_core import load_benchmark
from benchmark_core.stats import mcnemar_exact

DEFAULT_SPLITS = (
    "benchmark-schema-mutation:tasks",
    "benchmark-schema-mutation:tasks-extended",
    "benchmark-schema-mutation:full",
    "benchmark-rollback-recovery:tasks",
    "benchmark-rollback-recovery:full",
)
TARGET_POWER = 0.8
ALPHA = 0.05
_NORMAL = NormalDist()


@frozen
class Split:
    name: str
    #: Tasks per cluster (one cluster per task when the split declares none).
    clusters: tuple[int, ...]

    @property
    def tasks(self) -> int:
        return sum(self.clusters)


def load_split(spec: str) -> Split:
    """`BENCHMARK:TASKS` (clusters from the benchmark's `cluster_by` labels) or `NAME=TASKSxCLUSTERS`."""
    if "=" in spec:
        name, size = spec.split("=", 1)
        total, _, count = size.partition("x")
        n, c = int(total), int(count or total)
        return Split(name, tuple(n // c + (1 if i < n % c else 0) for i in range(c)))
    benchmark_id, _, source = spec.partition(":")
    benchmark = load_benchmark(benchmark_id)
    sizes: dict[str, int] = {}
    for task in benchmark.tasks(source or None):
        label = benchmark.task_groups(task).get(benchmark.cluster_by) if benchmark.cluster_by else None
        key = label if label is not None else f"task:{task.id}"
        sizes[key] = sizes.get(key, 0) + 1
    return Split(f"{benchmark_id.removeprefix('benchmark-')} {source or 'tasks'}", tuple(sizes.values()))


def _pair(rng: random.Random, pa: float, pb: float, r: float) -> tuple[bool, bool]:
    """One task's outcomes (A passed, B passed) with margins pa, pb and phi correlation r (clamped to
    what the margins allow)."""
    both = pa * pb + r * math.sqrt(pa * (1 - pa) * pb * (1 - pb))
    both = min(max(both, max(0.0, pa + pb - 1.0)), min(pa, pb))
    u = rng.random()
    if u < both:
        return True, True
    if u < pa:
        return True, False
    if u < pa + pb - both:
        return False, True
    return False, False


Effect = tuple[float, float]
#: A test's verdict on one simulated pair of runs: (significant, B the better one).
Call = tuple[bool, bool]


def _run(rng: random.Random, split: Split, base: float, diff: float, r: float, effect: Effect) -> tuple[Call, Call]:
    """One simulated pair of runs: the verdicts of McNemar and of the clustered test."""
    shared, own = effect
    scale = math.sqrt(1.0 + shared * shared + own * own)
    za, zb = _NORMAL.inv_cdf(base) * scale, _NORMAL.inv_cdf(base + diff) * scale
    first: list[bool] = []
    second: list[bool] = []
    total = squares = 0
    for size in split.clusters:
        shift = shared * rng.gauss(0.0, 1.0) if shared else 0.0
        a_own, b_own = (own * rng.gauss(0.0, 1.0), own * rng.gauss(0.0, 1.0)) if own else (0.0, 0.0)
        pa, pb = _NORMAL.cdf(za + shift + a_own), _NORMAL.cdf(zb + shift + b_own)
        d = 0
        for _ in range(size):
            a, b = _pair(rng, pa, pb, r)
            first.append(a)
            second.append(b)
            d += int(b and not a) - int(a and not b)
        total += d
        squares += d * d
    test = mcnemar_exact(first, second)
    naive = (test.p_value < ALPHA, test.only_second > test.only_first)
    clustered = (squares > 0 and math.erfc(math.sqrt(total * total / squares / 2.0)) < ALPHA, total > 0)
    return naive, clustered


@frozen
class Rates:
    """Of the simulated pairs of runs: how often each test called B better, and called any difference."""

    naive_better: float
    clustered_better: float
    naive_any: float
    clustered_any: float


def rates(seed: int, sims: int, split: Split, base: float, diff: float, r: float, effect: Effect) -> Rates:
    rng = random.Random(f"{seed}:{split.name}:{diff:.4f}:{effect}")
    runs = [_run(rng, split, base, diff, r, effect) for _ in range(sims)]
    return Rates(
        naive_better=sum(n[0] and n[1] for n, _ in runs) / sims,
        clustered_better=sum(c[0] and c[1] for _, c in runs) / sims,
        naive_any=sum(n[0] for n, _ in runs) / sims,
        clustered_any=sum(c[0] for _, c in runs) / sims,
    )


def detectable(seed: int, sims: int, split: Split, base: float, r: float, effect: Effect, clustered: bool) -> int:
    """The smallest difference in whole points detected in at least 80% of the runs (bisection)."""

    def enough(points: int) -> bool:
        found = rates(seed, sims, split, base, points / 100, r, effect)
        return (found.clustered_better if clustered else found.naive_better) >= TARGET_POWER

    low, high = 0, round((1.0 - base) * 100) - 1
    if not enough(high):
        return -1
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def _points(value: int) -> str:
    return f"+{value}" if value >= 0 else "n/a"


def _effect(text: str) -> Effect:
    shared, _, own = text.partition(":")
    return float(shared), float(own or 0.0)


def table(args: argparse.Namespace, splits: Sequence[Split]) -> list[str]:
    effects = [_effect(text) for text in args.cluster_effects]
    header = ["Split", "Tasks", "Clusters", "no cluster effect: McNemar", "power at +10"]
    for shared, own in effects:
        where = f"s = {shared:g}, t = {own:g}"
        header += [f"{where}: clustered test", "false positives: McNemar / clustered"]
    lines = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * (len(header) - 1)]
    seed, sims, base, r = args.seed, args.sims, args.baseline, args.correlation
    for split in splits:
        row = [split.name, f"{split.tasks:,}", f"{len(split.clusters):,}"]
        row.append(_points(detectable(seed, sims, split, base, r, (0.0, 0.0), clustered=False)))
        row.append(f"{rates(seed, sims, split, base, 0.10, r, (0.0, 0.0)).naive_better:.0%}")
        for effect in effects:
            row.append(_points(detectable(seed, sims, split, base, r, effect, clustered=True)))
            null = rates(seed, sims, split, base, 0.0, r, effect)
            row.append(f"{null.naive_any:.1%} / {null.clustered_any:.1%}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--split", action="append", help="BENCHMARK:TASKS or NAME=TASKSxCLUSTERS (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sims", type=int, default=400, help="simulated pairs of runs per step (default 400)")
    parser.add_argument("--baseline", type=float, default=0.5, help="model A's pass rate (default 0.5)")
    parser.add_argument("--correlation", type=float, default=0.5, help="phi correlation of a task's outcomes")
    parser.add_argument(
        "--cluster-effects",
        nargs="+",
        default=["0.5:0.2", "0.5:0.4"],
        help="cluster effects s:t on the probit scale, shared and per model (default 0.5:0.2 0.5:0.4)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    splits = [load_split(spec) for spec in (args.split or DEFAULT_SPLITS)]
    print(
        f"Difference (points) detected at {TARGET_POWER:.0%} power, p < {ALPHA}: baseline {args.baseline:.0%}, "
        f"outcome correlation {args.correlation:g}, {args.sims} runs per step, seed {args.seed}"
    )
    print()
    for line in table(args, splits):
        print(line)
    print()
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
