"""The HTTP API and the MCP server built from this benchmark, with alternate task files under the
allow-list BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW: a real server on a loopback port with a real aiohttp
client, an in-memory MCP client, and one real stdio subprocess (`python -m benchmark_schema_mutation mcp`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import mcp
import pytest
from benchmark_core import Task
from benchmark_core.data import dump_task_file
from benchmark_core.servers import create_mcp_server
from benchmark_core.testing import mcp_stdio_parameters, serve_benchmark, tool_data, tool_error
from benchmark_core.wire import to_wire
from benchmark_schema_mutation import TASKS_ALLOW_ENV, benchmark

TOOLS = {"list_tasks", "get_task", "score_answer", "run_benchmark", "get_provenance"}


async def _get(session: aiohttp.ClientSession, url: str, tasks: str) -> tuple[int, Any]:
    async with session.get(url, params={"tasks": tasks}) as response:
        return response.status, await response.json()


async def _score(session: aiohttp.ClientSession, base: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with session.post(f"{base}/v1/score", json=body) as response:
        return response.status, await response.json()


def _stale_answer(task: Task) -> dict[str, Any]:
    return {"answer": json.dumps(task.metadata["staleCall"])}


async def test_http_routes_refuse_a_task_file_off_the_allow_list(
    alternate_file: Path, alternate_tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TASKS_ALLOW_ENV, raising=False)
    task = alternate_tasks[0]
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession() as session:
        for route in ("/v1/tasks", f"/v1/tasks/{task.id}", "/v1/provenance", "/v1/index-entry"):
            status, body = await _get(session, base + route, str(alternate_file))
            assert (status, body["error"]["code"]) == (403, "TASKS_NOT_ALLOWED"), route
            assert TASKS_ALLOW_ENV in body["error"]["message"]
        status, body = await _score(
            session, base, {"taskId": task.id, "submission": _stale_answer(task), "tasks": str(alternate_file)}
        )
        assert (status, body["error"]["code"]) == (403, "TASKS_NOT_ALLOWED")


async def test_http_routes_serve_an_allowed_task_file(
    alternate_file: Path, alternate_tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TASKS_ALLOW_ENV, str(alternate_file))
    path = str(alternate_file)
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession() as session:
        status, listed = await _get(session, f"{base}/v1/tasks", path)
        assert status == 200
        assert [t["id"] for t in listed["tasks"]] == [t.id for t in alternate_tasks]
        for task in alternate_tasks:
            status, shown = await _get(session, f"{base}/v1/tasks/{task.id}", path)
            assert (status, shown["metadata"]["mutationKind"]) == (200, task.metadata["mutationKind"])
            status, verdict = await _score(
                session, base, {"taskId": task.id, "submission": _stale_answer(task), "tasks": path}
            )
            assert status == 200
            assert (verdict["score"], verdict["details"]["outcome"]) == (0.0, "staleSchemaUsed")
            native = {"toolCalls": [task.expected]}
            status, verdict = await _score(session, base, {"taskId": task.id, "submission": native, "tasks": path})
            assert (status, verdict["score"], verdict["details"]["callSource"]) == (200, 1.0, "toolCalls")
        status, entry = await _get(session, f"{base}/v1/index-entry", path)
        assert (status, entry["taskCount"]) == (200, 5)
        status, provenance = await _get(session, f"{base}/v1/provenance", path)
        assert status == 200 and "Licence: MIT" in provenance["markdown"]
        # The same ids are unknown without the file: the shipped split is the default.
        status, missing = await _score(
            session, base, {"taskId": alternate_tasks[0].id, "submission": _stale_answer(alternate_tasks[0])}
        )
        assert (status, missing["error"]["code"]) == (404, "TASK_NOT_FOUND")


async def test_http_resolves_a_bare_name_in_the_data_folder(tasks: list[Task]) -> None:
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession() as session:
        status, listed = await _get(session, f"{base}/v1/tasks", "tasks")
        assert (status, listed["count"]) == (200, 60)
        status, body = await _get(session, f"{base}/v1/tasks", "no-such-split")
        assert (status, body["error"]["code"]) == (400, "INVALID_TASK_FILE")
        task = tasks[3]
        status, verdict = await _score(session, base, {"taskId": task.id, "submission": {}, "tasks": "tasks"})
        assert (status, verdict["details"]["outcome"]) == (200, "emptyAnswer")


async def test_mcp_tools_take_a_tasks_argument_under_the_allow_list(
    alternate_file: Path, alternate_tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(alternate_file)
    task = alternate_tasks[2]
    monkeypatch.delenv(TASKS_ALLOW_ENV, raising=False)
    async with mcp.Client(create_mcp_server(benchmark)) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
        refused = [
            await client.call_tool("list_tasks", {"tasks": path}),
            await client.call_tool("get_task", {"task_id": task.id, "tasks": path}),
            await client.call_tool("score_answer", {"task_id": task.id, "submission": {}, "tasks": path}),
            await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock", "tasks": path}),
            await client.call_tool("get_provenance", {"tasks": path}),
        ]
        assert [tool_error(result)["code"] for result in refused] == ["TASKS_NOT_ALLOWED"] * 5

        monkeypatch.setenv(TASKS_ALLOW_ENV, path)
        listed = tool_data(await client.call_tool("list_tasks", {"tasks": path}))
        assert listed["count"] == 5
        shown = tool_data(await client.call_tool("get_task", {"task_id": task.id, "tasks": path}))
        assert shown["expected"] == task.expected
        arguments = {"task_id": task.id, "submission": _stale_answer(task), "tasks": path}
        verdict = tool_data(await client.call_tool("score_answer", arguments))
        assert verdict["details"]["outcome"] == "staleSchemaUsed"
        assert verdict["details"]["staleSignals"][0]["signal"] == "oldEnumValue"
        report = tool_data(
            await client.call_tool(
                "run_benchmark", {"model": "offline", "provider": "mock", "tasks": path, "mode": "native"}
            )
        )
        assert (report["mode"], report["totals"]["tasks"]) == ("native", 5)
        assert list(report["perMutationKind"]) == [t.metadata["mutationKind"] for t in alternate_tasks]
        assert tool_data(await client.call_tool("get_provenance", {"tasks": path}))["benchmark"] == benchmark.id


async def test_mcp_over_stdio_in_a_subprocess(
    tmp_path: Path, alternate_file: Path, alternate_tasks: list[Task]
) -> None:
    elsewhere = tmp_path / "not-allowed.jsonl"
    elsewhere.write_text(dump_task_file(alternate_tasks[:1]), encoding="utf-8")
    parameters = mcp_stdio_parameters("benchmark_schema_mutation", env={TASKS_ALLOW_ENV: str(alternate_file)})
    async with mcp.Client(parameters, read_timeout_seconds=60) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
        listed = tool_data(await client.call_tool("list_tasks", {}))
        assert (listed["benchmark"], listed["count"]) == (benchmark.id, 60)
        report = tool_data(await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock"}))
        assert (report["mean"], report["mode"], report["totals"]["tasks"]) == (0.5, "prompt", 60)
        assert report["staleSchemaUsedRate"] > 0
        task = alternate_tasks[4]
        arguments = {"task_id": task.id, "submission": _stale_answer(task), "tasks": str(alternate_file)}
        verdict = tool_data(await client.call_tool("score_answer", arguments))
        assert verdict["details"]["outcome"] == "staleSchemaUsed"
        refused = await client.call_tool("list_tasks", {"tasks": str(elsewhere)})
        assert tool_error(refused)["code"] == "TASKS_NOT_ALLOWED"


async def test_native_submissions_on_the_extended_split_score_on_every_surface() -> None:
    """A native submission (tool calls) scores the same through the SDK, HTTP and MCP, and the
    extended split is reached by its bare name on each of them."""
    from benchmark_schema_mutation import score_async

    extended = await benchmark.load_tasks("tasks-extended")
    task = next(t for t in extended if t.metadata["mutationKind"] == "deprecation")
    good = {"toolCalls": [task.expected]}
    twice = {"toolCalls": [task.expected, task.metadata["staleCall"]]}
    sdk = await score_async(task.id, twice, tasks="tasks-extended")
    assert (sdk.details["outcome"], sdk.details["distinctCalls"], sdk.details["anotherCallMatched"]) == (
        "staleSchemaUsed",
        2,
        True,
    )
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession() as session:
        status, verdict = await _score(
            session, base, {"taskId": task.id, "submission": good, "tasks": "tasks-extended"}
        )
        assert (status, verdict["score"], verdict["details"]["callSource"]) == (200, 1.0, "toolCalls")
        status, verdict = await _score(
            session, base, {"taskId": task.id, "submission": twice, "tasks": "tasks-extended"}
        )
        assert (status, verdict["details"]) == (200, to_wire(sdk.details))
    async with mcp.Client(create_mcp_server(benchmark)) as client:
        arguments = {"task_id": task.id, "submission": twice, "tasks": "tasks-extended"}
        verdict = tool_data(await client.call_tool("score_answer", arguments))
        assert verdict["details"] == to_wire(sdk.details)
        assert verdict["details"]["staleSignals"][0]["signal"] == "deprecatedTool"
