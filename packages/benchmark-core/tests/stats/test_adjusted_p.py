"""The max-t adjusted p-values count the resamples whose maximum reaches a pair's statistic mapped to
the normal scale; `_counts_beyond` takes that count from the maxima's normal tails and bisects only
where it is in doubt. The counts, and so the p-values, must be those of the bisection of every pair
(`by_bisection`, the computation as it was), bit for bit."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from benchmark_core.stats import _simultaneous
from benchmark_core.stats._simultaneous import (
    _bisect_left,
    _counts_beyond,
    _normal_for_t,
    _t_for_normal,
    simultaneous_differences,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def by_bisection(maxima: list[float], df: int) -> Callable[[float], int]:
    return lambda t: len(maxima) - _bisect_left(maxima, _normal_for_t(t, df))


def _statistics(maxima: list[float], df: int, rng: random.Random) -> list[float]:
    """Statistics anywhere, at 0, tiny, huge, and right at a maximum's t value (give or take an ulp
    or a few), where the count is decided by rounding."""
    found = [0.0, 1e-300, 1e-9, 50.0, 1e6]
    for _ in range(30):
        found.append(rng.uniform(0.0, 8.0))
        value = rng.choice(maxima)
        if value > 0:
            near = _t_for_normal(value, df)
            found.extend([near, near * (1 + 2e-16), near * (1 - 2e-16), near * (1 + 1e-12), near * (1 - 1e-9)])
    return found


def test_the_counts_are_those_of_the_bisection() -> None:
    rng = random.Random(4)
    for _ in range(120):
        df = rng.choice([1, 2, 5, 11, 35, 200])
        tied = rng.random() < 0.5
        maxima = sorted(
            rng.choice([0.0, 1.5, 2.0, 2.5, 1e-13]) if tied else rng.expovariate(0.4)
            for _ in range(rng.randint(1, 200))
        )
        fast, slow = _counts_beyond(maxima, df), by_bisection(maxima, df)
        for t in _statistics(maxima, df, rng):
            assert fast(t) == slow(t), (maxima, df, t)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(min_value=0.0, max_value=40.0), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=60),
    st.floats(min_value=0.0, max_value=1e3),
)
def test_any_count_is_that_of_the_bisection(maxima: list[float], df: int, t: float) -> None:
    maxima.sort()
    assert _counts_beyond(maxima, df)(t) == by_bisection(maxima, df)(t)


@pytest.mark.parametrize("units", [2, 3, 12, 36])
def test_the_familys_p_values_are_those_of_the_bisection(units: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Whole families, with runs of equal totals (pairs without spread) and runs far apart
    rng = random.Random(units)
    runs, resamples = 8, 300
    columns = [[rng.randint(0, units) / units for _ in range(resamples)] for _ in range(runs - 2)]
    columns += [list(columns[0]), [value + 0.5 for value in columns[1]]]  # a copy; a shifted run
    means = [sum(column) / resamples + rng.choice([0.0, 0.01, 0.3]) for column in columns]
    fast = simultaneous_differences(means, columns, units=units)
    monkeypatch.setattr(_simultaneous, "_counts_beyond", by_bisection)
    slow = simultaneous_differences(means, columns, units=units)
    assert [pair.adjusted_p_value for pair in fast.pairs] == [pair.adjusted_p_value for pair in slow.pairs]
    assert fast == slow
