"""The Gemini generateContent adapter against `FakeGemini`: the URL and key header, JSON Schema
through `parametersJsonSchema`, generationConfig and thinking, thought signatures sent back,
usage with thoughtsTokenCount, truncation and blocked prompts."""

from __future__ import annotations

import pytest
from benchmark_core import AdapterContext, RunOptions, Task, ToolSpec, run
from benchmark_core.adapters._providers.gemini import GeminiAdapter, gemini_adapter
from benchmark_core.adapters.base import GenerationSettings
from benchmark_core.chat import ChatMessage, ChatRequest
from benchmark_core.errors import AdapterError
from benchmark_core.example import benchmark as example
from benchmark_core.testing import FakeGemini, GeminiResponse, ScriptedResponse

KEY = "AIza-test-SECRET-51f0"
SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "integer", "const": 3}, "note": {"oneOf": [{"type": "string"}, {"type": "null"}]}},
    "required": ["id"],
    "additionalProperties": False,
}
TOOLS = [ToolSpec(name="orders.get", description="Get an order", parameters=SCHEMA)]


def ctx(**settings: object) -> AdapterContext:
    return AdapterContext(task=Task(id="t", kind="single", prompt="p"), settings=GenerationSettings(**settings))  # type: ignore[arg-type]


def adapter_for(server: FakeGemini) -> GeminiAdapter:
    return gemini_adapter("models/gemini-fake", KEY, base_url=server.base_url)


async def test_the_model_is_in_the_path_the_key_in_its_header_and_schemas_pass_as_written() -> None:
    async with FakeGemini([GeminiResponse.function_calls([("orders_get", {"id": 3})])], api_key=KEY) as server:
        adapter = adapter_for(server)
        request = ChatRequest([ChatMessage("system", "Be brief."), ChatMessage("user", "Order 3?")], TOOLS)
        result = await adapter.chat(request, ctx(temperature=0.1, top_p=0.8, max_tokens=99, seed=5))
        await adapter.aclose()
    [sent] = server.requests
    assert sent.path == "/v1beta/models/gemini-fake:generateContent" and "key=" not in sent.path
    assert sent.headers["x-goog-api-key"] == KEY
    body = sent.body
    assert isinstance(body, dict)
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert body["contents"] == [{"role": "user", "parts": [{"text": "Order 3?"}]}]
    [declaration] = body["tools"][0]["functionDeclarations"]
    assert declaration == {"name": "orders_get", "parametersJsonSchema": SCHEMA, "description": "Get an order"}
    assert body["generationConfig"] == {"temperature": 0.1, "topP": 0.8, "maxOutputTokens": 99, "seed": 5}
    [call] = result.message.tool_calls or []
    assert (call.name, call.arguments, call.id) == ("orders.get", {"id": 3}, "gemini-call-0-0")


async def test_thinking_reports_reasoning_and_sends_the_thought_signatures_back() -> None:
    turns = [
        GeminiResponse.function_calls([("orders_get", {"id": 3})], thought="Check the order."),
        GeminiResponse.text("ok"),
    ]
    async with FakeGemini(turns, api_key=KEY) as server:
        adapter = adapter_for(server)
        history = [ChatMessage("user", "Order 3?")]
        first = await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="medium"))
        call = (first.message.tool_calls or [])[0]
        history += [first.message, ChatMessage("tool", '"shipped"', tool_call_id=call.id)]
        await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="medium"))
    assert first.message.reasoning == "Check the order."
    assert first.usage.reasoning_tokens and first.usage.completion_tokens > first.usage.reasoning_tokens
    config = server.requests[0].body["generationConfig"]
    assert config["thinkingConfig"] == {"thinkingBudget": 8192, "includeThoughts": True}
    model_turn, answer = server.requests[1].body["contents"][1:]
    assert any("thoughtSignature" in part for part in model_turn["parts"])
    assert answer["parts"] == [{"functionResponse": {"name": "orders_get", "response": {"output": "shipped"}}}]


async def test_a_function_call_sent_back_without_its_signature_is_refused() -> None:
    async with FakeGemini([GeminiResponse.function_calls([("orders_get", {"id": 3})])], api_key=KEY) as server:
        adapter = adapter_for(server)
        first = await adapter.chat(ChatRequest([ChatMessage("user", "Order 3?")], TOOLS), ctx(reasoning_effort="low"))
        stripped = ChatMessage("assistant", None, first.message.tool_calls)  # the signature lost
        call = (first.message.tool_calls or [])[0]
        history = [ChatMessage("user", "Order 3?"), stripped, ChatMessage("tool", "{}", tool_call_id=call.id)]
        with pytest.raises(Exception, match="thought_signature"):
            await adapter.chat(ChatRequest(history, TOOLS), ctx(reasoning_effort="low"))


async def test_max_tokens_truncation_and_a_blocked_prompt() -> None:
    blocked = ScriptedResponse(body={"promptFeedback": {"blockReason": "SAFETY"}})
    async with FakeGemini([GeminiResponse.text("Th", finish_reason="MAX_TOKENS"), blocked], api_key=KEY) as server:
        options = RunOptions(cache=False, task_ids=("arith-01", "arith-02"), concurrency=1)
        report = await run(example, adapter_for(server), options)
    cut, refused = report.rows
    assert cut.truncated == 1 and cut.error is None and report.truncated_rows == 1
    assert refused.error is not None and "blocked (SAFETY)" in refused.error and refused.attempts == 1


async def test_a_429_is_retried_after_the_retry_info_delay() -> None:
    async with FakeGemini([GeminiResponse.error(429, "quota", retry_after="7"), GeminiResponse.text("4")]) as server:
        with pytest.raises(AdapterError) as info:
            await adapter_for(server).complete("2+2?", ctx())
        retried = await adapter_for(server).complete("2+2?", ctx())
    assert info.value.retryable and info.value.retry_after == 7.0 and info.value.code == "RATE_LIMITED"
    assert retried.text == "4"


async def test_a_refused_key_is_an_authentication_failure_with_the_key_scrubbed() -> None:
    async with FakeGemini(default=GeminiResponse.text("4"), api_key=KEY) as server:
        adapter = gemini_adapter("gemini-fake", "AIza-wrong-SECRET", base_url=server.base_url)
        with pytest.raises(AdapterError) as info:
            await adapter.complete("2+2?", ctx())
    assert (info.value.code, info.value.fatal) == ("AUTHENTICATION_FAILED", True)
    assert "AIza-wrong-SECRET" not in info.value.message and "API key not valid" in info.value.message
