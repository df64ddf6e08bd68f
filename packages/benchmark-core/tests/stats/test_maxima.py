"""The max-|t| maxima of `_simultaneous` skip pairs that cannot reach a resample's maximum: the
figures must be those of taking every pair, bit for bit. `every_pair` is that plain computation
(the implementation before the pruning, as it was), kept here as the oracle."""

from __future__ import annotations

import operator
import random

from benchmark_core.stats._simultaneous import _maxima
from hypothesis import given, settings
from hypothesis import strategies as st


def every_pair(deviations: list[list[float]], pairs: list[tuple[int, int]], weights: list[float]) -> list[float]:
    """`_maxima` as it was (541428e): every kept pair of every resample, gathered and scaled in C."""
    kept = [(pair, weight) for pair, weight in zip(pairs, weights) if weight > 0]
    if not kept:
        return [0.0] * len(deviations[0])
    firsts = operator.itemgetter(*[i for (i, _), _ in kept], *[i for (i, _), _ in kept[:1]])
    seconds = operator.itemgetter(*[j for (_, j), _ in kept], *[j for (_, j), _ in kept[:1]])
    scale = [weight for _, weight in kept] + [kept[0][1]]
    sub, mul = operator.sub, operator.mul
    maxima = []
    for resample in zip(*deviations):
        scaled = list(map(mul, map(sub, firsts(resample), seconds(resample)), scale))
        maxima.append(max(0.0, max(scaled), -min(scaled)))
    return maxima


def _pairs(runs: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(runs) for j in range(i + 1, runs)]


# Few distinct values make ties between runs and between pairs; wide ones make rounding matter.
values = st.one_of(
    st.sampled_from([0.0, -0.0, 0.25, -0.25, 1.0 / 3.0, -0.1, 0.1]),
    st.floats(min_value=-1.0, max_value=1.0, allow_nan=False),
)
weight_values = st.one_of(st.just(0.0), st.floats(min_value=1e-3, max_value=1e3, allow_nan=False))


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[float]], list[tuple[int, int]], list[float]]:
    runs = draw(st.integers(min_value=2, max_value=7))
    resamples = draw(st.integers(min_value=1, max_value=12))
    deviations = [draw(st.lists(values, min_size=resamples, max_size=resamples)) for _ in range(runs)]
    pairs = _pairs(runs)
    weights = draw(st.lists(weight_values, min_size=len(pairs), max_size=len(pairs)))
    return deviations, pairs, weights


@settings(max_examples=400, deadline=None)
@given(tables())
def test_the_maxima_are_those_of_every_pair(
    table: tuple[list[list[float]], list[tuple[int, int]], list[float]],
) -> None:
    deviations, pairs, weights = table
    found = _maxima(deviations, pairs, weights)
    expected = every_pair(deviations, pairs, weights)
    assert [value.hex() for value in found] == [value.hex() for value in expected]


def test_a_family_without_spread_has_zero_maxima() -> None:
    assert _maxima([[0.5, -0.5], [0.25, 0.0]], [(0, 1)], [0.0]) == [0.0, 0.0]


def test_the_largest_pair_need_not_span_the_extremes() -> None:
    # Runs 0 and 2 are the extremes, but their pair weighs little: the maximum is pair (0, 1)'s.
    deviations = [[1.0], [0.0], [-0.5]]
    weights = [10.0, 0.1, 1.0]  # pairs (0, 1), (0, 2), (1, 2)
    assert _maxima(deviations, _pairs(3), weights) == [10.0] == every_pair(deviations, _pairs(3), weights)


def test_wide_families_have_the_maxima_of_every_pair() -> None:
    # Up to 40 runs (the pruning skips most pairs), with ties, zero weights and weights close together
    rng = random.Random(5)
    for _ in range(300):
        runs, resamples = rng.randint(2, 40), rng.randint(1, 20)
        tied = rng.random() < 0.5
        deviations = [
            [rng.randint(-5, 5) / 792 if tied else rng.gauss(0.0, 1.0) for _ in range(resamples)] for _ in range(runs)
        ]
        pairs = _pairs(runs)
        weights = [0.0 if rng.random() < 0.2 else rng.uniform(30.0, 80.0) for _ in pairs]
        found = _maxima(deviations, pairs, weights)
        assert [value.hex() for value in found] == [value.hex() for value in every_pair(deviations, pairs, weights)]
