"""Helpers for testing a benchmark's HTTP API and MCP server, in benchmark-core or any benchmark package.

A real server on a free loopback port, and a real MCP client talking to `python -m benchmark_x mcp`:

    async with serve_benchmark(benchmark) as base_url, aiohttp.ClientSession() as session:
        async with session.get(f"{base_url}/v1/tasks") as response:
            ...

    async with mcp.Client(mcp_stdio_parameters("benchmark_x")) as client:
        data = tool_data(await client.call_tool("list_tasks", {}))
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Optional

from aiohttp import web

from .._benchmark.definition import Benchmark

if TYPE_CHECKING:
    from mcp import StdioServerParameters
    from mcp.types import CallToolResult


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (for servers started in another process)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def serve_benchmark(benchmark: Benchmark, host: str = "127.0.0.1") -> AsyncIterator[str]:
    """Serve `create_app(benchmark)` on `host` and a free port; yields the base URL
    (`http://127.0.0.1:PORT`, no trailing slash) and stops the server on exit."""
    from ..servers._http import create_app

    runner = web.AppRunner(create_app(benchmark), handle_signals=False)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, 0)
        await site.start()
        yield f"http://{host}:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


def mcp_stdio_parameters(
    module: str, *args: str, env: Optional[Mapping[str, str]] = None, scoring_api: bool = True
) -> StdioServerParameters:
    """Parameters for `mcp.Client` that start `python -m <module> [args...] mcp --scoring-api` (all
    five tools, grading fields included; `scoring_api=False`: the withheld surface an agent may
    reach) with this interpreter. The child inherits this process's environment (the SDK's default
    passes only a few variables), updated with `env`."""
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", module, *args, "mcp", *(["--scoring-api"] if scoring_api else [])],
        env={**os.environ, **(env or {})},
    )


def tool_data(result: CallToolResult) -> Any:
    """The structured content of a successful tool result; AssertionError with the error text
    when the tool failed."""
    if result.is_error:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        raise AssertionError(f"tool failed: {text}")
    return result.structured_content


def tool_error(result: CallToolResult) -> dict[str, str]:
    """The `{"code", "message"}` of a failed tool result; AssertionError when it succeeded, or when
    the error breaks the contract every client relies on: text `CODE: message`, the same pair under
    `_meta["benchmark-core/error"]`, and no structured content (which a client would validate
    against the tool's output schema)."""
    text = " ".join(getattr(block, "text", "") for block in result.content)
    if not result.is_error:
        raise AssertionError(f"tool succeeded: {result.structured_content!r}")
    if result.structured_content is not None:
        raise AssertionError(f"tool error with structured content: {result.structured_content!r}")
    error = (result.meta or {}).get("benchmark-core/error")
    if not (isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str)):
        raise AssertionError(f"tool error without a code: {text}")
    if text != f"{error['code']}: {error['message']}":
        raise AssertionError(f"tool error text {text!r} differs from its _meta {error!r}")
    return {"code": error["code"], "message": error["message"]}
