"""Results as data: saved run reports as pandas DataFrames, and exported as Parquet, CSV or JSONL.

    from benchmark_core.analysis import rows_frame, runs_frame
    rows = rows_frame(["results"])        # one row per task x epoch x report
    runs = runs_frame(["results"])        # one row per report

Paths are report files or folders (every `*.json` run report below them, in path order). Reports
are read one at a time and only their figures are kept, never every document at once. Needs the
`analysis` extra (`pip install "benchmark-core[analysis]"`: pandas and pyarrow); importing this
package does not import pandas, and a function that needs it without the extra raises
`MissingExtraError` naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

_EXPORTS = {
    "._export": ("EXPORT_FORMATS", "export_results"),
    "._frames": ("rows_frame", "runs_frame"),
    "._reading": ("ReportSource", "iter_reports", "report_paths"),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._export import EXPORT_FORMATS, export_results
    from ._frames import rows_frame, runs_frame
    from ._reading import ReportSource, iter_reports, report_paths
__all__ = [
    "EXPORT_FORMATS",
    "ReportSource",
    "export_results",
    "iter_reports",
    "report_paths",
    "rows_frame",
    "runs_frame",
]
# End of the generated block.
