"""Statistics of runs: bootstrap intervals (plain, clustered and paired) and the exact McNemar test.

Every interval here is a percentile bootstrap that resamples *tasks*. A task may hold several rows
(a cluster, e.g. one per epoch); the statistic is the mean over all rows of the resampled tasks, so
K rows of one task never pass for K independent tasks. With one row per task this is the ordinary
bootstrap of the mean.

Two ways of drawing a resample give the same bootstrap distribution:

- drawing tasks one by one (`random.Random.choices`), which costs one draw per task; and
- drawing how many times each *distinct* task value is picked (a multinomial, sampled as a chain of
  binomials), which costs one binomial per distinct value whatever the number of tasks.

Scores are usually pass/fail or a handful of partial-credit levels, so the second way makes 100,000
rows take milliseconds. Inputs small enough to be instant either way (at most `_DIRECT_DRAWS`
draws) use the first, which is what every earlier release did, so the interval of a run of up to
100 tasks has not changed. Both are deterministic for a seed.
"""

from __future__ import annotations

import bisect
import math
import operator
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Optional

from attrs import frozen

from .._model import ConfidenceInterval
from ._drawn import resampled_sums

__all__ = [
    "McNemarTest",
    "bootstrap_ci",
    "clopper_pearson_ci",
    "cluster_bootstrap_ci",
    "mcnemar_exact",
    "paired_bootstrap_ci",
]

#: Up to this many single-task draws (tasks x resamples; 100 tasks at the runner's 2,000 resamples),
#: resamples draw tasks one by one.
_DIRECT_DRAWS = 200_000
#: Roughly what one binomial draw costs in single-task draws; decides between the two ways.
_BINOMIAL_COST = 12


@frozen
class McNemarTest:
    """The exact McNemar test of paired pass/fail outcomes.

    `only_first` counts tasks that passed in the first report only, `only_second` those that passed
    in the second only; `p_value` is two-sided: twice the smaller binomial tail of the discordant
    tasks at one half, capped at 1 (1 when no task is discordant).
    """

    only_first: int
    only_second: int
    p_value: float


def bootstrap_ci(
    values: Sequence[float], *, seed: int = 1, resamples: int = 2000, level: float = 0.95
) -> ConfidenceInterval:
    """Percentile bootstrap interval of the mean of `values`, one value per task.

    Deterministic for equal input, seed and resamples. Empty input gives [0, 0]; constant input a
    zero-width interval.
    """
    return _interval([(float(v), 1) for v in values], seed=seed, resamples=resamples, level=level)


def cluster_bootstrap_ci(
    clusters: Sequence[Sequence[float]], *, seed: int = 1, resamples: int = 2000, level: float = 0.95
) -> ConfidenceInterval:
    """Percentile bootstrap interval of the mean over rows, resampling clusters (tasks) with all
    their rows. Clusters of one row each give exactly `bootstrap_ci` of those rows."""
    if any(len(cluster) == 0 for cluster in clusters):
        raise ValueError("every cluster needs at least one value")
    cells = [(math.fsum(cluster), len(cluster)) for cluster in clusters]
    return _interval(cells, seed=seed, resamples=resamples, level=level)


def paired_bootstrap_ci(
    first: Sequence[float],
    second: Sequence[float],
    *,
    clusters: Sequence[Hashable] | None = None,
    seed: int = 1,
    resamples: int = 10_000,
    level: float = 0.95,
) -> ConfidenceInterval:
    """Percentile bootstrap interval of mean(second - first) over matched rows.

    `first[i]` and `second[i]` are the scores of the same row (task, or task and epoch) in two runs.
    `clusters[i]` names the task of row i, so that a task's rows are resampled together; by default
    every row is its own task. Resampling pairs keeps what the two runs share (easy tasks are easy
    for both), which is why a paired interval is much narrower than two separate ones.
    """
    if len(first) != len(second):
        raise ValueError("paired scores need equal lengths")
    keys: Sequence[Hashable] = range(len(first)) if clusters is None else clusters
    if len(keys) != len(first):
        raise ValueError("clusters must name the task of every pair")
    grouped: dict[Hashable, list[float]] = {}
    for key, a, b in zip(keys, first, second):
        grouped.setdefault(key, []).append(float(b) - float(a))
    return cluster_bootstrap_ci(list(grouped.values()), seed=seed, resamples=resamples, level=level)


def mcnemar_exact(first: Sequence[bool], second: Sequence[bool]) -> McNemarTest:
    """Exact two-sided McNemar test of paired pass/fail outcomes (`first[i]`, `second[i]` are one
    task's verdicts in two runs): a binomial test at one half on the discordant tasks."""
    if len(first) != len(second):
        raise ValueError("paired outcomes need equal lengths")
    only_first = sum(1 for a, b in zip(first, second) if a and not b)
    only_second = sum(1 for a, b in zip(first, second) if b and not a)
    return McNemarTest(
        only_first=only_first,
        only_second=only_second,
        p_value=_two_sided_binomial_half(only_first + only_second, min(only_first, only_second)),
    )


def _two_sided_binomial_half(n: int, k: int) -> float:
    """min(1, 2 P(X <= k)) for X ~ Binomial(n, 1/2), k <= n/2.

    Summed from k downwards in floating point, starting from the log of the largest term, so that
    100,000 discordant tasks neither overflow nor take long; the terms fall geometrically, and the
    sum stops once they no longer change it.
    """
    if 2 * k >= n:
        return 1.0
    term = math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2.0))
    total = 0.0
    i = k
    while i >= 0 and term > total * 1e-17:
        total += term
        term *= i / (n - i + 1)
        i -= 1
    return min(1.0, 2.0 * total)


def clopper_pearson_ci(successes: int, n: int, *, level: float = 0.95) -> ConfidenceInterval:
    """The exact (Clopper-Pearson) interval of a binomial proportion: `successes` of `n` trials.

    Each bound is the p at which the observed count sits on a tail of `(1 - level) / 2`, found by
    bisection on the binomial distribution; 0 of n gives [0, 1 - ((1 - level) / 2) ** (1 / n)] (the
    rule of three's exact form), n of n the mirror image. No trials give [0, 1]: nothing is known.
    """
    if not 0 <= successes <= n:
        raise ValueError("successes must lie between 0 and n")
    if n == 0:
        return ConfidenceInterval(low=0.0, high=1.0)
    tail = (1.0 - level) / 2.0
    # P(X >= k) grows with p, P(X <= k) falls with it
    low = 0.0 if successes == 0 else _bisect(lambda p: 1.0 - _binomial_cdf(successes - 1, n, p) - tail)
    high = 1.0 if successes == n else _bisect(lambda p: tail - _binomial_cdf(successes, n, p))
    return ConfidenceInterval(low=low, high=high)


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), 0 < p < 1, summed in log space."""
    log_p, log_q = math.log(p), math.log1p(-p)
    return math.fsum(
        math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
        for i in range(k + 1)
    )


def _bisect(increasing: Callable[[float], float]) -> float:
    """The root in (0, 1) of a function that increases from negative to positive."""
    lo, hi = 0.0, 1.0
    for _ in range(60):  # 2 ** -60 is far below any printed digit
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if increasing(mid) < 0 else (lo, mid)
    return (lo + hi) / 2.0


# -- the bootstrap engine -----------------------------------------------------------------------


def _interval(cells: Sequence[tuple[float, int]], *, seed: int, resamples: int, level: float) -> ConfidenceInterval:
    """The percentile interval of sum(total)/sum(size) over resamples of `cells` (task total, task
    row count)."""
    if resamples <= 0:
        raise ValueError("resamples must be positive")
    if not 0.0 < level < 1.0:
        raise ValueError("level must be between 0 and 1")
    n = len(cells)
    if n == 0:
        return ConfidenceInterval(low=0.0, high=0.0)
    first_mean = cells[0][0] / cells[0][1]
    if all(total / size == first_mean for total, size in cells):
        return ConfidenceInterval(low=first_mean, high=first_mean)
    distinct = Counter(cells)
    if n * resamples <= _DIRECT_DRAWS or len(distinct) * _BINOMIAL_COST >= n:
        means = _direct_means(cells, seed, resamples)
    else:
        means = _counted_means(distinct, n, random.Random(seed), resamples)
    means.sort()
    low_index, high_index = percentile_indices(resamples, level)
    return ConfidenceInterval(low=means[low_index], high=means[high_index])


def percentile_indices(resamples: int, level: float = 0.95) -> tuple[int, int]:
    """The positions, in `resamples` sorted resampled values, of a percentile interval's bounds:
    the (1 - level) / 2 and (1 + level) / 2 quantiles, the one convention of every interval here."""
    tail = (1.0 - level) / 2.0
    low_index = max(0, math.floor(tail * resamples))
    high_index = min(resamples - 1, math.ceil((1.0 - tail) * resamples) - 1)
    return low_index, high_index


def _direct_means(cells: Sequence[tuple[float, int]], seed: int, resamples: int) -> list[float]:
    """Resample tasks one by one: for whole-number totals, from the draws counted once per seed and
    size (`_drawn`), the same means as drawing them here."""
    sums = _whole_sums([total for total, _ in cells], seed, resamples)
    if sums is not None:
        sizes = [size for _, size in cells]
        if all(size == sizes[0] for size in sizes):
            rows = len(cells) * sizes[0]
            return [total / rows for total in sums]
        rows_drawn = resampled_sums(sizes, seed=seed, resamples=resamples)
        if rows_drawn is not None:
            return list(map(operator.truediv, sums, rows_drawn))
    rng = random.Random(seed)
    n = len(cells)
    size = cells[0][1]
    if all(s == size for _, s in cells):
        totals = [t for t, _ in cells]
        rows = n * size
        return [math.fsum(rng.choices(totals, k=n)) / rows for _ in range(resamples)]
    means = []
    for _ in range(resamples):
        picked = rng.choices(cells, k=n)
        means.append(math.fsum(t for t, _ in picked) / sum(s for _, s in picked))
    return means


def _whole_sums(totals: Sequence[float], seed: int, resamples: int) -> Optional[list[int]]:
    """`resampled_sums` of totals that are all whole numbers (whose draws' `fsum` is exact: the same
    sum as an integer); None for other totals."""
    if not all(float(total).is_integer() for total in totals):
        return None
    return resampled_sums([int(total) for total in totals], seed=seed, resamples=resamples)


def _counted_means(distinct: Counter[tuple[float, int]], n: int, rng: random.Random, resamples: int) -> list[float]:
    """Resample how often each distinct task value is drawn (`multinomial_sampler`)."""
    cells = sorted(distinct.items())
    draw = multinomial_sampler(rng, [count for _, count in cells])
    values = [cell for cell, _ in cells]
    means = []
    for _ in range(resamples):
        total = 0.0
        rows = 0
        for picked, (cell_total, size) in zip(draw(), values):
            total += picked * cell_total
            rows += picked * size
        means.append(total / rows)
    return means


def multinomial_sampler(rng: random.Random, counts: Sequence[int]) -> Callable[[], list[int]]:
    """Draws of how often each of `len(counts)` distinct values is picked when sum(counts) values
    are drawn with replacement from a population holding `counts[i]` copies of value i: a
    multinomial with probabilities count/n, drawn as binomials, each conditional on the draws
    before it. The first binomial is the same in every resample, so it is drawn by inverting its
    tabulated CDF. Each draw costs one binomial per distinct value, whatever the population."""
    n = sum(counts)
    first_count = counts[0]
    first_draw = _binomial_table_sampler(rng, n, first_count / n)
    binomial = _binomial_sampler(rng)
    rest = counts[1:]
    width = len(counts)

    def draw() -> list[int]:
        picked = first_draw()
        drawn = [picked]
        remaining_draws = n - picked
        remaining_weight = n - first_count
        for count in rest:
            if remaining_draws == 0:
                break
            if count == remaining_weight:
                picked = remaining_draws
            else:
                picked = binomial(remaining_draws, count / remaining_weight)
            drawn.append(picked)
            remaining_draws -= picked
            remaining_weight -= count
        drawn.extend([0] * (width - len(drawn)))
        return drawn

    return draw


def _binomial_table_sampler(rng: random.Random, n: int, p: float) -> Callable[[], int]:
    """Binomial(n, p) draws by inversion: one uniform and a bisection each.

    The table holds the probabilities from the mode outwards until they fall below 1e-20 of the
    mode's, far below what a double-precision uniform can resolve, so the draws are exact to the
    precision of `random()`.
    """
    if p >= 1.0 or p <= 0.0:
        value = n if p >= 1.0 else 0
        return lambda: value
    q = 1.0 - p
    mode = min(n, math.floor((n + 1) * p))
    floor_ratio = 1e-20
    above = [1.0]
    k, term = mode, 1.0
    while k < n and term > floor_ratio:
        term *= (n - k) / (k + 1) * p / q
        above.append(term)
        k += 1
    below = []
    k, term = mode, 1.0
    while k > 0 and term > floor_ratio:
        term *= k / (n - k + 1) * q / p
        below.append(term)
        k -= 1
    weights = below[::-1] + above
    start = mode - len(below)
    cumulative = []
    running = 0.0
    for weight in weights:
        running += weight
        cumulative.append(running)
    scale = running
    random_ = rng.random
    last = len(cumulative) - 1

    def draw() -> int:
        return start + min(last, bisect.bisect_right(cumulative, random_() * scale))

    return draw


def _binomial_sampler(rng: random.Random) -> Callable[[int, float], int]:
    """Exact Binomial(n, p) draws from `rng`, the algorithms of CPython 3.12's
    `random.binomialvariate` (not available on 3.10): Devroye's geometric method when n*p < 10,
    Hörmann's BTRS transformed rejection otherwise. Both are O(1) in n on average."""
    random_ = rng.random
    log, log2, floor, fabs, lgamma, sqrt = math.log, math.log2, math.floor, math.fabs, math.lgamma, math.sqrt

    def draw(n: int, p: float) -> int:
        if p >= 1.0:
            return n
        if p <= 0.0:
            return 0
        if p > 0.5:
            return n - draw(n, 1.0 - p)
        if n * p < 10.0:
            x = y = 0
            c = log2(1.0 - p)
            if not c:
                return x
            while True:
                y += floor(log2(random_()) / c) + 1
                if y > n:
                    return x
                x += 1
        spq = sqrt(n * p * (1.0 - p))
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * p
        c = n * p + 0.5
        vr = 0.92 - 4.2 / b
        alpha = lpq = h = 0.0
        m = 0
        setup_complete = False
        while True:
            u = random_() - 0.5
            us = 0.5 - fabs(u)
            k = floor((2.0 * a / us + b) * u + c)
            if k < 0 or k > n:
                continue
            v = random_()
            if us >= 0.07 and v <= vr:
                return k
            if not setup_complete:
                alpha = (2.83 + 5.1 / b) * spq
                lpq = log(p / (1.0 - p))
                m = floor((n + 1) * p)
                h = lgamma(m + 1) + lgamma(n - m + 1)
                setup_complete = True
            v *= alpha / (a / (us * us) + b)
            if log(v) <= h - lgamma(k + 1) - lgamma(n - k + 1) + (k - m) * lpq:
                return k

    return draw
