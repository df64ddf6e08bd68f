"""Sweeps and leaderboards: planning models x benchmarks (`plan_sweep`), running the plan's cells
(`execute_sweep`, `run_sweep`), and the leaderboard built from saved reports, as Markdown or HTML;
the results browser over them (`create_view_app`, what `benchmark-core view` serves, reading a
`ResultsCatalog`) and its pages as a static site (`write_site`, what `leaderboard --site` writes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    ".._sweep.plan": (
        "Cell",
        "SweepBenchmark",
        "SweepModel",
        "SweepPlan",
        "plan_sweep",
    ),
    ".._sweep.sweep": (
        "CellOutcome",
        "SweepObserver",
        "SweepOutcome",
        "execute_sweep",
        "run_cell",
        "run_sweep",
        "run_sweep_async",
    ),
    ".._sweep.leaderboard": (
        "Leaderboard",
        "LeaderboardEntry",
        "LeaderboardGroup",
        "SkippedFile",
        "build_leaderboard",
        "write_leaderboard",
    ),
    ".._render.leaderboard_markdown": ("render_leaderboard",),
    ".._render.leaderboard_html": ("render_leaderboard_html",),
    ".._view.catalog": ("ResultsCatalog",),
    ".._view.app": ("create_view_app",),
    ".._view.site": ("write_site",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._render.leaderboard_html import render_leaderboard_html
    from .._render.leaderboard_markdown import render_leaderboard
    from .._sweep.leaderboard import (
        Leaderboard,
        LeaderboardEntry,
        LeaderboardGroup,
        SkippedFile,
        build_leaderboard,
        write_leaderboard,
    )
    from .._sweep.plan import Cell, SweepBenchmark, SweepModel, SweepPlan, plan_sweep
    from .._sweep.sweep import (
        CellOutcome,
        SweepObserver,
        SweepOutcome,
        execute_sweep,
        run_cell,
        run_sweep,
        run_sweep_async,
    )
    from .._view.app import create_view_app
    from .._view.catalog import ResultsCatalog
    from .._view.site import write_site
__all__ = [
    "Cell",
    "CellOutcome",
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardGroup",
    "ResultsCatalog",
    "SkippedFile",
    "SweepBenchmark",
    "SweepModel",
    "SweepObserver",
    "SweepOutcome",
    "SweepPlan",
    "build_leaderboard",
    "create_view_app",
    "execute_sweep",
    "plan_sweep",
    "render_leaderboard",
    "render_leaderboard_html",
    "run_cell",
    "run_sweep",
    "run_sweep_async",
    "write_leaderboard",
    "write_site",
]
# End of the generated block.
