"""`python -m <package> mcp --episode TASK_ID --record FILE`: a real subprocess driven by the MCP
SDK's stdio client serves exactly the episode's tools, answers tool errors as MCP tool errors with
the environment's code, and on disconnect writes a submission that `score` grades."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import mcp
import pytest
from benchmark_core.episodes import open_session
from benchmark_core.example import benchmark as example
from benchmark_core.testing.surfaces import tool_data, tool_error
from benchmark_core.wire import to_wire
from mcp import StdioServerParameters


def episode_server(module: str, task_id: str, record: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", module, "mcp", "--episode", task_id, "--record", str(record), *extra],
        env=dict(os.environ),
    )


async def test_the_example_episode_over_stdio_is_recorded_and_scored(tmp_path: Path) -> None:
    task = next(t for t in example.tasks() if t.kind == "episode")
    order, total = task.metadata["orderId"], task.metadata["orderTotal"]
    record = tmp_path / "session.json"
    params = episode_server("benchmark_core", task.id, record, "--seed", "5")
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        tools = (await client.list_tools()).tools
        assert [(t.name, t.description, t.input_schema) for t in tools] == [
            (s.name, s.description, s.parameters)
            for s in example.environment().reset(task, 5).tools  # type: ignore[misc]
        ]
        assert tool_error(await client.call_tool("lookup_order", {"order_id": order}))["code"] == "HTTP_500"
        assert tool_error(await client.call_tool("lookup_order", {"order_id": 7}))["code"] == "INVALID_ARGUMENTS"
        assert tool_error(await client.call_tool("no_such_tool", {}))["code"] == "UNKNOWN_TOOL"
        assert tool_data(await client.call_tool("lookup_order", {"order_id": order}))["total"] == total
        assert tool_data(await client.call_tool("refund", {"order_id": order, "amount": total}))["amount"] == total
    items = json.loads(record.read_text())
    assert [item["taskId"] for item in items] == [task.id]
    assert [entry["name"] for entry in items[0]["submission"]["toolLog"]] == [
        "lookup_order",
        "lookup_order",
        "no_such_tool",
        "lookup_order",
        "refund",
    ]
    scored = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "benchmark_core", "score", str(record), "--seed", "5", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert scored.returncode == 0, scored.stderr
    [result] = json.loads(scored.stdout)["results"]
    # The same calls made in process grade the same: the record is the session's own log.
    session = await open_session(example, task.id, seed=5)
    for entry in items[0]["submission"]["toolLog"]:
        session.call(entry["name"], entry["arguments"])
    assert {k: v for k, v in result.items() if k != "taskId"} == to_wire(await session.finish())
    assert result["reason"] == "refunded in full but made refused calls: INVALID_ARGUMENTS, UNKNOWN_TOOL"


@pytest.mark.parametrize(
    ("module", "task_id"),
    [("benchmark_rollback_recovery", None), ("benchmark_schema_mutation", "tasks-full")],
)
async def test_every_benchmark_package_serves_its_episodes(tmp_path: Path, module: str, task_id: object) -> None:
    from benchmark_core import load_benchmark

    bench = load_benchmark(module.replace("_", "-"))
    source = bench.task_file(str(task_id)) if task_id is not None else None
    task = next(t for t in bench.tasks(source) if t.kind == "episode")
    extra = ["--tasks", str(source)] if source is not None else []
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", module, "mcp", "--episode", task.id, "--record", str(tmp_path / "r.json"), *extra],
        env=dict(os.environ),
    )
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == [s.name for s in bench.environment().reset(task, 1).tools]  # type: ignore[misc]
    assert json.loads((tmp_path / "r.json").read_text())[0]["taskId"] == task.id


def test_a_single_task_has_no_session(tmp_path: Path) -> None:
    single = next(t for t in example.tasks() if t.kind == "single")
    done = subprocess.run(
        [sys.executable, "-m", "benchmark_core", "mcp", "--episode", single.id],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "only episodes have sessions" in done.stderr and "Traceback" not in done.stderr
