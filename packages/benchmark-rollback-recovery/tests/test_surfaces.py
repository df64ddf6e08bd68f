"""The core surfaces built from this benchmark: HTTP scoring and MCP tools, with the allow-list."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import mcp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from benchmark_core import (
    Episode,
    MockPolicies,
    ScriptedTurn,
    Task,
    create_app,
    create_mcp_server,
    dump_task_file,
    mock_adapter,
    run_episode,
    to_wire,
)
from benchmark_core.testing.surfaces import tool_data, tool_error
from benchmark_rollback_recovery import RollbackSimulator, bad_script, benchmark, generate, good_script
from pytest_aiohttp import AiohttpClient

Client = TestClient[web.Request, web.Application]


async def play(task: Task, script: Sequence[ScriptedTurn]) -> Episode:
    adapter = mock_adapter(policies=MockPolicies(good_script=lambda _task: list(script)))
    return (await run_episode(task, adapter, RollbackSimulator())).episode


@pytest.fixture
async def client(aiohttp_client: AiohttpClient) -> Client:
    return await aiohttp_client(create_app(benchmark))


async def test_http_scores_a_replayed_episode(client: Client, tasks: list[Task]) -> None:
    for task, script, expected in ((tasks[0], good_script, 1.0), (tasks[1], bad_script, 0.0)):
        episode = await play(task, script(task))
        submission = {"toolLog": to_wire(episode.tool_log), "finalState": {"ignored": True}}
        response = await client.post("/v1/score", json={"taskId": task.id, "submission": submission})
        assert response.status == 200
        body = await response.json()
        assert body["score"] == expected and "collateralHits" in body["details"]


async def test_http_lists_the_tasks_and_provenance(client: Client) -> None:
    response = await client.get("/v1/tasks/rrb-017")
    assert response.status == 200
    assert (await response.json())["id"] == "rrb-017"
    provenance = await client.get("/v1/provenance")
    assert provenance.status == 200


async def test_mcp_scores_and_guards_task_files(
    tasks: list[Task], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hidden = tmp_path / "hidden.jsonl"
    hidden_tasks = generate(99, prefix="hid")[:2]
    hidden.write_text(dump_task_file(hidden_tasks), encoding="utf-8")
    episode = await play(hidden_tasks[0], good_script(hidden_tasks[0]))
    arguments = {"task_id": "hid-001", "submission": {"toolLog": to_wire(episode.tool_log)}, "tasks": str(hidden)}
    monkeypatch.delenv("RRB_TASKS_ALLOW", raising=False)
    async with mcp.Client(create_mcp_server(benchmark)) as session:
        assert tool_error(await session.call_tool("score_answer", arguments))["code"] == "TASKS_NOT_ALLOWED"
        monkeypatch.setenv("RRB_TASKS_ALLOW", str(hidden))
        assert tool_data(await session.call_tool("score_answer", arguments))["score"] == 1.0
        listed = tool_data(await session.call_tool("list_tasks", {}))
        assert listed["count"] == len(tasks)
