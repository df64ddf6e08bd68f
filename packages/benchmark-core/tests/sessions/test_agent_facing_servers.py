"""The servers an agent may reach hand it no answer key, and open sessions on a private split with no
task file: `mcp` (a real MCP client on the subprocess) withholds every task's grading fields and
leaves `score_answer` and `run_benchmark` out unless `--scoring-api`; `serve --hidden-seed-env` and `mcp
--hidden-seed-env` serve the hidden split drawn in memory, the seed in no answer and no log line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Optional

import mcp
import pytest
from benchmark_core import load_benchmark
from benchmark_core.runs._private_split import private_split
from benchmark_core.testing.surfaces import tool_data
from mcp import StdioServerParameters

#: Distinctive digits, so that finding them anywhere means the seed leaked.
SEED = "604918273"
VARIABLE = "LAB_SERVER_SEED"


def _server(module: str, *args: str, env: Optional[dict[str, str]] = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", module, "mcp", *args], env=env or dict(os.environ))


async def _listing(params: StdioServerParameters) -> tuple[list[str], list[dict[str, Any]], dict[str, Any]]:
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        tasks = tool_data(await client.call_tool("list_tasks", {}))["tasks"]
        one = tool_data(await client.call_tool("get_task", {"task_id": tasks[0]["id"]}))
    return names, tasks, one


def _graded(task: dict[str, Any]) -> bool:
    return task.get("expected") is not None or bool(task.get("metadata"))


@pytest.mark.parametrize("module", ["benchmark_schema_mutation", "benchmark_rollback_recovery"])
async def test_mcp_withholds_the_grading_fields_unless_scoring_api(module: str) -> None:
    names, tasks, one = await _listing(_server(module))
    assert names == ["list_tasks", "get_task", "get_provenance"]  # score_answer's reasons quote the answer
    assert tasks and not any(_graded(task) for task in tasks) and not _graded(one)
    # The same server with --scoring-api answers them: the check above looks where the key would be.
    names, tasks, one = await _listing(_server(module, "--scoring-api"))
    assert {"score_answer", "run_benchmark"} <= set(names) and all(_graded(task) for task in tasks) and _graded(one)


async def test_mcp_serves_a_private_split_and_its_episode_without_a_file(tmp_path: Path) -> None:
    env = {**os.environ, VARIABLE: SEED}
    hidden = private_split(load_benchmark("benchmark-rollback-recovery"), None, VARIABLE, env).tasks
    params = _server("benchmark_rollback_recovery", "--hidden-seed-env", VARIABLE, env=env)
    params.cwd = str(tmp_path)
    _, tasks, _ = await _listing(params)
    assert [task["id"] for task in tasks] == [task.id for task in hidden]
    assert [task["prompt"] for task in tasks] == [task.prompt for task in hidden]
    assert SEED not in json.dumps(tasks) and not _graded(tasks[0])
    episode = next(task for task in hidden if task.kind == "episode")
    params = _server("benchmark_rollback_recovery", "--episode", episode.id, "--hidden-seed-env", VARIABLE, env=env)
    params.cwd = str(tmp_path)
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        tools = (await client.list_tools()).tools
    assert tools and list(tmp_path.iterdir()) == []  # no task file written


def test_serve_opens_sessions_on_a_private_split_and_never_shows_the_seed(tmp_path: Path) -> None:
    env = {**os.environ, VARIABLE: SEED}
    hidden = private_split(load_benchmark("benchmark-rollback-recovery"), None, VARIABLE, env).tasks
    argv = [sys.executable, "-m", "benchmark_rollback_recovery", "serve", "--port", "0", "--hidden-seed-env", VARIABLE]
    server = subprocess.Popen(argv, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    answers: list[str] = []
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        port = re.search(r"127\.0\.0\.1:(\d+)", first)
        assert port is not None, first
        base = f"http://127.0.0.1:{port.group(1)}"

        def call(path: str, body: Optional[dict[str, Any]] = None, token: str = "") -> Any:
            data = json.dumps(body).encode() if body is not None else None
            request = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET")
            request.add_header("Content-Type", "application/json")
            if token:
                request.add_header("Authorization", f"Bearer {token}")
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
            answers.append(text)
            return json.loads(text) if text.startswith(("{", "[")) else text

        listing = call("/v1/tasks")
        assert [task["id"] for task in listing["tasks"]] == [task.id for task in hidden]
        assert not any(_graded(task) for task in listing["tasks"])
        episode = next(task for task in hidden if task.kind == "episode")
        session = call("/v1/sessions", {"taskId": episode.id})
        assert session["prompt"] == episode.prompt and session["tools"]
        state = call(f"/v1/sessions/{session['sessionId']}", token=session["token"])
        assert state["taskId"] == episode.id
        for path in ("/", "/health", "/v1/provenance", "/v1/index-entry", f"/v1/tasks/{episode.id}"):
            call(path)
    finally:
        server.terminate()
        _, log = server.communicate(timeout=30)
    assert all(SEED not in answer for answer in answers) and SEED not in first + log
    assert list(tmp_path.iterdir()) == []  # no task file written
