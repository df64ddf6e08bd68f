"""The Anthropic Messages adapter against `FakeAnthropic`: what the API requires of a request
(headers, max_tokens, thinking rules, signed thinking sent back), prompt caching and its savings,
truncation, rate-limit headers and the configuration it reads."""

from __future__ import annotations

import pytest
from benchmark_core import AdapterContext, RunOptions, Task, ToolSpec, run
from benchmark_core.adapters import make_adapter
from benchmark_core.adapters._prices import Prices
from benchmark_core.adapters._providers.anthropic import ANTHROPIC_BASE_URL, AnthropicAdapter, anthropic_adapter
from benchmark_core.adapters.base import GenerationSettings
from benchmark_core.chat import ChatMessage, ChatRequest
from benchmark_core.errors import AdapterError, ConfigurationError, RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.reports import render_markdown
from benchmark_core.testing import AnthropicResponse, FakeAnthropic, mock_handler

KEY = "sk-ant-test-SECRET-93c1"
TOOLS = [ToolSpec(name="orders.get", description="Get an order", parameters={"type": "object"})]


def ctx(**settings: object) -> AdapterContext:
    return AdapterContext(task=Task(id="t", kind="single", prompt="p"), settings=GenerationSettings(**settings))  # type: ignore[arg-type]


def adapter_for(server: FakeAnthropic, **kwargs: object) -> AnthropicAdapter:
    return anthropic_adapter("claude-fake", KEY, base_url=server.base_url, **kwargs)  # type: ignore[arg-type]


async def test_the_request_carries_the_version_the_key_and_always_max_tokens() -> None:
    async with FakeAnthropic([AnthropicResponse.text("4"), AnthropicResponse.text("4")], api_key=KEY) as server:
        adapter = adapter_for(server)
        await adapter.complete("2+2?", ctx())
        await adapter.complete("2+2?", ctx(max_tokens=50, temperature=0.2, top_p=0.9))
        await adapter.aclose()
    first, second = server.requests
    assert first.path == "/v1/messages" and first.headers["x-api-key"] == KEY
    assert first.headers["anthropic-version"] == "2023-06-01" and "Authorization" not in first.headers
    assert first.body == {"max_tokens": 4096, "model": "claude-fake", "messages": [{"role": "user", "content": "2+2?"}]}
    assert second.body["max_tokens"] == 50 and (second.body["temperature"], second.body["top_p"]) == (0.2, 0.9)


async def test_thinking_is_kept_in_the_transcript_and_sent_back_signed() -> None:
    turns = [
        AnthropicResponse.tool_use([("orders_get", {"id": 1})], thinking="Look it up."),
        AnthropicResponse.text("ok"),
    ]
    async with FakeAnthropic(turns, api_key=KEY) as server:
        adapter = adapter_for(server)
        history = [ChatMessage("user", "Order 1?")]
        first = await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="low"))
        call = (first.message.tool_calls or [])[0]
        history += [first.message, ChatMessage("tool", "{}", tool_call_id=call.id)]
        await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="low"))
    assert first.message.reasoning == "Look it up."
    assert first.usage.reasoning_tokens and first.usage.reasoning_tokens <= first.usage.completion_tokens
    body = server.requests[1].body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4096} and body["max_tokens"] == 4096 + 4096
    assert body["messages"][1]["content"][0]["type"] == "thinking"


async def test_a_thinking_block_altered_in_the_transcript_is_refused() -> None:
    async with FakeAnthropic(
        [AnthropicResponse.tool_use([("orders_get", {})], thinking="Plan.")], api_key=KEY
    ) as server:
        adapter = adapter_for(server)
        first = await adapter.chat(ChatRequest([ChatMessage("user", "Order?")], TOOLS), ctx(reasoning_effort="low"))
        state = first.message.provider_state or {}
        forged = [{**state["anthropic"][0], "thinking": "Something else."}]
        message = ChatMessage("assistant", None, first.message.tool_calls, provider_state={"anthropic": forged})
        history = [ChatMessage("user", "Order?"), message, ChatMessage("tool", "{}", tool_call_id="toolu_0")]
        with pytest.raises(AdapterError, match="HTTP 400") as info:
            await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="low"))
    assert "thinking" in info.value.message and info.value.fatal


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"temperature": 0.2}, "no temperature but 1"),
        ({"top_p": 0.5}, "top_p only from 0.95 to 1"),
        ({"max_tokens": 2000}, "must exceed the thinking budget 4096"),
    ],
)
async def test_settings_that_thinking_refuses_stop_the_run_before_any_request(
    settings: dict[str, float], message: str
) -> None:
    async with FakeAnthropic(default=AnthropicResponse.text("4"), api_key=KEY) as server:
        options = RunOptions(cache=False, reasoning_effort="low", **settings)  # type: ignore[arg-type]
        with pytest.raises(RunStoppedError, match=message):
            await run(example, adapter_for(server), options)
    assert server.received == 0


async def test_episodes_cache_their_prefix_and_the_report_shows_the_saving() -> None:
    prices = Prices(input=3.0, output=15.0, cache_read=0.3, cache_write=3.75)
    handler = mock_handler(example, wire="anthropic")
    async with FakeAnthropic(handler=handler, api_key=KEY, cache_min_tokens=100) as server:
        report = await run(example, adapter_for(server, prices=prices), RunOptions(cache=False))
    episode_bodies = [r.body for r in server.requests if isinstance(r.body, dict) and r.body.get("tools")]
    assert episode_bodies and all(b["system"][-1]["cache_control"] == {"type": "ephemeral"} for b in episode_bodies)
    usage = report.usage
    assert usage.cached_tokens and usage.cache_write_tokens and usage.cost_usd is not None
    expected = (usage.cached_tokens * (3.0 - 0.3) - usage.cache_write_tokens * (3.75 - 3.0)) / 1e6
    assert usage.cache_saved_usd == pytest.approx(expected)
    text = render_markdown(report, example)
    assert f"{usage.cached_tokens:,} read from the prompt cache" in text and "- Prompt cache: $" in text


async def test_an_answer_cut_at_max_tokens_is_a_visible_truncation() -> None:
    async with FakeAnthropic(default=AnthropicResponse.text("The answ", stop_reason="max_tokens"), api_key=KEY) as s:
        report = await run(example, adapter_for(s), RunOptions(cache=False, task_ids=("arith-01",)))
    [row] = report.rows
    assert row.truncated == 1 and report.truncated_rows == 1
    assert "- Truncated: 1 rows with an answer cut off at the token limit" in render_markdown(report, example)


async def test_answers_carry_rate_limit_headers() -> None:
    import aiohttp

    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    headers = {"anthropic-version": "2023-06-01"}
    async with (
        FakeAnthropic(default=AnthropicResponse.text("4"), rate_limit=50) as server,
        aiohttp.ClientSession() as s,
        s.post(f"{server.base_url}/v1/messages", json=body, headers=headers) as response,
    ):
        seen = response.headers
    assert seen["anthropic-ratelimit-requests-limit"] == "50"
    assert int(seen["anthropic-ratelimit-requests-remaining"]) in (48, 49)
    assert seen["anthropic-ratelimit-requests-reset"].endswith("Z")


async def test_an_unknown_model_is_a_fatal_404() -> None:
    async with FakeAnthropic(default=AnthropicResponse.text("4"), models=["claude-real"], api_key=KEY) as server:
        with pytest.raises(RunStoppedError) as info:
            await run(example, adapter_for(server), RunOptions(cache=False))
    assert "HTTP 404" in info.value.message and info.value.code == "MODEL_NOT_FOUND"


def test_configuration_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    assert make_adapter("anthropic", "claude").base_url == ANTHROPIC_BASE_URL  # type: ignore[attr-defined]
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/")
    assert make_adapter("anthropic", "claude").base_url == "http://127.0.0.1:9"  # type: ignore[attr-defined]
    given = make_adapter("anthropic", "claude", base_url="http://127.0.0.1:10")
    assert given.base_url == "http://127.0.0.1:10"  # type: ignore[attr-defined]
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "not a url")
    with pytest.raises(ConfigurationError, match=r"\$ANTHROPIC_BASE_URL"):
        make_adapter("anthropic", "claude")
    assert KEY not in repr(given)
