"""A sweep run in shards (`sweep --shard I/N` on N machines sharing the results folder), joined:
each cell's shard reports merged into the cell's `report.json` (`merge_shards`), as the unsharded
sweep would have written it."""

from __future__ import annotations

from pathlib import Path

from .._errors import ShardMergeError
from .plan import SweepPlan
from .sweep import CellOutcome, SweepOutcome

#: The file name a shard of a cell writes (`SweepPlan.sharded`).
SHARD_GLOB = "report.shard-*-of-*.json"


def merge_sweep_shards(plan: SweepPlan) -> SweepOutcome:
    """Merge every cell's shard reports (all N of them must be there) into its `report.json`, and
    return what became of each cell, as a sweep does. Sends nothing; refuses (`ShardMergeError`) a
    cell whose shards are missing or do not make one run, before any report is written."""
    from .._benchmark.plugins import resolve_benchmark
    from .._model.wire import dumps
    from .._run.files import write_output
    from .._run.merge import merge_shards

    merged = []
    for cell in plan.cells:
        folder = cell.output.parent
        reports = sorted(folder.glob(SHARD_GLOB))
        # A shard that never wrote its report (its machine died) still has its journal.
        unreported = [j for j in sorted(folder.glob(SHARD_GLOB + ".journal.jsonl")) if not _report_of(j).is_file()]
        sources = [*reports, *unreported]
        if not sources:
            raise ShardMergeError(
                f"{cell.name}: no shard reports ({SHARD_GLOB}) in {folder}; run `sweep --shard I/N` first"
            )
        benchmark = resolve_benchmark(cell.benchmark.spec)
        try:
            merged.append((cell, merge_shards(benchmark, sources, tasks=cell.benchmark.tasks)))
        except ShardMergeError as exc:
            raise ShardMergeError(f"{cell.name}: {exc.message}") from None
    outcomes = []
    for cell, report in merged:
        write_output(cell.output, dumps(report, indent=2) + "\n", journal=None, rows_safe=0)
        status = "stopped" if not report.complete else "errored" if report.totals.failed else "done"
        outcomes.append(CellOutcome(cell, status, report, report.stopped))
    return SweepOutcome(plan=plan, cells=outcomes)


def _report_of(journal: Path) -> Path:
    return journal.with_name(journal.name.removesuffix(".journal.jsonl"))
