"""The offline fake model for agents (`testing.mock_chat`, served by the `fake-model` command): a
real loopback server that finds the episode by the prompt and system text a framework's messages
contain, and ends through the request's final-answer tool when it offers one."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from typing import Any, Optional

import aiohttp
from benchmark_core import load_benchmark
from benchmark_core.example import benchmark as example
from benchmark_core.testing.fake_openai import FakeOpenAI
from benchmark_core.testing.mock_chat import mock_chat_handler

FINAL_ANSWER = {
    "type": "function",
    "function": {
        "name": "final_answer",
        "description": "Provides a final answer to the given problem.",
        "parameters": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]},
    },
}
Move = tuple[Optional[str], list[tuple[str, Any]]]


def smolagents_style(prompt: str, system: str) -> list[dict[str, Any]]:
    """The first messages as smolagents sends them: the prompt after "New task:", as content parts,
    and the system text inside its own template."""
    template = f"You are an expert assistant who can solve any task using tool calls.\n\n{system}\n\nNow Begin!"
    return [
        {"role": "system", "content": [{"type": "text", "text": template}]},
        {"role": "user", "content": [{"type": "text", "text": f"New task:\n{prompt}"}]},
    ]


async def play(
    http: aiohttp.ClientSession, base_url: str, messages: list[dict[str, Any]], tools: list[Any], key: str = "sk-x"
) -> list[Move]:
    """Every turn of one episode, each tool call answered "ok", until an answer without tool calls
    or a call of final_answer."""
    moves: list[Move] = []
    for _ in range(60):
        body: dict[str, Any] = {"model": "mock", "messages": messages, **({"tools": tools} if tools else {})}
        async with http.post(f"{base_url}/chat/completions", json=body, headers=_bearer(key)) as r:
            assert r.status == 200, await r.text()
            message = (await r.json())["choices"][0]["message"]
        calls = message.get("tool_calls") or []
        moves.append(
            (message["content"], [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls])
        )
        if not calls or any(c["function"]["name"] == "final_answer" for c in calls):
            return moves
        messages = [*messages, {"role": "assistant", "content": message["content"], "tool_calls": calls}]
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls]
    raise AssertionError("the episode did not end in 60 turns")


async def test_wrapped_prompts_find_every_rollback_recovery_episode() -> None:
    # Control and incident variants share prompts: the system text contained tells them apart.
    bench = load_benchmark("benchmark-rollback-recovery")
    tasks = bench.tasks()
    assert bench.environment is not None
    async with FakeOpenAI(handler=mock_chat_handler(bench, tasks)) as fake, aiohttp.ClientSession() as http:
        for task in (t for t in tasks if t.kind == "episode"):
            system = bench.environment().reset(task, 1).system
            exact = [{"role": "system", "content": system}, {"role": "user", "content": task.prompt}]
            played = await play(http, fake.base_url, exact, [])
            assert await play(http, fake.base_url, smolagents_style(task.prompt, system), []) == played
            ended = await play(http, fake.base_url, smolagents_style(task.prompt, system), [FINAL_ANSWER])
            # The same calls, and the mock's last words become the final_answer call.
            assert ended[:-1] == played[:-1] and played[-1][1] == []
            assert ended[-1] == (None, [("final_answer", {"answer": played[-1][0]})])


def test_the_fake_model_command_serves_until_sigterm() -> None:
    argv = [sys.executable, "-m", "benchmark_core", "fake-model", "--json", "--api-key", "sk-fake"]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = json.loads(server.stdout.readline())["baseUrl"]
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        moves, refused = asyncio.run(_against(base_url))
    finally:
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=30)
    assert server.returncode == 0, stderr
    # The example's episode as the mock plays it: a retried lookup, the refund, then its answer.
    assert [calls for _, calls in moves] == [
        [("lookup_order", {"order_id": "A1001"})],
        [("lookup_order", {"order_id": "A1001"})],
        [("refund", {"order_id": "A1001", "amount": 35.0})],
        [("final_answer", {"answer": moves[-1][1][0][1]["answer"]})],
    ]
    assert refused == (400, 401)
    assert f"{len(moves) + 2} requests served" in stderr


async def _against(base_url: str) -> tuple[list[Move], tuple[int, int]]:
    task = next(t for t in example.tasks() if t.id == "order-refund-01")
    assert example.environment is not None
    system = example.environment().reset(task, 1).system
    async with aiohttp.ClientSession() as http:
        moves = await play(http, base_url, smolagents_style(task.prompt, system), [FINAL_ANSWER], key="sk-fake")
        stranger = {"model": "mock", "messages": smolagents_style("Write a poem.", system)}
        async with http.post(f"{base_url}/chat/completions", json=stranger, headers=_bearer("sk-fake")) as r:
            unknown = r.status
        async with http.post(f"{base_url}/chat/completions", json=stranger, headers=_bearer("no")) as r:
            wrong_key = r.status
    return moves, (unknown, wrong_key)


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}
