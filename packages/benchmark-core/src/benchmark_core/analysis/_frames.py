"""`runs_frame` and `rows_frame`: run reports as pandas DataFrames, built from the reports' wire
form (their JSON documents) one report at a time, without structuring every row into the model's
classes (`tools/bench_analysis.py` measures 100,000 rows)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors._usage import MissingExtraError
from ..runs._collector import fewer_collections
from ._reading import ReportSource, iter_reports
from ._rows import RowColumns, flattened, row_reports

if TYPE_CHECKING:
    import pandas

_RUN_FIELDS = ("benchmark", "version", "model", "provider", "mode", "seed")


def pandas_module() -> Any:
    """pandas, or `MissingExtraError` naming the extra that brings it."""
    try:
        import pandas
    except ImportError:
        raise MissingExtraError(
            "results as data need the `analysis` extra (pandas and pyarrow): pip install 'benchmark-core[analysis]'"
        ) from None
    return pandas


def runs_frame(sources: Iterable[ReportSource]) -> pandas.DataFrame:
    """One row per report: what ran (benchmark, version, model, provider, mode, seed, epochs), its
    figures (mean and interval, pass@1/pass^k/pass@k/flip rate with epochs, tasks, passed, errored,
    tokens, cost, median latency, cache hits), whether it completed, the report's path, and the
    benchmark's scalar summary fields as `summary.<field>`."""
    pd = pandas_module()
    with fewer_collections():
        records = [run_record(path, document) for path, document in iter_reports(sources)]
    frame: pandas.DataFrame = (
        pd.DataFrame.from_records(records) if records else pd.DataFrame(columns=["report", *_RUN_FIELDS])
    )
    return frame


def rows_frame(sources: Iterable[ReportSource]) -> pandas.DataFrame:
    """One row per task x epoch x report (a run of one epoch has epoch 1): the run's identity, the
    task, its score, verdict, error code and message, attempts, tokens, cost, latency and cache
    hits, its group labels as `group.<dimension>` and the scalar fields of its grader's details as
    `detail.<field>` (nested objects flattened as `detail.<a>.<b>`; lists left out). Columns are
    gathered report by report and made a frame once, at the end."""
    pd = pandas_module()
    columns = RowColumns()
    # Every row leaves a handful of objects alive: the collector's default threshold would walk the
    # growing heap again and again (it tripled the time at 100,000 rows), as it does in a run.
    with fewer_collections():
        for path, report in row_reports(sources):
            columns.add(path, report)
        frame: pandas.DataFrame = pd.DataFrame(columns.data)
    return frame


def median_latency(rows: list[dict[str, Any]]) -> Any:
    latencies = [row["latencyMs"] for row in rows if isinstance(row.get("latencyMs"), (int, float))]
    return statistics.median(latencies) if latencies else None


def run_record(path: Path, document: dict[str, Any]) -> dict[str, Any]:
    """One report's figures (see `runs_frame`)."""
    rows = document.get("rows") or []
    totals = document.get("totals") or {}
    usage = document.get("usage") or {}
    interval = document.get("confidenceInterval95") or {}
    epochs = document.get("epochs", 1)
    record: dict[str, Any] = {"report": str(path), **{name: document.get(name) for name in _RUN_FIELDS}}
    record.update(
        epochs=epochs,
        started_at=document.get("startedAt"),
        finished_at=document.get("finishedAt"),
        complete=document.get("complete", True),
        mean=document.get("mean"),
        ci_low=interval.get("low"),
        ci_high=interval.get("high"),
        pass_at1=document.get("passAt1"),
        pass_hat_k=document.get("passHatK"),
        pass_at_k=document.get("passAtK"),
        flip_rate=document.get("flipRate"),
        tasks=len({row["taskId"] for row in rows}) if rows else (totals.get("tasks") or 0) // max(1, epochs),
        rows=totals.get("tasks"),
        passed=totals.get("passed"),
        errored=totals.get("failed"),
        prompt_tokens=usage.get("promptTokens"),
        completion_tokens=usage.get("completionTokens"),
        tokens=(usage.get("promptTokens") or 0) + (usage.get("completionTokens") or 0),
        cost_usd=usage.get("costUsd"),
        median_latency_ms=median_latency(rows),
        cache_hits=(document.get("cache") or {}).get("hits"),
    )
    summary = {key: value for key, value in document.items() if key not in _report_keys()}
    record.update({f"summary.{key}": value for key, value in flattened(summary)})
    return record


def _report_keys() -> frozenset[str]:
    """The wire keys of `RunReport`'s own fields; every other top-level key is the benchmark's summary."""
    import attrs

    from .._model import RunReport
    from ..wire._converter import camel

    return frozenset(camel(field.name) for field in attrs.fields(RunReport))
