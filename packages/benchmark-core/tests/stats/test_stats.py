"""The statistics are right: interval coverage, calibration and power on simulated runs, the exact
McNemar test against exact arithmetic, and the fast resampling paths against the direct one.

Simulations are seeded and print their figures (`pytest -s` shows them). The 1,000-run loops use
2,000 resamples per interval rather than compare's 10,000: the interval's calibration is a property
of the bootstrap distribution, which 2,000 resamples already pin down to a fraction of a point.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from benchmark_core.reports import ConfidenceInterval
from benchmark_core.stats import bootstrap_ci, cluster_bootstrap_ci, mcnemar_exact, paired_bootstrap_ci
from benchmark_core.stats._stats import _binomial_sampler, _binomial_table_sampler

RUNS = 1000


def _previous_bootstrap_ci(values: list[float], seed: int, resamples: int = 2000) -> ConfidenceInterval:
    """The interval as releases before the fast paths computed it, kept here as the reference."""
    n = len(values)
    data = [float(v) for v in values]
    if all(v == data[0] for v in data):
        return ConfidenceInterval(low=data[0], high=data[0])
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(data, k=n)) / n for _ in range(resamples))
    low = max(0, math.floor(0.025 * resamples))
    high = min(resamples - 1, math.ceil(0.975 * resamples) - 1)
    return ConfidenceInterval(low=means[low], high=means[high])


def test_intervals_of_runs_up_to_100_tasks_are_unchanged() -> None:
    rng = random.Random(11)
    for n in (1, 2, 7, 21, 48, 60, 100):
        for seed in (1, 2, 99):
            values = [rng.choice([0.0, 0.25, 0.5, 1.0]) for _ in range(n)]
            assert bootstrap_ci(values, seed=seed) == _previous_bootstrap_ci(values, seed)


@pytest.mark.parametrize(("p", "n"), [(0.5, 300), (0.2, 400), (0.85, 1000)])
def test_bootstrap_ci_covers_the_true_mean_93_to_97_percent(p: float, n: int) -> None:
    rng = random.Random(f"coverage {p} {n}")
    covered = 0
    for run in range(RUNS):
        values = [float(rng.random() < p) for _ in range(n)]
        ci = bootstrap_ci(values, seed=run)
        covered += ci.low <= p <= ci.high
    print(f"coverage p={p} n={n}: {covered / RUNS:.1%}")
    assert 0.93 * RUNS <= covered <= 0.97 * RUNS


def _pair(rng: random.Random, shift: float, tasks: int = 200) -> tuple[list[float], list[float]]:
    """Two pass/fail runs on tasks of varied difficulty; the second passes each task with
    probability `shift` higher."""
    first, second = [], []
    for _ in range(tasks):
        difficulty = rng.uniform(0.2, 0.7)
        first.append(float(rng.random() < difficulty))
        second.append(float(rng.random() < difficulty + shift))
    return first, second


def _detects(first: list[float], second: list[float], seed: int) -> tuple[bool, bool, bool]:
    """(the paired CI excludes 0, McNemar p < 0.05, compare's verdict is "better")."""
    ci = paired_bootstrap_ci(first, second, seed=seed, resamples=2000)
    p = mcnemar_exact([a == 1.0 for a in first], [b == 1.0 for b in second]).p_value
    return ci.low > 0 or ci.high < 0, p < 0.05, ci.low > 0 and p < 0.05


def test_with_no_true_difference_3_to_7_percent_are_called_significant() -> None:
    rng = random.Random("null pairs")
    ci_hits = test_hits = 0
    for run in range(RUNS):
        ci_excludes, p_small, _ = _detects(*_pair(rng, 0.0), seed=run)
        ci_hits += ci_excludes
        test_hits += p_small
    print(f"null: paired CI excludes 0 in {ci_hits / RUNS:.1%}, McNemar p < 0.05 in {test_hits / RUNS:.1%}")
    assert 0.03 * RUNS <= ci_hits <= 0.07 * RUNS
    assert 0.03 * RUNS <= test_hits <= 0.07 * RUNS


def test_a_true_15_point_difference_on_200_tasks_is_detected_80_percent_of_the_time() -> None:
    rng = random.Random("+15 points")
    better = sum(_detects(*_pair(rng, 0.15), seed=run)[2] for run in range(RUNS))
    print(f"+15 points on 200 tasks: called better in {better / RUNS:.1%}")
    assert better >= 0.80 * RUNS


def test_a_run_against_itself() -> None:
    values = [float(i % 3 == 0) for i in range(500)]
    assert paired_bootstrap_ci(values, values) == ConfidenceInterval(0.0, 0.0)
    test = mcnemar_exact([v == 1.0 for v in values], [v == 1.0 for v in values])
    assert (test.only_first, test.only_second, test.p_value) == (0, 0, 1.0)


def _exact_two_sided(only_first: int, only_second: int) -> float:
    n, k = only_first + only_second, min(only_first, only_second)
    return float(min(Fraction(1), 2 * Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)))


@pytest.mark.parametrize(("only_first", "only_second"), [(0, 0), (1, 0), (3, 9), (9, 3), (35, 65), (400, 520), (5, 5)])
def test_mcnemar_matches_exact_arithmetic(only_first: int, only_second: int) -> None:
    first = [True] * only_first + [False] * only_second + [True, False] * 7
    second = [False] * only_first + [True] * only_second + [True, False] * 7
    test = mcnemar_exact(first, second)
    assert (test.only_first, test.only_second) == (only_first, only_second)
    assert test.p_value == pytest.approx(_exact_two_sided(only_first, only_second), rel=1e-9)


def test_mcnemar_handles_100000_discordant_tasks() -> None:
    test = mcnemar_exact([True] * 49_000 + [False] * 51_000, [False] * 49_000 + [True] * 51_000)
    assert 0 < test.p_value < 1e-8


def test_clusters_resample_tasks_not_rows() -> None:
    rng = random.Random(5)
    # 150 tasks x 4 epochs: each task passes its epochs with its own rate.
    clusters = []
    for _ in range(150):
        rate = rng.choice([0.05, 0.5, 0.95])
        clusters.append([float(rng.random() < rate) for _ in range(4)])
    rows = [score for cluster in clusters for score in cluster]
    clustered = cluster_bootstrap_ci(clusters, seed=3)
    as_if_independent = bootstrap_ci(rows, seed=3)
    mean = sum(rows) / len(rows)
    assert clustered.low < mean < clustered.high
    # Correlated epochs carry less information than independent rows: a wider interval.
    assert clustered.high - clustered.low > 1.3 * (as_if_independent.high - as_if_independent.low)
    assert cluster_bootstrap_ci([[v] for v in rows[:80]], seed=4) == bootstrap_ci(rows[:80], seed=4)
    with pytest.raises(ValueError, match="at least one"):
        cluster_bootstrap_ci([[1.0], []])


def test_paired_clusters_group_rows_by_task() -> None:
    first = [0.0, 1.0] * 300
    second = [1.0, 1.0] * 300
    tasks = [f"t{i // 2}" for i in range(600)]
    by_row = paired_bootstrap_ci(first, second, seed=1, resamples=2000)
    by_task = paired_bootstrap_ci(first, second, clusters=tasks, seed=1, resamples=2000)
    # Every task has one row of each kind, so resampling tasks leaves no variation at all.
    assert by_task == ConfidenceInterval(0.5, 0.5)
    assert by_row.low < 0.5 < by_row.high
    with pytest.raises(ValueError, match="equal lengths"):
        paired_bootstrap_ci([1.0], [1.0, 0.0])


def test_fast_resampling_matches_the_bootstrap_distribution() -> None:
    rng = random.Random(8)
    values = [rng.choice([0.0, 0.5, 1.0]) for _ in range(50_000)]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n / n)
    ci = bootstrap_ci(values, seed=2)
    # The bootstrap distribution of a mean of 50,000 rows is normal to within Monte Carlo noise.
    assert ci.low == pytest.approx(mean - 1.96 * sd, abs=0.15 * sd)
    assert ci.high == pytest.approx(mean + 1.96 * sd, abs=0.15 * sd)
    assert bootstrap_ci(values, seed=2) == ci
    assert bootstrap_ci(values, seed=3) != ci


@pytest.mark.parametrize(("n", "p"), [(1, 0.3), (12, 0.5), (300, 0.02), (5_000, 0.7), (100_000, 0.5)])
def test_binomial_samplers_have_the_right_mean_and_variance(n: int, p: float) -> None:
    rejection = _binomial_sampler(random.Random(n))
    table = _binomial_table_sampler(random.Random(n), n, p)
    for draws in ([rejection(n, p) for _ in range(20_000)], [table() for _ in range(20_000)]):
        assert all(0 <= x <= n for x in draws)
        mean = sum(draws) / len(draws)
        variance = sum((x - mean) ** 2 for x in draws) / len(draws)
        assert mean == pytest.approx(n * p, abs=5 * math.sqrt(n * p * (1 - p) / len(draws)) + 1e-9)
        assert variance == pytest.approx(n * p * (1 - p), rel=0.06, abs=1e-9)


def test_argument_errors() -> None:
    with pytest.raises(ValueError, match="level"):
        bootstrap_ci([0.0, 1.0], level=1.0)
    with pytest.raises(ValueError, match="equal lengths"):
        mcnemar_exact([True], [])


def test_clopper_pearson_matches_published_exact_intervals() -> None:
    from benchmark_core.stats import clopper_pearson_ci

    # R's binom.test(5, 10) and binom.test(3, 40): 0.1870860-0.8129140 and 0.01574218-0.20386475
    assert clopper_pearson_ci(5, 10).low == pytest.approx(0.1870860, abs=1e-6)
    assert clopper_pearson_ci(5, 10).high == pytest.approx(0.8129140, abs=1e-6)
    assert clopper_pearson_ci(3, 40).low == pytest.approx(0.01574218, abs=1e-7)
    assert clopper_pearson_ci(3, 40).high == pytest.approx(0.20386475, abs=1e-7)
    # none of n: the exact form of the rule of three; all of n: its mirror image
    assert clopper_pearson_ci(0, 12).low == 0.0
    assert clopper_pearson_ci(0, 12).high == pytest.approx(1 - 0.025 ** (1 / 12), abs=1e-12)
    assert clopper_pearson_ci(12, 12).high == 1.0
    assert clopper_pearson_ci(12, 12).low == pytest.approx(0.025 ** (1 / 12), abs=1e-12)
    assert clopper_pearson_ci(0, 0).low == 0.0 and clopper_pearson_ci(0, 0).high == 1.0
    with pytest.raises(ValueError, match="between 0 and n"):
        clopper_pearson_ci(3, 2)
