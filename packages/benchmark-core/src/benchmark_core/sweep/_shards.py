"""A sweep run in shards (`sweep --shard I/N` on N machines sharing the results folder), joined:
each cell's shard reports merged into the cell's `report.json` (`merge_shards`), as the unsharded
sweep would have written it."""

from __future__ import annotations

from ..errors._runs import ShardMergeError
from ..runs._files import JOURNAL_SUFFIX, RunFiles
from ._plan import SweepPlan
from ._sweep import CellOutcome, SweepOutcome


def merge_sweep_shards(plan: SweepPlan) -> SweepOutcome:
    """Merge every cell's shard reports (all N of them must be there) into its `report.json`, and
    return what became of each cell, as a sweep does. Sends nothing; refuses (`ShardMergeError`) a
    cell whose shards are missing or do not make one run, before any report is written."""
    from .._benchmark.plugins import resolve_benchmark
    from ..runs._merge import merge_shards

    merged = []
    for cell in plan.cells:
        folder, pattern = cell.output.parent, cell.files.shard_reports
        reports = sorted(folder.glob(pattern))
        # A shard that never wrote its report (its machine died) still has its journal.
        journals = sorted(folder.glob(pattern + JOURNAL_SUFFIX))
        unreported = [j for j in journals if not RunFiles.of_journal(j).report.is_file()]
        sources = [*reports, *unreported]
        if not sources:
            raise ShardMergeError(
                f"{cell.name}: no shard reports ({pattern}) in {folder}; run `sweep --shard I/N` first"
            )
        benchmark = resolve_benchmark(cell.benchmark.spec)
        try:
            merged.append((cell, merge_shards(benchmark, sources, tasks=cell.benchmark.tasks)))
        except ShardMergeError as exc:
            raise ShardMergeError(f"{cell.name}: {exc.message}") from None
    outcomes = []
    for cell, report in merged:
        cell.files.write_report(report, journaled=False)
        status = "stopped" if not report.complete else "errored" if report.totals.failed else "done"
        outcomes.append(CellOutcome(cell, status, report, report.stopped))
    return SweepOutcome(plan=plan, cells=outcomes)
