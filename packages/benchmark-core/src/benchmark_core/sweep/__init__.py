"""Sweeps and leaderboards: planning models x benchmarks (`plan_sweep`), running the plan's cells
(`execute_sweep`, `run_sweep`), and the leaderboard built from saved reports, as Markdown or HTML (the
results browser over them is `benchmark_core.view`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._plan": (
        "Cell",
        "SweepBenchmark",
        "SweepModel",
        "SweepPlan",
        "plan_sweep",
    ),
    "._sweep": (
        "CellOutcome",
        "SweepObserver",
        "SweepOutcome",
        "execute_sweep",
        "run_cell",
        "run_sweep",
        "run_sweep_async",
    ),
    "._leaderboard": (
        "Leaderboard",
        "LeaderboardEntry",
        "LeaderboardGroup",
        "SkippedFile",
        "build_leaderboard",
        "rank_reports",
        "write_leaderboard",
    ),
    "._leaderboard_markdown": ("render_leaderboard",),
    "._leaderboard_html": ("render_leaderboard_html",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._leaderboard import (
        Leaderboard,
        LeaderboardEntry,
        LeaderboardGroup,
        SkippedFile,
        build_leaderboard,
        rank_reports,
        write_leaderboard,
    )
    from ._leaderboard_html import render_leaderboard_html
    from ._leaderboard_markdown import render_leaderboard
    from ._plan import Cell, SweepBenchmark, SweepModel, SweepPlan, plan_sweep
    from ._sweep import CellOutcome, SweepObserver, SweepOutcome, execute_sweep, run_cell, run_sweep, run_sweep_async
__all__ = [
    "Cell",
    "CellOutcome",
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardGroup",
    "SkippedFile",
    "SweepBenchmark",
    "SweepModel",
    "SweepObserver",
    "SweepOutcome",
    "SweepPlan",
    "build_leaderboard",
    "execute_sweep",
    "plan_sweep",
    "rank_reports",
    "render_leaderboard",
    "render_leaderboard_html",
    "run_cell",
    "run_sweep",
    "run_sweep_async",
    "write_leaderboard",
]
# End of the generated block.
