"""What a leaderboard shows of a group of comparable runs, beside their own figures: each run's rank
(a tie shares it) and 95% rank interval, and its verdict against the top run, with an error rate
that holds for the whole group, the choice of the top included.

One joint bootstrap (`ranks.joint_bootstrap`) gives both: each resample draws the group's units (its
tasks, or the clusters its benchmark declares: the rule of `interval_units`, which a run's own
interval and `compare` share) once for every run. From the same resamples come the rank intervals
and, for three runs or more, the simultaneous 95% intervals of every pairwise difference
(`simultaneous`: the single-step max-|t| method with its small-sample correction). A run is "worse"
than the top only when the simultaneous interval of its difference from the top excludes zero;
since the family holds every pair, the statement stays true at 95% whichever run the data put on
top. A group of N runs costs one bootstrap, not N - 1 (and no per-group differences: `compare` draws
those).

A group of two runs makes one comparison: its verdict is `compare`'s (the paired bootstrap interval
and, where it applies, McNemar's exact test, both must call it; the p-value is the larger of the
two).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional

from attrs import frozen

from .._model import ConfidenceInterval, RunReport, RunRow
from ..errors._base import BenchmarkError
from ..errors._usage import IncomparableReportsError
from ._compare import paired_mcnemar, rows_by_task
from ._compare_text import Verdict
from ._groups import interval_units
from ._ranks import JointBootstrap, RankInterval, competition_ranks, joint_bootstrap
from ._simultaneous import ADJUSTMENT

__all__ = ["Standing", "Standings", "rank_rows", "standings"]

#: The level of every verdict: the family-wise error rate of a group's verdicts.
LEVEL = 0.05
#: The simultaneous level of the intervals of a group of three runs or more.
SIMULTANEOUS_LEVEL = 1.0 - LEVEL


@frozen(kw_only=True)
class Standing:
    """One run's place in its group. The figures against the top are None for the top itself, and
    all but `rank` are None when the runs' rows cannot be matched (a task twice in one run).
    `difference_interval95` is the simultaneous interval of (this run - the top) in a group of three
    runs or more, the paired interval with two; `adjusted_p_value` the max-|t| adjusted p-value, or
    with two runs the p-value of `compare`'s rule."""

    rank: int
    rank_interval95: Optional[RankInterval] = None
    verdict: Optional[Verdict] = None
    mean_difference: Optional[float] = None
    difference_interval95: Optional[ConfidenceInterval] = None
    mcnemar_p_value: Optional[float] = None
    adjusted_p_value: Optional[float] = None


@frozen(kw_only=True)
class Standings:
    """Per run, in the order given (the top first); what the bootstrap resampled (`clustered_by`
    and `clusters`, None when it resampled tasks) and the number of comparisons with the top. How
    the verdicts are adjusted: `adjustment` ("max-t", simultaneous intervals of all pairs, for three
    runs or more; "none" for two, `compare`'s rule), `family` (the pairwise differences the
    simultaneous intervals cover at once), `simultaneous_level` and the max-|t| `critical_value` in
    standard errors (None without an adjustment)."""

    entries: list[Standing]
    comparisons: int
    clustered_by: Optional[str] = None
    clusters: Optional[int] = None
    adjustment: str = "none"
    family: int = 0
    simultaneous_level: Optional[float] = None
    critical_value: Optional[float] = None


def standings(reports: Sequence[RunReport], labels: Sequence[str], *, seed: int, resamples: int) -> Standings:
    """The standings of `reports`, best first (the first is the top); labels name them in errors."""
    try:
        matched = _matched_rows(reports, labels)
    except BenchmarkError:  # e.g. a report with a task twice: ranked, without intervals or verdicts
        ranks = competition_ranks([report.mean for report in reports])
        return Standings(entries=[Standing(rank=rank) for rank in ranks], comparisons=len(reports) - 1)
    return rank_rows(matched, reports[0].clustered_by, seed=seed, resamples=resamples)


def rank_rows(
    runs: Sequence[Sequence[RunRow]],
    cluster_by: Optional[str],
    *,
    seed: int,
    resamples: int,
    small_sample: bool = True,
) -> Standings:
    """The standings of runs given by their matched rows (`runs[r][i]` is run r's row of one task
    and epoch), best first; `cluster_by` is the benchmark's cluster dimension. `small_sample=False`
    leaves out the simultaneous intervals' small-sample correction (for measuring it)."""
    ranks = competition_ranks([math.fsum(row.score for row in rows) / len(rows) for rows in runs])
    if len(runs) < 2:
        return Standings(entries=[Standing(rank=rank) for rank in ranks], comparisons=0)
    top = runs[0]
    units = interval_units(top, cluster_by)
    joint = joint_bootstrap(
        [[row.score for row in rows] for rows in runs],
        units.keys,
        seed=seed,
        resamples=resamples,
        simultaneous=len(runs) > 2,
        small_sample=small_sample,
        differences=False,  # the verdicts come from the family where there is one
    )
    if joint.simultaneous is None:
        return _pair(
            runs,
            ranks,
            joint,
            clustered=units.clustered_by is not None,
            clustered_by=units.clustered_by,
            clusters=units.clusters,
        )
    family = joint.simultaneous
    entries = [Standing(rank=ranks[0], rank_interval95=joint.rank_intervals[0])]
    for index in range(1, len(runs)):
        difference = family.pair(index, 0)
        entries.append(
            Standing(
                rank=ranks[index],
                rank_interval95=joint.rank_intervals[index],
                verdict=_verdict(difference.interval, difference.adjusted_p_value),
                mean_difference=difference.mean_difference,
                difference_interval95=difference.interval,
                adjusted_p_value=difference.adjusted_p_value,
            )
        )
    return Standings(
        entries=entries,
        comparisons=len(runs) - 1,
        adjustment=ADJUSTMENT,
        family=family.family,
        simultaneous_level=family.level,
        critical_value=family.critical_value,
        clustered_by=units.clustered_by,
        clusters=units.clusters,
    )


def _pair(
    runs: Sequence[Sequence[RunRow]],
    ranks: list[int],
    joint: JointBootstrap,
    *,
    clustered: bool,
    clustered_by: Optional[str],
    clusters: Optional[int],
) -> Standings:
    """Two runs (or runs with a single unit, which no simultaneous interval covers): `compare`'s
    rule, the paired bootstrap interval and McNemar's test where it applies, both must agree."""
    top = runs[0]
    entries = [Standing(rank=ranks[0], rank_interval95=joint.rank_intervals[0])]
    for index, rows in enumerate(runs[1:], start=1):
        difference = joint.differences[index]
        assert difference is not None
        test = paired_mcnemar(top, rows, clustered=clustered)
        # Both tests must call a difference, so the verdict's p-value is the larger of the two.
        p = max(difference.p_value, test.p_value if test is not None else 0.0)
        entries.append(
            Standing(
                rank=ranks[index],
                rank_interval95=joint.rank_intervals[index],
                verdict=_verdict(difference.confidence_interval95, p) if len(runs) == 2 else None,
                mean_difference=difference.mean_difference,
                difference_interval95=difference.confidence_interval95 if len(runs) == 2 else None,
                mcnemar_p_value=test.p_value if test is not None else None,
                adjusted_p_value=p if len(runs) == 2 else None,
            )
        )
    return Standings(
        entries=entries,
        comparisons=len(runs) - 1,
        clustered_by=clustered_by,
        clusters=clusters,
        family=1 if len(runs) == 2 else 0,
    )


def _matched_rows(reports: Sequence[RunReport], labels: Sequence[str]) -> list[list[RunRow]]:
    keyed = [rows_by_task(report, label) for report, label in zip(reports, labels)]
    if any(rows.keys() != keyed[0].keys() for rows in keyed[1:]):
        raise IncomparableReportsError("the runs do not have the same rows")
    order = list(keyed[0])
    return [[rows[key] for key in order] for rows in keyed]


def _verdict(ci: ConfidenceInterval, adjusted_p_value: float) -> Verdict:
    if adjusted_p_value < LEVEL and ci.low > 0:
        return "better"
    if adjusted_p_value < LEVEL and ci.high < 0:
        return "worse"
    return "no detectable difference"
