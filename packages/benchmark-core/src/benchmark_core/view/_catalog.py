"""What the results browser knows of its folders: every report, grouped and ranked as the
leaderboard ranks them (`rank_reports`), kept compact (per report: its headline, each task's
status and score, its group means and summary figures; the rows themselves are read again only
for the page that shows them), and the journals of runs in progress (`live`).

`refresh` looks at the folders again (a `stat` of each JSON file) and rebuilds only when a report
appeared, changed or went away, and then reads only that file and ranks only its group again (the
other groups, and what their pages computed, stay); `generation` counts the rebuilds, so a page
that polls knows when to reload. Several folders are ranked each on its own.
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from attrs import Factory, define, frozen

from .._model import ConfidenceInterval, GroupMean, RunReport, RunRow
from ..runs._files import JOURNAL_SUFFIX, RunFiles
from ..stats._identity import RunIdentity
from ..sweep._leaderboard import (
    LeaderboardGroup,
    RankedGroups,
    SkippedFile,
    json_files,
    rank_reports,
    read_result,
)
from ._benchmarks import task_set_size
from ._live import JournalTail, LiveRun
from ._paths import slug

__all__ = ["ResultsCatalog", "DimensionCell", "GroupView", "RunFile"]

#: How often, at most, `refresh` looks at the folders again.
RESCAN_SECONDS = 1.0


@frozen(kw_only=True)
class RunFile:
    """One report of a group, as the pages need it."""

    label: str
    slug: str
    path: Path
    relative: str
    benchmark: str
    model: str
    provider: str
    mean: float
    confidence_interval95: ConfidenceInterval
    #: Task id -> "p" (every epoch passed), "e" (an epoch errored) or "f".
    status: dict[str, str]
    #: Task id -> mean score over its epochs.
    scores: dict[str, float]
    #: Task id -> what the matrix's search reads besides the task: its rows' reasons and error
    #: codes, each once, lowercased.
    notes: dict[str, str]
    groups: dict[str, dict[str, GroupMean]]
    #: The benchmark's summary fields that are single figures (rates, counts).
    figures: dict[str, float]
    #: Its per-kind breakdowns (schema-mutation's `perMutationKind`, rollback-recovery's
    #: `perIncidentKind`): field -> group -> figure -> value, numbers only.
    breakdowns: dict[str, dict[str, dict[str, float]]]
    #: Its summary's intervals (rollback-recovery's `falseAlarmInterval95`): field -> (low, high).
    intervals: dict[str, tuple[float, float]]


@frozen
class DimensionCell:
    mean: float
    low: float
    high: float
    tasks: int


@define
class GroupView:
    """One group of comparable reports: its leaderboard rows, in rank order, with their files."""

    id: str
    group: LeaderboardGroup
    runs: list[RunFile]
    task_ids: list[str]
    task_groups: dict[str, dict[str, str]]
    #: The runs stopped on a subset of the group's tasks (`LeaderboardGroup.partial`), not ranked.
    partial: list[RunFile] = Factory(list)
    _cells: dict[str, dict[str, dict[str, DimensionCell]]] = Factory(dict)

    def run(self, run_slug: str) -> Optional[RunFile]:
        return next((run for run in [*self.runs, *self.partial] if run.slug == run_slug), None)

    @property
    def dimensions(self) -> list[str]:
        seen: dict[str, None] = {}
        for run in self.runs:
            seen.update((dimension, None) for dimension in run.groups)
        return list(seen)

    def dimension_cells(self, dimension: str) -> dict[str, dict[str, DimensionCell]]:
        """Run slug -> group -> mean with a 95% interval over the group's tasks (each task's mean
        over its epochs), computed once per group: the Wilson interval when every score is 0 or 1,
        else a bootstrap (2,000 resamples, seed 1)."""
        cached = self._cells.get(dimension)
        if cached is not None:
            return cached
        from ..stats._proportions import wilson_ci
        from ..stats._stats import bootstrap_ci

        members: dict[str, list[str]] = {}
        for task_id in self.task_ids:
            label = self.task_groups.get(task_id, {}).get(dimension)
            if label is not None:
                members.setdefault(label, []).append(task_id)
        table: dict[str, dict[str, DimensionCell]] = {}
        for run in self.runs:
            row: dict[str, DimensionCell] = {}
            for label in sorted(members):
                scores = [run.scores[t] for t in members[label] if t in run.scores]
                if scores:
                    passed = sum(score == 1.0 for score in scores)
                    binary = passed + sum(score == 0.0 for score in scores) == len(scores)
                    ci = wilson_ci(passed, len(scores)) if binary else bootstrap_ci(scores, seed=1, resamples=2000)
                    row[label] = DimensionCell(math.fsum(scores) / len(scores), ci.low, ci.high, len(scores))
            table[run.slug] = row
        self._cells[dimension] = table
        return table


class ResultsCatalog:
    """The reports and live journals under `roots`, ranked with `resamples` and `seed` as
    `leaderboard` ranks them."""

    def __init__(self, roots: Sequence[Path], *, resamples: int = 10_000, seed: int = 1) -> None:
        self.roots = [Path(root) for root in roots]
        self.resamples, self.seed = resamples, seed
        self.generation = 0
        self.groups: list[GroupView] = []
        self.skipped: list[tuple[str, SkippedFile]] = []
        self._by_id: dict[str, GroupView] = {}
        self._signature: tuple[Any, ...] = ()
        self._checked = 0.0
        self._tails: dict[Path, JournalTail] = {}
        #: Per folder, each JSON file's stamp (mtime, size) and what it read as, rows without transcripts.
        self._reports: dict[Path, dict[str, tuple[tuple[int, int], RunReport | SkippedFile]]] = {}
        self._ranked: dict[Path, RankedGroups] = {}
        self._run_files: dict[tuple[Path, str], tuple[RunReport, str, RunFile]] = {}
        self._lock = threading.Lock()
        #: Held while a rebuilt state is swapped in, and by a page that reads several parts of it
        #: (the index: groups, skipped files, generation) while it renders: the page sees one state.
        #: The reading and ranking before the swap happen outside it, so the page never waits for them.
        self.published = threading.Lock()
        self.refresh(force=True)

    def group(self, group_id: str) -> Optional[GroupView]:
        return self._by_id.get(group_id)

    def refresh(self, *, force: bool = False) -> bool:
        """Rebuild when the folders' reports changed; True when it did."""
        with self._lock:
            now = time.monotonic()
            if not force and now - self._checked < RESCAN_SECONDS:
                return False
            self._checked = now
            signature = tuple(_signature(root) for root in self.roots)
            if signature == self._signature and not force:
                return False
            self._signature = signature
            groups, skipped, run_files = self._build(signature)
            with self.published:
                self.groups, self.skipped, self._run_files = groups, skipped, run_files
                self._by_id = {g.id: g for g in groups}
                self.generation += 1
            return True

    def _build(
        self, signature: tuple[tuple[tuple[str, int, int], ...], ...]
    ) -> tuple[list[GroupView], list[tuple[str, SkippedFile]], dict[tuple[Path, str], tuple[RunReport, str, RunFile]]]:
        """Reads again only the files whose stamp (mtime, size) changed, ranks again only the groups
        whose reports changed (`rank_reports(ranked=...)`), and keeps the other groups' pages' state."""
        groups: list[GroupView] = []
        skipped: list[tuple[str, SkippedFile]] = []
        run_files: dict[tuple[Path, str], tuple[RunReport, str, RunFile]] = {}
        for number, (root, files) in enumerate(zip(self.roots, signature), start=1):
            found, left = self._read_root(root, files)
            skipped += [(str(root), s) for s in left]
            ranked = self._ranked.setdefault(root, {})
            board = rank_reports(str(root), found, left, resamples=self.resamples, seed=self.seed, ranked=ranked)
            reports = dict(found)
            prefix = f"r{number}-" if len(self.roots) > 1 else ""
            for group in board.groups:
                gid = prefix + slug(f"{group.benchmark}-{group.version}-{group.mode}-e{group.epochs}-{group.task_set}")
                runs = [self._run_file(root, e.report, e.label, reports, run_files) for e in group.entries]
                partial = [self._run_file(root, e.report, e.label, reports, run_files) for e in group.partial]
                old = self._by_id.get(gid)
                if old is not None and old.group == group and _same(old.runs, runs) and _same(old.partial, partial):
                    groups.append(old)  # nothing of it changed: its pages' computed state stays
                    continue
                first = reports[group.entries[0].report]
                task_groups = {row.task_id: dict(row.groups) for row in first.rows}
                task_ids = sorted({t for run in runs for t in run.status})
                groups.append(GroupView(gid, group, runs, task_ids, task_groups, partial))
        return groups, skipped, run_files

    def _read_root(
        self, root: Path, files: tuple[tuple[str, int, int], ...]
    ) -> tuple[list[tuple[str, RunReport]], list[SkippedFile]]:
        """The reports and skipped files of `root`, reading only the files whose stamp changed."""
        if not root.is_dir():
            from ..errors._usage import MissingFileError

            raise MissingFileError(f"no results folder at {root}")
        known, current = self._reports.get(root, {}), {}
        for relative, mtime_ns, size in files:
            held = known.get(relative)
            fresh = held is not None and held[0] == (mtime_ns, size)
            current[relative] = held if held is not None and fresh else ((mtime_ns, size), _read(root, relative))
        self._reports[root] = current
        found = [(relative, read) for relative, (_, read) in current.items() if isinstance(read, RunReport)]
        return found, [read for _, read in current.values() if isinstance(read, SkippedFile)]

    def _run_file(
        self,
        root: Path,
        relative: str,
        label: str,
        reports: dict[str, RunReport],
        kept: dict[tuple[Path, str], tuple[RunReport, str, RunFile]],
    ) -> RunFile:
        """The run file of a report, the one of the last build when its report and label are the same."""
        report, held = reports[relative], self._run_files.get((root, relative))
        same = held is not None and held[0] is report and held[1] == label
        run = held[2] if held is not None and same else _run_file(root, relative, label, report)
        kept[(root, relative)] = (report, label, run)
        return run

    def live(self) -> list[LiveRun]:
        """Every run whose journal is newer than its report (or has none), read from where the
        last call stopped."""
        runs: list[LiveRun] = []
        seen: set[Path] = set()
        for number, root in enumerate(self.roots, start=1):
            for journal in sorted(_journals(root)):
                seen.add(journal)
                output = RunFiles.of_journal(journal).report
                try:
                    if output.exists() and output.stat().st_mtime_ns >= journal.stat().st_mtime_ns:
                        continue  # finished: the report is there (the journal holds errored rows to retry)
                except FileNotFoundError:
                    continue
                tail = self._tails.setdefault(journal, JournalTail(journal))
                if not tail.read() or tail.header is None:
                    continue
                relative = journal.relative_to(root).as_posix()
                shown = output.relative_to(root).as_posix()
                runs.append(tail.live_run(f"{number}:{relative}", relative, shown, _total(tail)))
        for gone in set(self._tails) - seen:
            del self._tails[gone]
        return runs


def _total(tail: JournalTail) -> Optional[int]:
    identity = RunIdentity.from_header(tail.header or {})
    if isinstance(identity.shard, dict):
        return None  # a shard runs part of the task set, which its journal does not list
    size = task_set_size(str(identity.benchmark), str(identity.task_set))
    epochs = identity.options.get("epochs") if isinstance(identity.options, dict) else None
    return size * (epochs if isinstance(epochs, int) and epochs > 0 else 1) if size is not None else None


def _signature(root: Path) -> tuple[tuple[str, int, int], ...]:
    if not root.is_dir():
        return ()
    found = []
    for path in json_files(root):
        try:
            info = path.stat()
        except FileNotFoundError:
            continue
        found.append((path.relative_to(root).as_posix(), info.st_mtime_ns, info.st_size))
    return tuple(found)


def _read(root: Path, relative: str) -> RunReport | SkippedFile:
    return read_result(root / relative, relative, transcripts=False)


def _same(old: Sequence[RunFile], new: Sequence[RunFile]) -> bool:
    return len(old) == len(new) and all(a is b for a, b in zip(old, new))


def _journals(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    found = root.rglob("*" + JOURNAL_SUFFIX)
    return [p for p in found if not any(s.startswith(".") for s in p.relative_to(root).parts)]


def _run_file(root: Path, relative: str, label: str, report: RunReport) -> RunFile:
    by_task: dict[str, list[RunRow]] = {}
    for row in report.rows:
        by_task.setdefault(row.task_id, []).append(row)
    status = {task_id: _status(rows) for task_id, rows in by_task.items()}
    scores = {task_id: math.fsum(r.score for r in rows) / len(rows) for task_id, rows in by_task.items()}
    notes = {
        task_id: " ".join(dict.fromkeys(n for r in rows for n in (r.reason, r.error_code or "") if n)).lower()
        for task_id, rows in by_task.items()
    }
    figures = {
        key: float(value)
        for key, value in report.summary.items()
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    }
    return RunFile(
        label=label,
        slug=slug(label),
        path=root / relative,
        relative=relative,
        benchmark=report.benchmark,
        model=report.model,
        provider=report.provider,
        mean=report.mean,
        confidence_interval95=report.confidence_interval95,
        status=status,
        scores=scores,
        notes=notes,
        groups=report.groups,
        figures=figures,
        breakdowns=_breakdowns(report.summary),
        intervals=_intervals(report.summary),
    )


def _intervals(summary: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The summary fields shaped {"low": x, "high": y, ...}, as two numbers."""
    found: dict[str, tuple[float, float]] = {}
    for key, value in summary.items():
        if isinstance(value, dict):
            low, high = value.get("low"), value.get("high")
            if isinstance(low, (int, float)) and isinstance(high, (int, float)):
                found[key] = (float(low), float(high))
    return found


def _breakdowns(summary: dict[str, Any]) -> dict[str, dict[str, dict[str, float]]]:
    """The summary fields shaped {group: {"tasks": n, ...numbers}}, as the run page's bar tables
    take them, keeping the numbers."""
    found: dict[str, dict[str, dict[str, float]]] = {}
    for key, value in summary.items():
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) and isinstance(v.get("tasks"), int) for v in value.values())
        ):
            found[key] = {
                str(group): {
                    k: float(n)
                    for k, n in stats.items()
                    if isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n)
                }
                for group, stats in value.items()
            }
    return found


def _status(rows: Sequence[RunRow]) -> str:
    if any(row.error is not None for row in rows):
        return "e"
    return "p" if all(row.passed for row in rows) else "f"


@functools.lru_cache(maxsize=8)
def _report_at(path: str, mtime_ns: int) -> RunReport:
    from ..runs._files import read_report

    return read_report(Path(path))


def read_run(run: RunFile) -> RunReport:
    """The whole report of `run` (the last few read are kept)."""
    return _report_at(str(run.path), os.stat(run.path).st_mtime_ns)
