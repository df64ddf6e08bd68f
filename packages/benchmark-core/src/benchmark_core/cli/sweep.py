"""`sweep FILE`: models x benchmarks from one TOML file, every cell an ordinary run with its own
journal and report under the results folder, then the leaderboard. The plan, the execution and the
leaderboard are core's (`benchmark_core.sweep`); this module prints.

Exit codes: 0 when every cell has every row without errors; 1 for a bad file (the line and key
named) or a results folder another process is writing, before anything is sent; 2 when a cell was
stopped (a fatal provider error stops that model's cells), has errored rows or could not be written.
Rerun the same command to continue: finished cells are skipped, partial ones resumed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import click

from ..errors._base import EXIT_FAILURE, EXIT_SIGINT, BenchmarkError, UsageError
from .base import command, echo_json

if TYPE_CHECKING:
    from ..sweep._plan import SweepPlan
    from ..sweep._sweep import SweepOutcome


@click.command("sweep")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--no-cache", is_flag=True, help="Send every request, reading and writing no response cache.")
@click.option("--retry-errored", is_flag=True, help="Send again the tasks whose rows errored in earlier sweeps.")
@click.option(
    "--shard",
    metavar="I/N",
    default=None,
    help="Run only shard I of N of every cell (as `run --shard`), into report.shard-I-of-N.json in each "
    "cell's folder: N machines sharing the results folder run one shard each, then `sweep FILE --merge`.",
)
@click.option(
    "--merge",
    "merge_shards",
    is_flag=True,
    help="Send nothing: join each cell's shard reports into its report.json and write the leaderboard.",
)
@command(tasks=False, json_help="Print the cells' outcomes as one JSON document (no progress lines).")
def sweep_cmd(
    file: Path, no_cache: bool, retry_errored: bool, shard: Optional[str], merge_shards: bool, as_json: bool
) -> None:
    """Run every model of FILE on every benchmark of FILE (a TOML file: results, [[models]],
    [[benchmarks]], [limits], [options]; see docs/sweeps.md), all cells at once under one limit of
    requests in flight per endpoint (provider + base URL).

    Each cell's report goes to RESULTS/<benchmark id>/<model label>/report.json, journaled as it
    runs; RESULTS/leaderboard.md and RESULTS/index.html are written at the end. Rerun the same
    command to continue: finished cells are skipped and partial ones resumed, sending nothing twice.
    Exits 0 when every cell completed without errored rows, 2 otherwise, 1 for a bad file.
    """
    from ..sweep._plan import plan_sweep
    from ..sweep._sweep import execute_sweep
    from .sweep_progress import SweepNotes, SweepProgress

    plan = plan_sweep(file)
    if merge_shards:
        from ..sweep._shards import merge_sweep_shards

        if shard is not None:
            raise UsageError("--merge joins the shards that `--shard I/N` sweeps wrote; give one or the other")
        _finish(plan, merge_sweep_shards(plan), as_json)
        return
    if shard is not None:
        plan = plan.sharded(shard)
    if no_cache:
        plan = plan.with_cache(False)
    click.echo(_preamble(plan), err=True)
    progress = SweepProgress(plan.cells) if sys.stderr.isatty() and not as_json else SweepNotes()
    try:
        outcome = asyncio.run(execute_sweep(plan, retry_errored=retry_errored, observer=progress))
    except KeyboardInterrupt:
        click.echo("interrupted: every finished row is journaled; rerun the same command to continue", err=True)
        sys.exit(EXIT_SIGINT)
    finally:
        if progress is not None:
            progress.close()
    _finish(plan, outcome, as_json)


def _preamble(plan: SweepPlan) -> str:
    from ..cache._cache import default_cache_dir

    models = len({cell.model.label for cell in plan.cells})
    benchmarks = len({cell.benchmark.id for cell in plan.cells})
    task_sets = len({cell.benchmark.results_folder for cell in plan.cells})
    shape = f"{models} models x {benchmarks} benchmarks"
    if task_sets > benchmarks:
        shape = f"{models} models x {task_sets} task sets of {benchmarks} benchmark{'s' if benchmarks > 1 else ''}"
    if all(cell.model.target.provider == "mock" for cell in plan.cells):
        cache = "response cache: not used (only mock models, whose answers cost nothing)"
    elif plan.cache is False:
        cache = "response cache off (--no-cache or cache = false): every request is sent"
    else:
        folder = default_cache_dir() if plan.cache is True else plan.cache
        cache = f"response cache {folder}: requests answered before are not sent again (--no-cache to send them)"
    limits = ", ".join(f"{endpoint} {limit}" for endpoint, limit in plan.limits.items())
    return (
        f"sweep: {len(plan.cells)} cells ({shape}) into {plan.results}\n"
        f"requests in flight per endpoint: {limits}\n{cache}"
    )


def _finish(plan: SweepPlan, outcome: SweepOutcome, as_json: bool) -> None:
    from ..sweep._leaderboard import write_leaderboard

    board_error: Optional[str] = None
    try:
        markdown, html = write_leaderboard(plan.results)
    except BenchmarkError as exc:  # a full disk: the cells' outcome is still what to report
        board_error, markdown, html = exc.message, plan.results / "leaderboard.md", plan.results / "index.html"
    if as_json:
        echo_json(_document(plan, outcome, markdown, html))
    else:
        click.echo(_table(plan, outcome))
        click.echo(f"leaderboard: {markdown} and {html}" if board_error is None else "leaderboard: not written")
    if board_error is not None:
        click.echo(f"error: the leaderboard was not written: {board_error}", err=True)
    unfinished = [cell for cell in outcome.cells if not cell.completed]
    for cell in unfinished:
        if cell.message is not None:
            click.echo(f"{cell.cell.name}: {cell.status}: {cell.message}", err=True)
    if unfinished:
        click.echo(
            f"error: {len(unfinished)} of {len(outcome.cells)} cells did not complete; "
            "fix the cause and rerun the same command to continue them",
            err=True,
        )
        sys.exit(EXIT_FAILURE)
    if board_error is not None:
        sys.exit(EXIT_FAILURE)


def _table(plan: SweepPlan, outcome: SweepOutcome) -> str:
    head = ("cell", "status", "rows", "errored", "mean", "report")
    rows = [head]
    for cell in outcome.cells:
        report = cell.report
        rows.append(
            (
                cell.cell.name,
                cell.status,
                str(report.totals.tasks) if report is not None else "-",
                str(report.totals.failed) if report is not None else "-",
                f"{report.mean * 100:.1f}%" if report is not None else "-",
                _relative(cell.cell.output),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in rows)


def _document(plan: SweepPlan, outcome: SweepOutcome, markdown: Path, html: Path) -> dict[str, Any]:
    cells = []
    for cell in outcome.cells:
        report = cell.report
        cells.append(
            {
                "benchmark": cell.cell.benchmark.id,
                "model": cell.cell.model.label,
                "status": cell.status,
                "completed": cell.completed,
                "output": str(cell.cell.output),
                "tasks": report.totals.tasks if report is not None else None,
                "errored": report.totals.failed if report is not None else None,
                "mean": report.mean if report is not None else None,
                "message": cell.message,
            }
        )
    return {
        "results": str(plan.results),
        "complete": outcome.completed,
        "cells": cells,
        "leaderboard": {"markdown": str(markdown), "html": str(html)},
    }


def _relative(path: Path, base: Optional[Path] = None) -> str:
    try:
        return str(path.relative_to(base or Path.cwd()))
    except ValueError:
        return str(path)
