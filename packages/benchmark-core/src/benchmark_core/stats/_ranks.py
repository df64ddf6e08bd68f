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
import struct
from collections.abc import Callable, Hashable, Sequence
from typing import Optional, Union, cast

from attrs import frozen

from .._model import ConfidenceInterval
from ._drawn import resampled_sums
from ._rank_counts import rank_histogram
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
    pairwise difference from the same resamples (`_simultaneous.simultaneous_differences`). With
    `differences=False` and the family kept, `differences` is empty: the family's pairs hold them."""

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
    differences: bool = True,
) -> JointBootstrap:
    """The joint bootstrap of `scores[r][i]`, the score of run r on row i (every run has the same
    rows, in the same order). `units[i]` names the unit of row i (its task, or its cluster): a
    resample draws as many units as there are, with replacement, each with all its rows in every
    run. The mean of a run in a resample is the mean over the rows of the drawn units.

    `simultaneous`: also the 95% simultaneous intervals of all pairwise differences (two runs or
    more, two units or more), with the small-sample correction unless `small_sample` is False.
    `differences=False`: no reference differences where the family is kept (a leaderboard takes its
    verdicts from the family; the differences' sorted resamples are some 70 ms of a 50-run group's)."""
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
    differ = differences or not keep
    histogram, resampled_differences, resampled = _resample(
        columns,
        [size for size, _ in distinct],
        [len(members) for members in distinct.values()],
        seed,
        (reference, resamples, keep, differ),
    )
    means = [math.fsum(row_scores) / len(row_scores) for row_scores in scores]
    family = simultaneous_differences(means, resampled, units=unit_count, small_sample=small_sample) if keep else None
    return JointBootstrap(
        resamples=resamples,
        rank_intervals=[_rank_interval(counts, resamples) for counts in histogram],
        differences=[
            None if run == reference else _difference(means[run] - means[reference], resampled_differences[run])
            for run in range(runs)
        ]
        if differ
        else [],
        simultaneous=family,
    )


_Resampled = tuple[list[list[int]], list[list[float]], list[list[float]]]


def _resample(
    columns: list[list[Number]],
    unit_sizes: list[int],
    holding: list[int],
    seed: int,
    what: tuple[int, int, bool, bool],
) -> _Resampled:
    """The resampling loop of `joint_bootstrap`, over the distinct unit values (`columns[r][v]`, run
    r's total on value v; `unit_sizes[v]` its rows; `holding[v]` the units that hold it), with
    `what` = (the reference run, the resamples, whether to keep the resampled means, whether to take
    the differences): per run, how often it took each rank, (when taken) its differences from the
    reference run, and (when kept) its resampled means. Whole-number totals drawn unit by unit come
    from the draws counted once per seed and size (`_drawn`), other whole-number totals from the
    packed loop, the rest from the counted one: all draw the same resamples from `Random(seed)` and
    give the same figures."""
    packing = _packing(columns, unit_sizes, holding)
    if packing is None:
        return _counted_resample(columns, unit_sizes, _count_sampler(random.Random(seed), holding), what)
    drawn: Optional[tuple[Sequence[Sequence[int]], Sequence[int]]] = None
    if not _by_binomials(holding):
        drawn = _drawn_totals(cast(list[list[int]], columns), unit_sizes, holding, seed, what[1])
    if drawn is None:
        draw = _sum_sampler(random.Random(seed), holding, packing.values)
        drawn = _packed_totals(packing, draw, sum(holding), what[1])
    totals, rows = drawn
    return _figures(totals, rows, what)


def _drawn_totals(
    columns: list[list[int]], unit_sizes: list[int], holding: list[int], seed: int, resamples: int
) -> Optional[tuple[list[list[int]], list[int]]]:
    """Every run's totals and the rows of each resample drawn unit by unit, from `resampled_sums`;
    None where it keeps no counts."""

    def per_unit(values: list[int]) -> list[int]:
        return [value for value, count in zip(values, holding) for _ in range(count)]

    rows = resampled_sums(per_unit(unit_sizes), seed=seed, resamples=resamples)
    totals = [resampled_sums(per_unit(column), seed=seed, resamples=resamples) for column in columns]
    if rows is None or any(column is None for column in totals):
        return None
    return cast(list[list[int]], totals), rows


@frozen
class _Packing:
    """Every run's total on a unit value and the value's rows as fields of one integer (`values[v]`),
    `layout` the fields' binary layout; field r holds run r's total minus `lows[r]`, so that it is
    never negative. A resample's sum of the values of its units is then every run's total at once:
    one sum of integers per resample instead of one per run, and exact."""

    values: list[int]
    layout: struct.Struct
    lows: list[int]


def _packing(columns: list[list[Number]], unit_sizes: list[int], holding: list[int]) -> Optional[_Packing]:
    """The packing of whole-number totals, None for other totals or fields wider than 64 bits."""
    if not all(isinstance(total, int) for column in columns for total in column):
        return None
    units = sum(holding)
    lows = [cast(int, min(column)) for column in columns]
    fields = [[cast(int, total) - low for total in column] for column, low in zip(columns, lows)] + [unit_sizes]
    widest = max(units * max(field) for field in fields).bit_length()
    code = next((code for code, bits in (("H", 16), ("I", 32), ("Q", 64)) if widest <= bits), None)
    if code is None:
        return None
    bits = 8 * struct.calcsize(code)
    values = [sum(field[v] << (bits * f) for f, field in enumerate(fields)) for v in range(len(unit_sizes))]
    return _Packing(values=values, layout=struct.Struct(f"<{len(fields)}{code}"), lows=lows)


def _packed_totals(
    packing: _Packing, draw: Callable[[], int], units: int, resamples: int
) -> tuple[list[Sequence[int]], Sequence[int]]:
    """Every run's totals and the rows of each resample: each resample one sum, split into its fields."""
    size, unpack = packing.layout.size, packing.layout.unpack
    *fields, rows = zip(*[unpack(draw().to_bytes(size, "little")) for _ in range(resamples)])
    # Each resample draws `units` units, so a run's total is its field plus `units` times its low.
    totals: list[Sequence[int]] = [
        field if low == 0 else tuple(map(operator.add, field, itertools.repeat(low * units)))
        for field, low in zip(fields, packing.lows)
    ]
    return totals, rows


def _figures(totals: Sequence[Sequence[int]], rows: Sequence[int], what: tuple[int, int, bool, bool]) -> _Resampled:
    """`_resample`'s figures from every run's whole-number totals and the rows of each resample."""
    reference, _, keep, differ = what
    histogram = rank_histogram(totals)
    base = totals[reference]
    differences = (
        [list(map(operator.truediv, map(operator.sub, column, base), rows)) for column in totals] if differ else []
    )
    resampled = [list(map(operator.truediv, column, rows)) for column in totals] if keep else []
    return histogram, differences, resampled


def _counted_resample(
    columns: list[list[Number]],
    unit_sizes: list[int],
    draw: Callable[[], list[int]],
    what: tuple[int, int, bool, bool],
) -> _Resampled:
    """`_resample` for any totals: each resample's counts per unit value, then one dot product per run."""
    reference, resamples, keep, differ = what
    runs = len(columns)
    integral = all(isinstance(total, int) for column in columns for total in column)
    totals_of = [_dot_with(column) for column in columns]
    histogram = [[0] * runs for _ in range(runs)]
    differences: list[list[float]] = [[] for _ in range(runs)] if differ else []
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
        for column, total in zip(differences, totals):
            column.append((total - base) / rows)
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


def _by_binomials(counts: list[int]) -> bool:
    """Whether a resample is drawn as a multinomial over the distinct unit values (`counts[v]` units
    hold value v): when values repeat enough for binomials to be cheaper than drawing unit by unit."""
    return len(counts) * _BINOMIAL_COST < sum(counts)


def _sum_sampler(rng: random.Random, counts: list[int], values: list[int]) -> Callable[[], int]:
    """Draws of the sum of `values[v]` over the units of a resample, from the same draws of `rng`
    as `_count_sampler`'s."""
    if _by_binomials(counts):
        draw = multinomial_sampler(rng, counts)
        return lambda: sum(map(operator.mul, draw(), values))
    of_unit = [value for value, count in zip(values, counts) for _ in range(count)]
    population = range(len(of_unit))
    return lambda: sum(map(of_unit.__getitem__, rng.choices(population, k=len(of_unit))))


def _count_sampler(rng: random.Random, counts: list[int]) -> Callable[[], list[int]]:
    """Draws of how often each distinct unit value is picked in a resample of as many units as there
    are (`counts[v]` of them hold value v)."""
    units = sum(counts)
    if _by_binomials(counts):
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
