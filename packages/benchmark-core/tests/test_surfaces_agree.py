"""CLI (`--json`), HTTP API and MCP server answer the same question with the same document: each
surface is driven for real (click's runner, the aiohttp server on loopback, the MCP SDK's client)
and the documents are compared whole."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import mcp
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark
from benchmark_core.servers._mcp import create_mcp_server
from benchmark_core.testing.surfaces import serve_benchmark, tool_data, tool_error
from click.testing import CliRunner

CLI = create_cli(benchmark, "benchmark-core", umbrella=True)


async def cli_json(*args: str, exit_code: int = 0) -> Any:
    """The command's `--json` document, run in a thread: the CLI starts its own event loop."""
    result = await asyncio.to_thread(CliRunner().invoke, CLI, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == exit_code, result.output
    return json.loads(result.stdout)


async def http_json(method: str, path: str, body: Any = None, status: int = 200) -> Any:
    async with (
        serve_benchmark(benchmark) as base,
        aiohttp.ClientSession() as session,
        session.request(method, base + path, json=body) as response,
    ):
        assert response.status == status, await response.text()
        return await response.json()


async def test_task_list_task_and_provenance_are_one_document_on_every_surface() -> None:
    async with mcp.Client(create_mcp_server(benchmark)) as client:
        mcp_list = tool_data(await client.call_tool("list_tasks", {}))
        mcp_task = tool_data(await client.call_tool("get_task", {"task_id": "order-refund-01"}))
        mcp_provenance = tool_data(await client.call_tool("get_provenance", {}))
    assert await cli_json("list") == await http_json("GET", "/v1/tasks") == mcp_list
    assert await cli_json("show", "order-refund-01") == await http_json("GET", "/v1/tasks/order-refund-01") == mcp_task
    provenance = await cli_json("provenance")
    assert provenance == await http_json("GET", "/v1/provenance") == mcp_provenance
    assert set(provenance) == {"benchmark", "provenance", "markdown"}
    assert await cli_json("index-entry") == await http_json("GET", "/v1/index-entry")


async def test_a_verdict_is_one_document_on_every_surface(tmp_path: Path) -> None:
    submission = {"answer": "56"}
    batch = tmp_path / "submissions.jsonl"
    batch.write_text(json.dumps({"taskId": "arith-02", "submission": submission}) + "\n", encoding="utf-8")
    scored = await cli_json("score", str(batch))
    assert (scored["benchmark"], scored["count"], scored["changed"]) == (benchmark.id, 1, 0)
    row = scored["results"][0]
    assert row.pop("taskId") == "arith-02"
    over_http = await http_json("POST", "/v1/score", {"taskId": "arith-02", "submission": submission})
    async with mcp.Client(create_mcp_server(benchmark)) as client:
        over_mcp = tool_data(await client.call_tool("score_answer", {"task_id": "arith-02", "submission": submission}))
    assert row == over_http == over_mcp
    assert row["passed"] is True and scored["mean"] == row["score"] == 1.0


async def test_an_error_is_one_code_and_message_on_every_surface() -> None:
    from_cli = await cli_json("show", "nope", exit_code=1)
    from_http = await http_json("GET", "/v1/tasks/nope", status=404)
    async with mcp.Client(create_mcp_server(benchmark)) as client:
        from_mcp = tool_error(await client.call_tool("get_task", {"task_id": "nope"}))
    assert from_cli == from_http == {"error": from_mcp}
    assert from_mcp["code"] == "TASK_NOT_FOUND"
