"""`merge_shards`: the shards of one run (`run --shard I/N`), given as reports or as their journals,
joined into the report the unsharded run writes.

The merged report is rebuilt from the shards' rows by `build_report` over the whole task list, as the
unsharded run builds it: rows in task order, mean, interval, epochs, groups and the benchmark's
summary (which its `summarize` hook computes from all rows; shard summaries cannot be added up).
Everything but the timestamps and latencies is then byte for byte the unsharded run's. Shards that
do not make one run are refused (`ShardMergeError`, exit 1) before anything is built: one missing or
given twice, rows outside their shard, or shards that disagree on benchmark, version, task set, model,
mode or recorded options.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union, cast

import attrs
from attrs import frozen

from .._model import RunReport, RunRow, ShardInfo, Task
from ..errors._runs import ShardMergeError
from ..errors._tasks import TaskNotFoundError
from ..stats._identity import RunIdentity, task_set_digest
from ..wire._converter import camel, from_wire
from ._collector import fewer_collections
from ._journal import read_journal
from ._options import RunOptions, option_specs
from ._run_report import build_report
from ._shards import Shard
from ._target import RunTarget

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

#: A shard as `merge_shards` takes it: a report in memory, or the path of a report or a journal.
ShardSource = Union[RunReport, str, Path]


@frozen
class _Part:
    """One shard as read: where from, its record, its identity and rows, and how it ended."""

    label: str
    shard: Optional[ShardInfo]
    identity: RunIdentity
    rows: list[RunRow]
    started_at: str
    finished_at: Optional[str]
    stopped: Optional[str]


def merge_shards(
    benchmark: Benchmark, shards: Sequence[ShardSource], *, tasks: Optional[Union[str, Path]] = None
) -> RunReport:
    """The report of the whole run whose shards are `shards` (reports, or paths of reports or
    journals, in any order). `tasks` is the task file the shards ran, when it was not the
    benchmark's own. A shard read from its journal, or a report of a shard that stopped early,
    gives an incomplete report (`complete` false, `stopped` naming the shards)."""
    with fewer_collections():  # tens of thousands of rows stay alive until the report is built
        return _merge(benchmark, shards, tasks)


def _merge(benchmark: Benchmark, shards: Sequence[ShardSource], tasks: Optional[Union[str, Path]]) -> RunReport:
    parts = [_read(source, number) for number, source in enumerate(shards, start=1)]
    if not parts:
        raise ShardMergeError("merge needs the shards of a run")
    records = _check_shards(parts)
    first, record = parts[0], records[0]
    _check_agreement(parts, records, benchmark)
    whole = _whole_tasks(benchmark, tasks, record)
    rows = _owned_rows(parts, records, whole)
    identity = first.identity
    mode, seed = cast(str, identity.mode), cast(int, identity.seed)
    options = _options(record.options, mode)
    report = build_report(
        benchmark,
        RunTarget(model=cast(str, identity.model), provider=cast(str, identity.provider)),
        whole,
        rows,
        mode=mode,
        seed=seed,
        started_at=min(part.started_at for part in parts),
        options=options,
        cache=any(r.cache for r in records),
    )
    finished = [part.finished_at for part in parts]
    if all(f is not None for f in finished):
        report = attrs.evolve(report, finished_at=max(f for f in finished if f is not None))
    if report.complete:
        return report
    reasons = [f"shard {r.index}/{r.count}: {p.stopped}" for p, r in zip(parts, records) if p.stopped]
    total = len(whole) * options.epochs
    counted = f"{len(rows)} of {total} {'rows' if options.epochs > 1 else 'tasks'} finished"
    return attrs.evolve(report, stopped="; ".join([*reasons, counted]))


def _read(source: ShardSource, number: int) -> _Part:
    if isinstance(source, RunReport):
        return _from_report(source, f"shard report {number}")
    path = Path(source)
    if _is_journal(path):
        header, rows, _, _ = read_journal(path)
        shard = from_wire(header["shard"], ShardInfo, what=f"{path}: shard") if "shard" in header else None
        identity = RunIdentity.from_header(header)
        started = str(header.get("startedAt", ""))
        stopped = f"read from its journal {path.name}"
        return _Part(str(path), shard, identity, rows, started, None, stopped)
    from ._files import read_report

    return _from_report(read_report(path), str(path))


def _from_report(report: RunReport, label: str) -> _Part:
    if len(report.rows) != report.totals.tasks:
        raise ShardMergeError(
            f"{label} holds {len(report.rows)} of its {report.totals.tasks} rows (a `run --json` summary?); "
            "merge the reports that `run --shard I/N --output FILE` writes, or their journals"
        )
    identity = RunIdentity.of_report(report)
    stopped = report.stopped or (None if report.complete else "incomplete")
    return _Part(label, report.shard, identity, report.rows, report.started_at, report.finished_at, stopped)


def _is_journal(path: Path) -> bool:
    """A journal's first line is its whole header (`{"journal": 1, ...}`); a report's is `{`."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
    except OSError:
        return False  # read_report names the problem
    try:
        header = json.loads(first)
    except ValueError:
        return False
    return isinstance(header, dict) and "journal" in header


def _check_shards(parts: Sequence[_Part]) -> list[ShardInfo]:
    """Every part is a shard, of one count, each index exactly once."""
    records: list[ShardInfo] = []
    for part in parts:
        if part.shard is None:
            raise ShardMergeError(f"{part.label} is not a shard: it was run without --shard")
        records.append(part.shard)
    first = records[0]
    given: dict[int, str] = {}
    for part, record in zip(parts, records):
        if record.count != first.count:
            raise ShardMergeError(
                f"shards of different splits: {parts[0].label} is shard {first.index}/{first.count}, "
                f"{part.label} is shard {record.index}/{record.count}"
            )
        if record.index in given:
            both = f"{given[record.index]} and {part.label}"
            raise ShardMergeError(f"overlapping shards: {both} are both shard {record.index}/{record.count}")
        given[record.index] = part.label
    missing = [f"{i}/{first.count}" for i in range(1, first.count + 1) if i not in given]
    if missing:
        raise ShardMergeError(f"missing shard(s) {', '.join(missing)}: merge needs all {first.count} shards of the run")
    return records


def _check_agreement(parts: Sequence[_Part], records: Sequence[ShardInfo], benchmark: Benchmark) -> None:
    """The shards are of this benchmark and version, and agree on everything that makes a run."""
    first = parts[0]
    for wrong in first.identity.only("benchmark", "version").difference(RunIdentity.of_benchmark(benchmark)):
        if wrong.field == "benchmark":
            raise ShardMergeError(f"{first.label} is a shard of benchmark {wrong.mine!r}, not {wrong.theirs!r}")
        raise ShardMergeError(f"{first.label} ran {benchmark.id} version {wrong.mine}; this is version {wrong.theirs}")
    mine = first.identity.of_shard(records[0])
    for part, record in zip(parts[1:], records[1:]):
        differences = mine.difference(part.identity.of_shard(record))
        if differences:
            what, have, other = differences[0].what, differences[0].mine, differences[0].theirs
            raise ShardMergeError(
                f"shards disagree on {what}: {json.dumps(have)} in {first.label}, {json.dumps(other)} in {part.label}"
            )


def _whole_tasks(benchmark: Benchmark, source: Optional[Union[str, Path]], record: ShardInfo) -> list[Task]:
    """The whole run's task list, as the shards cut it: the task file, the `--task` selection."""
    whole = benchmark.tasks(source)
    if record.task_ids is not None:
        wanted = set(record.task_ids)
        unknown = wanted - {task.id for task in whole}
        if unknown:
            raise TaskNotFoundError(f"the shards ran task id(s) the task list lacks: {', '.join(sorted(unknown))}")
        whole = [task for task in whole if task.id in wanted]
    digest = task_set_digest(whole)
    ran = RunIdentity.of_benchmark(benchmark, record.task_set_digest)
    if ran.difference(RunIdentity.of_benchmark(benchmark, digest)):
        named = f"{source}" if source is not None else f"{benchmark.id}'s own tasks"
        raise ShardMergeError(
            f"the shards ran another task set ({record.tasks} tasks, {record.task_set_digest[:19]}) than {named} "
            f"({len(whole)} tasks, {digest[:19]}); give --tasks the task file the shards ran"
        )
    return whole


def _owned_rows(parts: Sequence[_Part], records: Sequence[ShardInfo], whole: Sequence[Task]) -> list[RunRow]:
    """Every part's rows, each checked to be a task of the run that the part's shard owns."""
    positions = {task.id: position for position, task in enumerate(whole)}
    rows: list[RunRow] = []
    for part, record in zip(parts, records):
        shard = Shard(record.index, record.count)
        for row in part.rows:
            position = positions.get(row.task_id)
            if position is None:
                raise ShardMergeError(f"{part.label} holds task {row.task_id!r}, which the run's task list lacks")
            if not shard.owns(position):
                owner = position % record.count + 1
                raise ShardMergeError(
                    f"overlapping shards: {part.label} (shard {shard}) holds task {row.task_id!r}, "
                    f"which is shard {owner}/{record.count}'s"
                )
        rows.extend(part.rows)
    return rows


def _options(recorded: dict[str, Any], mode: str) -> RunOptions:
    """The run options a shard recorded (its identity), back as `RunOptions`."""
    names = {camel(name): name for name, spec in option_specs(RunOptions).items() if spec.recorded}
    unknown = sorted(set(recorded) - set(names))
    if unknown:
        raise ShardMergeError(f"the shards record option(s) this benchmark-core does not know: {', '.join(unknown)}")
    return RunOptions(mode=mode, **{names[key]: value for key, value in recorded.items()})
