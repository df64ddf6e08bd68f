"""What a leaderboard shows of a group of comparable runs, beside their own figures: each run's rank
(a tie shares it) and 95% rank interval, and its verdict against the top run, adjusted for the
number of such comparisons.

One joint bootstrap (`ranks.joint_bootstrap`) gives both: each resample draws the group's units (its
tasks, or the clusters its benchmark declares: the rule of `interval_units`, which a run's own
interval and `compare` share) once for every run. The paired difference of each run from the top,
its interval and its bootstrap p-value come from the same resamples, so a group of N runs costs one
bootstrap, not N - 1 (and no per-group differences: `compare` draws those).

A verdict's test is `compare`'s: the paired bootstrap, and McNemar's exact test where it applies
(pass/fail scores, independent pairs); a difference is called only when both do, so the test's
p-value is the larger of the two. The N - 1 p-values of a group are adjusted by Holm's method
(`holm`), and a run is "worse" (or "better") than the top only when its adjusted p-value is below
0.05. A group of two runs makes one comparison: its verdict is `compare`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional

from attrs import frozen

from .._model import ConfidenceInterval, RunReport, RunRow
from ..errors._errors import BenchmarkError, IncomparableReportsError
from ._compare import paired_mcnemar, rows_by_task
from ._compare_text import Verdict
from ._groups import interval_units
from ._holm import holm_adjusted
from ._ranks import RankInterval, competition_ranks, joint_bootstrap

__all__ = ["Standing", "Standings", "rank_rows", "standings"]

#: The level of every verdict, after adjustment.
LEVEL = 0.05


@frozen(kw_only=True)
class Standing:
    """One run's place in its group. The figures against the top are None for the top itself, and
    all but `rank` are None when the runs' rows cannot be matched (a task twice in one run)."""

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
    and `clusters`, None when it resampled tasks) and the number of comparisons with the top."""

    entries: list[Standing]
    comparisons: int
    clustered_by: Optional[str] = None
    clusters: Optional[int] = None


def standings(reports: Sequence[RunReport], labels: Sequence[str], *, seed: int, resamples: int) -> Standings:
    """The standings of `reports`, best first (the first is the top); labels name them in errors."""
    try:
        matched = _matched_rows(reports, labels)
    except BenchmarkError:  # e.g. a report with a task twice: ranked, without intervals or verdicts
        ranks = competition_ranks([report.mean for report in reports])
        return Standings(entries=[Standing(rank=rank) for rank in ranks], comparisons=len(reports) - 1)
    return rank_rows(matched, reports[0].clustered_by, seed=seed, resamples=resamples)


def rank_rows(runs: Sequence[Sequence[RunRow]], cluster_by: Optional[str], *, seed: int, resamples: int) -> Standings:
    """The standings of runs given by their matched rows (`runs[r][i]` is run r's row of one task
    and epoch), best first; `cluster_by` is the benchmark's cluster dimension."""
    ranks = competition_ranks([math.fsum(row.score for row in rows) / len(rows) for rows in runs])
    if len(runs) < 2:
        return Standings(entries=[Standing(rank=rank) for rank in ranks], comparisons=0)
    top = runs[0]
    units = interval_units(top, cluster_by)
    joint = joint_bootstrap([[row.score for row in rows] for rows in runs], units.keys, seed=seed, resamples=resamples)
    clustered = units.clustered_by is not None
    tests = [paired_mcnemar(top, rows, clustered=clustered) for rows in runs[1:]]
    differences = [d for d in joint.differences[1:] if d is not None]
    # Both tests must call a difference, so the verdict's p-value is the larger of the two.
    p_values = [max(d.p_value, test.p_value if test is not None else 0.0) for d, test in zip(differences, tests)]
    adjusted = holm_adjusted(p_values)
    entries = [Standing(rank=ranks[0], rank_interval95=joint.rank_intervals[0])]
    for index, (difference, test, p) in enumerate(zip(differences, tests, adjusted), start=1):
        entries.append(
            Standing(
                rank=ranks[index],
                rank_interval95=joint.rank_intervals[index],
                verdict=_verdict(difference.confidence_interval95, p),
                mean_difference=difference.mean_difference,
                difference_interval95=difference.confidence_interval95,
                mcnemar_p_value=test.p_value if test is not None else None,
                adjusted_p_value=p,
            )
        )
    return Standings(
        entries=entries, comparisons=len(runs) - 1, clustered_by=units.clustered_by, clusters=units.clusters
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
