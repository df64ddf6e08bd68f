"""`export_results`: every row of a set of run reports (`rows_frame`) as one Parquet, CSV or JSONL
file, for pandas, DuckDB, Polars, a spreadsheet or jq."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from ..errors._base import UsageError
from ..errors._usage import MissingExtraError
from ._frames import rows_frame
from ._reading import ReportSource

if TYPE_CHECKING:
    import pandas

EXPORT_FORMATS = ("parquet", "csv", "jsonl")


def export_results(
    sources: Iterable[ReportSource], output: Union[str, Path], *, format: Optional[str] = None
) -> pandas.DataFrame:
    """Write `rows_frame(sources)` to `output` as `format` (default: from the file's suffix) and
    return the frame. Parquet keeps the column types; a detail field that holds values of several
    types across rows (a number here, text there) is written as text there."""
    output = Path(output)
    chosen = format or output.suffix.lstrip(".").lower()
    if chosen not in EXPORT_FORMATS:
        raise UsageError(f"export format must be one of {', '.join(EXPORT_FORMATS)}, not {chosen or 'none'!r}")
    if chosen == "parquet":
        _require_pyarrow()
    frame = rows_frame(sources)
    output.parent.mkdir(parents=True, exist_ok=True)
    if chosen == "parquet":
        _one_type_per_column(frame).to_parquet(output, index=False, engine="pyarrow")
    elif chosen == "csv":
        frame.to_csv(output, index=False)
    else:
        frame.to_json(output, orient="records", lines=True, force_ascii=False)
    return frame


def _require_pyarrow() -> None:
    try:
        importlib.import_module("pyarrow")
    except ImportError:
        raise MissingExtraError(
            "Parquet needs pyarrow, part of the `analysis` extra: pip install 'benchmark-core[analysis]'"
        ) from None


def _one_type_per_column(frame: pandas.DataFrame) -> pandas.DataFrame:
    """Object columns that mix value types (Arrow columns have one type) as text, missing values kept."""
    mixed = [name for name in frame.columns if frame[name].dtype == object and len(_types(frame[name])) > 1]
    if not mixed:
        return frame
    frame = frame.copy()
    for name in mixed:
        frame[name] = frame[name].map(lambda value: None if value is None else str(value))
    return frame


def _types(column: Any) -> set[type]:
    return {type(value) for value in column if value is not None and value == value}  # NaN != NaN
