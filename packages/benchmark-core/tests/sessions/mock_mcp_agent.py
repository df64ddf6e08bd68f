"""A test agent for `run --agent`: plays the offline mock's script for its task through the MCP
SDK's client, over the session's streamable HTTP endpoint (`http`) or the stdio server the
`mcpServers` file names (`stdio`). Usage: mock_mcp_agent.py BENCHMARK_ID http|stdio [crash-on TASK_ID]."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import httpx2
import mcp
from benchmark_core import load_benchmark
from mcp import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client


def _client(transport: str) -> mcp.Client:
    if transport == "http":
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {os.environ['BENCHMARK_MCP_TOKEN']}"})
        return mcp.Client(streamable_http_client(os.environ["BENCHMARK_MCP_URL"], http_client=http))
    with open(os.environ["BENCHMARK_MCP_CONFIG"], encoding="utf-8") as handle:
        [server] = json.load(handle)["mcpServers"].values()
    env = {**os.environ, **server["env"]}
    return mcp.Client(StdioServerParameters(command=server["command"], args=server["args"], env=env))


async def main(benchmark_id: str, transport: str, crash_on: str) -> int:
    """Play the episode; how many turns the script had (reported as completion tokens)."""
    prompt = sys.stdin.read()
    bench = load_benchmark(benchmark_id)
    task_id = os.environ["BENCHMARK_TASK_ID"]
    if task_id == crash_on:
        print("simulated crash", file=sys.stderr)
        sys.exit(3)
    tasks = bench.tasks()
    position = next(i for i, t in enumerate(tasks) if t.id == task_id)
    task = tasks[position]
    assert prompt == task.prompt and os.environ["BENCHMARK_SYSTEM"]
    policies = bench.mock_policies
    script = (policies.good_script if position % 2 == 0 else policies.bad_script)(task)  # type: ignore[misc]
    async with _client(transport) as client:
        for turn in script:
            if not turn.tool_calls:
                print(turn.content)
                break
            for call in turn.tool_calls:
                await client.call_tool(call.name, call.arguments)
        else:
            print("Done.")
    return len(script)


if __name__ == "__main__":
    turns = asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""))
    with open(os.environ["BENCHMARK_USAGE_FILE"], "w", encoding="utf-8") as handle:
        json.dump({"promptTokens": 10, "completionTokens": turns}, handle)
