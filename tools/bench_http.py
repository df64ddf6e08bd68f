"""`POST /v1/score` under load: wrk (1 thread, 32 connections) against the real HTTP API, and
against a bare aiohttp handler (the floor) that reads the same body, parses it as JSON and answers
with the same document the real API answers (the verdict, serialised on every request); the script
checks that both answer with the same bytes.

Each server runs in its own process, both are started once, and wrk alternates between them for
`--rounds` rounds, so that a change in the machine's load (it is shared) falls on both sides; each
side's figure is its median round. The ratio is the time per request beyond grading over the bare
handler's time per request (target <= 1.5x).

Grading is the benchmark's own grader (the function it defines; `Benchmark.grade`'s checks of the
verdict count as the server's work), timed twice:

- in the server, under the same load: the served benchmark's grader is wrapped in a timer, and the
  server reports the mean over the requests of each round. This is what a request's grading costs
  there, and what the ratio subtracts;
- alone, in this process, in a tight loop on the same task and submission. A tight loop keeps its
  code and data in the processor's caches, which a server answering requests does not, so this
  figure is lower; the ratio that subtracts it is printed too.

The submission is the task's expected answer for a benchmark with single tasks, else the tool log
of an episode played by the benchmark's good mock script.

Needs `wrk` on PATH (Debian: apt-get install wrk). A benchmark, not a test: it exits 1 only when
the figures cannot be produced.

    python tools/bench_http.py [--benchmark benchmark-schema-mutation] [--rounds 3] [--duration 3]
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import multiprocessing
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any

import attrs
from benchmark_core import AdapterContext, Benchmark, Task, Trace, load_benchmark, mock_adapter
from benchmark_core.episodes import run_episode
from benchmark_core.testing.surfaces import free_port
from benchmark_core.wire import from_wire, to_wire


def pick_task(benchmark: Benchmark) -> Task:
    tasks = benchmark.tasks()
    return next((t for t in tasks if t.kind == "single"), tasks[0])


def submission_for(benchmark: Benchmark, task: Task) -> dict[str, Any]:
    """An answer to grade: the task's expected answer, as a model would write it, or for an episode
    the tool log and answer of the benchmark's good mock script (what a good agent would send)."""
    if task.kind == "single":
        expected = task.expected
        return {"answer": expected if isinstance(expected, str) else json.dumps(expected)}
    if benchmark.environment is None:
        raise RuntimeError(f"episode task {task.id} but benchmark {benchmark.id} has no environment")
    adapter = mock_adapter(policies=benchmark.mock_policies)
    played = asyncio.run(run_episode(task, adapter, benchmark.environment(), ctx=AdapterContext(task=task)))
    return {"answer": played.answer, "toolLog": to_wire(played.episode.tool_log)}


class GradingTimer:
    """Wraps a grader (sync or async) and sums the time spent in it."""

    def __init__(self, grader: Callable[..., Any]) -> None:
        self.grader = grader
        self.seconds = 0.0
        self.count = 0

    def __call__(self, *args: Any) -> Any:
        started = time.perf_counter()
        result = self.grader(*args)
        if inspect.isawaitable(result):
            return self._finish(result, started)
        self._record(started)
        return result

    async def _finish(self, result: Awaitable[Any], started: float) -> Any:
        value = await result
        self._record(started)
        return value

    def _record(self, started: float) -> None:
        self.seconds += time.perf_counter() - started
        self.count += 1

    def take(self) -> tuple[float, int]:
        """(seconds, count) since the last call."""
        taken = (self.seconds, self.count)
        self.seconds, self.count = 0.0, 0
        return taken


def serve_real(benchmark_id: str, port: int, control: Connection) -> None:
    from aiohttp import web
    from benchmark_core.servers import create_app

    benchmark = load_benchmark(benchmark_id)
    timer = GradingTimer(benchmark.grader)
    timed = attrs.evolve(benchmark, grade=timer)

    def answer_control() -> None:  # the parent asks for the grading time of each round
        while control.recv() == "grading":
            control.send(timer.take())

    async def main() -> None:
        runner = web.AppRunner(create_app(timed), handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        threading.Thread(target=answer_control, daemon=True).start()
        control.send("ready")
        await asyncio.Event().wait()

    asyncio.run(main())


def serve_bare(answer: dict[str, Any], port: int, control: Connection) -> None:
    from aiohttp import web

    async def score(request: web.Request) -> web.Response:
        json.loads(await request.read())
        return web.json_response(answer)

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/score", score)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        control.send("ready")
        await asyncio.Event().wait()

    asyncio.run(main())


def wrk(url: str, script: str, duration: int, connections: int) -> float:
    """Requests per second wrk reached (1 thread), refusing a run with non-2xx answers."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "-s", script, url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    if "Non-2xx" in out:
        raise RuntimeError(f"wrk saw error answers:\n{out}")
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None:
        raise RuntimeError(f"no Requests/sec in wrk's output:\n{out}")
    return float(found.group(1))


def post(url: str, body: str) -> bytes:
    request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return bytes(response.read())


def grading_alone_us(benchmark: Benchmark, task: Task, submission: dict[str, Any], repeat: int = 2000) -> float:
    """The benchmark's grader in a tight loop: the best of five batches, in microseconds."""

    async def loop() -> float:
        trace = from_wire(submission, Trace)
        ctx = benchmark.grade_context(1)
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(repeat):
                result = benchmark.grader(task, trace, ctx)
                if inspect.isawaitable(result):
                    await result
            best = min(best, (time.perf_counter() - started) * 1e6 / repeat)
        return best

    return asyncio.run(loop())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--benchmark", default="benchmark-schema-mutation")
    parser.add_argument("--rounds", type=int, default=3, help="wrk runs on each server, alternating")
    parser.add_argument("--duration", type=int, default=3, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not on PATH (Debian: apt-get install wrk)", file=sys.stderr)
        return 1
    benchmark = load_benchmark(args.benchmark)
    task = pick_task(benchmark)
    submission = submission_for(benchmark, task)
    body = json.dumps({"taskId": task.id, "submission": submission})
    answer = to_wire(benchmark.score(task.id, submission))
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(
            f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\nwrk.headers["Content-Type"] = "application/json"\n'
        )
    context = multiprocessing.get_context("spawn")
    servers: dict[str, tuple[Any, Connection, str]] = {}
    rates: dict[str, list[float]] = {"bare aiohttp": [], "benchmark-core": []}
    in_server: list[float] = []
    try:
        for label, target, extra in (
            ("bare aiohttp", serve_bare, (answer,)),
            ("benchmark-core", serve_real, (args.benchmark,)),
        ):
            port = free_port()
            parent, child = context.Pipe()
            server = context.Process(target=target, args=(*extra, port, child), daemon=True)
            server.start()
            servers[label] = (server, parent, f"http://127.0.0.1:{port}/v1/score")
            if not parent.poll(60):
                print(f"the {label} server did not start", file=sys.stderr)
                return 1
            parent.recv()
            wrk(servers[label][2], script.name, 1, args.connections)  # warm-up
        answers = {label: post(url, body) for label, (_, _, url) in servers.items()}
        if len(set(answers.values())) != 1:
            print(f"the two servers answer differently: {answers}", file=sys.stderr)
            return 1
        for _ in range(args.rounds):
            for label, (_, control, url) in servers.items():
                if label == "benchmark-core":
                    control.send("grading")
                    control.recv()  # drop what the previous round (or the warm-up) graded
                rates[label].append(wrk(url, script.name, args.duration, args.connections))
                if label == "benchmark-core":
                    control.send("grading")
                    seconds, count = control.recv()
                    in_server.append(seconds * 1e6 / max(count, 1))
    finally:
        for server, _, _ in servers.values():
            server.terminate()
            server.join()
    alone = grading_alone_us(benchmark, task, submission)
    bare_rate = statistics.median(rates["bare aiohttp"])
    ours_rate = statistics.median(rates["benchmark-core"])
    bare_us, ours_us, grading = 1e6 / bare_rate, 1e6 / ours_rate, statistics.median(in_server)
    print(
        f"POST /v1/score, {args.benchmark} task {task.id} ({task.kind}), wrk 1 thread {args.connections} "
        f"connections, {args.rounds} alternating rounds of {args.duration} s (median round)"
    )
    print(f"{'':<16} {'req/s':>9} {'us/request':>11}   rounds (req/s)")
    for label, rate in (("bare aiohttp", bare_rate), ("benchmark-core", ours_rate)):
        shown = ", ".join(f"{r:.0f}" for r in rates[label])
        print(f"{label:<16} {rate:>9.0f} {1e6 / rate:>11.1f}   {shown}")
    print(
        f"grading (the benchmark's grader): {grading:.1f} us in the server under load "
        f"(rounds: {', '.join(f'{g:.1f}' for g in in_server)}), {alone:.1f} us alone in a tight loop"
    )
    print(f"beyond grading: {ours_us - grading:.1f} us/request")
    print(f"ratio: {(ours_us - grading) / bare_us:.2f}x the bare handler's time per request (target <= 1.5x)")
    print(f"ratio with grading timed alone: {(ours_us - alone) / bare_us:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
