"""Run reports beyond the root's `RunReport` and `RunRow`: their parts (totals, usage, intervals,
group means, serving and cache counts), building one from rows (`build_report`), and rendering it as
Markdown, HTML, a model card, a task browser or a leaderboard index entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    ".._model": (
        "AgentRecord",
        "Totals",
        "Usage",
        "ConfidenceInterval",
        "GroupMean",
        "IndexEntry",
        "ServedBy",
        "ServedCount",
        "BatchStats",
        "CacheStats",
    ),
    "..runs._run_report": ("build_report",),
    "._report": (
        "render_markdown",
        "render_summary",
        "index_entry",
    ),
    "._html_report": ("render_report_html",),
    "._card": ("render_card",),
    "._html_browser": ("render_task_browser_html",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._model import (
        AgentRecord,
        BatchStats,
        CacheStats,
        ConfidenceInterval,
        GroupMean,
        IndexEntry,
        ServedBy,
        ServedCount,
        Totals,
        Usage,
    )
    from ..runs._run_report import build_report
    from ._card import render_card
    from ._html_browser import render_task_browser_html
    from ._html_report import render_report_html
    from ._report import index_entry, render_markdown, render_summary
__all__ = [
    "AgentRecord",
    "BatchStats",
    "CacheStats",
    "ConfidenceInterval",
    "GroupMean",
    "IndexEntry",
    "ServedBy",
    "ServedCount",
    "Totals",
    "Usage",
    "build_report",
    "index_entry",
    "render_card",
    "render_markdown",
    "render_report_html",
    "render_summary",
    "render_task_browser_html",
]
# End of the generated block.
