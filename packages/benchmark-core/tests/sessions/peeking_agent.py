"""An adversarial agent for the seal's tests: it tries one way to reach what grades it and answers
what it found, as JSON (an empty finding is what a sealed run must give). Usage:
peeking_agent.py http|import|read|mcp|proc|forkbomb|memhog; `read`, `import` and `mcp` take their
targets from $PEEK (paths or module names, separated by `:`)."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

#: Every route the benchmark's HTTP API has, and what a session's token might open.
ROUTES = [
    ("GET", "/"), ("GET", "/health"), ("GET", "/v1/tasks"), ("GET", "/v1/tasks/{task}"),
    ("GET", "/v1/tasks/{task}?tasks=full"), ("POST", "/v1/score"), ("GET", "/v1/provenance"),
    ("GET", "/v1/index-entry"), ("GET", "/openapi.json"), ("POST", "/v1/sessions"),
]  # fmt: skip


def probe_http() -> dict[str, Any]:
    url = os.environ["BENCHMARK_MCP_URL"]
    base = url.split("/v1/")[0]
    answered = []
    for method, route in ROUTES:
        for auth in ({}, {"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"}):
            path = route.format(task=os.environ["BENCHMARK_TASK_ID"])
            body = json.dumps({"taskId": os.environ["BENCHMARK_TASK_ID"], "submission": {}}).encode()
            request = urllib.request.Request(base + path, data=body if method == "POST" else None, method=method)
            for name, value in {**auth, "Content-Type": "application/json"}.items():
                request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    answered.append(f"{method} {path} {response.status}")
            except urllib.error.HTTPError as exc:
                if exc.code < 400:
                    answered.append(f"{method} {path} {exc.code}")
    return {"answered": answered, "tools": asyncio.run(bridge_tools())}


async def bridge_tools() -> int:
    """How many tools the stdio bridge of the MCP config lists: it must work inside the seal."""
    import mcp
    from mcp import StdioServerParameters

    [server] = json.loads(Path(os.environ["BENCHMARK_MCP_CONFIG"]).read_text(encoding="utf-8"))["mcpServers"].values()
    params = StdioServerParameters(command=server["command"], args=server["args"], env={**os.environ, **server["env"]})
    async with mcp.Client(params) as client:
        return len((await client.list_tools()).tools)


def imported() -> list[str]:
    found = []
    for name in os.environ["PEEK"].split(":"):
        try:
            module = importlib.import_module(name)
            if getattr(module, "benchmark", None) is not None:  # a masked folder imports as an empty namespace
                found.append(f"{name}: {module.benchmark!r}"[:200])
        except Exception:
            pass
    return found


def mcp_answer_keys() -> list[str]:
    """Start each benchmark's own MCP server (`python -m <module> mcp --scoring-api`, the full tools)
    and list its tasks: every module whose server answers a grading field (expected, metadata) is found."""
    import mcp
    from mcp import StdioServerParameters

    async def listed(module: str) -> bool:
        params = StdioServerParameters(command=sys.executable, args=["-m", module, "mcp", "--scoring-api"])
        async with mcp.Client(params, read_timeout_seconds=30) as client:
            text = (await client.call_tool("list_tasks", {})).content[0].text  # type: ignore[union-attr]
        return any(task.get("expected") is not None or task.get("metadata") for task in json.loads(text)["tasks"])

    found = []
    for name in os.environ["PEEK"].split(":"):
        try:
            if asyncio.run(asyncio.wait_for(listed(name), 60)):
                found.append(name)
        except Exception:
            pass
    return found


def readable() -> list[str]:
    found = []
    for path in os.environ["PEEK"].split(":"):
        try:
            if os.path.isdir(path):
                if os.listdir(path):
                    found.append(f"{path}: {os.listdir(path)[:5]}")
            elif Path(path).read_bytes()[:64]:
                found.append(path)
        except OSError:
            pass
    return found


def processes() -> list[str]:
    """Every other process's command line this agent can see (the runner's must not be one)."""
    mine = {os.getpid(), os.getppid()}
    seen = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in mine:
            try:
                line = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if "benchmark" in line or "pytest" in line:
                seen.append(line[:200])
    return seen


def fork_bomb() -> str:
    """Forks, children forking too, up to 2000 processes (bounded, so an unsealed run ends)."""
    alive = 1
    while alive < 2000:
        if os.fork() == 0:
            import time

            time.sleep(30)
            os._exit(0)
        alive += 1
    return "reached 2000 processes"


def memory_hog() -> str:
    blocks = [bytearray(256 * 1024 * 1024) for _ in range(24)]  # 6 GiB
    return f"allocated {len(blocks) * 256} MiB"


def main() -> None:
    sys.stdin.read()
    mode = sys.argv[1]
    found: Any = {
        "http": probe_http, "import": imported, "read": readable, "mcp": mcp_answer_keys, "proc": processes,
        "forkbomb": fork_bomb, "memhog": memory_hog,
    }[mode]()  # fmt: skip
    print(json.dumps({mode: found}))


if __name__ == "__main__":
    main()
