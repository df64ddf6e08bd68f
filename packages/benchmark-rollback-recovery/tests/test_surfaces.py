"""The core surfaces built from this benchmark: a real HTTP server, MCP in memory and over stdio, and
the allow-list rule for alternate task files on each of them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import aiohttp
import mcp
import pytest
from benchmark_core import JsonObject, ScriptedTurn, Task
from benchmark_core.data import dump_task_file
from benchmark_core.episodes import EpisodeResult
from benchmark_core.servers import create_mcp_server
from benchmark_core.testing import mcp_stdio_parameters, serve_benchmark, tool_data, tool_error
from benchmark_core.wire import to_wire
from benchmark_rollback_recovery import bad_script, benchmark, generate, good_script

Play = Callable[[Task, Sequence[ScriptedTurn]], EpisodeResult]
Submissions = dict[tuple[str, bool], JsonObject]
SUBSCORES = ("noticed", "repaired", "disclosed", "collateralFree", "collateralHits")
MCP_TOOLS = {"list_tasks", "get_task", "score_answer", "run_benchmark", "get_provenance"}


@pytest.fixture
def hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Task]]:
    """A private split outside the package's data folder, not yet on the allow-list."""
    monkeypatch.delenv("RRB_TASKS_ALLOW", raising=False)
    path = tmp_path / "hidden.jsonl"
    tasks = generate(99, prefix="hid")[:2]
    path.write_text(dump_task_file(tasks), encoding="utf-8")
    return path, tasks


@pytest.fixture
def submissions(tasks: list[Task], hidden: tuple[Path, list[Task]], play: Play) -> Submissions:
    """Wire submissions of played episodes by (task id, good script?), made before any event loop
    runs. A faked final state rides along to show that it is never read."""
    chosen = [(tasks[0], True), (tasks[1], True), (tasks[1], False), (hidden[1][0], True), (hidden[1][1], False)]
    made = {}
    for task, good in chosen:
        episode = play(task, (good_script if good else bad_script)(task)).episode
        made[(task.id, good)] = {"toolLog": to_wire(episode.tool_log), "finalState": {"contacts": {}}}
    return made


async def test_http_serves_tasks_and_grades_by_replay(tasks: list[Task], submissions: Submissions) -> None:
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession(base) as http:
        async with http.get("/health") as response:
            assert response.status == 200
        async with http.get("/v1/tasks") as response:
            listed = await response.json()
            assert listed["count"] == 48 and listed["tasks"][16]["id"] == "rrb-017"
        async with http.get("/v1/tasks/rrb-017") as response:
            assert (await response.json())["metadata"] == tasks[16].metadata
        for task_id, good in (("rrb-001", True), ("rrb-002", False)):
            body = {"taskId": task_id, "submission": submissions[(task_id, good)]}
            async with http.post("/v1/score", json=body) as response:
                assert response.status == 200
                verdict = await response.json()
                assert verdict["score"] == (1.0 if good else 0.0), verdict["reason"]
                assert set(SUBSCORES) <= set(verdict["details"])
        async with http.get("/v1/provenance") as response:
            assert "20261015" in (await response.json())["markdown"]
        async with http.get("/v1/index-entry") as response:
            assert (await response.json())["id"] == "benchmark-rollback-recovery"


async def test_http_takes_alternate_task_files_only_from_the_allow_list(
    hidden: tuple[Path, list[Task]], submissions: Submissions, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = hidden[0]
    body = {"taskId": "hid-001", "submission": submissions[("hid-001", True)], "tasks": str(path)}
    async with serve_benchmark(benchmark) as base, aiohttp.ClientSession(base) as http:
        async with http.get("/v1/tasks", params={"tasks": str(path)}) as response:
            assert response.status == 403
            assert (await response.json())["error"]["code"] == "TASKS_NOT_ALLOWED"
        async with http.post("/v1/score", json=body) as response:
            assert response.status == 403
        monkeypatch.setenv("RRB_TASKS_ALLOW", str(path))
        async with http.get("/v1/tasks", params={"tasks": str(path)}) as response:
            assert [t["id"] for t in (await response.json())["tasks"]] == ["hid-001", "hid-002"]
        async with http.post("/v1/score", json=body) as response:
            assert (await response.json())["score"] == 1.0
        async with http.get("/v1/tasks", params={"tasks": "tasks"}) as response:
            assert (await response.json())["count"] == 48


async def test_mcp_grades_runs_and_guards_task_files(
    tasks: list[Task], hidden: tuple[Path, list[Task]], submissions: Submissions, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = hidden[0]
    scored = {"task_id": "hid-001", "submission": submissions[("hid-001", True)], "tasks": str(path)}
    async with mcp.Client(create_mcp_server(benchmark)) as session:
        assert {tool.name for tool in (await session.list_tools()).tools} == MCP_TOOLS
        assert tool_error(await session.call_tool("score_answer", scored))["code"] == "TASKS_NOT_ALLOWED"
        assert tool_error(await session.call_tool("list_tasks", {"tasks": str(path)}))["code"] == "TASKS_NOT_ALLOWED"
        monkeypatch.setenv("RRB_TASKS_ALLOW", str(path))
        assert tool_data(await session.call_tool("score_answer", scored))["score"] == 1.0
        assert tool_data(await session.call_tool("list_tasks", {"tasks": str(path)}))["count"] == 2
        assert tool_data(await session.call_tool("list_tasks", {}))["count"] == len(tasks)
        report = tool_data(
            await session.call_tool("run_benchmark", {"model": "offline", "provider": "mock", "tasks": str(path)})
        )
        assert [r["taskId"] for r in report["rows"]] == ["hid-001", "hid-002"]
        assert report["subscores"]["repaired"] >= 1


async def test_mcp_legacy_handshake_lists_the_tools() -> None:
    async with mcp.Client(create_mcp_server(benchmark), mode="legacy") as session:
        assert {tool.name for tool in (await session.list_tools()).tools} == MCP_TOOLS


async def test_mcp_over_stdio_from_python_m(
    tasks: list[Task], hidden: tuple[Path, list[Task]], submissions: Submissions, tmp_path: Path
) -> None:
    """`python -m benchmark_rollback_recovery mcp` as a real subprocess, allow-list set in its environment."""
    path = hidden[0]
    outside = tmp_path / "outside.jsonl"
    outside.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    server = mcp_stdio_parameters("benchmark_rollback_recovery", env={"RRB_TASKS_ALLOW": str(path)})
    async with mcp.Client(server, read_timeout_seconds=120) as session:
        assert {tool.name for tool in (await session.list_tools()).tools} == MCP_TOOLS
        listed = tool_data(await session.call_tool("list_tasks", {}))
        assert listed["benchmark"] == "benchmark-rollback-recovery" and listed["count"] == 48
        task = tool_data(await session.call_tool("get_task", {"task_id": "rrb-002"}))
        assert task["metadata"] == tasks[1].metadata
        submission = submissions[("rrb-002", True)]
        verdict = tool_data(await session.call_tool("score_answer", {"task_id": "rrb-002", "submission": submission}))
        assert verdict["passed"] is True and verdict["details"]["collateralHits"] == 0
        hidden_submission = submissions[("hid-002", False)]
        arguments = {"task_id": "hid-002", "submission": hidden_submission, "tasks": str(path)}
        assert tool_data(await session.call_tool("score_answer", arguments))["score"] == 0.0
        denied = await session.call_tool("list_tasks", {"tasks": str(outside)})
        assert tool_error(denied)["code"] == "TASKS_NOT_ALLOWED"
        assert tool_error(await session.call_tool("get_task", {"task_id": "nope"}))["code"] == "TASK_NOT_FOUND"
