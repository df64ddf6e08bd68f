"""Turn checkpoints benchmark: what journaling every finished episode turn costs.

A local OpenAI-compatible server in a separate process plays rollback-recovery's mock over HTTP,
every episode stretched to `--stretch` (3) times its scripted turns (7 to 16 turns each, as an agent
that reads before it acts), each answer after `--delay` (20 ms). The script runs the episodes
(`--split`: the public 48, or the full split's 272) with a journal at `--concurrency` (16), in turn
with turn checkpoints and without them (`turn_checkpoints=False`: rows only), `--repeat` (3) times
each, alternating, after `--warmup` (1) uncounted pairs (the first run of a process pays for its
imports and the converter's generated code, about a tenth of a run's CPU), and prints:

- the journal's bytes per episode turn (the turn lines' bytes over the turns they hold), and the
  largest turn line;
- the wall time and this process's CPU time (the client's: the server has its own process) of each
  run, the medians with and without checkpoints, and their ratios (on a shared machine the CPU
  ratio is the steadier figure);
- the with/without ratio of each interleaved pair (which goes first alternates), and the median,
  min and max of those ratios, wall and CPU. The target is judged on the median wall ratio of the
  pairs, beside its spread.

Target (issue 24): the runs with checkpoints within 3% of the runs without them.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when a row errors or
the two kinds of run disagree on the report.

    python tools/bench_checkpoints.py [--split public|full] [--concurrency 16] [--delay 0.02] [--repeat 3]
        [--warmup 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Optional

from benchmark_core import RunOptions, openai_compat_adapter
from benchmark_core.runs import Run, journal_path
from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report
from benchmark_core.wire import to_wire
from benchmark_rollback_recovery import benchmark


def serve(conn: Connection, split: Optional[str], stretch: int, delay: float) -> None:
    """The server process: sends its base URL, then serves until the parent says stop."""

    async def main() -> None:
        handler = mock_handler(benchmark, delay=delay, stretch=stretch, tasks=benchmark.tasks(split))
        async with FakeOpenAI(handler=handler, record=False) as server:
            conn.send(server.base_url)
            await asyncio.get_running_loop().run_in_executor(None, _wait_for_stop, conn)

    asyncio.run(main())


def _wait_for_stop(conn: Connection) -> None:
    with contextlib.suppress(EOFError):
        conn.recv()


async def one_run(base_url: str, split: Optional[str], concurrency: int, folder: Path, checkpoints: bool) -> Any:
    """One journaled run: its wall and CPU time, its report, and its journal's bytes (an SDK run
    leaves its journal in place)."""
    output = folder / f"report-{'on' if checkpoints else 'off'}-{time.monotonic_ns()}.json"
    runner = Run(
        benchmark,
        openai_compat_adapter(base_url, "m", "sk-bench"),
        RunOptions(cache=False, concurrency=concurrency),
        tasks=benchmark.task_file(split) if split else None,
        journal=journal_path(output),
        turn_checkpoints=checkpoints,
    )
    started, cpu = time.perf_counter(), time.process_time()
    report = await runner.execute()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return wall, cpu, report, journal_path(output).read_bytes()


def turn_figures(journal: bytes) -> tuple[int, int, int]:
    """(turn lines, their bytes, the largest one's bytes)."""
    lines = [line for line in journal.split(b"\n") if line.startswith(b'{"turn"')]
    return len(lines), sum(len(line) + 1 for line in lines), max((len(line) + 1 for line in lines), default=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("public", "full"), default="public")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--delay", type=float, default=0.02)
    parser.add_argument("--stretch", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args()
    split = None if args.split == "public" else args.split
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(child, split, args.stretch, args.delay), daemon=True)
    server.start()
    base_url = parent.recv()
    walls: dict[bool, list[float]] = {True: [], False: []}
    cpus: dict[bool, list[float]] = {True: [], False: []}
    reports: dict[bool, Any] = {}
    journal = b""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(args.warmup):
                for checkpoints in (True, False):
                    asyncio.run(one_run(base_url, split, args.concurrency, Path(tmp), checkpoints))
            for repeat in range(args.repeat):
                # Alternate which goes first, so a load that rises or falls during a pair favours neither.
                for checkpoints in (True, False) if repeat % 2 == 0 else (False, True):
                    measured = asyncio.run(one_run(base_url, split, args.concurrency, Path(tmp), checkpoints))
                    wall, cpu, report, data = measured
                    walls[checkpoints].append(wall)
                    cpus[checkpoints].append(cpu)
                    reports[checkpoints] = report
                    journal = data if checkpoints else journal
                    kind = "with" if checkpoints else "without"
                    print(f"  {kind} checkpoints: wall {wall:.3f} s, CPU {cpu:.3f} s", flush=True)
    finally:
        parent.send("stop")
        server.join(timeout=10)
    on, off = reports[True], reports[False]
    if any(row.error for row in on.rows) or stable_report(to_wire(on)) != stable_report(to_wire(off)):
        print("error: the runs errored or disagree on the report", file=sys.stderr)
        return 1
    turns = sum(sum(1 for m in row.episode.transcript if m.role == "assistant") for row in on.rows if row.episode)
    lines, turn_bytes, largest = turn_figures(journal)
    with_median, without_median = statistics.median(walls[True]), statistics.median(walls[False])
    print(f"episodes: {len(on.rows)}, model turns: {turns}, turn lines journaled: {lines}")
    print(f"journal bytes per episode turn: {turn_bytes / max(lines, 1):.0f} (largest turn line {largest} bytes)")
    print(f"journal: {len(journal)} bytes, of which turn lines {turn_bytes}")
    print(
        f"wall time (median of {args.repeat}): with checkpoints {with_median:.3f} s, without {without_median:.3f} s, "
        f"ratio {with_median / without_median:.3f} (target <= 1.03)"
    )
    cpu_with, cpu_without = statistics.median(cpus[True]), statistics.median(cpus[False])
    print(
        f"client CPU (median of {args.repeat}): with checkpoints {cpu_with:.3f} s, without {cpu_without:.3f} s, "
        f"ratio {cpu_with / cpu_without:.3f}"
    )
    for what, figures in (("wall", walls), ("client CPU", cpus)):
        ratios = sorted(on / off for on, off in zip(figures[True], figures[False]))
        listed = ", ".join(f"{r:.3f}" for r in ratios)
        print(
            f"{what} ratio of the {len(ratios)} interleaved pairs: median {statistics.median(ratios):.3f}, "
            f"min {ratios[0]:.3f}, max {ratios[-1]:.3f} ({listed})"
        )
    print("the target (<= 1.03) is judged on the pairs' median wall ratio; their spread says what it is worth")
    return 0


if __name__ == "__main__":
    sys.exit(main())
