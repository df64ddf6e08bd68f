"""Episode sessions on the real aiohttp server (127.0.0.1), their tools through the MCP SDK's own
streamable HTTP client: opening, calling, finishing, isolation between sessions and hostile input."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx2
import mcp
import pytest
from benchmark_core import load_benchmark
from benchmark_core.episodes._session_registry import SessionRegistry
from benchmark_core.example import benchmark as example
from benchmark_core.servers._http import create_app
from benchmark_core.servers._http_sessions import REGISTRY_KEY
from benchmark_core.testing.surfaces import tool_data, tool_error
from mcp.client.streamable_http import streamable_http_client

EPISODE = next(t for t in example.tasks() if t.kind == "episode")
ORDER, TOTAL = EPISODE.metadata["orderId"], EPISODE.metadata["orderTotal"]


@pytest.fixture
async def server() -> AsyncIterator[str]:
    app = create_app(example)
    runner = aiohttp.web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    app[REGISTRY_KEY].max_open = 3
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def post(url: str, body: Any, token: str = "", *, raw: bytes = b"") -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as http:
        data = raw if raw else None
        async with http.post(url, json=None if raw else body, data=data, headers=headers) as response:
            return response.status, await response.json()


async def get(url: str, token: str = "") -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as response:
        return response.status, await response.json()


def client(opened: dict[str, Any], token: str = "") -> mcp.Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token or opened['token']}"})
    return mcp.Client(streamable_http_client(opened["mcpUrl"], http_client=http), read_timeout_seconds=30)


async def test_a_session_over_streamable_http_is_graded_by_replay(server: str) -> None:
    status, opened = await post(f"{server}/v1/sessions", {"taskId": EPISODE.id, "seed": 2})
    assert status == 201, opened
    assert opened["prompt"] == EPISODE.prompt and opened["system"].startswith("You are a support agent")
    assert [t["name"] for t in opened["tools"]] == ["lookup_order", "refund"]
    assert opened["mcpUrl"] == f"{server}/v1/sessions/{opened['sessionId']}/mcp"
    async with client(opened) as session:
        tools = (await session.list_tools()).tools
        assert [(t.name, t.input_schema) for t in tools] == [(t["name"], t["parameters"]) for t in opened["tools"]]
        assert tool_error(await session.call_tool("lookup_order", {"order_id": ORDER}))["code"] == "HTTP_500"
        assert tool_data(await session.call_tool("lookup_order", {"order_id": ORDER}))["total"] == TOTAL
        assert tool_data(await session.call_tool("refund", {"order_id": ORDER, "amount": TOTAL}))["amount"] == TOTAL
    status, state = await get(f"{server}/v1/sessions/{opened['sessionId']}", opened["token"])
    assert (status, state["toolCalls"], state["finished"]) == (200, 3, False)
    finish = f"{server}/v1/sessions/{opened['sessionId']}/finish"
    status, score = await post(finish, {"answer": "Refunded."}, opened["token"])
    assert (status, score["passed"], score["reason"]) == (200, True, "refunded $35.00 within policy")
    status, again = await post(finish, {"answer": "again"}, opened["token"])
    assert (status, again["error"]["code"]) == (409, "SESSION_FINISHED")
    async with client(opened) as session:
        refused = await session.call_tool("lookup_order", {"order_id": ORDER})
        assert tool_error(refused)["code"] == "SESSION_FINISHED"


async def test_a_token_reaches_only_its_own_session(server: str) -> None:
    _, first = await post(f"{server}/v1/sessions", {"taskId": EPISODE.id})
    _, second = await post(f"{server}/v1/sessions", {"taskId": EPISODE.id})
    own = f"{server}/v1/sessions/{first['sessionId']}"
    assert (await get(own))[1]["error"]["code"] == "UNAUTHORIZED"
    status, crossed = await get(own, second["token"])
    assert (status, crossed["error"]["code"]) == (404, "SESSION_NOT_FOUND")
    assert (await get(f"{server}/v1/sessions/nope", first["token"]))[0] == 404
    async with aiohttp.ClientSession() as http:
        assert (await http.get(f"{server}/v1/sessions")).status == 405  # nothing lists sessions
        listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        anonymous = await http.post(first["mcpUrl"], json=listing)
        assert anonymous.status == 401
        other = await http.post(first["mcpUrl"], json=listing, headers={"Authorization": f"Bearer {second['token']}"})
        assert (other.status, (await other.json())["error"]["code"]) == (404, "SESSION_NOT_FOUND")
    assert (await get(own, first["token"]))[1]["toolCalls"] == 0


async def test_hostile_input_is_refused_without_a_server_error(server: str) -> None:
    sessions = f"{server}/v1/sessions"
    assert (await post(sessions, None, raw=b"{not json"))[0] == 400
    assert (await post(sessions, {"taskId": 3}))[1]["error"]["code"] == "INVALID_SESSION_REQUEST"
    assert (await post(sessions, {"taskId": EPISODE.id, "extra": 1}))[0] == 400
    assert (await post(sessions, {"taskId": "nope"}))[1]["error"]["code"] == "TASK_NOT_FOUND"
    single = next(t for t in example.tasks() if t.kind == "single")
    assert (await post(sessions, {"taskId": single.id}))[1]["error"]["code"] == "NOT_AN_EPISODE"
    assert (await post(sessions, {"taskId": EPISODE.id, "tasks": "/etc/passwd"}))[0] == 403
    assert (await post(sessions, None, raw=b'{"taskId": "' + b"x" * 2_000_000 + b'"}'))[0] == 413
    _, opened = await post(sessions, {"taskId": EPISODE.id})
    async with client(opened) as session:
        assert tool_error(await session.call_tool("drop_tables", {}))["code"] == "UNKNOWN_TOOL"
        malformed = await session.call_tool("refund", {"order_id": ORDER, "amount": "all of it"})
        assert tool_error(malformed)["code"] == "INVALID_ARGUMENTS"
        flood = await asyncio.gather(*(session.call_tool("lookup_order", {"order_id": ORDER}) for _ in range(300)))
        codes = {tool_error(r)["code"] for r in flood if r.is_error}
        assert codes <= {"HTTP_500", "MAX_TOOL_CALLS"} and "MAX_TOOL_CALLS" in codes
    _, state = await get(f"{sessions}/{opened['sessionId']}", opened["token"])
    assert state["toolCalls"] == state["maxToolCalls"] == 50
    async with aiohttp.ClientSession() as http:
        junk = await http.post(opened["mcpUrl"], data=b"\xff{", headers={"Authorization": f"Bearer {opened['token']}"})
        assert 400 <= junk.status < 500


async def test_the_tool_errors_a_session_answers_are_listed_in_openapi(server: str) -> None:
    _, opened = await post(f"{server}/v1/sessions", {"taskId": EPISODE.id})
    answered = set()
    async with client(opened) as session:
        answered.add(tool_error(await session.call_tool("drop_tables", {}))["code"])
        answered.add(tool_error(await session.call_tool("refund", {"order_id": ORDER, "amount": "all"}))["code"])
        for _ in range(51):
            outcome = await session.call_tool("lookup_order", {"order_id": "no-such-order"})
        answered.add(tool_error(outcome)["code"])
    assert answered == {"UNKNOWN_TOOL", "INVALID_ARGUMENTS", "MAX_TOOL_CALLS"}
    status, document = await get(f"{server}/openapi.json")
    assert status == 200
    endpoint = document["paths"]["/v1/sessions/{session_id}/mcp"]["post"]
    assert answered <= set(endpoint["x-tool-error-codes"]) and "EPISODE_DONE" in endpoint["x-tool-error-codes"]
    assert all(f"{code} (" in endpoint["description"] for code in endpoint["x-tool-error-codes"])
    assert "SESSION_FINISHED" in endpoint["description"]


async def test_a_flood_of_10000_calls_gets_tool_errors_and_never_a_server_error(server: str) -> None:
    _, opened = await post(f"{server}/v1/sessions", {"taskId": EPISODE.id})
    headers = {
        "Authorization": f"Bearer {opened['token']}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
    }
    call = {"name": "lookup_order", "arguments": {"order_id": ORDER}}
    statuses: dict[int, int] = {}
    codes: set[str] = set()
    gate = asyncio.Semaphore(64)
    async with aiohttp.ClientSession() as http:

        async def one(number: int) -> None:
            body = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": call}
            async with gate, http.post(opened["mcpUrl"], json=body, headers=headers) as response:
                statuses[response.status] = statuses.get(response.status, 0) + 1
                result = (await response.json())["result"]
                if result.get("isError"):
                    codes.add(result["_meta"]["benchmark-core/error"]["code"])

        await asyncio.gather(*(one(n) for n in range(10_000)))
    assert statuses == {200: 10_000}
    assert codes == {"HTTP_500", "MAX_TOOL_CALLS"}
    _, state = await get(f"{server}/v1/sessions/{opened['sessionId']}", opened["token"])
    assert state["toolCalls"] == 50


async def test_the_number_of_open_sessions_is_bounded_and_idle_ones_expire(server: str) -> None:
    sessions = f"{server}/v1/sessions"
    for _ in range(3):
        assert (await post(sessions, {"taskId": EPISODE.id}))[0] == 201
    status, refused = await post(sessions, {"taskId": EPISODE.id})
    assert (status, refused["error"]["code"]) == (503, "TOO_MANY_SESSIONS")


async def test_idle_sessions_expire() -> None:
    registry = SessionRegistry(idle_timeout=0.05)
    from benchmark_core.episodes import open_session

    session_id, token = registry.add(await open_session(example, EPISODE.id))
    assert registry.get(session_id, token).task.id == EPISODE.id
    await asyncio.sleep(0.1)
    with pytest.raises(Exception, match="no open session"):
        registry.get(session_id, token)
    assert len(registry) == 0


async def test_a_benchmark_package_serves_its_episodes_over_http() -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    task = bench.tasks()[0]
    app = create_app(bench)
    runner = aiohttp.web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        status, opened = await post(f"{base}/v1/sessions", {"taskId": task.id})
        assert status == 201
        async with client(opened) as session:
            names = [t.name for t in (await session.list_tools()).tools]
        assert names == [t["name"] for t in opened["tools"]]
    finally:
        await runner.cleanup()
