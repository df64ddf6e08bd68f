"""`POST /v1/score` under load: wrk (1 thread, 32 connections) against the real HTTP API, and
against a bare aiohttp handler that reads the same body and parses it as JSON (the floor). Each
server runs in its own process. Grading is timed separately in-process (the benchmark's own
`grade` on the same task and submission), so the script can print the time per request beyond
grading and its ratio to the bare handler's time per request (target <= 1.5x).

Needs `wrk` on PATH (Debian: apt-get install wrk). A benchmark, not a test: it exits 1 only when
the figures cannot be produced.

    python tools/bench_http.py [--benchmark benchmark-schema-mutation] [--duration 5] [--connections 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import re
import shutil
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from typing import Any

from benchmark_core import Benchmark, Task, load_benchmark
from benchmark_core.testing.surfaces import free_port


def submission_for(task: Task) -> dict[str, Any]:
    """An answer to grade: the task's expected answer, as a model would write it."""
    expected = task.expected
    return {"answer": expected if isinstance(expected, str) else json.dumps(expected)}


def serve_real(benchmark_id: str, port: int, ready: Connection) -> None:
    from aiohttp import web
    from benchmark_core import create_app

    async def main() -> None:
        runner = web.AppRunner(create_app(load_benchmark(benchmark_id)), handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.send("ready")
        await asyncio.Event().wait()

    asyncio.run(main())


def serve_bare(port: int, ready: Connection) -> None:
    from aiohttp import web

    async def score(request: web.Request) -> web.Response:
        body = json.loads(await request.read())
        return web.json_response({"score": 1.0, "passed": True, "reason": "bare", "taskId": body.get("taskId")})

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/score", score)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.send("ready")
        await asyncio.Event().wait()

    asyncio.run(main())


def wrk(url: str, body: str, duration: int, connections: int) -> float:
    """Requests per second wrk reached (1 thread), refusing a run with non-2xx answers."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(
            f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\nwrk.headers["Content-Type"] = "application/json"\n'
        )
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "-s", script.name, url],
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


def grading_us(benchmark: Benchmark, task: Task, submission: dict[str, Any], repeat: int = 2000) -> float:
    async def loop() -> float:
        from benchmark_core._submission import parse_submission

        trace = parse_submission(submission)
        ctx = benchmark.grade_context(1)
        started = time.perf_counter()
        for _ in range(repeat):
            await benchmark.grade(task, trace, ctx)
        return (time.perf_counter() - started) * 1e6 / repeat

    return asyncio.run(loop())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--benchmark", default="benchmark-schema-mutation")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not on PATH (Debian: apt-get install wrk)", file=sys.stderr)
        return 1
    benchmark = load_benchmark(args.benchmark)
    task = next(t for t in benchmark.tasks() if t.kind == "single")
    submission = submission_for(task)
    body = json.dumps({"taskId": task.id, "submission": submission})
    context = multiprocessing.get_context("spawn")
    results: dict[str, float] = {}
    for label, target, extra in (("bare aiohttp", serve_bare, ()), ("benchmark-core", serve_real, (args.benchmark,))):
        port = free_port()
        parent, child = context.Pipe()
        server = context.Process(target=target, args=(*extra, port, child), daemon=True)
        server.start()
        try:
            if not parent.poll(30):
                print(f"the {label} server did not start", file=sys.stderr)
                return 1
            parent.recv()
            url = f"http://127.0.0.1:{port}/v1/score"
            wrk(url, body, 1, args.connections)  # warm-up
            results[label] = wrk(url, body, args.duration, args.connections)
        finally:
            server.terminate()
            server.join()
    grade = grading_us(benchmark, task, submission)
    bare_us = 1e6 / results["bare aiohttp"]
    ours_us = 1e6 / results["benchmark-core"]
    print(f"POST /v1/score, {args.benchmark} task {task.id}, wrk 1 thread {args.connections} connections")
    print(f"{'':<16} {'req/s':>9} {'us/request':>11}")
    print(f"{'bare aiohttp':<16} {results['bare aiohttp']:>9.0f} {bare_us:>11.1f}")
    print(f"{'benchmark-core':<16} {results['benchmark-core']:>9.0f} {ours_us:>11.1f}")
    print(f"grading alone: {grade:.1f} us; beyond grading: {ours_us - grade:.1f} us/request")
    print(f"ratio: {(ours_us - grade) / bare_us:.2f}x the bare handler's time per request (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
