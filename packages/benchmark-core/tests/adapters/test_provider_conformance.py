"""One conformance suite for every provider format an adapter speaks: OpenAI-compatible chat
completions, Azure OpenAI deployments, Anthropic Messages and Gemini generateContent, each against
its loopback fake.

Every adapter must: answer a single prompt; offer native tools under provider-safe names and give
the benchmark's names back; carry an episode turn by turn (the fakes refuse a tool result that
answers no call, or a call left unanswered); report usage and, given prices, cost; retry transient
faults and end the run on fatal ones; and never print or write its key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
from attrs import frozen
from benchmark_core import AdapterContext, RunOptions, Task, ToolSpec, run
from benchmark_core.adapters import make_adapter
from benchmark_core.adapters._prices import Prices
from benchmark_core.chat import ChatMessage, ChatRequest
from benchmark_core.errors import RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.testing import (
    AnthropicResponse,
    AzureResponse,
    FakeAnthropic,
    FakeAzure,
    FakeGemini,
    FakeOpenAI,
    FakeResponse,
    GeminiResponse,
    RecordedRequest,
    ScriptedResponse,
    mock_handler,
)

KEY = "sk-conformance-SECRET-4b1e9d"
CTX = AdapterContext(task=Task(id="t1", kind="single", prompt="2+2?"))
TOOLS = [
    ToolSpec(name="crm.get_contact", description="Look up a contact", parameters={"type": "object"}),
    ToolSpec(name="lookup_order", description="Already valid", parameters={"type": "object"}),
]
Calls = Sequence[tuple[str, dict[str, Any]]]


@frozen
class FormatCase:
    """What the suite needs to know of one provider format and its fake."""

    provider: str
    fake: Callable[..., Any]
    key_variable: str
    url_variable: str
    text: Callable[[str], ScriptedResponse]
    calls: Callable[[Calls], ScriptedResponse]
    with_usage: Callable[[int, int], ScriptedResponse]
    error: Callable[..., ScriptedResponse]
    transient: tuple[int, ...]
    tool_names: Callable[[RecordedRequest], list[str]]


def _body(request: RecordedRequest) -> dict[str, Any]:
    assert isinstance(request.body, dict)
    return request.body


FORMATS = {
    "openai": FormatCase(
        "openai",
        FakeOpenAI,
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        FakeResponse.text,
        FakeResponse.tool_calls,
        lambda p, c: FakeResponse.text("4", prompt_tokens=p, completion_tokens=c),
        FakeResponse.error,
        (429, 500, 503),
        lambda r: [t["function"]["name"] for t in _body(r)["tools"]],
    ),
    "azure": FormatCase(
        "azure",
        FakeAzure,
        "AZURE_OPENAI_API_KEY",
        "AZURE_OPENAI_ENDPOINT",
        AzureResponse.text,
        AzureResponse.tool_calls,
        lambda p, c: AzureResponse.text("4", prompt_tokens=p, completion_tokens=c),
        AzureResponse.error,
        (429, 500, 503),
        lambda r: [t["function"]["name"] for t in _body(r)["tools"]],
    ),
    "anthropic": FormatCase(
        "anthropic",
        FakeAnthropic,
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        AnthropicResponse.text,
        AnthropicResponse.tool_use,
        lambda p, c: AnthropicResponse.text("4", input_tokens=p, output_tokens=c),
        AnthropicResponse.error,
        (429, 529, 500),
        lambda r: [t["name"] for t in _body(r)["tools"]],
    ),
    "gemini": FormatCase(
        "gemini",
        FakeGemini,
        "GEMINI_API_KEY",
        "GEMINI_BASE_URL",
        GeminiResponse.text,
        GeminiResponse.function_calls,
        lambda p, c: GeminiResponse.candidate(
            [{"text": "4"}], usage={"promptTokenCount": p, "candidatesTokenCount": c, "totalTokenCount": p + c}
        ),
        GeminiResponse.error,
        (429, 503, 500),
        lambda r: [d["name"] for t in _body(r)["tools"] for d in t["functionDeclarations"]],
    ),
}


@pytest.fixture(params=sorted(FORMATS))
def case(request: pytest.FixtureRequest) -> FormatCase:
    return FORMATS[str(request.param)]


def adapter_for(case: FormatCase, server: Any, prices: Optional[Prices] = None) -> Any:
    return make_adapter(case.provider, "fake-model", base_url=server.base_url, api_key=KEY, prices=prices)


def fast(**kwargs: Any) -> RunOptions:
    return RunOptions(backoff_base=0.001, backoff_max=0.01, cache=False, **kwargs)


async def test_a_single_prompt_is_answered(case: FormatCase) -> None:
    async with case.fake([case.text("4")], api_key=KEY) as server:
        adapter = adapter_for(case, server)
        result = await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    assert result.text == "4" and not result.truncated
    assert result.served_by is not None and result.served_by.model is not None
    [request] = server.requests
    assert "2+2?" in json.dumps(request.body)


async def test_native_tools_travel_under_safe_names_and_come_back_under_ours(case: FormatCase) -> None:
    async with case.fake([case.calls([("crm_get_contact", {"id": 7}), ("lookup_order", {})])], api_key=KEY) as server:
        adapter = adapter_for(case, server)
        result = await adapter.chat(ChatRequest([ChatMessage("user", "Find contact 7")], TOOLS), CTX)
        await adapter.aclose()
    assert case.tool_names(server.requests[0]) == ["crm_get_contact", "lookup_order"]
    calls = result.message.tool_calls or []
    assert [(call.name, call.arguments) for call in calls] == [("crm.get_contact", {"id": 7}), ("lookup_order", {})]
    assert len({call.id for call in calls}) == 2 and all(calls[i].id for i in range(2))


async def test_an_episode_carries_calls_and_results_turn_by_turn(case: FormatCase) -> None:
    """The fakes refuse (400) a tool result that answers no call and a call left unanswered."""
    async with case.fake([case.calls([("crm_get_contact", {"id": 7})]), case.text("Done.")], api_key=KEY) as server:
        adapter = adapter_for(case, server)
        history = [ChatMessage("system", "You help."), ChatMessage("user", "Find contact 7")]
        first = await adapter.chat(ChatRequest(history, TOOLS), CTX)
        [call] = first.message.tool_calls or []
        history += [first.message, ChatMessage("tool", '{"name": "Ada"}', tool_call_id=call.id)]
        second = await adapter.chat(ChatRequest(history, TOOLS), CTX)
        await adapter.aclose()
    assert second.message.content == "Done."
    assert "Ada" in json.dumps(server.requests[1].body) and "You help." in json.dumps(server.requests[1].body)


async def test_every_benchmark_task_runs_end_to_end_as_with_the_mock(case: FormatCase) -> None:
    """The example's single tasks and episodes through the adapter score as the in-process mock."""
    mock_report = await run(example, make_adapter("mock", "offline"), fast())
    async with case.fake(handler=mock_handler(example, wire=case.provider), api_key=KEY) as server:  # type: ignore[arg-type]
        report = await run(example, adapter_for(case, server), fast())
    assert report.provider == case.provider
    assert [(r.task_id, r.score) for r in report.rows] == [(r.task_id, r.score) for r in mock_report.rows]
    assert report.totals == mock_report.totals and report.usage.prompt_tokens > 0


async def test_usage_and_cost_from_prices(case: FormatCase) -> None:
    prices = Prices(input=2.0, output=10.0)
    async with case.fake([case.with_usage(1000, 200)], api_key=KEY) as server:
        result = await adapter_for(case, server, prices).complete("2+2?", CTX)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (1000, 200)
    assert result.usage.cost_usd == pytest.approx((1000 * 2.0 + 200 * 10.0) / 1e6)


async def test_transient_faults_are_retried(case: FormatCase) -> None:
    faults = [case.error(status, "try again", retry_after="0") for status in case.transient]
    async with case.fake([*faults, case.text("4")], api_key=KEY) as server:
        report = await run(example, adapter_for(case, server), fast(task_ids=("arith-01",)))
    [row] = report.rows
    assert row.error is None and row.attempts == len(case.transient) + 1
    assert server.received == len(case.transient) + 1


@pytest.mark.parametrize("status", [400, 401, 403, 404])
async def test_fatal_errors_end_the_run_at_once(case: FormatCase, status: int) -> None:
    async with case.fake(default=case.error(status, "no"), api_key=KEY) as server:
        with pytest.raises(RunStoppedError) as info:
            await run(example, adapter_for(case, server), fast(concurrency=1))
    assert f"HTTP {status}" in info.value.message
    assert server.received == 1  # no retry, no other task


def test_the_key_is_never_printed_or_written(case: FormatCase, tmp_path: Path) -> None:
    """Through the real CLI: a successful run (report, Markdown, journal), then a refused key whose
    401/400 message echoes the key presented."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.endswith("_BASE_URL")}
    outputs: list[str] = []
    with case.fake(handler=mock_handler(example, wire=case.provider), api_key=KEY).in_thread() as server:  # type: ignore[arg-type]
        for key in (KEY, KEY + "-wrong"):
            report, markdown = tmp_path / f"{len(key)}.json", tmp_path / f"{len(key)}.md"
            command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", case.provider]
            command += ["--output", str(report), "--markdown", str(markdown), "--no-cache"]
            child = {**env, case.key_variable: key, case.url_variable: server.base_url}
            done = subprocess.run(command, env=child, capture_output=True, text=True, timeout=120, check=False)
            assert done.returncode == (0 if key == KEY else 2), done.stderr
            outputs += [done.stdout, done.stderr]
            outputs += [path.read_text() for path in tmp_path.iterdir() if path.is_file()]
    assert "HTTP 4" in outputs[-1] or any("HTTP 4" in text for text in outputs)
    for text in outputs:
        assert KEY not in text
