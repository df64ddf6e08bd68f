"""Runner throughput benchmark: N single tasks through the real OpenAI-compatible adapter.

A local OpenAI-compatible server runs in a separate process and answers every request after a fixed
delay (100 ms). `benchmark_core.run` sends N tasks at `--concurrency` (50), so the ideal wall time is
N / concurrency x 0.1 s. For each N the script runs the floor, a bare aiohttp client loop doing
the same requests with nothing of benchmark-core in between, and the runner, and prints for both
the wall time, the ideal, their ratio, the overhead per task ((wall - ideal) / N) and this process's
CPU per task (the client's: the server has its own process); then the runner's ratios to the floor,
its CPU beyond the floor's, and how long the report (totals, bootstrap interval, group means) took
after the last row finished. Targets (issue 12, on a 2-core machine): 2,000 tasks at concurrency 50
within 1.10x the ideal, 20,000 at concurrency 200 within 1.20x, at most 150 us of client CPU per
task, and a report that stays a small share of a large run's wall time.

`--rate-limit R` measures adaptive concurrency instead: the server admits R requests per second (a
token bucket; beyond it, 429 with Retry-After), the runner starts at `--concurrency` (200) with its
default retry policy, and the ideal is N / R seconds. Target: 2,000 tasks at R = 100 in at most 1.3x
the 20 s the limit allows, with 0 errored rows.

`--rate-headers` (with `--rate-limit R`) measures pacing from rate-limit headers: the same bucket,
but every answer carries OpenAI's `x-ratelimit-{limit,remaining,reset}-requests` headers (and
`-tokens`, from a token bucket of 1,000 R tokens per second that does not bind), and a 429 carries
`retry-after-ms`. The bucket starts full (a burst of R requests), so the floor is not N / R but
(N - R) / R plus one round trip (the probe the pacer sends alone first): 19.1 s for 2,000 tasks at
R = 100 and a 100 ms delay. Target (issue 25): within 1.02x that floor, spending the burst the
headers announce, with at most 1% of requests answered 429. The 429 share is printed in both
rate-limit modes.

`--repeat K` runs K floor/runner pairs per size, alternating which goes first, and prints each
pair's ratios, then their median, min and max (wall and client CPU). The 1.02x target (issue 30)
is judged on the median wall ratio of the pairs; the CPU ratio, far less moved by other load on a
shared machine, says how much of the gap is the runner's own work.

This is a benchmark, not a test: slow figures do not fail it. It exits 1 only when a task errors
or the figures cannot be produced. `--profile` writes a cProfile dump of the largest size.

    python tools/bench_runner.py [--sizes 500 1000 2000] [--concurrency 50] [--delay 0.1]
    python tools/bench_runner.py --sizes 2000 --repeat 7
    python tools/bench_runner.py --sizes 20000 --concurrency 200
    python tools/bench_runner.py --rate-limit 100 --sizes 2000 --concurrency 200
    python tools/bench_runner.py --rate-limit 100 --rate-headers --sizes 2000 --concurrency 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import multiprocessing
import pstats
import statistics
import sys
import time
from multiprocessing.connection import Connection
from typing import Optional

from benchmark_core import (
    Benchmark,
    GradeContext,
    Provenance,
    RunReport,
    Task,
    TaskScore,
    Trace,
    define_benchmark,
    openai_compat_adapter,
    run,
)
from benchmark_core.testing import FakeOpenAI, FakeResponse

WARM_UP_TASKS = 100


def serve(conn: Connection, delay: float, rate_limit: Optional[float], rate_headers: bool) -> None:
    """The server process: sends its base URL, then serves until the parent says stop, and sends
    how many requests it received and answered with 429."""

    async def main() -> None:
        fake = FakeOpenAI(
            default=FakeResponse.text("4", delay=delay),
            record=False,
            rate_limit=rate_limit,
            ratelimit_headers=rate_headers,
            token_rate=rate_limit * 1000 if rate_headers and rate_limit else None,
        )
        async with fake as server:
            conn.send(server.base_url)
            # Blocks a worker thread, not the loop, until "stop" arrives or the parent goes away.
            await asyncio.get_running_loop().run_in_executor(None, _wait_for_stop, conn)
            conn.send((server.received, server.rate_limited))

    asyncio.run(main())


def _wait_for_stop(conn: Connection) -> None:
    with contextlib.suppress(EOFError):
        conn.recv()


def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    ok = trace.answer == task.expected
    return TaskScore(score=1.0 if ok else 0.0, passed=ok, reason="exact match" if ok else "mismatch")


def bench_benchmark(size: int) -> Benchmark:
    # Half the tasks expect another answer, so the mean is 0.5 and the bootstrap interval is real work.
    tasks = [
        Task(id=f"t{i:05d}", kind="single", prompt=f"Task {i}: what is 2 + 2?", expected="4" if i % 2 == 0 else "5")
        for i in range(size)
    ]
    return define_benchmark(
        id="bench-runner",
        name="Runner benchmark",
        tagline="Throughput of the runner and the OpenAI-compatible adapter",
        tags=["performance"],
        category="tooling",
        what_it_measures="runner and adapter overhead against a fixed-latency local server",
        version="0.0.0",
        status="alpha",
        grade=grade,
        provenance=[
            Provenance(
                name="generated",
                kind="synthetic",
                url="https://example.invalid/bench-runner",
                licence="MIT",
                how_to_get="generated by tools/bench_runner.py",
                retrieved_at="2026-01-01",
                contamination_notes="none: trivial synthetic prompts",
                refresh="never",
            )
        ],
        grading_method="exact match",
        tasks=tasks,
    )


async def run_size(
    base_url: str, size: int, concurrency: int, retries: Optional[int]
) -> tuple[float, float, float, RunReport]:
    """Wall time, this process's CPU time (the client's: the server runs in another process), and
    the time from the last finished row to the report."""
    adapter = openai_compat_adapter(base_url, "bench-model", "bench-key")
    benchmark = bench_benchmark(size)
    last_row = [0.0]

    def progress(done: int, total: int, row: object) -> None:
        last_row[0] = time.perf_counter()

    started, cpu = time.perf_counter(), time.process_time()
    report = await run(
        benchmark, adapter, concurrency=concurrency, timeout=30.0, retries=retries, cache=False, progress=progress
    )
    finished = time.perf_counter()
    return finished - started, time.process_time() - cpu, finished - last_row[0], report


async def bare_loop(base_url: str, size: int, concurrency: int) -> tuple[float, float]:
    """The floor: a bare aiohttp client loop (`concurrency` workers, one session) posting the same
    request body and parsing the answer, with nothing of benchmark-core in between."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=256, limit_per_host=256)
    remaining = iter(range(size))
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            for i in remaining:
                body = {"model": "bench-model", "messages": [{"role": "user", "content": f"Task {i}: what is 2 + 2?"}]}
                headers = {"Authorization": "Bearer bench-key", "Content-Type": "application/json"}
                async with session.post(f"{base_url}/chat/completions", data=json.dumps(body), headers=headers) as r:
                    json.loads(await r.read())

        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started, time.process_time() - cpu


def measure(
    base_url: str, size: int, concurrency: int, profile: Optional[str], retries: Optional[int] = 0
) -> tuple[float, float, float, RunReport]:
    if profile is None:
        return asyncio.run(run_size(base_url, size, concurrency, retries))
    profiler = cProfile.Profile()
    result = profiler.runcall(asyncio.run, run_size(base_url, size, concurrency, retries))
    profiler.dump_stats(profile)
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    return result


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.1, help="server delay per request, seconds")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the largest size's first runner pass into FILE")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved floor/runner pairs per size")
    parser.add_argument("--rate-limit", type=float, metavar="R", help="server admits R requests/s (429 beyond)")
    parser.add_argument("--rate-headers", action="store_true", help="with --rate-limit: send OpenAI's rate headers")
    args = parser.parse_args(argv)

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    server = context.Process(
        target=serve, args=(child, args.delay, args.rate_limit, args.rate_headers), name="bench-server", daemon=True
    )
    server.start()
    failures = 0
    try:
        if not parent.poll(30):
            print("the server process did not start", file=sys.stderr)
            return 1
        base_url = parent.recv()
        print(f"server: {base_url} (separate process), delay {args.delay * 1000:g} ms, concurrency {args.concurrency}")
        if args.rate_limit is not None:
            return rate_limited(parent, base_url, args.rate_limit, args.sizes, args.concurrency, args.delay)
        warm_wall, _, _, warm = measure(base_url, WARM_UP_TASKS, args.concurrency, None)
        failures += warm.totals.failed
        print(f"warm-up: {WARM_UP_TASKS} tasks in {warm_wall:.2f}s")
        header = ("tasks", "wall s", "ideal s", "ratio", "overhead ms/task", "CPU us/task", "mean latency ms")
        print("{:>6} {:>8} {:>8} {:>6} {:>17} {:>12} {:>16}".format(*header))
        largest = max(args.sizes)
        for size in args.sizes:
            pairs: list[tuple[float, float, float, float]] = []
            for repeat in range(args.repeat):
                # Alternate which goes first, so a load that rises or falls during a pair favours neither.
                order = ("floor", "runner") if repeat % 2 == 0 else ("runner", "floor")
                figures: dict[str, tuple[float, float]] = {}
                for which in order:
                    if which == "floor":
                        figures[which] = floor_pass(base_url, size, args.concurrency, args.delay)
                        continue
                    profile = args.profile if size == largest and repeat == 0 else None
                    wall, cpu, tail, report = measure(base_url, size, args.concurrency, profile)
                    figures[which] = (wall, cpu)
                    failures += runner_pass(size, args.concurrency, args.delay, wall, cpu, tail, report)
                (floor_wall, floor_cpu), (wall, cpu) = figures["floor"], figures["runner"]
                pairs.append((floor_wall, floor_cpu, wall, cpu))
                print(
                    f"{'':>6} runner/floor: wall {wall / floor_wall:.3f}x, client CPU {cpu / floor_cpu:.2f}x "
                    f"({(cpu - floor_cpu) * 1e6 / size:.0f} us/task beyond the bare loop)"
                )
            summarise(size, pairs)
    finally:
        with contextlib.suppress(OSError):
            parent.send("stop")
        server.join(timeout=10)
        if server.is_alive():
            server.terminate()
            server.join()
    if failures:
        print(f"{failures} task(s) failed", file=sys.stderr)
        return 1
    return 0


def floor_pass(base_url: str, size: int, concurrency: int, delay: float) -> tuple[float, float]:
    """One bare-loop pass, printed as a row of the table."""
    floor_wall, floor_cpu = asyncio.run(bare_loop(base_url, size, concurrency))
    ideal = size / concurrency * delay
    print(
        f"{'floor':>6} {floor_wall:>8.2f} {ideal:>8.2f} {floor_wall / ideal:>6.3f} "
        f"{(floor_wall - ideal) * 1000 / size:>17.3f} {floor_cpu * 1e6 / size:>12.0f} {'(bare aiohttp)':>16}"
    )
    return floor_wall, floor_cpu


def runner_pass(
    size: int, concurrency: int, delay: float, wall: float, cpu: float, tail: float, report: RunReport
) -> int:
    """Print one runner pass as a row of the table; the number of failures it had."""
    ideal = size / concurrency * delay
    latency = sum(row.latency_ms for row in report.rows) / len(report.rows)
    print(
        f"{size:>6} {wall:>8.2f} {ideal:>8.2f} {wall / ideal:>6.3f} {(wall - ideal) * 1000 / size:>17.3f} "
        f"{cpu * 1e6 / size:>12.0f} {latency:>16.1f}   (report {tail * 1000:.0f} ms after the last row)"
    )
    failures = report.totals.failed
    for row in report.rows:
        if row.error is not None:
            print(f"  {row.task_id}: {row.error}", file=sys.stderr)
            break
    if report.totals.passed != (size + 1) // 2:
        print(f"  expected {(size + 1) // 2} passes, got {report.totals.passed}", file=sys.stderr)
        failures += 1
    return failures


def summarise(size: int, pairs: list[tuple[float, float, float, float]]) -> None:
    """The runner/floor ratios over the interleaved pairs: median, min and max, wall and CPU."""
    wall_ratios = sorted(wall / floor_wall for floor_wall, _, wall, _ in pairs)
    cpu_ratios = sorted(cpu / floor_cpu for _, floor_cpu, _, cpu in pairs)
    beyond = sorted((cpu - floor_cpu) * 1e6 / size for _, floor_cpu, _, cpu in pairs)
    wall_median, cpu_median = statistics.median(wall_ratios), statistics.median(cpu_ratios)
    print(
        f"{size:>6} tasks, {len(pairs)} interleaved pairs: runner/floor wall median {wall_median:.3f}x "
        f"(min {wall_ratios[0]:.3f}x, max {wall_ratios[-1]:.3f}x; target <= 1.02x on the median), "
        f"client CPU median {cpu_median:.2f}x (min {cpu_ratios[0]:.2f}x, max {cpu_ratios[-1]:.2f}x), "
        f"{statistics.median(beyond):.0f} us/task beyond the bare loop (range {beyond[0]:.0f}-{beyond[-1]:.0f})"
    )


def rate_limited(
    conn: Connection, base_url: str, limit: float, sizes: list[int], concurrency: int, delay: float
) -> int:
    """Each size against the rate-limited server, with the default retry policy (no count limit)."""
    failures = 0
    print(f"rate limit: {limit:g} requests/s, a burst of {limit:g}; ideal = tasks / limit;")
    print("floor = (tasks - burst) / limit + one round trip (what a full bucket allows)")
    header = ("tasks", "wall s", "ideal s", "ratio", "floor s", "/floor", "errored")
    print("{:>6} {:>8} {:>8} {:>6} {:>8} {:>7} {:>8}".format(*header))
    for size in sizes:
        wall, _, _, report = measure(base_url, size, concurrency, None, retries=None)
        ideal = size / limit
        floor = max(0.0, size - limit) / limit + delay
        print(
            f"{size:>6} {wall:>8.2f} {ideal:>8.2f} {wall / ideal:>6.3f} {floor:>8.2f} {wall / floor:>7.3f} "
            f"{report.totals.failed:>8}"
        )
        failures += report.totals.failed
    conn.send("stop")
    received, limited = conn.recv()
    print(f"server: {received} requests received, {limited} answered 429 ({limited / max(received, 1):.2%})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
