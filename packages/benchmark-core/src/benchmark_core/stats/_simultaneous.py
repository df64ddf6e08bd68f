"""Simultaneous 95% intervals for every pairwise difference of a group of runs, from the resamples of
one joint bootstrap (`ranks.joint_bootstrap`): the single-step max-|t| method, with a small-sample
correction for few resampled units.

Why all pairs: a leaderboard says "worse than the top", and the top is the run the data put first.
Among equal runs, "some run is called worse than the top" happens exactly when the spread of their
means (the largest pairwise difference) looks significant, so intervals that cover every pairwise
difference at once are what keeps the chance of any false verdict at 5% whichever run comes out on
top. A family of fixed pairs (Holm over "each run vs the top") does not cover that choice.

The method (Westfall and Young 1993, the single-step max-T; Tukey's honest significant difference
when the data are normal): for each pair (i, j) the resampled difference's deviation from the
observed one, divided by its bootstrap standard error, and in each resample the largest absolute
value over all pairs. The 95th percentile of that maximum, `c0`, is the critical value: the interval
of pair (i, j) is its difference plus or minus c0 standard errors, and the probability that every
interval covers its true difference is 95%, as far as the bootstrap distribution is the sampling
distribution.

With few units (36 clusters of a full split, 12 of a public one) it is not: a bootstrap over G units
underestimates the variance by the factor (G - 1) / G, and it takes its tails from the normal
distribution where the standardised difference, whose standard error is itself estimated from G
units, has the heavier tails of Student's t on G - 1 degrees of freedom. The correction is the one
econometrics uses for cluster-robust inference with few clusters (Cameron, Gelbach and Miller 2008;
Cameron and Miller 2015): the standard error scaled by sqrt(G / (G - 1)) (the CR1 factor) and the
critical value taken from t(G - 1) instead of the normal, here at the per-comparison level the
max-|t| critical value stands for: c0 is a two-sided normal tail of a = 2 (1 - Phi(c0)), and the
corrected critical value is the t(G - 1) quantile with the same two-sided tail a. For many units both
factors go to 1 and the method is the plain bootstrap max-|t|.

Deterministic: the same resamples give the same intervals.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence

from attrs import frozen

from .._model import ConfidenceInterval
from ._products import column_digest, product_sum

__all__ = [
    "ADJUSTMENT",
    "PairDifference",
    "SimultaneousDifferences",
    "simultaneous_differences",
    "student_t_two_sided_quantile",
]

#: The name of the adjustment, as `--json` and every rendering give it.
ADJUSTMENT = "max-t"


@frozen
class PairDifference:
    """Run `first`'s mean minus run `second`'s: the simultaneous interval (every pair's interval of
    the family covers its true difference at once with the family's level) and the adjusted p-value,
    the smallest family-wise level at which the interval would exclude zero: the share of resamples
    whose largest standardised deviation reaches this pair's (corrected) statistic, counted as
    (m + 1) / (resamples + 1)."""

    first: int
    second: int
    mean_difference: float
    standard_error: float
    interval: ConfidenceInterval
    adjusted_p_value: float


@frozen
class SimultaneousDifferences:
    """Every pairwise difference of `runs` runs (`family` = runs x (runs - 1) / 2 of them), at the
    simultaneous `level`. `units`: how many units the bootstrap drew (tasks or clusters), which sets
    the small-sample correction; `bootstrap_critical_value` is c0, the bootstrap's max-|t| quantile,
    `critical_value` the corrected one (in units of the uncorrected bootstrap standard error, so the
    CR1 factor is in it too)."""

    runs: int
    units: int
    level: float
    bootstrap_critical_value: float
    critical_value: float
    pairs: list[PairDifference]

    @property
    def family(self) -> int:
        return len(self.pairs)

    def pair(self, first: int, second: int) -> PairDifference:
        """The difference first - second (the pair in either order)."""
        if first == second or not (0 <= first < self.runs and 0 <= second < self.runs):
            raise ValueError("give two different runs of the family")
        low, high = min(first, second), max(first, second)
        found = self.pairs[_pair_index(low, high, self.runs)]
        if first == low:
            return found
        ci = found.interval
        return PairDifference(
            first=first,
            second=second,
            mean_difference=-found.mean_difference,
            standard_error=found.standard_error,
            interval=ConfidenceInterval(low=-ci.high, high=-ci.low),
            adjusted_p_value=found.adjusted_p_value,
        )


def _pair_index(low: int, high: int, runs: int) -> int:
    return low * runs - low * (low + 1) // 2 + (high - low - 1)


def simultaneous_differences(
    means: Sequence[float],
    resampled: Sequence[Sequence[float]],
    *,
    units: int,
    level: float = 0.95,
    small_sample: bool = True,
) -> SimultaneousDifferences:
    """The family of all pairwise differences of runs with observed `means`, from `resampled[r][b]`,
    run r's mean in joint resample b (every run scored on the same draw), over `units` resampled
    units (see the module docstring). `small_sample=False` leaves out the correction (the plain
    bootstrap max-|t|, for measuring what the correction does)."""
    runs = len(means)
    if len(resampled) != runs or runs < 2:
        raise ValueError("give at least two runs, each with its resampled means")
    resamples = len(resampled[0])
    if resamples == 0 or any(len(column) != resamples for column in resampled):
        raise ValueError("every run needs the same number of resamples, at least one")
    if units < 2:
        raise ValueError("a bootstrap of fewer than two units has no spread")
    if not 0.0 < level < 1.0:
        raise ValueError("level must be between 0 and 1")
    # Deviations of each run's resampled mean from its observed mean: a pair's deviation is the
    # difference of its two runs' (so no list per pair is kept).
    deviations = [[value - mean for value in column] for mean, column in zip(means, resampled)]
    pairs = [(i, j) for i in range(runs) for j in range(i + 1, runs)]
    errors = _standard_errors(deviations, pairs)
    weights = [1.0 / error if error > 0 else 0.0 for error in errors]
    maxima = _maxima(deviations, pairs, weights)
    maxima.sort()
    c0 = maxima[min(resamples - 1, math.ceil(level * resamples) - 1)]
    factor = math.sqrt(units / (units - 1)) if small_sample else 1.0
    critical = factor * _t_for_normal(c0, units - 1) if small_sample else c0
    beyond_t = _counts_beyond(maxima, units - 1) if small_sample else None
    found = []
    for (i, j), error in zip(pairs, errors):
        difference = means[i] - means[j]
        half = critical * error
        statistic = abs(difference) / error if error > 0 else 0.0
        # The adjusted p: the family-wise level at which the interval would just reach zero, the
        # corrected statistic mapped back to the bootstrap's max-|t| scale.
        if error > 0 and beyond_t is not None:
            beyond = beyond_t(statistic / factor)
        else:
            beyond = len(maxima) - _bisect_left(maxima, statistic if error > 0 else math.inf)
        found.append(
            PairDifference(
                first=i,
                second=j,
                mean_difference=difference,
                standard_error=error,
                interval=ConfidenceInterval(low=difference - half, high=difference + half),
                adjusted_p_value=min(1.0, (beyond + 1) / (resamples + 1)),
            )
        )
    return SimultaneousDifferences(
        runs=runs, units=units, level=level, bootstrap_critical_value=c0, critical_value=critical, pairs=found
    )


def _standard_errors(deviations: list[list[float]], pairs: list[tuple[int, int]]) -> list[float]:
    """Per pair (i, j), the standard deviation of the resampled differences i - j: from the runs'
    variances and covariances, var(i - j) = var(i) + var(j) - 2 cov(i, j). The sums of products are
    kept from one call to the next (`_products`), for the runs that did not change."""
    count = len(deviations[0])
    centres = [math.fsum(column) / count for column in deviations]
    digests = [column_digest(column) for column in deviations]
    products = {
        (i, j): product_sum(deviations[i], deviations[j], (digests[i], digests[j])) / count - centres[i] * centres[j]
        for i, j in [*pairs, *((r, r) for r in range(len(deviations)))]
    }
    errors = []
    for i, j in pairs:
        variance = products[i, i] + products[j, j] - 2.0 * products[i, j]
        scale = products[i, i] + products[j, j]
        # Runs with the same totals on every unit have no spread: rounding must not make one.
        errors.append(math.sqrt(variance) if variance > 1e-12 * scale and variance > 1e-24 else 0.0)
    return errors


def _maxima(deviations: list[list[float]], pairs: list[tuple[int, int]], weights: list[float]) -> list[float]:
    """Per resample, the largest |deviation of a pair| / its standard error over all pairs (0 when
    no pair has a spread), each pair's value rounded as |fl(fl(d_i - d_j) * w)| (rounding is
    symmetric in the sign, so that is fl(fl(d_high - d_low) * w), the larger deviation minus the
    smaller).

    Only the pairs that can still beat the best value are taken: with a resample's deviations in
    order, from the lowest run up, each run is paired with the runs above it from the highest down.
    Rounding is monotone, so a pair's value is at most its difference times the lower run's largest
    weight, and that bound only falls as the upper run comes down: the pairing of a run stops where
    its bound reaches the best value found so far, and the runs stop where a run's distance to the
    highest times the family's largest weight does (every later run is nearer). Skipped pairs cannot
    beat the maximum, and taking a maximum does not round, so the figures are those of every pair."""
    runs = len(deviations)
    matrix = [[0.0] * runs for _ in range(runs)]
    for (i, j), weight in zip(pairs, weights):
        if weight > 0:
            matrix[i][j] = matrix[j][i] = weight
    widest = [max(row) for row in matrix]
    largest = max(widest)
    if largest == 0.0:
        return [0.0] * len(deviations[0])
    indices = range(runs)
    maxima = []
    for resample in zip(*deviations):
        order = sorted(indices, key=resample.__getitem__)
        ordered = [resample[run] for run in order]
        high = ordered[-1]
        best = 0.0
        place = 0
        for lower in order:
            value_of = ordered[place]
            place += 1
            reach = high - value_of
            if reach * largest <= best:
                break
            wide = widest[lower]
            if reach * wide <= best:  # the bound of its pair with the highest run, its largest
                continue
            row = matrix[lower]
            upper = runs - 1
            while upper >= place:
                difference = ordered[upper] - value_of
                if difference * wide <= best:
                    break
                value = difference * row[order[upper]]
                if value > best:
                    best = value
                upper -= 1
        maxima.append(best)
    return maxima


def _bisect_left(ordered: list[float], value: float) -> int:
    lo, hi = 0, len(ordered)
    while lo < hi:
        mid = (lo + hi) // 2
        if ordered[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


#: How far (relatively) a maximum's normal tail must be from a pair's t tail for `_counts_beyond`
#: to take its side without the bisection: far above math.erfc's few ulps of error, and above the
#: tail's change over one ulp of its argument (below 1e-12 for arguments up to 30).
_MARGIN = 1e-9


def _counts_beyond(maxima: list[float], df: int) -> Callable[[float], int]:
    """t -> how many of the sorted `maxima` are at or above `_normal_for_t(t, df)`, the count
    `len(maxima) - _bisect_left(maxima, _normal_for_t(t, df))`, with the bisection only where the
    count is in doubt.

    A maximum m is at or above the bisection's value z exactly when its normal tail erfc(m / sqrt 2)
    is at or below t's tail, but for rounding near z: z is within an ulp of the point where the
    computed erfc crosses the tail (for z above 2**-40, 100 halvings of [0, 64] reach an ulp), so a
    maximum whose computed tail is below tail * (1 - _MARGIN) lies above the bisection's last
    interval, and one whose tail is above tail * (1 + _MARGIN) below it. The maxima's tails are
    computed once; each t finds where its tail falls among them, and when the maxima on either side
    of that place are clear of the margin (and between 2**-40 and 30), their count is the count.
    Otherwise (ties with z, tails of 0 or 1) the bisection decides, as before."""
    tails = [-math.erfc(value / math.sqrt(2.0)) for value in maxima]  # rising, up to rounding
    count = len(maxima)

    def clear(at: int) -> bool:
        return 1e-12 <= maxima[at] <= 30.0

    def beyond(t: float) -> int:
        tail = student_t_two_sided_tail(t, df)
        if tail > 0.0:
            at = bisect.bisect_left(tails, -tail)
            above = at == count or (clear(at) and -tails[at] <= tail * (1.0 - _MARGIN))
            below = at == 0 or (clear(at - 1) and -tails[at - 1] >= tail * (1.0 + _MARGIN))
            if above and below:
                return count - at
        return count - _bisect_left(maxima, _normal_for_t(t, df))

    return beyond


# -- Student's t ---------------------------------------------------------------------------------


def _t_for_normal(z: float, df: int) -> float:
    """The t(df) value with the two-sided tail of the standard normal value `z`."""
    return student_t_two_sided_quantile(math.erfc(z / math.sqrt(2.0)), df)


def _normal_for_t(t: float, df: int) -> float:
    """The standard normal value with the two-sided tail of the t(df) value `t`."""
    tail = student_t_two_sided_tail(t, df)
    if tail <= 0.0:
        return math.inf
    lo, hi = 0.0, 64.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if math.erfc(mid / math.sqrt(2.0)) > tail else (lo, mid)
    return (lo + hi) / 2.0


def student_t_two_sided_tail(t: float, df: int) -> float:
    """P(|T| >= t) for T ~ Student's t with `df` degrees of freedom: I_{df / (df + t^2)}(df / 2, 1 / 2)."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    t = abs(t)
    if t == 0.0:
        return 1.0
    if math.isinf(t):
        return 0.0
    return _incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


def student_t_two_sided_quantile(tail: float, df: int) -> float:
    """The t >= 0 with P(|T| >= t) = `tail` under t(df), by bisection (to far below any printed digit)."""
    if not 0.0 < tail <= 1.0:
        raise ValueError("the tail must be in (0, 1]")
    lo, hi = 0.0, 1.0
    while student_t_two_sided_tail(hi, df) > tail:
        hi *= 2.0
        if hi > 1e12:
            return hi
    for _ in range(200):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if student_t_two_sided_tail(mid, df) > tail else (lo, mid)
        if hi - lo <= 1e-13 * hi:
            break
    return (lo + hi) / 2.0


def _incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz's method,
    as in Numerical Recipes' `betai`)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1.0 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        numerator = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + numerator * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + numerator / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + numerator * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + numerator / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h
