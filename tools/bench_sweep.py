"""Sweep benchmark: 4 models x 3 benchmarks against fake OpenAI-compatible servers, 100 ms per answer.

Two fake servers run in processes of their own (so the client's figures are its own), each the
endpoint of two of the four models, and answer as the offline mock would (`mock_handlers`) after a fixed delay.
The sweep's file sets a limit of requests in flight per base URL (`--limit`, 8). The response cache
is off, so every request is sent.

The ideal is what the limits allow: an endpoint that must answer R requests, L at a time, needs at
least ceil(R / L) x delay; a cell whose tasks include an episode of T turns needs at least T x delay
for it. The ideal is the largest of these, and the sweep's wall time (from the plan to the last
report, leaderboard excluded) is compared with it. The client's CPU time per request is printed
too: unlike the wall time, it does not depend on what else the machine runs (the load average is
printed before and after). Target (issue 19): within 1.15x. Request counts
come from the reports (`attempts` per row), and each server's count is checked against them.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when a cell does not
complete or the counts disagree.

    python tools/bench_sweep.py [--limit 8] [--delay 0.1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

from benchmark_core import load_benchmark
from benchmark_core.sweep import SweepOutcome, execute_sweep, plan_sweep
from benchmark_core.testing import FakeOpenAI, mock_handlers

BENCHMARKS = ("benchmark-core-example", "benchmark-schema-mutation", "benchmark-rollback-recovery")
KEY_ENV = "BENCH_SWEEP_KEY"


def serve(conn: Connection, delay: float) -> None:
    """One endpoint's process: sends its base URL, serves until told to stop, sends its count."""

    async def main() -> None:
        benchmarks = [load_benchmark(b) for b in BENCHMARKS]
        for b in benchmarks:
            b.tasks()
        async with FakeOpenAI(handler=mock_handlers(benchmarks, delay=delay), record=False) as server:
            conn.send(server.base_url)
            await asyncio.get_running_loop().run_in_executor(None, _wait_for_stop, conn)
            conn.send(server.received)

    asyncio.run(main())


def _wait_for_stop(conn: Connection) -> None:
    with contextlib.suppress(EOFError):
        conn.recv()


def sweep_file(folder: Path, urls: list[str], limit: int) -> Path:
    models = "".join(
        f'[[models]]\nlabel = "m{i}"\nprovider = "openai"\nmodel = "fake-{i}"\nbase_url = "{urls[i // 2]}"\n'
        f'api_key_env = "{KEY_ENV}"\n\n'
        for i in range(4)
    )
    benchmarks = "".join(f'[[benchmarks]]\nid = "{b}"\n\n' for b in BENCHMARKS)
    limits = "".join(f'"{url}" = {limit}\n' for url in urls)
    path = folder / "sweep.toml"
    path.write_text(
        f'results = "results"\n\n[options]\ncache = false\n\n{models}{benchmarks}[limits]\n{limits}', encoding="utf-8"
    )
    return path


def ideal_seconds(outcome: SweepOutcome, delay: float) -> tuple[float, dict[str, int]]:
    """The least time the limits allow, and the requests each endpoint had to answer."""
    requests: dict[str, int] = {}
    longest = 0
    for cell in outcome.cells:
        assert cell.report is not None
        requests[cell.cell.endpoint] = requests.get(cell.cell.endpoint, 0) + sum(r.attempts for r in cell.report.rows)
        longest = max([longest, *(r.attempts for r in cell.report.rows)])
    rounds = max(math.ceil(count / outcome.plan.limits[endpoint]) for endpoint, count in requests.items())
    return max(rounds, longest) * delay, requests


def one_sweep(urls: list[str], limit: int, delay: float) -> tuple[float, float, float, dict[str, int]]:
    with tempfile.TemporaryDirectory() as folder:
        plan = plan_sweep(sweep_file(Path(folder), urls, limit))
        start, cpu = time.perf_counter(), time.process_time()
        outcome = asyncio.run(execute_sweep(plan))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        if not outcome.completed:
            for cell in outcome.cells:
                print(f"  {cell.cell.name}: {cell.status} {cell.message or ''}", file=sys.stderr)
            raise SystemExit("a cell did not complete")
        ideal, requests = ideal_seconds(outcome, delay)
        return wall, ideal, cpu, requests


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=8, help="requests in flight per endpoint")
    parser.add_argument("--delay", type=float, default=0.1, help="seconds per answer")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ[KEY_ENV] = "sk-bench"
    pipes = [multiprocessing.Pipe() for _ in range(2)]
    servers = [multiprocessing.Process(target=serve, args=(theirs, args.delay), daemon=True) for _, theirs in pipes]
    for server in servers:
        server.start()
    urls = [ours.recv() for ours, _ in pipes]
    print(f"4 models x {len(BENCHMARKS)} benchmarks, 2 endpoints, limit {args.limit} each, {args.delay * 1000:g} ms")
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(
        f"{'run':>4} {'requests':>9} {'ideal s':>8} {'wall s':>7} {'ratio':>6} {'client CPU s':>13} {'CPU/request':>12}"
    )
    ratios, sent = [], 0
    for attempt in range(1, args.repeat + 1):
        wall, ideal, cpu, requests = one_sweep(urls, args.limit, args.delay)
        count = sum(requests.values())
        sent += count
        ratios.append(wall / ideal)
        print(
            f"{attempt:>4} {count:>9} {ideal:>8.2f} {wall:>7.2f} {wall / ideal:>6.3f} {cpu:>13.2f} "
            f"{cpu / count * 1e6:>9.0f} us"
        )
    for ours, _ in pipes:
        ours.send("stop")
    received = sum(ours.recv() for ours, _ in pipes)
    for server in servers:
        server.join(timeout=10)
    print(f"requests per endpoint (last run): {', '.join(f'{e}: {n}' for e, n in requests.items())}")
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())} (2 cores)")
    print(f"ratio: best {min(ratios):.3f}x, median {sorted(ratios)[len(ratios) // 2]:.3f}x (target <= 1.15x)")
    if received != sent:
        print(f"the servers answered {received} requests, the reports count {sent}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
