"""The bootstrap's unit-by-unit draws counted once per seed and size (`stats._drawn`): the same sums,
and so the same intervals, as drawing each resample with `random.choices`."""

from __future__ import annotations

import math
import random

import pytest
from benchmark_core.stats import _stats, cluster_bootstrap_ci, paired_bootstrap_ci
from benchmark_core.stats._drawn import resampled_sums


def _drawn_sums(values: list[int], seed: int, resamples: int) -> list[int]:
    rng = random.Random(seed)
    return [sum(rng.choices(values, k=len(values))) for _ in range(resamples)]


@pytest.mark.parametrize(
    "values",
    [
        [0, 1, 1, 0, 1],
        [-3, 0, 2, 7, -1, 1, 1],
        [5] * 9,
        [40_000, 0, 1, 3],
        [2**40, -(2**40), 1],
        [unit % 7 for unit in range(64)],  # the most units counted as bytes
        [unit % 5 - 2 for unit in range(65)],  # the fewest counted draw by draw
    ],
)
def test_the_sums_are_those_of_drawing_each_resample(values: list[int]) -> None:
    assert resampled_sums(values, seed=7, resamples=300) == _drawn_sums(values, 7, 300)
    assert resampled_sums(values, seed=8, resamples=50) == _drawn_sums(values, 8, 50)


def test_sums_that_would_round_or_counts_too_many_to_keep_are_refused() -> None:
    assert resampled_sums([2**52, 1], seed=1, resamples=10) is None
    assert resampled_sums(list(range(30)), seed=1, resamples=100_000) is None


def test_the_intervals_are_those_of_drawing_as_they_go(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    first = [float(rng.random() < 0.5) for _ in range(300)]
    second = [float(rng.random() < 0.6) for _ in range(300)]
    clusters = [i % 25 for i in range(300)]
    uneven = [min(i % 25, 20) for i in range(300)]  # clusters of unequal sizes
    halves = [[0.5 * (i % 3), 1.0] for i in range(30)]  # fractional totals: drawn as they go anyway
    counted = [
        paired_bootstrap_ci(first, second, clusters=clusters, seed=3, resamples=2000),
        paired_bootstrap_ci(first, second, clusters=uneven, seed=3, resamples=2000),
        paired_bootstrap_ci(first[:15], second[:15], seed=2, resamples=2000),
        cluster_bootstrap_ci(halves, seed=5, resamples=1000),
    ]
    monkeypatch.setattr(_stats, "_whole_sums", lambda *args: None)
    assert counted == [
        paired_bootstrap_ci(first, second, clusters=clusters, seed=3, resamples=2000),
        paired_bootstrap_ci(first, second, clusters=uneven, seed=3, resamples=2000),
        paired_bootstrap_ci(first[:15], second[:15], seed=2, resamples=2000),
        cluster_bootstrap_ci(halves, seed=5, resamples=1000),
    ]
    assert not math.isclose(counted[0].low, counted[0].high)
