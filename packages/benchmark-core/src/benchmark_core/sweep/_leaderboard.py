"""The leaderboard of a results folder: every run report in it (written by a sweep or not), grouped
so that only comparable runs are ranked together, each group ranked by mean.

Reports are comparable when they share benchmark, version, answer mode, epochs and task set (the
same task ids); any other report lands in a group of its own, never in someone else's ranking. A
run stopped before it finished (SIGTERM, a failure) whose tasks are a subset of a group of finished
runs joins that group as partial: listed with it, not ranked (a group of its own would rank it first
on fewer tasks). Within
a group of three models or more, a model is "worse" than the top only when the simultaneous 95%
interval of its difference from the top excludes zero (`stats._standings`: the intervals of every
pairwise difference at once, max-|t| from the joint bootstrap, so the 5% holds whichever model is on
top); a group of two keeps `compare`'s rule (the paired bootstrap interval and, for pass/fail runs of
one epoch, McNemar's test). Next to the score:
tasks, errored rows, pass^k with epochs, tokens, cost and the median latency of answered rows.

`write_leaderboard` writes `leaderboard.md` and `index.html` (a self-contained page) into the folder.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Optional, Union, cast

import attrs
from attrs import frozen

from .._model import ConfidenceInterval, RunReport
from .._util.collector import collector_paused
from ..errors._base import BenchmarkError
from ..stats._identity import RunIdentity
from ..stats._ranks import RankInterval
from ..stats._standings import Standing, Standings, standings
from ._light import light_document
from ._light_rows import TRANSCRIPT_KEYS, light_rows

__all__ = [
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardGroup",
    "SkippedFile",
    "build_leaderboard",
    "group_key",
    "rank_reports",
    "read_results",
    "write_leaderboard",
]

LEADERBOARD_MARKDOWN = "leaderboard.md"
LEADERBOARD_HTML = "index.html"
#: What a group is keyed by (`group_key`): the comparable identity and the task ids the rows cover.
GroupKey = tuple[RunIdentity, frozenset[str]]


@frozen(kw_only=True)
class LeaderboardEntry:
    """One report's row. `rank` is shared by equal means (0 for a partial run, which is not
    ranked); `rank_interval95` is the 95% interval of the rank over the group's joint bootstrap.
    `verdict` is against the group's top model (`top` for the top itself; None when the group has
    one report), with the paired difference and its interval (the simultaneous interval when the
    group's `adjustment` is "max-t", the paired one with two models), McNemar's p where `compare`'s
    rule uses it (`p_value`, two models only), and the verdict's p-value (`adjusted_p_value`: max-|t|
    adjusted for the group's family of pairwise differences, or with two models `compare`'s)."""

    rank: int
    rank_interval95: Optional[RankInterval] = None
    label: str
    report: str
    model: str
    provider: str
    mean: float
    confidence_interval95: ConfidenceInterval
    verdict: Optional[str] = None
    mean_difference: Optional[float] = None
    difference_interval95: Optional[ConfidenceInterval] = None
    p_value: Optional[float] = None
    adjusted_p_value: Optional[float] = None
    tasks: int
    errored: int
    complete: bool
    pass_hat_k: Optional[float] = None
    total_tokens: int
    cost_usd: Optional[float] = None
    median_latency_ms: Optional[float] = None


@frozen(kw_only=True)
class LeaderboardGroup:
    """Reports that can be ranked together: one benchmark, version, answer mode, epochs and task set.
    `comparisons` is the number of verdicts against the top; `clustered_by` and `clusters` say what
    the joint bootstrap resampled (None: tasks). How the verdicts are adjusted: `adjustment` ("max-t":
    simultaneous intervals of all `family` pairwise differences at `simultaneous_level`, with the
    max-|t| `critical_value` in bootstrap standard errors; "none": two models, `compare`'s rule, or
    one). `partial`: runs stopped before finishing on a subset of the group's tasks, not ranked.
    """

    benchmark: str
    version: str
    mode: str
    tasks: int
    epochs: int
    task_set: str
    comparisons: int = 0
    clustered_by: Optional[str] = None
    clusters: Optional[int] = None
    adjustment: str = "none"
    family: int = 0
    simultaneous_level: Optional[float] = None
    critical_value: Optional[float] = None
    #: Why this group of agents is not ranked against the benchmark's models (`_agents_apart`).
    note: Optional[str] = None
    entries: list[LeaderboardEntry]
    partial: list[LeaderboardEntry] = attrs.Factory(list)


@frozen
class SkippedFile:
    """A JSON file of the folder that is not a run report with rows, and why."""

    path: str
    reason: str


#: A group's ranking (before its note) by its members, as `rank_reports(ranked=...)` keeps it:
#: (finished members, (relative path, report id) of each member then each partial run) -> (those
#: reports, the group).
RankedGroups = dict[tuple[int, tuple[tuple[str, int], ...]], tuple[tuple[RunReport, ...], LeaderboardGroup]]


@frozen(kw_only=True)
class Leaderboard:
    """Every group of `results`. Rank intervals and verdicts come from `resamples` joint bootstrap
    resamples per group, seeded with `seed`; verdicts of groups of three or more are adjusted by
    `adjustment` ("max-t": simultaneous intervals of all pairwise differences; see each group's)."""

    results: str
    seed: int = 1
    resamples: int = 10_000
    adjustment: str = "max-t"
    groups: list[LeaderboardGroup]
    skipped: list[SkippedFile]


def build_leaderboard(results: Union[str, Path], *, resamples: int = 10_000, seed: int = 1) -> Leaderboard:
    """The leaderboard of every run report under `results` (see the module docstring)."""
    folder = Path(results)
    with collector_paused():  # ranking allocates no cycle either: one deferred pass, not one per phase
        found, skipped = read_results(folder, transcripts=False)
        return rank_reports(str(folder), found, skipped, resamples=resamples, seed=seed)


def rank_reports(
    results: str,
    found: Sequence[tuple[str, RunReport]],
    skipped: Sequence[SkippedFile] = (),
    *,
    resamples: int = 10_000,
    seed: int = 1,
    ranked: Optional[RankedGroups] = None,
) -> Leaderboard:
    """The leaderboard of reports already read (`read_results`): each a path relative to `results`
    and its report. `view` reads a folder once and keeps what its pages need besides the ranking.
    `ranked` (kept by the caller from one call to the next) holds each group's ranking by its
    members: a group whose report objects are the same as last time is not ranked again."""
    grouped: dict[GroupKey, list[tuple[str, RunReport]]] = {}
    for relative, report in found:
        grouped.setdefault(group_key(report), []).append((relative, report))
    partial = _partial_runs(grouped)
    kept: RankedGroups = {}
    keyed: list[tuple[GroupKey, LeaderboardGroup]] = []
    for key, members in grouped.items():
        joined = partial.get(key, [])
        # Report objects by identity: the memo holds them, so no other object can take their ids.
        memo = (len(members), tuple((relative, id(report)) for relative, report in members + joined))
        known = ranked.get(memo) if ranked is not None else None
        group = known[1] if known is not None else _group(members, joined, resamples=resamples, seed=seed)
        kept[memo] = (tuple(report for _, report in members + joined), group)
        keyed.append((key, group))
    if ranked is not None:
        ranked.clear()
        ranked.update(kept)
    groups = [attrs.evolve(group, note=_agents_apart(key, group, keyed)) for key, group in keyed]
    groups.sort(key=lambda g: (g.benchmark, g.version, g.mode, -g.tasks, g.epochs, g.task_set))
    return Leaderboard(results=results, seed=seed, resamples=resamples, groups=groups, skipped=list(skipped))


def write_leaderboard(results: Union[str, Path], leaderboard: Optional[Leaderboard] = None) -> tuple[Path, Path]:
    """Write `leaderboard.md` and `index.html` into `results`; returns their paths."""
    from ..runs._files import write_text
    from ._leaderboard_html import render_leaderboard_html
    from ._leaderboard_markdown import render_leaderboard

    folder = Path(results)
    board = leaderboard if leaderboard is not None else build_leaderboard(folder)
    markdown, html = folder / LEADERBOARD_MARKDOWN, folder / LEADERBOARD_HTML
    write_text(markdown, render_leaderboard(board))
    write_text(html, render_leaderboard_html(board))
    return markdown, html


def read_results(folder: Path, *, transcripts: bool = True) -> tuple[list[tuple[str, RunReport]], list[SkippedFile]]:
    """Every run report with rows under `folder` (paths relative to it, in path order), and the
    JSON files that are not, with why. With `transcripts=False` each row is read without its
    transcript (empty trace, no episode or agent record): what ranking needs, at a fraction of the cost."""
    found: list[tuple[str, RunReport]] = []
    skipped: list[SkippedFile] = []
    with collector_paused():
        for path in json_files(folder):
            relative = path.relative_to(folder).as_posix()
            read = read_result(path, relative, transcripts=transcripts)
            if isinstance(read, SkippedFile):
                skipped.append(read)
            else:
                found.append((relative, read))
    return found, skipped


def read_result(path: Path, relative: str, *, transcripts: bool = True) -> Union[RunReport, SkippedFile]:
    """One JSON file of a results folder (`read_results`): its run report, or why it is skipped."""
    from ..runs._files import read_json
    from ..wire._converter import from_wire

    try:
        data = None if transcripts else light_document(path)
        light = data is not None
        if data is None:
            data = read_json(path)
        if not isinstance(data, dict) or "benchmark" not in data or "mean" not in data:
            return SkippedFile(relative, "not a run report")
        if isinstance(data.get("shard"), dict):
            shard = data["shard"]
            which = f"{shard.get('index')}/{shard.get('count')}"
            return SkippedFile(relative, f"shard {which} of a run (`merge` its shards, then rank the whole)")
        if not data.get("rows"):
            stopped = data.get("stopped")
            reason = f"a run stopped before its first row ({stopped})" if stopped else "a run report without rows"
            return SkippedFile(relative, reason if stopped else f"{reason} (written by `run --json`?)")
        if not transcripts:
            rows = data["rows"] if light else light_rows(data["rows"])
            if rows is not None:  # the rows are light records: the converter reads the rest
                return attrs.evolve(from_wire({**data, "rows": []}, RunReport, what="run report"), rows=rows)
            data = {**data, "rows": [_without_transcript(row) for row in data["rows"]]}
        return from_wire(data, RunReport, what="run report")
    except BenchmarkError as exc:
        return SkippedFile(relative, exc.message)


def _without_transcript(row: Any) -> Any:
    # A row that is not an object is left for from_wire to reject with its usual message.
    return {k: v for k, v in row.items() if k not in TRANSCRIPT_KEYS} if isinstance(row, dict) else row


def json_files(folder: Path) -> Iterator[Path]:
    """The JSON files under `folder` a leaderboard reads, in path order (hidden folders left out)."""
    if not folder.is_dir():
        from ..errors._usage import MissingFileError

        raise MissingFileError(f"no results folder at {folder}")
    for path in sorted(folder.rglob("*.json")):
        if not any(part.startswith(".") for part in path.relative_to(folder).parts):
            yield path


def _partial_runs(grouped: dict[GroupKey, list[tuple[str, RunReport]]]) -> dict[GroupKey, list[tuple[str, RunReport]]]:
    """Takes out of `grouped` each group made only of unfinished runs whose tasks are a strict
    subset of a group with a finished run and the same identity; returns them by the group they
    join (the one with the most tasks, when several would take them)."""
    finished = [key for key, members in grouped.items() if any(report.complete for _, report in members)]
    joined: dict[GroupKey, list[tuple[str, RunReport]]] = {}
    for key in [key for key in grouped if key not in finished]:
        homes = [home for home in finished if home[0] == key[0] and key[1] < home[1]]
        if homes:
            home = max(homes, key=lambda h: (len(h[1]), sorted(h[1])))
            joined.setdefault(home, []).extend(grouped.pop(key))
    return joined


def group_key(report: RunReport) -> GroupKey:
    """Reports rank together when their identities are comparable, with the same epochs, and their
    rows cover the same tasks (a report records its rows' task ids, not its task set's digest)."""
    identity = attrs.evolve(RunIdentity.of_report(report).comparable(), epochs=report.epochs)
    return identity, frozenset(row.task_id for row in report.rows)


def _agents_apart(
    key: GroupKey, group: LeaderboardGroup, keyed: Sequence[tuple[GroupKey, LeaderboardGroup]]
) -> Optional[str]:
    """Why a group of agents alone is not ranked against the models of its benchmark, when a group
    of models covers more tasks: an agent plays only the episode tasks, and reports rank together
    only on the same tasks. None for any other group."""
    if any(entry.provider != "agent" for entry in group.entries):
        return None
    identity, task_ids = key
    wider = [
        other.tasks
        for (theirs, their_ids), other in keyed
        if theirs == identity and task_ids < their_ids and any(entry.provider != "agent" for entry in other.entries)
    ]
    if not wider:
        return None
    ids = sorted(task_ids)
    flags = " ".join(f"--task {task_id}" for task_id in ids) if len(ids) <= 3 else "--task ID for each of them"
    return (
        f"Not ranked against the models: an agent plays only a benchmark's episode tasks, here {len(ids)} of the "
        f"{max(wider)} tasks the models' runs cover, and reports rank together only on the same tasks. A model's "
        f"run on these tasks alone (run {flags}, or task = [...] in the sweep's [[benchmarks]] entry) joins this group."
    )


def _task_ids_label(task_ids: frozenset[str]) -> str:
    """A short name for the tasks a group's rows cover, shown beside the group's heading."""
    return hashlib.sha256("\n".join(sorted(task_ids)).encode()).hexdigest()[:12]


def _group(
    members: list[tuple[str, RunReport]], partial: list[tuple[str, RunReport]], *, resamples: int, seed: int
) -> LeaderboardGroup:
    every = _labels([relative for relative, _ in members + partial])
    labels, partial_labels = every[: len(members)], every[len(members) :]
    ranked = sorted(zip(labels, members), key=lambda item: (-item[1][1].mean, item[0]))
    placed = standings(
        [report for _, (_, report) in ranked], [label for label, _ in ranked], seed=seed, resamples=resamples
    )
    entries = [
        _entry(label, relative, report, standing, top=index == 0 and len(ranked) > 1)
        for index, (standing, (label, (relative, report))) in enumerate(zip(placed.entries, ranked))
    ]
    identity, task_ids = group_key(ranked[0][1][1])
    return LeaderboardGroup(
        benchmark=identity.benchmark,
        version=identity.version,
        mode=cast(str, identity.mode),
        tasks=len(task_ids),
        epochs=cast(int, identity.epochs),
        task_set=_task_ids_label(task_ids),
        **_resampled(placed),
        entries=entries,
        partial=[
            _entry(label, relative, report, Standing(rank=0), top=False)
            for label, (relative, report) in sorted(zip(partial_labels, partial), key=lambda item: item[0])
        ],
    )


def _resampled(placed: Standings) -> dict[str, Any]:
    return {
        "comparisons": placed.comparisons,
        "clustered_by": placed.clustered_by,
        "clusters": placed.clusters,
        "adjustment": placed.adjustment,
        "family": placed.family,
        "simultaneous_level": placed.simultaneous_level,
        "critical_value": placed.critical_value,
    }


def _labels(paths: Sequence[str]) -> list[str]:
    """A sweep's `<benchmark>/<label>/report.json` reads as its label; any other file as its path
    without `.json`. Labels two reports would share fall back to the paths."""
    short = [p.rsplit("/", 2)[-2] if p.endswith("/report.json") else p.removesuffix(".json") for p in paths]
    return [s if short.count(s) == 1 else p.removesuffix(".json") for s, p in zip(short, paths)]


def _entry(label: str, relative: str, report: RunReport, standing: Standing, *, top: bool) -> LeaderboardEntry:
    latencies = [row.latency_ms for row in report.rows if row.error is None]
    # An agent that ran outside the seal could have read its answers: every table says so.
    unsealed = report.unsealed
    return LeaderboardEntry(
        rank=standing.rank,
        rank_interval95=standing.rank_interval95,
        label=f"{label} (unsealed)" if unsealed else label,
        report=relative,
        model=report.model,
        provider=report.provider,
        mean=report.mean,
        confidence_interval95=report.confidence_interval95,
        verdict="top" if top else standing.verdict,
        mean_difference=standing.mean_difference,
        difference_interval95=standing.difference_interval95,
        p_value=standing.mcnemar_p_value,
        adjusted_p_value=standing.adjusted_p_value,
        tasks=len({row.task_id for row in report.rows}),
        errored=report.totals.failed,
        complete=report.complete,
        pass_hat_k=report.pass_hat_k,
        total_tokens=report.usage.total_tokens,
        cost_usd=report.usage.cost_usd,
        median_latency_ms=float(statistics.median(latencies)) if latencies else None,
    )


def finite(value: Optional[float]) -> bool:
    return value is not None and math.isfinite(value)
