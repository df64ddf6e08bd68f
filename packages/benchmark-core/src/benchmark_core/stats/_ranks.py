"""Ranks and their intervals: a joint bootstrap of several runs of the same tasks.

Where a run's interval resamples its own tasks, a leaderboard needs the runs together: each resample
draws the units (tasks, or the clusters the benchmark declares) once, and every run is scored on
that same draw, as the paired bootstrap of `compare` does for two runs. In each resample the runs
are ranked (a tie shares its rank: one plus the number of runs strictly better), which gives each
run's 95% rank interval, the 2.5th and 97.5th percentile of its rank, as Chatbot Arena shows them;
and each run's difference from a reference run (the leaderboard's top), with its percentile
interval and a two-sided bootstrap p-value.

A resample is drawn the way the single-run interval is (`stats`): as counts per distinct unit
value, here the vector of every run's total on the unit and the unit's number of rows, a multinomial
drawn as a chain of binomials when the units have few distinct values, and unit by unit otherwise.
Either way, one resample costs one count per distinct unit and then one dot product per run.
Deterministic for equal input, seed and resamples.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Optional, Union

from attrs import frozen

from .._model import ConfidenceInterval
from ._simultaneous import SimultaneousDifferences, simultaneous_differences
from ._stats import _BINOMIAL_COST, multinomial_sampler, percentile_indices

__all__ = ["JointBootstrap", "RankInterval", "ReferenceDifference", "competition_ranks", "joint_bootstrap"]

Number = Union[int, float]


@frozen
class RankInterval:
    """A run's 95% rank interval: its rank in 95% of the joint resamples lies from `low` to `high`
    (1 is the best)."""

    low: int
    high: int


@frozen
class ReferenceDifference:
    """A run's mean minus the reference run's, over the same rows: the percentile interval of the
    resampled differences and the two-sided bootstrap p-value of "no difference": twice the smaller
    share of resamples on either side of zero, counted as (m + 1) / (resamples + 1) so that it is
    never 0 (at 10,000 resamples, at least 0.0002), and at most 1."""

    mean_difference: float
    confidence_interval95: ConfidenceInterval
    p_value: float


@frozen
class JointBootstrap:
    """Per run, in the order given: its rank interval and its difference from the reference (None for
    the reference itself); with `simultaneous=True`, also the simultaneous intervals of every
    pairwise difference from the same resamples (`_simultaneous.simultaneous_differences`)."""

    resamples: int
    rank_intervals: list[RankInterval]
    differences: list[Optional[ReferenceDifference]]
    simultaneous: Optional[SimultaneousDifferences] = None


def competition_ranks(values: Sequence[float]) -> list[int]:
    """1 plus the number of values strictly greater, for each value: ties share their rank (1, 2, 2, 4).
    Values are compared to 12 decimals, so that two sums of the same scores in another order tie."""
    keys = [round(value, 12) for value in values]
    ordered = sorted(keys)
    return [1 + len(keys) - bisect.bisect_right(ordered, key) for key in keys]


def joint_bootstrap(
    scores: Sequence[Sequence[float]],
    units: Sequence[Hashable],
    *,
    reference: int = 0,
    seed: int = 1,
    resamples: int = 10_000,
    simultaneous: bool = False,
    small_sample: bool = True,
) -> JointBootstrap:
    """The joint bootstrap of `scores[r][i]`, the score of run r on row i (every run has the same
    rows, in the same order). `units[i]` names the unit of row i (its task, or its cluster): a
    resample draws as many units as there are, with replacement, each with all its rows in every
    run. The mean of a run in a resample is the mean over the rows of the drawn units.

    `simultaneous`: also the 95% simultaneous intervals of all pairwise differences (two runs or
    more, two units or more), with the small-sample correction unless `small_sample` is False."""
    if resamples <= 0:
        raise ValueError("resamples must be positive")
    runs = len(scores)
    if runs == 0 or not 0 <= reference < runs:
        raise ValueError("give at least one run and the index of the reference run")
    if any(len(row_scores) != len(units) for row_scores in scores) or not units:
        raise ValueError("every run needs a score for each row, and there must be rows")
    columns, distinct = _distinct_units(scores, units)
    unit_count = len(set(units))
    keep = simultaneous and runs >= 2 and unit_count >= 2
    draw = _count_sampler(random.Random(seed), [len(members) for members in distinct.values()])
    histogram, differences, resampled = _resample(
        columns, [size for size, _ in distinct], draw, reference, resamples, keep
    )
    means = [math.fsum(row_scores) / len(row_scores) for row_scores in scores]
    family = simultaneous_differences(means, resampled, units=unit_count, small_sample=small_sample) if keep else None
    return JointBootstrap(
        resamples=resamples,
        rank_intervals=[_rank_interval(counts, resamples) for counts in histogram],
        differences=[
            None if run == reference else _difference(means[run] - means[reference], differences[run])
            for run in range(runs)
        ],
        simultaneous=family,
    )


def _resample(
    columns: list[list[Number]],
    unit_sizes: list[int],
    draw: Callable[[], list[int]],
    reference: int,
    resamples: int,
    keep: bool,
) -> tuple[list[list[int]], list[list[float]], list[list[float]]]:
    """The resampling loop of `joint_bootstrap`: per run, how often it took each rank, its
    differences from the reference run, and (when `keep`) its resampled means."""
    runs = len(columns)
    integral = all(isinstance(total, int) for column in columns for total in column)
    totals_of = [_dot_with(column) for column in columns]
    histogram = [[0] * runs for _ in range(runs)]
    differences: list[list[float]] = [[] for _ in range(runs)]
    resampled: list[list[float]] = [[] for _ in range(runs)] if keep else []
    mul = operator.mul
    for _ in range(resamples):
        counts = draw()
        totals = [total_of(counts) for total_of in totals_of]
        rows = sum(map(mul, counts, unit_sizes))
        if integral:
            ordered = sorted(totals)
            ranks = [runs - bisect.bisect_right(ordered, total) for total in totals]
        else:
            ranks = [rank - 1 for rank in competition_ranks([total / rows for total in totals])]
        for run, rank in enumerate(ranks):
            histogram[run][rank] += 1
        base = totals[reference]
        for run, total in enumerate(totals):
            differences[run].append((total - base) / rows)
        if keep:
            for column, total in zip(resampled, totals):
                column.append(total / rows)
    return histogram, differences, resampled


def _distinct_units(
    scores: Sequence[Sequence[float]], units: Sequence[Hashable]
) -> tuple[list[list[Number]], dict[tuple[int, tuple[Number, ...]], list[Hashable]]]:
    """Per run, its total on each distinct unit value; and the distinct values (unit size, every
    run's total) with the units holding them, in order of first appearance. Totals of whole scores
    are kept as integers, so that sums over resamples are exact and ties are exact."""
    rows_of: dict[Hashable, list[int]] = {}
    for index, unit in enumerate(units):
        rows_of.setdefault(unit, []).append(index)
    values: dict[tuple[int, tuple[Number, ...]], list[Hashable]] = {}
    for unit, rows in rows_of.items():
        totals = tuple(_total([row_scores[i] for i in rows]) for row_scores in scores)
        values.setdefault((len(rows), totals), []).append(unit)
    columns = [[totals[run] for _, totals in values] for run in range(len(scores))]
    return columns, values


def _dot_with(column: list[Number]) -> Callable[[list[int]], Number]:
    """counts -> sum(counts[v] * column[v]); for a column of passes and fails (0 or 1 on every unit),
    the sum of the counts it selects, which is twice as fast."""
    if all(total == 0 or total == 1 for total in column) and all(isinstance(total, int) for total in column):
        selected = [bool(total) for total in column]
        return lambda counts: sum(itertools.compress(counts, selected))
    mul = operator.mul
    return lambda counts: sum(map(mul, counts, column))


def _total(values: Sequence[float]) -> Number:
    total = math.fsum(values)
    return int(total) if total.is_integer() and all(float(v).is_integer() for v in values) else total


def _count_sampler(rng: random.Random, counts: list[int]) -> Callable[[], list[int]]:
    """Draws of how often each distinct unit value is picked in a resample of as many units as there
    are (`counts[v]` of them hold value v): as a multinomial when values repeat enough for binomials
    to be cheaper than drawing unit by unit."""
    units = sum(counts)
    if len(counts) * _BINOMIAL_COST < units:
        return multinomial_sampler(rng, counts)
    value_of = [value for value, count in enumerate(counts) for _ in range(count)]
    width = len(counts)
    population = range(units)

    def draw() -> list[int]:
        drawn = [0] * width
        for unit in rng.choices(population, k=units):
            drawn[value_of[unit]] += 1
        return drawn

    return draw


def _rank_interval(histogram: list[int], resamples: int) -> RankInterval:
    """The 2.5th and 97.5th percentile rank, by the single-run interval's convention."""
    low_index, high_index = percentile_indices(resamples)
    seen = 0
    low = high = None
    for rank, count in enumerate(histogram, start=1):
        seen += count
        if low is None and seen > low_index:
            low = rank
        if seen > high_index:
            high = rank
            break
    assert low is not None and high is not None
    return RankInterval(low=low, high=high)


def _difference(mean_difference: float, resampled: list[float]) -> ReferenceDifference:
    resampled.sort()
    resamples = len(resampled)
    low_index, high_index = percentile_indices(resamples)
    at_or_below = bisect.bisect_right(resampled, 0.0)
    at_or_above = resamples - bisect.bisect_left(resampled, 0.0)
    return ReferenceDifference(
        mean_difference=mean_difference,
        confidence_interval95=ConfidenceInterval(low=resampled[low_index], high=resampled[high_index]),
        p_value=min(1.0, 2.0 * (min(at_or_below, at_or_above) + 1) / (resamples + 1)),
    )
