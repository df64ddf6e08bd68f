"""Episode-session figures (issue 23): what a tool call costs through each transport, one server
under 100 sessions at once, and a whole public rollback-recovery run of each agent framework.

    python tools/bench_sessions.py [--calls 300] [--sessions 100] [--frameworks PYTHON]

1. One tool call (the example's `lookup_order`) in process (`EpisodeSession.call`), over MCP on
   stdio (`python -m benchmark_core mcp --episode ...`, a subprocess) and over streamable HTTP
   (`serve`, a subprocess), each driven by the MCP SDK's client, and the same HTTP calls as bare
   JSON-RPC POSTs (the server's share of the cost): mean microseconds per call.
2. 100 sessions opened on one `serve` process, 10 calls each, all at once: wall time, and the
   server's resident memory (VmRSS) before and after.
3. With `--frameworks PYTHON` (a venv with openai-agents and pydantic-ai): tools/agents_proof.py's
   run of each framework on the public rollback-recovery split: wall time and processes started.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx2
import mcp
from benchmark_core.episodes import open_session
from benchmark_core.example import benchmark as example
from benchmark_core.testing.surfaces import free_port
from mcp import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

EPISODE = next(t for t in example.tasks() if t.kind == "episode")
CALL = ("lookup_order", {"order_id": EPISODE.metadata["orderId"]})
#: Enough calls per session for the timing loops (the default budget is 50).
LIMIT = 1_000_000


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def in_process(calls: int) -> float:
    from benchmark_core.episodes import EpisodeLimits

    session = await open_session(example, EPISODE.id, limits=EpisodeLimits(max_tool_calls=LIMIT))
    started = time.perf_counter()
    for _ in range(calls):
        session.call(*CALL)
    return (time.perf_counter() - started) / calls * 1e6


async def over_stdio(calls: int) -> float:
    # The default budget (50 calls) refuses the rest with MAX_TOOL_CALLS: still a full round trip.
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "benchmark_core", "mcp", "--episode", EPISODE.id], env=dict(os.environ)
    )
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        await client.call_tool(*CALL)
        started = time.perf_counter()
        for _ in range(calls):
            await client.call_tool(*CALL)
        return (time.perf_counter() - started) / calls * 1e6


def _open(base: str) -> dict[str, Any]:
    body = json.dumps({"taskId": EPISODE.id}).encode()
    request = urllib.request.Request(f"{base}/v1/sessions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        opened: dict[str, Any] = json.load(response)
        return opened


def _client(opened: dict[str, Any]) -> mcp.Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {opened['token']}"})
    return mcp.Client(streamable_http_client(opened["mcpUrl"], http_client=http), read_timeout_seconds=120)


async def over_http(base: str, calls: int) -> float:
    async with _client(await asyncio.to_thread(_open, base)) as client:
        await client.call_tool(*CALL)
        started = time.perf_counter()
        for _ in range(calls):
            await client.call_tool(*CALL)
        return (time.perf_counter() - started) / calls * 1e6


async def raw_http(base: str, calls: int) -> float:
    """The server's share: bare JSON-RPC `tools/call` POSTs (aiohttp), no MCP client around them."""
    import aiohttp

    opened = await asyncio.to_thread(_open, base)
    headers = {
        "Authorization": f"Bearer {opened['token']}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": CALL[0], "arguments": CALL[1]}}
    async with aiohttp.ClientSession() as http:
        started = time.perf_counter()
        for _ in range(calls):
            async with http.post(opened["mcpUrl"], json=body, headers=headers) as response:
                await response.read()
        return (time.perf_counter() - started) / calls * 1e6


async def many_sessions(base: str, sessions: int, calls: int) -> float:
    async def one() -> None:
        async with _client(await asyncio.to_thread(_open, base)) as client:
            for _ in range(calls):
                await client.call_tool(*CALL)

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(sessions)))
    return time.perf_counter() - started


def _serve() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmark_core", "serve", "--port", str(port)], stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/health").close()
            return server, base
        except OSError:
            time.sleep(0.05)
    raise SystemExit("serve did not start")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--frameworks", metavar="PYTHON", help="Python of a venv with both agent frameworks.")
    args = parser.parse_args()
    print(f"one tool call ({CALL[0]}), mean of {args.calls}:")
    print(f"  in process (EpisodeSession.call)  {await in_process(args.calls * 10):9.1f} us")
    print(f"  MCP over stdio (subprocess)       {await over_stdio(args.calls):9.1f} us")
    server, base = _serve()
    try:
        print(f"  MCP over streamable HTTP (serve)  {await over_http(base, args.calls):9.1f} us")
        print(f"  same, bare JSON-RPC POSTs         {await raw_http(base, args.calls):9.1f} us  (the server's share)")
        before = _rss_kib(server.pid)
        wall = await many_sessions(base, args.sessions, 10)
        after = _rss_kib(server.pid)
        print(
            f"{args.sessions} sessions x 10 calls at once on one server: {wall:.2f} s wall, "
            f"server RSS {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after"
        )
    finally:
        server.terminate()
        server.wait()
    if args.frameworks:
        proof = Path(__file__).with_name("agents_proof.py")
        argv = [sys.executable, str(proof), "--python", args.frameworks, "--benchmark", "benchmark-rollback-recovery"]
        await asyncio.to_thread(subprocess.run, argv, check=False)


if __name__ == "__main__":
    asyncio.run(main())
