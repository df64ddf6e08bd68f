"""Comparing runs: "is B better than A, and how sure are we", task by task.

`compare_reports` matches the rows of two or more reports of one benchmark by task, and compares
each report after the first with the first: the mean difference, its paired bootstrap interval
(tasks, or the clusters the reports resampled, drawn together in both runs), the exact McNemar test
when every score is pass/fail and the pairs are independent, the same difference per task group,
and a plain verdict. `render_comparison` (`stats._compare_markdown`) writes it as Markdown and
`render_comparison_html` (`stats._compare_html`) as a page; the CLI's `compare`
command only reads files and prints one of them.

A difference is called only when the interval excludes zero and, for pass/fail scores, McNemar's
p is below the same level; otherwise the verdict is "no detectable difference".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional

from attrs import frozen

from .._model import ConfidenceInterval, RunReport, RunRow
from .._model.tasks import optional_field
from .._util.text import shorten
from ..errors._base import UsageError
from ..errors._usage import IncomparableReportsError
from ._compare_text import Verdict, verdict_sentence
from ._groups import interval_units
from ._stats import McNemarTest, cluster_bootstrap_ci, mcnemar_exact, paired_bootstrap_ci

__all__ = [
    "ComparedRun",
    "Comparison",
    "Difference",
    "GroupDifference",
    "compare_reports",
]

#: How a refusal names the runs' differing field, in the plural.
_KINDS = {
    "benchmark": "benchmarks",
    "version": "benchmark versions",
    "mode": "answer modes",
    "task_set": "task sets (private splits of other seeds, or one private and one not)",
}
#: Resamples of a run's own interval, as `run` draws them, so a leaderboard shows the report's CI.
_RUN_RESAMPLES = 2000


@frozen
class ComparedRun:
    """One report as compared: its mean and 95% interval over the compared tasks, resampled with the
    report's own seed (equal to the report's own figures when every task is compared)."""

    label: str
    model: str
    provider: str
    seed: int
    mean: float
    confidence_interval95: ConfidenceInterval
    tasks: int
    errored: int


@frozen
class GroupDifference:
    """The difference (second - first) over one task group's tasks."""

    tasks: int
    first_mean: float
    second_mean: float
    mean_difference: float
    confidence_interval95: ConfidenceInterval


@frozen
class Difference:
    """One report (`second`) against the first (`first`)."""

    first: str
    second: str
    mean_difference: float
    confidence_interval95: ConfidenceInterval
    mcnemar: Optional[McNemarTest]
    verdict: Verdict
    summary: str
    groups: dict[str, dict[str, GroupDifference]]


@frozen(kw_only=True)
class Comparison:
    """The whole comparison. `runs` are in the order given (the first is the baseline);
    `leaderboard` lists their labels by mean, best first, when three or more runs are compared."""

    benchmark: str
    version: str
    mode: str
    tasks: int
    #: Rows per task matched between the runs (their common number of epochs; 1 without epochs).
    epochs: int = 1
    not_compared: dict[str, int]
    seed: int
    resamples: int
    #: The group dimension whose clusters the paired bootstrap resampled (the first report's
    #: `clusteredBy`), and how many were compared; absent when it resampled tasks.
    clustered_by: Optional[str] = optional_field()
    clusters: Optional[int] = optional_field()
    runs: list[ComparedRun]
    leaderboard: Optional[list[str]]
    differences: list[Difference]


def compare_reports(
    reports: Sequence[RunReport],
    *,
    labels: Optional[Sequence[str]] = None,
    allow_different_tasks: bool = False,
    seed: int = 1,
    resamples: int = 10_000,
) -> Comparison:
    """Compare every report after the first with the first, task by task.

    `labels` name the reports in the output (default: their model ids); a repeated label gets its
    position appended. Reports of different benchmarks, versions or answer modes are refused, and so are
    different task sets unless `allow_different_tasks`, which restricts the comparison to the tasks
    every report has: `IncomparableReportsError` with the reason.
    """
    if len(reports) < 2:
        raise UsageError("compare needs at least two reports")
    if resamples <= 0:
        raise UsageError("resamples must be positive")
    names = _unique(list(labels) if labels is not None else [report.model for report in reports])
    if len(names) != len(reports):
        raise UsageError("give one label per report")
    _check_same_benchmark(reports, names)
    keyed = [rows_by_task(report, name) for report, name in zip(reports, names)]
    shared = [key for key in keyed[0] if all(key in rows for rows in keyed[1:])]
    not_compared = {name: len(rows) - len(shared) for name, rows in zip(names, keyed)}
    if any(not_compared.values()):
        reason = _task_set_difference(names, keyed, len(shared))
        if not allow_different_tasks or not shared:
            raise IncomparableReportsError(reason)
    matched = [[rows[key] for key in shared] for rows in keyed]
    runs = [_compared_run(report, name, rows) for report, name, rows in zip(reports, names, matched)]
    leaderboard = None
    if len(runs) >= 3:
        leaderboard = [run.label for run in sorted(runs, key=lambda run: -run.mean)]
    first = reports[0]
    units = interval_units(matched[0], first.clustered_by)
    differences = [
        _difference(names[0], names[i], matched[0], matched[i], first.clustered_by, seed=seed, resamples=resamples)
        for i in range(1, len(reports))
    ]
    return Comparison(
        benchmark=first.benchmark,
        version=first.version,
        mode=first.mode,
        tasks=len({task for task, _ in shared}),
        epochs=max((epoch for _, epoch in shared), default=1),
        not_compared=not_compared,
        seed=seed,
        resamples=resamples,
        clustered_by=units.clustered_by,
        clusters=units.clusters,
        runs=runs,
        leaderboard=leaderboard,
        differences=differences,
    )


def _unique(labels: list[str]) -> list[str]:
    """The labels, each repeated one suffixed with its position ("a.json #2"), so that a report
    compared with itself still reads clearly."""
    return [
        label if labels.count(label) == 1 or labels.index(label) == position else f"{label} #{position + 1}"
        for position, label in enumerate(labels)
    ]


def _check_same_benchmark(reports: Sequence[RunReport], names: Sequence[str]) -> None:
    from ._identity import RunIdentity

    first = RunIdentity.of_report(reports[0]).comparable()
    for report, name in zip(reports[1:], names[1:]):
        differences = first.difference(RunIdentity.of_report(report).comparable())
        if differences:
            field, mine, theirs = differences[0].field, differences[0].mine, differences[0].theirs
            raise IncomparableReportsError(
                f"{name} and {names[0]} are runs of different {_KINDS[field]} ({theirs} vs {mine}); "
                "only runs of the same benchmark, version, mode and task set can be compared"
            )


RowKey = tuple[str, int]


def rows_by_task(report: RunReport, name: str) -> dict[RowKey, RunRow]:
    """Rows keyed by task and epoch (1 for runs of one epoch), so that runs are matched task by task
    and epoch by epoch."""
    rows: dict[RowKey, RunRow] = {}
    for row in report.rows:
        key = (row.task_id, row.epoch or 1)
        if key in rows:
            raise IncomparableReportsError(f"{name} has task {row.task_id!r} twice")
        rows[key] = row
    if not rows:
        raise IncomparableReportsError(f"{name} has no rows (was it printed by `run --json`? compare needs --output)")
    return rows


def _task_set_difference(names: Sequence[str], keyed: Sequence[dict[RowKey, RunRow]], shared: int) -> str:
    parts = []
    for name, rows in zip(names[1:], keyed[1:]):
        extra = [key for key in rows if key not in keyed[0]]
        missing = [key for key in keyed[0] if key not in rows]
        if extra:
            parts.append(f"{name} has {len(extra)} task(s) that {names[0]} lacks{_examples(extra)}")
        if missing:
            parts.append(f"{name} lacks {len(missing)} of {names[0]}'s tasks{_examples(missing)}")
    if not shared:
        return "; ".join(parts) + "; the runs share no task"
    return (
        "; ".join(parts)
        + f"; to compare only the {shared} task(s) they share, allow different tasks (--allow-different-tasks)"
    )


def _examples(keys: Sequence[RowKey]) -> str:
    if not keys:
        return ""
    names = [task if epoch == 1 else f"{task} (epoch {epoch})" for task, epoch in keys]
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return f" ({shorten(shown, 120)})"


def _compared_run(report: RunReport, label: str, rows: Sequence[RunRow]) -> ComparedRun:
    scores = [row.score for row in rows]
    units = interval_units(rows, report.clustered_by)
    return ComparedRun(
        label=label,
        model=report.model,
        provider=report.provider,
        seed=report.seed,
        mean=_mean(scores),
        confidence_interval95=cluster_bootstrap_ci(units.grouped(scores), seed=report.seed, resamples=_RUN_RESAMPLES),
        tasks=len({row.task_id for row in rows}),
        errored=sum(1 for row in rows if row.error is not None),
    )


def _difference(
    first_label: str,
    second_label: str,
    first: Sequence[RunRow],
    second: Sequence[RunRow],
    cluster_by: Optional[str],
    *,
    seed: int,
    resamples: int,
) -> Difference:
    a = [row.score for row in first]
    b = [row.score for row in second]
    mean_difference = _mean_difference(a, b)
    units = interval_units(first, cluster_by)
    ci = paired_bootstrap_ci(a, b, clusters=units.keys, seed=seed, resamples=resamples)
    test = paired_mcnemar(first, second, clustered=units.clustered_by is not None)
    verdict = _verdict(ci, test)
    return Difference(
        first=first_label,
        second=second_label,
        mean_difference=mean_difference,
        confidence_interval95=ci,
        mcnemar=test,
        verdict=verdict,
        summary=verdict_sentence(first_label, second_label, mean_difference, ci, test, verdict),
        groups=_group_differences(first, second, cluster_by, seed=seed, resamples=resamples),
    )


def paired_mcnemar(first: Sequence[RunRow], second: Sequence[RunRow], *, clustered: bool) -> Optional[McNemarTest]:
    """McNemar's exact test of two runs' matched rows where it applies: every score pass/fail, and
    the pairs independent. A task's epochs are not, nor are the tasks of one cluster (`clustered`),
    so then None: only the paired interval (which resamples them together) decides."""
    a = [row.score for row in first]
    b = [row.score for row in second]
    if not all(score in (0.0, 1.0) for score in (*a, *b)):
        return None
    tasks = [row.task_id for row in first]
    if clustered or len(set(tasks)) != len(tasks):
        return None
    return mcnemar_exact([x == 1.0 for x in a], [y == 1.0 for y in b])


def _verdict(ci: ConfidenceInterval, test: Optional[McNemarTest]) -> Verdict:
    """A difference is called only when the interval excludes zero and McNemar's p (when the test
    applies) is below the same 5% level."""
    significant = test is None or test.p_value < 0.05
    if significant and ci.low > 0:
        return "better"
    if significant and ci.high < 0:
        return "worse"
    return "no detectable difference"


def _group_differences(
    first: Sequence[RunRow], second: Sequence[RunRow], cluster_by: Optional[str], *, seed: int, resamples: int
) -> dict[str, dict[str, GroupDifference]]:
    """Per group of the first run's labels: the same paired difference over the group's tasks,
    resampling clusters where the group spans two or more (a group of one cluster, such as a group of
    the clustering dimension itself, resamples its tasks)."""
    members: dict[str, dict[str, list[int]]] = {}
    for index, row in enumerate(first):
        for dimension, group in row.groups.items():
            members.setdefault(dimension, {}).setdefault(group, []).append(index)
    out: dict[str, dict[str, GroupDifference]] = {}
    for dimension, groups in members.items():
        out[dimension] = {}
        for group, indices in sorted(groups.items()):
            a = [first[i].score for i in indices]
            b = [second[i].score for i in indices]
            units = interval_units([first[i] for i in indices], cluster_by)
            out[dimension][group] = GroupDifference(
                tasks=len({first[i].task_id for i in indices}),
                first_mean=_mean(a),
                second_mean=_mean(b),
                mean_difference=_mean_difference(a, b),
                confidence_interval95=paired_bootstrap_ci(a, b, clusters=units.keys, seed=seed, resamples=resamples),
            )
    return out


def _mean(scores: Sequence[float]) -> float:
    return math.fsum(scores) / len(scores)


def _mean_difference(first: Sequence[float], second: Sequence[float]) -> float:
    """The mean of the paired differences (second - first), summed exactly."""
    return math.fsum(y - x for x, y in zip(first, second)) / len(first)
