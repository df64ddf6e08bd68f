"""The report of a run's rows: put in task order and labelled with their groups, then totals, mean,
bootstrap interval, usage, group means, what served the requests, and the benchmark's summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Optional, Union

import attrs

from .._model import BatchStats, CacheStats, RunReport, RunRow, ServedCount, ShardInfo, Task, Totals, Usage
from ..adapters._batches import BATCH_DISCOUNT
from ..adapters.base import ModelAdapter
from ..stats._epochs import epoch_statistics
from ..stats._groups import group_means, interval_units
from ..stats._stats import cluster_bootstrap_ci
from ._options import RunOptions
from ._target import RunTarget

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

ServedKey = tuple[Optional[str], Optional[str]]


def build_report(
    benchmark: Benchmark,
    adapter: Union[ModelAdapter, RunTarget],
    tasks: Sequence[Task],
    rows: Sequence[RunRow],
    *,
    mode: str,
    seed: int,
    started_at: str,
    options: Optional[RunOptions] = None,
    cache: bool = False,
    batches: Optional[list[str]] = None,
    shard: Optional[ShardInfo] = None,
) -> RunReport:
    """The report of `rows` (put in task order, labelled with their groups): totals, mean, interval,
    usage, group means, what served the requests, and the benchmark's summary. `complete` says
    whether every task of `tasks` has a row. `adapter` may be a `RunTarget`: only its model and
    provider are read (`merge_shards` has no adapter). `shard` is recorded in a shard's report."""
    order = {task.id: position for position, task in enumerate(tasks)}
    labels = {task.id: benchmark.task_groups(task) for task in tasks}
    final_rows = [
        _labelled(row, labels.get(row.task_id, row.groups))
        for row in sorted(rows, key=lambda row: (order.get(row.task_id, len(order)), row.epoch or 0))
    ]
    scores = [r.score for r in final_rows]
    per_task = epoch_statistics(final_rows, options.epochs if options is not None else None)
    # K epochs of one task (and, with `cluster_by`, the tasks of one cluster) are not independent
    # draws: the interval resamples them together.
    units = interval_units(final_rows, benchmark.cluster_by)
    return RunReport(
        benchmark=benchmark.id,
        version=benchmark.version,
        model=adapter.model,
        provider=adapter.provider,
        mode=mode,
        seed=seed,
        started_at=started_at,
        finished_at=utc_now(),
        mean=sum(scores) / len(scores) if scores else 0.0,
        **per_task.fields(),
        confidence_interval95=cluster_bootstrap_ci(units.grouped(scores), seed=seed),
        clustered_by=units.clustered_by,
        clusters=units.clusters,
        totals=_totals(final_rows),
        usage=_total_usage(final_rows),
        groups=group_means(final_rows),
        complete=len(final_rows) == len(tasks) * per_task.epochs,
        generation=options.generation() if options is not None else {},
        served_by=_served_totals(final_rows),
        cache=_cache_stats(final_rows) if cache else None,
        batch=_batch_stats(final_rows, batches) if batches is not None else None,
        truncated_rows=sum(1 for r in final_rows if r.truncated),
        shard=shard,
        sandbox=_sandbox(final_rows),
        summary=benchmark.summarize(tasks, final_rows) if benchmark.summarize else {},
        rows=final_rows,
    )


def _totals(rows: Sequence[RunRow]) -> Totals:
    return Totals(
        tasks=len(rows), passed=sum(1 for r in rows if r.passed), failed=sum(1 for r in rows if r.error is not None)
    )


def _sandbox(rows: Sequence[RunRow]) -> Optional[str]:
    """The seal an agent run's rows ran in: the weakest of theirs ("none" beats "bwrap")."""
    seals = {row.agent.sandbox for row in rows if row.agent is not None and row.agent.sandbox}
    return "none" if "none" in seals else "bwrap" if seals else None


def row_key(row: RunRow) -> tuple[str, Optional[int]]:
    """What identifies a row within a run: its task and, in runs of several epochs, its epoch."""
    return (row.task_id, row.epoch)


def served_counts(served: dict[ServedKey, int]) -> list[ServedCount]:
    """Requests per (model, provider), in a stable order: the same rows give the same report."""
    return [ServedCount(model=m, provider=p, requests=n) for (m, p), n in sorted(served.items(), key=_served_order)]


def utc_now() -> str:
    """An ISO 8601 UTC timestamp with milliseconds, as reports carry them."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _total_usage(rows: Sequence[RunRow]) -> Usage:
    usage = Usage()
    for row in rows:
        usage = usage + row.usage
    return usage


def _cache_stats(rows: Sequence[RunRow]) -> CacheStats:
    saved = [r.cached_cost_usd for r in rows if r.cached_cost_usd is not None]
    return CacheStats(hits=sum(r.cache_hits for r in rows), saved_cost_usd=sum(saved) if saved else None)


def _batch_stats(rows: Sequence[RunRow], batches: list[str]) -> BatchStats:
    """The discount, the batches, and what the rows (costed at the batch price) saved."""
    costs = [r.usage.cost_usd for r in rows if r.usage.cost_usd is not None]
    saved = sum(costs) * BATCH_DISCOUNT / (1 - BATCH_DISCOUNT) if costs else None
    return BatchStats(discount=BATCH_DISCOUNT, batches=list(batches), saved_cost_usd=saved)


def _served_totals(rows: Sequence[RunRow]) -> list[ServedCount]:
    counts: Counter[ServedKey] = Counter()
    for row in rows:
        for served in row.served_by:
            counts[(served.model, served.provider)] += served.requests
    return served_counts(counts)


def _served_order(item: tuple[ServedKey, int]) -> tuple[str, str]:
    (model, provider), _ = item
    return (model or "", provider or "")


def _labelled(row: RunRow, groups: dict[str, str]) -> RunRow:
    # Copy only the rows whose labels change: a copy per row is a tenth of a large run's report time.
    return row if row.groups == groups else attrs.evolve(row, groups=groups)
