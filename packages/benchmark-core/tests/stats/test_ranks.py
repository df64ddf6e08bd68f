"""Rank intervals from the joint bootstrap (issue 26 §2), Holm's adjustment, and the simultaneous
max-t verdicts that replaced it on the leaderboard (issue 34).

Calibration by simulation, seeded: models of equal skill get overlapping rank intervals, a clear
leader's interval is [1, 1]; and across simulated leaderboards of ten equal models, the Holm-adjusted
"vs top" verdicts call a spurious difference far less often than unadjusted tests would."""

from __future__ import annotations

import random
from typing import Optional

import pytest
from benchmark_core import RunRow
from benchmark_core.stats import RankInterval, holm_adjusted, joint_bootstrap, paired_bootstrap_ci
from benchmark_core.stats._ranks import competition_ranks
from benchmark_core.stats._simultaneous import student_t_two_sided_quantile
from benchmark_core.stats._standings import rank_rows


def _runs(skills: list[float], tasks: int, rng: random.Random) -> list[list[float]]:
    """Independent pass/fail outcomes: run r passes each task with probability skills[r]."""
    return [[float(rng.random() < skill) for _ in range(tasks)] for skill in skills]


def _overlap(a: RankInterval, b: RankInterval) -> bool:
    return a.low <= b.high and b.low <= a.high


def test_holm_matches_the_textbook() -> None:
    # Holm (1979): sorted p-values times k, k - 1, ..., made monotone, capped at 1, in input order
    assert holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_adjusted([0.5, 0.9]) == [1.0, 1.0]
    assert holm_adjusted([0.02, 0.9]) == [0.04, 0.9]
    assert holm_adjusted([0.04]) == [0.04]
    assert holm_adjusted([]) == []


def test_ties_share_their_rank() -> None:
    assert competition_ranks([0.5, 0.7, 0.5, 0.1]) == [2, 1, 2, 4]
    assert competition_ranks([0.1 + 0.2, 0.3]) == [1, 1]  # equal to 12 decimals
    same = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    joint = joint_bootstrap([same, list(same), [0.0] * 6], list(range(6)), resamples=500)
    assert joint.rank_intervals[0] == joint.rank_intervals[1]
    assert joint.rank_intervals[0].low == 1 and joint.rank_intervals[2] == RankInterval(low=3, high=3)
    assert joint.differences[1] is not None and joint.differences[1].p_value == 1.0


def test_a_clear_leader_is_first_and_equal_models_overlap() -> None:
    rng = random.Random(26)
    for simulation in range(20):
        scores = _runs([0.9, 0.6, 0.6, 0.6, 0.6], 300, rng)
        joint = joint_bootstrap(scores, list(range(300)), seed=simulation, resamples=2000)
        leader, *equal = joint.rank_intervals
        assert leader == RankInterval(low=1, high=1)
        assert all(_overlap(a, b) for a in equal for b in equal), equal
        assert all(interval.low >= 2 and interval.high <= 5 for interval in equal)


def test_clusters_are_drawn_whole_for_every_model() -> None:
    """With clusters, the joint bootstrap's paired difference is the paired cluster bootstrap of
    compare (the same distribution, drawn once for all models): intervals agree to noise, and are
    wider than resampling the tasks of correlated clusters one by one."""
    rng = random.Random(3)
    clusters = [c for c in range(12) for _ in range(20)]
    # the second model is much better on some clusters and much worse on others
    shift = [rng.choice([-0.35, 0.35]) for _ in range(12)]
    first = [float(rng.random() < 0.5) for _ in clusters]
    second = [float(rng.random() < 0.5 + shift[c]) for c in clusters]
    joint = joint_bootstrap([first, second], clusters, seed=1, resamples=10_000)
    by_tasks = joint_bootstrap([first, second], list(range(len(clusters))), seed=1, resamples=10_000)
    paired = paired_bootstrap_ci(first, second, clusters=clusters, seed=1)
    difference, task_difference = joint.differences[1], by_tasks.differences[1]
    assert difference is not None and task_difference is not None
    assert difference.confidence_interval95.low == pytest.approx(paired.low, abs=0.015)
    assert difference.confidence_interval95.high == pytest.approx(paired.high, abs=0.015)
    width = difference.confidence_interval95.high - difference.confidence_interval95.low
    assert width > task_difference.confidence_interval95.high - task_difference.confidence_interval95.low


def test_it_is_deterministic() -> None:
    rng = random.Random(5)
    scores = [[rng.choice([0.0, 0.25, 0.5, 1.0]) for _ in range(400)] for _ in range(6)]
    units = [i // 4 for i in range(400)]
    assert joint_bootstrap(scores, units, seed=9, resamples=3000) == joint_bootstrap(
        scores, units, seed=9, resamples=3000
    )
    assert joint_bootstrap(scores, units, seed=9, resamples=3000) != joint_bootstrap(
        scores, units, seed=10, resamples=3000
    )


def test_verdicts_keep_their_five_percent_with_the_top_chosen_by_the_data() -> None:
    """Issue 34, the small version of tools/bench_verdicts.py: 60 leaderboards of ten equal models on
    a clustered split (24 clusters of 10 pass/fail tasks), through `rank_rows`, the leaderboard's own
    code. Unadjusted, the nine tests against the luckiest model call a spurious "worse" in many of
    them; the simultaneous max-t verdicts in at most 10%. One model clearly better keeps its power."""
    rng = random.Random(2026)
    clusters = [c for c in range(24) for _ in range(10)]
    simulations = 60
    unadjusted = adjusted = 0
    for simulation in range(simulations):
        runs = sorted(_runs([0.6] * 10, len(clusters), rng), key=lambda scores: -sum(scores))
        rows = [_rows(scores, clusters) for scores in runs]
        placed = rank_rows(rows, "c", seed=simulation, resamples=1000)
        assert (placed.adjustment, placed.family, placed.simultaneous_level) == ("max-t", 45, 0.95)
        joint = joint_bootstrap(runs, clusters, seed=simulation, resamples=1000)
        unadjusted += any(d is not None and d.confidence_interval95.high < 0 for d in joint.differences[1:])
        adjusted += any(e.verdict == "worse" for e in placed.entries[1:])
        for entry in placed.entries[1:]:  # the verdict is the interval's
            ci = entry.difference_interval95
            assert ci is not None and (entry.verdict == "worse") == (ci.high < 0)
    assert unadjusted / simulations > 0.25
    assert adjusted / simulations <= 0.1
    called = 0
    for simulation in range(10):
        runs = sorted(_runs([0.85] + [0.6] * 9, len(clusters), rng), key=lambda scores: -sum(scores))
        placed = rank_rows([_rows(scores, clusters) for scores in runs], "c", seed=simulation, resamples=1000)
        called += sum(e.verdict == "worse" for e in placed.entries[1:])
    assert called / 90 >= 0.8


def test_simultaneous_intervals_are_symmetric_and_corrected_for_few_units() -> None:
    rng = random.Random(8)
    scores = [[float(rng.random() < 0.6) for _ in range(120)] for _ in range(4)]
    units = [i // 10 for i in range(120)]
    corrected = joint_bootstrap(scores, units, seed=3, resamples=2000, simultaneous=True).simultaneous
    plain = joint_bootstrap(scores, units, seed=3, resamples=2000, simultaneous=True, small_sample=False).simultaneous
    assert corrected is not None and plain is not None and corrected.family == 6
    assert corrected.bootstrap_critical_value == plain.bootstrap_critical_value == plain.critical_value
    # 12 clusters: t(11) tails and the CR1 factor sqrt(12/11) widen every interval
    assert corrected.critical_value > plain.critical_value * 1.1
    assert student_t_two_sided_quantile(0.05, 10) == pytest.approx(2.228139, abs=1e-6)
    assert student_t_two_sided_quantile(0.01, 1) == pytest.approx(63.656741, abs=1e-5)
    forward, backward = corrected.pair(0, 2), corrected.pair(2, 0)
    assert forward.mean_difference == -backward.mean_difference
    assert forward.interval.low == -backward.interval.high
    mean = [sum(s) / 120 for s in scores]
    assert forward.mean_difference == pytest.approx(mean[0] - mean[2])
    assert (forward.interval.low + forward.interval.high) / 2 == pytest.approx(forward.mean_difference)


def _rows(scores: list[float], clusters: Optional[list[int]] = None) -> list[RunRow]:
    return [
        RunRow(
            task_id=f"t{i:03d}",
            score=score,
            passed=score == 1.0,
            reason="",
            attempts=1,
            latency_ms=0,
            groups={"c": f"c{clusters[i]:02d}"} if clusters is not None else {},
        )
        for i, score in enumerate(scores)
    ]


def test_epochs_are_resampled_with_their_task_and_get_no_mcnemar() -> None:
    """Rows of one task's epochs are one unit, drawn together, and McNemar's test (independent pairs)
    is not run; the verdict rests on the paired bootstrap alone."""
    rng = random.Random(11)
    strong = [float(rng.random() < 0.9) for _ in range(240)]
    weak = [float(rng.random() < 0.4) for _ in range(240)]

    def with_epochs(scores: list[float]) -> list[RunRow]:
        return [
            RunRow(
                task_id=f"t{i // 2:03d}", epoch=i % 2 + 1, score=s, passed=s == 1.0, reason="", attempts=1, latency_ms=0
            )
            for i, s in enumerate(scores)
        ]

    placed = rank_rows([with_epochs(strong), with_epochs(weak)], None, seed=1, resamples=2000)
    top, other = placed.entries
    assert (placed.comparisons, placed.clustered_by) == (1, None)
    assert top.rank_interval95 == RankInterval(low=1, high=1) and other.rank_interval95 == RankInterval(2, 2)
    assert other.mcnemar_p_value is None and other.verdict == "worse"
    assert other.adjusted_p_value is not None and other.adjusted_p_value < 0.01


@pytest.mark.parametrize("clusters", [None, 7, 300])
def test_the_packed_loop_gives_the_counted_loops_figures(
    clusters: Optional[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whole-number totals take the packed loop; the counted loop (any totals) must give the same
    # intervals, differences and simultaneous family, bit for bit: negative and wide totals, units of
    # unequal sizes, and both ways of drawing (binomials for 7 clusters of 600 tasks, unit by unit for 300)
    from benchmark_core.stats import _ranks

    rng = random.Random(5)
    tasks = 600
    scores = [
        [float(rng.choice([-3, 0, 1, 1, 2]) if run == 2 else rng.random() < 0.4 + 0.05 * run) for _ in range(tasks)]
        for run in range(6)
    ]
    units = [i % clusters if clusters else i for i in range(tasks)]
    if clusters:
        units = [min(unit, unit // 2 + 1) for unit in units]  # clusters of unequal sizes
    packed = joint_bootstrap(scores, units, resamples=500, seed=3, simultaneous=True)
    monkeypatch.setattr(_ranks, "_packing", lambda *args: None)
    counted = joint_bootstrap(scores, units, resamples=500, seed=3, simultaneous=True)
    assert packed == counted


@pytest.mark.parametrize("packed", [True, False])
def test_without_differences_the_ranks_and_the_family_are_the_same(
    packed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A leaderboard leaves out the reference differences where the family holds them: nothing else
    # moves; without a family (a single unit) they are taken all the same
    from benchmark_core.stats import _ranks

    if not packed:
        monkeypatch.setattr(_ranks, "_packing", lambda *args: None)
    rng = random.Random(8)
    scores = [[float(rng.random() < 0.3 + 0.1 * run) for _ in range(120)] for run in range(5)]
    units = [i % 12 for i in range(120)]
    full = joint_bootstrap(scores, units, resamples=400, simultaneous=True)
    lean = joint_bootstrap(scores, units, resamples=400, simultaneous=True, differences=False)
    assert lean.differences == [] and len(full.differences) == 5
    assert (lean.rank_intervals, lean.simultaneous) == (full.rank_intervals, full.simultaneous)
    alone = joint_bootstrap(scores, [0] * 120, resamples=400, simultaneous=True, differences=False)
    assert alone.simultaneous is None
    assert alone.differences == joint_bootstrap(scores, [0] * 120, resamples=400).differences


def test_the_largest_standardised_deviation_is_taken_over_every_pair() -> None:
    from benchmark_core.stats._simultaneous import _maxima

    rng = random.Random(2)
    deviations = [[rng.gauss(0.0, 1.0 + run) for _ in range(200)] for run in range(5)]
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    weights = [0.0 if pair == (1, 3) else rng.random() for pair in pairs]  # a pair without spread is left out
    expected = [
        max([0.0] + [abs(deviations[i][b] - deviations[j][b]) * w for (i, j), w in zip(pairs, weights) if w > 0])
        for b in range(200)
    ]
    assert _maxima(deviations, pairs, weights) == expected
    assert _maxima(deviations, pairs[:1], weights[:1]) == [abs(a - b) * weights[0] for a, b in zip(*deviations[:2])]
    assert _maxima(deviations, pairs, [0.0] * len(pairs)) == [0.0] * 200
