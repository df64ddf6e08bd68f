"""`rank_histogram` compares the runs in every resample at once, in packed integers: its counts must
be those of ranking each resample on its own (`by_resample`, the loop as it was)."""

from __future__ import annotations

import bisect
import random

from benchmark_core.stats._rank_counts import rank_histogram
from hypothesis import given, settings
from hypothesis import strategies as st


def by_resample(totals: list[list[int]]) -> list[list[int]]:
    runs = len(totals)
    histogram = [[0] * runs for _ in range(runs)]
    for resample in zip(*totals):
        ordered = sorted(resample)
        for run, total in enumerate(resample):
            histogram[run][runs - bisect.bisect_right(ordered, total)] += 1
    return histogram


@st.composite
def tables(draw: st.DrawFn) -> list[list[int]]:
    runs = draw(st.integers(min_value=1, max_value=8))
    resamples = draw(st.integers(min_value=1, max_value=30))
    # Few values make ties; wide ones take 32- and 64-bit fields, and past those the sorts
    spread = draw(st.sampled_from([1, 3, 800, 40_000, 2**40, 2**70]))
    low = draw(st.integers(min_value=-(2**65), max_value=2**65))
    totals = st.integers(min_value=low, max_value=low + spread)
    return [draw(st.lists(totals, min_size=resamples, max_size=resamples)) for _ in range(runs)]


@settings(max_examples=400, deadline=None)
@given(tables())
def test_the_counts_are_those_of_each_resample_ranked(totals: list[list[int]]) -> None:
    assert rank_histogram(totals) == by_resample(totals)


def test_a_leaderboards_group_is_counted_as_each_resample_ranked() -> None:
    # 50 runs of about 792 rows, 2,000 resamples: 16-bit fields, most places tied somewhere
    rng = random.Random(3)
    totals = [[rng.randint(278, 743) for _ in range(2000)] for _ in range(50)]
    assert rank_histogram(totals) == by_resample(totals)
