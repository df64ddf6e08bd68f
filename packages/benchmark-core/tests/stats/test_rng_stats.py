"""mulberry32 and the bootstrap interval."""

from __future__ import annotations

import pytest
from benchmark_core import mulberry32
from benchmark_core.stats import bootstrap_ci
from hypothesis import given
from hypothesis import strategies as st


def test_mulberry32_matches_the_reference_sequence() -> None:
    # First outputs of the JavaScript reference implementation for seed 1.
    rng = mulberry32(1)
    assert [rng() for _ in range(3)] == [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]
    rng = mulberry32(20261015)
    assert [rng() for _ in range(2)] == [0.40124592115171254, 0.5087482859380543]


def test_mulberry32_is_deterministic_and_in_range() -> None:
    a, b = mulberry32(20261015), mulberry32(20261015)
    values = [a() for _ in range(1000)]
    assert values == [b() for _ in range(1000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert len(set(values)) > 990


def test_helpers() -> None:
    rng = mulberry32(5)
    assert all(0 <= rng.randint(7) < 7 for _ in range(200))
    items = list(range(10))
    rng.shuffle(items)
    assert sorted(items) == list(range(10))
    assert rng.choice(["a"]) == "a"
    with pytest.raises(ValueError, match="n > 0"):
        rng.randint(0)


def test_bootstrap_is_deterministic_per_seed() -> None:
    values = [1.0, 0.0] * 30
    assert bootstrap_ci(values, seed=1) == bootstrap_ci(values, seed=1)
    ci = bootstrap_ci(values, seed=1)
    assert 0.3 < ci.low < 0.5 < ci.high < 0.7


def test_bootstrap_edge_cases() -> None:
    assert bootstrap_ci([]).low == 0.0
    constant = bootstrap_ci([1.0] * 10)
    assert (constant.low, constant.high) == (1.0, 1.0)
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_ci([1.0], resamples=0)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.integers(0, 2**32))
def test_bootstrap_interval_brackets_within_range(values: list[float], seed: int) -> None:
    ci = bootstrap_ci(values, seed=seed, resamples=200)
    assert min(values) - 1e-9 <= ci.low <= ci.high <= max(values) + 1e-9
