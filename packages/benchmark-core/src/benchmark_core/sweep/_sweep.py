"""Running a sweep's cells: all at once in one event loop, each an ordinary run with its own journal
and report, the runs of one endpoint sharing one limit on requests in flight.

- Before anything is sent: every cell's output lock is taken (a second process on the same results
  is refused, naming the holder), every cell's tasks are loaded and its journal checked, and a
  finished cell (its report complete, of the same run) is skipped.
- A cell with a journal is resumed: only the tasks the journal lacks are sent.
- A fatal provider error in one cell (a rejected key, an unknown model) halts the other cells of the
  same model; the other models' cells go on.
- A cell's report is written when it ends; its journal is removed once the report holds every row
  without errors (kept otherwise, for a rerun with `retry_errored`).

`run_cell` runs one cell alone (another process or machine can run a plan's cells one by one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from attrs import frozen

from .._model import RunReport, RunRow
from ..errors._runs import MaxErrorsError, OutputWriteError, RunStoppedError
from ..errors._usage import ConfigurationError
from ..runs._journal import read_journal
from ..runs._limiter import AdaptiveLimiter
from ..runs._output_lock import OutputLock, lock_output
from ._plan import Cell, SweepPlan, plan_sweep

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..adapters.base import ModelAdapter
    from ..runs._runner import Run

__all__ = [
    "CellOutcome",
    "SweepObserver",
    "SweepOutcome",
    "execute_sweep",
    "prepare_cell",
    "run_cell",
    "run_sweep",
    "run_sweep_async",
]

#: What became of a cell: `done` (complete, no errored row), `errored` (complete, some rows errored),
#: `skipped` (finished by an earlier sweep), `stopped` (ended early: a fatal error or max_errors),
#: `failed` (its journal or report could not be written).
CELL_STATUSES = ("done", "errored", "skipped", "stopped", "failed")


@frozen
class CellOutcome:
    cell: Cell
    status: str
    report: Optional[RunReport]
    message: Optional[str] = None

    @property
    def completed(self) -> bool:
        """Whether the cell has every row, none errored (what a sweep's exit code reports)."""
        return self.status in ("done", "skipped") and (self.report is None or not self.report.totals.failed)


@frozen
class SweepOutcome:
    plan: SweepPlan
    cells: list[CellOutcome]

    @property
    def completed(self) -> bool:
        return all(outcome.completed for outcome in self.cells)


class SweepObserver:
    """What a sweep tells its caller as it goes (the CLI draws progress from it); does nothing here."""

    def started(self, cell: Cell, done: int, total: int) -> None:
        """`cell` starts with `done` of its `total` rows already journaled (or reported)."""

    def row(self, cell: Cell, done: int, total: int, row: RunRow) -> None:
        """A row of `cell` finished."""

    def finished(self, outcome: CellOutcome) -> None:
        """A cell ended (or was skipped)."""

    def note(self, cell: Cell, text: str) -> None:
        """What `cell`'s run says about how it resumed (episodes continued at their last finished
        turn, or started again and why)."""


class _Prepared:
    """A cell ready to run: its run (tasks loaded, journal checked), or its earlier report."""

    def __init__(self, cell: Cell, run: Optional[Run], finished: Optional[RunReport]) -> None:
        self.cell, self.run, self.finished = cell, run, finished


async def execute_sweep(
    plan: SweepPlan,
    *,
    retry_errored: bool = False,
    observer: Optional[SweepObserver] = None,
    cells: Optional[Sequence[Cell]] = None,
) -> SweepOutcome:
    """Run the plan's cells (or `cells`, some of them) to their end; see the module docstring."""
    watch = observer or SweepObserver()
    chosen = list(cells if cells is not None else plan.cells)
    locks: list[OutputLock] = []
    try:
        for cell in chosen:
            locks.append(lock_output(cell.journal))
        limiters = {endpoint: AdaptiveLimiter(limit) for endpoint, limit in plan.limits.items()}
        prepared = [
            await prepare_cell(cell, limiter=limiters.get(cell.endpoint), retry_errored=retry_errored, observer=watch)
            for cell in chosen
        ]
        outcomes = await asyncio.gather(*(_run_prepared(p, prepared, watch) for p in prepared))
    finally:
        for lock in locks:
            lock.release()
    return SweepOutcome(plan=plan, cells=list(outcomes))


async def run_cell(
    cell: Cell, *, limiter: Optional[AdaptiveLimiter] = None, retry_errored: bool = False
) -> CellOutcome:
    """Run one cell on its own (holding its output lock): what a worker elsewhere does with a cell."""
    lock = lock_output(cell.journal)
    try:
        prepared = await prepare_cell(cell, limiter=limiter, retry_errored=retry_errored)
        return await _run_prepared(prepared, [prepared], SweepObserver())
    finally:
        lock.release()


async def prepare_cell(
    cell: Cell,
    *,
    limiter: Optional[AdaptiveLimiter] = None,
    retry_errored: bool = False,
    observer: Optional[SweepObserver] = None,
) -> _Prepared:
    """The cell's run with its tasks loaded and its journal checked, or its finished report; every
    mistake raised now, before anything is sent."""
    from .._benchmark.plugins import resolve_benchmark
    from ..runs._files import read_report
    from ..runs._journal import check_identity
    from ..runs._output_lock import holds_a_run
    from ..runs._runner import Run

    benchmark = resolve_benchmark(cell.benchmark.spec)
    watch = observer or SweepObserver()
    common: dict[str, Any] = {
        "tasks": cell.benchmark.tasks,
        "journal": cell.journal,
        "resume": True,
        "retry_errored": retry_errored,
        "progress": lambda done, total, row: watch.row(cell, done, total, row),
        "limiter": limiter,
        "notes": lambda text: watch.note(cell, text),
    }
    run: Run
    if cell.model.agent is not None:
        from ..agents._agent_run import AgentRun

        # The whole results folder (every other cell's reports too), the sweep file and what it names.
        hidden = (cell.output.parents[2], *cell.secret)
        run = AgentRun(benchmark, cell.model.agent, cell.options, label=cell.model.label, hidden=hidden, **common)
    else:
        run = Run(benchmark, _adapter(cell, benchmark), cell.options, **common)
    tasks = await run.load()
    if holds_a_run(cell.journal):
        header, rows, _, _ = read_journal(cell.journal)
        check_identity(header, run.identity(), cell.journal)
        watch.started(cell, len({(r.task_id, r.epoch) for r in rows}), len(tasks) * cell.options.epochs)
        return _Prepared(cell, run, None)
    if cell.output.is_file():
        report = read_report(cell.output)
        _check_same_run(cell, report, run, {t.id for t in tasks})
        if report.complete and not (retry_errored and report.totals.failed):
            watch.started(cell, len(report.rows), len(report.rows))
            return _Prepared(cell, None, report)
    watch.started(cell, 0, len(tasks) * cell.options.epochs)
    return _Prepared(cell, run, None)


def _adapter(cell: Cell, benchmark: Benchmark) -> ModelAdapter:
    """The cell's adapter; its key read from the variable `api_key_env` names, now and only here."""
    try:
        return cell.model.target.adapter(cell.options.seed, benchmark=benchmark)
    except ConfigurationError as exc:
        raise ConfigurationError(f"{cell.name}: {exc.message}") from None


def _check_same_run(cell: Cell, report: RunReport, run: Run, task_ids: set[str]) -> None:
    """Refuse a report in the cell's folder that another configuration wrote (it would be skipped
    as finished and shown as this cell's result)."""
    from ..stats._identity import RunIdentity

    differences = RunIdentity.of_report(report).difference(run.identity().reported())
    if differences:
        first = differences[0]
        raise ConfigurationError(
            f"{cell.output} holds a run with {first.what} {first.mine!r}, but the sweep asks for {first.theirs!r}: "
            "delete it to run the cell again, or give the sweep another results folder"
        )
    if report.complete and {row.task_id for row in report.rows} != task_ids:
        raise ConfigurationError(
            f"{cell.output} holds a run of other tasks than the sweep's: delete it to run the cell again, "
            "or give the sweep another results folder"
        )


async def _run_prepared(prepared: _Prepared, everyone: Sequence[_Prepared], watch: SweepObserver) -> CellOutcome:
    cell, run = prepared.cell, prepared.run
    if run is None:
        outcome = CellOutcome(cell, "skipped", prepared.finished, "finished by an earlier sweep")
        watch.finished(outcome)
        return outcome
    try:
        report = await run.execute()
        outcome = CellOutcome(cell, "errored" if report.totals.failed else "done", report)
    except RunStoppedError as exc:
        if not isinstance(exc, MaxErrorsError) and exc.cause is not None:
            _halt_model(cell, exc, everyone)
        outcome = CellOutcome(cell, "stopped", exc.report, exc.message)
    except OutputWriteError as exc:
        outcome = CellOutcome(cell, "failed", None, exc.message)
    if outcome.report is not None:
        # In a thread: serialising a large report takes tens of milliseconds, during which the loop
        # would otherwise leave the other cells' answers unread and their request slots idle.
        outcome = await asyncio.to_thread(_write_report, outcome)
    watch.finished(outcome)
    return outcome


def _halt_model(cell: Cell, stopped: RunStoppedError, everyone: Sequence[_Prepared]) -> None:
    """A fatal error ends every cell of the same model: no other request of it can succeed."""
    from ..errors._provider import AdapterError

    cause = stopped.cause
    if not isinstance(cause, AdapterError):
        return
    halted = AdapterError(f"model {cell.model.label!r} stopped in {cell.benchmark.id}: {cause.message}", fatal=True)
    for other in everyone:
        if other.run is not None and other.cell.model.label == cell.model.label and other.cell is not cell:
            other.run.halt(halted)


def _write_report(outcome: CellOutcome) -> CellOutcome:
    """Write the cell's report; remove its journal once the report holds every row without errors."""
    cell, report = outcome.cell, outcome.report
    assert report is not None
    try:
        cell.files.write_report(report)
    except OutputWriteError as exc:
        return CellOutcome(cell, "failed", report, exc.message)
    if report.complete and not report.totals.failed:
        cell.journal.unlink(missing_ok=True)
    return outcome


async def run_sweep_async(
    path: Union[str, Path],
    *,
    retry_errored: bool = False,
    cache: Optional[Union[bool, str]] = None,
    observer: Optional[SweepObserver] = None,
) -> SweepOutcome:
    """`run_sweep` inside a running event loop."""
    plan = plan_sweep(path)
    if cache is not None:
        plan = plan.with_cache(cache)
    outcome = await execute_sweep(plan, retry_errored=retry_errored, observer=observer)
    return outcome


def run_sweep(
    path: Union[str, Path],
    *,
    retry_errored: bool = False,
    cache: Optional[Union[bool, str]] = None,
    observer: Optional[SweepObserver] = None,
) -> SweepOutcome:
    """Run the sweep file at `path` (models x benchmarks, see docs/sweeps.md) and return what became
    of each cell. Rerun, finished cells are skipped and partial ones resumed: nothing is sent twice.
    `cache` overrides the file's response cache setting (False: off). Raises `ConfigurationError` for a
    bad file and `OutputLockedError` when another process holds a cell's output, before anything is
    sent; `SweepOutcome.completed` says whether every cell has every row without errors."""
    from .._benchmark.definition import _run_sync

    sweep = run_sweep_async(path, retry_errored=retry_errored, cache=cache, observer=observer)
    return _run_sync(sweep, "run_sweep", "run_sweep_async", owner="")
