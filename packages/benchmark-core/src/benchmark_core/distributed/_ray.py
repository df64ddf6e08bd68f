"""`run_on_ray`: a run's shards as Ray tasks, each an ordinary `run --shard I/N` on whichever node
Ray gives it, merged by `merge_shards` into the unsharded run's report.

A shard task gets only plain data (`ShardSpec`: the benchmark as `--benchmark` names it, the target,
the options, where to write) and builds everything else on its node: the benchmark from its
installed entry point or file, and the adapter, whose API key it reads from the node's own
environment (`api_key_env` names the variable; the key itself never travels through Ray). With a
`workdir` on storage every node sees, each shard writes its report and journal there, so a shard
that fails or whose node dies is resumed where it stopped when `run_on_ray` is called again, and
nothing finished is sent twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

import attrs
from attrs import frozen

from .._model import RunReport
from ..errors._base import BenchmarkError
from ..errors._usage import ConfigurationError, MissingExtraError
from ..runs._files import RunFiles
from ..runs._options import RunOptions
from ..runs._shards import Shard
from ..runs._target import RunTarget

T = TypeVar("T")
R = TypeVar("R")

if TYPE_CHECKING:
    from ..sweep._plan import Cell
    from ..sweep._sweep import CellOutcome, SweepOutcome


@frozen
class ShardSpec:
    """One shard's run, as plain data a Ray task can carry to another machine: the target names the
    variable holding the key (`api_key_env`), never the key."""

    benchmark: str
    target: RunTarget
    options: RunOptions
    shard: Shard
    tasks: Optional[str] = None
    workdir: Optional[str] = None

    @property
    def files(self) -> Optional[RunFiles]:
        """The shard's report and journal in the workdir (`report.shard-I-of-N.json`), or None."""
        if self.workdir is None:
            return None
        return RunFiles(Path(self.workdir) / "report.json").shard(self.shard)


def run_shard(spec: ShardSpec) -> dict[str, Any]:
    """Run one shard where this is called (a Ray worker, or any process) and return its report's
    wire form. With a workdir, the shard journals there and resumes what an earlier attempt left."""
    from .._benchmark.plugins import resolve_benchmark
    from ..runs._runner import Run
    from ..wire._converter import to_wire

    benchmark = resolve_benchmark(spec.benchmark)
    options = attrs.evolve(spec.options, shard=str(spec.shard))
    try:
        adapter = spec.target.adapter(options.seed, benchmark=benchmark)
    except ConfigurationError as exc:
        raise ConfigurationError(f"{exc.message} on this node; the shard needs its API key") from None
    files = spec.files
    journal = files.journal if files is not None else None
    run = Run(benchmark, adapter, options, tasks=spec.tasks, journal=journal, resume=journal is not None)
    report = asyncio.run(run.execute())
    if files is not None:
        files.write_report(report)
    wire: dict[str, Any] = to_wire(report)
    return wire


def run_on_ray(
    benchmark: str,
    target: RunTarget,
    options: Optional[RunOptions] = None,
    *,
    shards: int,
    tasks: Optional[Union[str, Path]] = None,
    base_url: Optional[str] = None,
    api_key_env: Optional[str] = None,
    workdir: Optional[Union[str, Path]] = None,
    output: Optional[Union[str, Path]] = None,
    num_cpus: float = 1,
    address: Optional[str] = None,
    timeout: Optional[float] = None,
) -> RunReport:
    """Run `benchmark` (an installed id, or `FILE.py[:NAME]` present on every node) against
    `target` as `shards` Ray tasks, one `--shard I/N` each, and return the merged report (also
    written to `output`, when given).

    Ray must be initialised first (`ray.init(address="auto")` on a cluster); if it is not,
    `ray.init(address=address)` is called (no address: a local cluster on this machine). `tasks` is
    a task file every node can read; `base_url` and `api_key_env` (the name of the variable holding
    the key on the nodes) override the target's own. Each shard task asks Ray for `num_cpus`.
    `workdir`, a folder every node can write, keeps each shard's report and journal, so calling
    this again after a failure resumes the shards instead of sending their tasks again. A shard that
    fails raises its error here (a `BenchmarkError` as itself); after `timeout` seconds, Ray's
    `GetTimeoutError` (the journals keep what finished)."""
    ray = _ray()
    if shards < 1:
        raise ConfigurationError(f"shards must be at least 1, not {shards}")
    from .._benchmark.plugins import resolve_benchmark
    from ..runs._merge import merge_shards

    bench = resolve_benchmark(benchmark)  # fail here, before any node is asked, when it is unknown
    chosen = options or RunOptions()
    chosen.validate()
    if base_url is not None or api_key_env is not None:
        target = attrs.evolve(
            target, base_url=base_url or target.base_url, api_key_env=api_key_env or target.api_key_env
        )
    first = ShardSpec(
        benchmark=benchmark,
        target=target,
        options=chosen,
        shard=Shard(1, shards),
        tasks=str(tasks) if tasks is not None else None,
        workdir=str(workdir) if workdir is not None else None,
    )
    specs = [attrs.evolve(first, shard=Shard(index, shards)) for index in range(1, shards + 1)]
    if not ray.is_initialized():
        ray.init(address=address)
    from ..wire._converter import from_wire

    documents = _gather(ray, run_shard, specs, num_cpus, timeout)
    reports = [from_wire(document, RunReport, what="shard report") for document in documents]
    merged = merge_shards(bench, reports, tasks=tasks)
    if output is not None:
        RunFiles.of(output).write_report(merged, journaled=False)
    return merged


def _gather(
    ray: Any, function: Callable[[T], R], items: Sequence[T], num_cpus: float, timeout: Optional[float]
) -> list[R]:
    """`function` of each item as a Ray task, and their results in order; a task's `BenchmarkError`
    is raised here as itself, and Ray's `GetTimeoutError` after `timeout` seconds (None: no limit)."""
    remote = ray.remote(num_cpus=num_cpus)(function)
    try:
        results: list[R] = ray.get([remote.remote(item) for item in items], timeout=timeout)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, BenchmarkError):
            raise exc.cause from None
        raise
    return results


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("run_on_ray needs the `ray` extra: pip install 'benchmark-core[ray]'") from None
    return ray


def run_sweep_on_ray(
    path: Union[str, Path],
    *,
    shards: int = 1,
    num_cpus: float = 1,
    address: Optional[str] = None,
    timeout: Optional[float] = None,
) -> SweepOutcome:
    """Run the sweep file at `path` with each cell (or, with `shards` > 1, each shard of each cell)
    as a Ray task, then merge the shards and write the leaderboard. The results folder must be one
    every node can write (each task writes its cell's journal and report there), and a rerun skips
    finished cells and resumes partial ones, as `sweep` does. Ray shares no limiter between tasks, so
    each endpoint's `[limits]` is divided among its cells (at least 1 request in flight each): the
    endpoint never sees more than its limit. Ray is initialised as `run_on_ray` does."""
    ray = _ray()
    from ..sweep._leaderboard import write_leaderboard
    from ..sweep._plan import plan_sweep
    from ..sweep._shards import merge_sweep_shards
    from ..sweep._sweep import SweepOutcome

    plan = plan_sweep(path)
    plans = [plan] if shards == 1 else [plan.sharded(f"{index}/{shards}") for index in range(1, shards + 1)]
    cells = [cell for part in plans for cell in part.cells]
    per_endpoint = {endpoint: sum(1 for c in cells if c.endpoint == endpoint) for endpoint in plan.limits}
    cells = [
        attrs.evolve(
            cell,
            options=attrs.evolve(
                cell.options, concurrency=max(1, plan.limits[cell.endpoint] // per_endpoint[cell.endpoint])
            ),
        )
        for cell in cells
    ]
    if not ray.is_initialized():
        ray.init(address=address)
    outcomes = _gather(ray, _run_cell, cells, num_cpus, timeout)
    outcome = merge_sweep_shards(plan) if shards > 1 else SweepOutcome(plan=plan, cells=list(outcomes))
    write_leaderboard(plan.results)
    return outcome


def _run_cell(cell: Cell) -> CellOutcome:
    """One cell on a Ray worker: `sweep.run_cell`, in an event loop of its own."""
    from ..sweep._sweep import run_cell

    return asyncio.run(run_cell(cell))
