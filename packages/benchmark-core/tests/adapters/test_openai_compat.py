"""The OpenAI-compatible adapter against a real local server (benchmark_core.testing.FakeOpenAI)."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import traceback
import warnings
from datetime import datetime, timezone
from typing import Optional

import pytest
from benchmark_core import (
    AdapterContext,
    Benchmark,
    GradeContext,
    Provenance,
    RunOptions,
    Task,
    TaskScore,
    ToolCall,
    ToolSpec,
    Trace,
    define_benchmark,
    run,
)
from benchmark_core.adapters._providers.openai import (
    OPENROUTER_BASE_URL,
    RAW_ARGUMENTS_KEY,
    OpenAICompatAdapter,
    openai_compat_adapter,
    openrouter_adapter,
    parse_retry_after,
)
from benchmark_core.adapters._toolnames import ToolNameCodec, provider_safe_name
from benchmark_core.chat import ChatMessage, ChatRequest
from benchmark_core.errors import AdapterError, ConfigurationError, RunStoppedError
from benchmark_core.hooks import Grader
from benchmark_core.testing import FakeOpenAI, FakeResponse, RecordedRequest
from benchmark_core.wire import dumps
from hypothesis import given
from hypothesis import strategies as st

KEY = "sk-test-SECRET-7d3f9a1c5e"
PROVIDER_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
CTX = AdapterContext(task=Task(id="t1", kind="single", prompt="2+2?"))
TOOLS = [
    ToolSpec(name="crm.get_contact", description="Look up a contact", parameters={"type": "object"}),
    ToolSpec(name="files/read file", description="Read a file"),
    ToolSpec(name="lookup_order", description="Already a valid name"),
]


def adapter_for(server: FakeOpenAI, **kwargs: object) -> OpenAICompatAdapter:
    return openai_compat_adapter(server.base_url, "fake-model", KEY, **kwargs)  # type: ignore[arg-type]


def exact_grader(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    ok = trace.answer == task.expected
    return TaskScore(score=1.0 if ok else 0.0, passed=ok, reason="exact" if ok else f"got {trace.answer!r}")


def tiny_benchmark(
    *prompts: str,
    answer_modes: tuple[str, ...] = ("prompt",),
    tools: Optional[list[ToolSpec]] = None,
    grade: Grader = exact_grader,
) -> Benchmark:
    return define_benchmark(
        id="tiny",
        name="Tiny",
        tagline="Two plus two, a few times",
        tags=["test"],
        category="testing",
        what_it_measures="whether the adapter round-trips answers",
        version="0.0.1",
        status="alpha",
        grade=grade,
        provenance=[
            Provenance(
                name="hand-written",
                kind="human-written",
                url="https://example.invalid",
                licence="MIT",
                how_to_get="in the test",
                retrieved_at="2026-01-01",
                contamination_notes="none",
                refresh="never",
            )
        ],
        grading_method="exact match",
        tasks=[
            Task(id=f"t{i}", kind="single", prompt=p, expected="4", tools=tools or []) for i, p in enumerate(prompts)
        ],
        answer_modes=answer_modes,
    )


def fast_retries(**kwargs: object) -> RunOptions:
    return RunOptions(backoff_base=0.001, backoff_max=0.01, **kwargs)  # type: ignore[arg-type]


# -- requests and answers ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_complete_sends_one_user_message_with_the_key_and_reads_usage() -> None:
    async with FakeOpenAI([FakeResponse.text("4", prompt_tokens=11, completion_tokens=3)]) as server:
        adapter = adapter_for(server)
        result = await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    assert result.text == "4"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens, result.usage.cost_usd) == (11, 3, None)
    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.authorization == f"Bearer {KEY}"
    assert request.body == {"model": "fake-model", "messages": [{"role": "user", "content": "2+2?"}]}


@pytest.mark.asyncio
async def test_cost_is_read_when_reported_and_missing_usage_counts_zero() -> None:
    async with FakeOpenAI([FakeResponse.text("a", cost=0.0025), FakeResponse.text("b", usage=False)]) as server:
        adapter = adapter_for(server)
        with_cost = await adapter.complete("x", CTX)
        without_usage = await adapter.complete("y", CTX)
        await adapter.aclose()
    assert with_cost.usage.cost_usd == pytest.approx(0.0025)
    assert without_usage.usage.total_tokens == 0
    assert without_usage.usage.cost_usd is None


@pytest.mark.asyncio
async def test_openrouter_preset_asks_for_cost_in_usage() -> None:
    async with FakeOpenAI([FakeResponse.text("4", cost=0.5)]) as server:
        adapter = openrouter_adapter("vendor/model", api_key=KEY, base_url=server.base_url)
        result = await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    assert adapter.provider == "openrouter"
    assert server.requests[0].body["usage"] == {"include": True}
    assert server.requests[0].body["model"] == "vendor/model"
    assert result.usage.cost_usd == 0.5


@pytest.mark.asyncio
async def test_chat_encodes_tool_names_and_decodes_them_in_tool_calls() -> None:
    def answer(request: RecordedRequest) -> FakeResponse:
        # The fake model calls the first offered tool by the name it was given on the wire.
        return FakeResponse.tool_calls([(request.tool_names[0], {"id": 7}), (request.tool_names[1], {})])

    async with FakeOpenAI(handler=answer) as server:
        adapter = adapter_for(server)
        result = await adapter.chat(
            ChatRequest(messages=[ChatMessage(role="user", content="find 7")], tools=TOOLS), CTX
        )
        await adapter.aclose()
    sent = server.requests[0].tool_names
    assert all(PROVIDER_NAME.fullmatch(name) for name in sent)
    assert len(set(sent)) == 3
    assert sent[2] == "lookup_order"
    assert sent[0] != "crm.get_contact"
    assert result.message.tool_calls == [
        ToolCall(name="crm.get_contact", arguments={"id": 7}, id="call_0"),
        ToolCall(name="files/read file", arguments={}, id="call_1"),
    ]
    tool = server.requests[0].body["tools"][0]
    assert tool == {
        "type": "function",
        "function": {"name": sent[0], "parameters": {"type": "object"}, "description": "Look up a contact"},
    }


@pytest.mark.asyncio
async def test_earlier_tool_calls_in_the_conversation_are_sent_encoded() -> None:
    history = [
        ChatMessage(role="system", content="You are a CRM agent."),
        ChatMessage(role="user", content="find 7"),
        ChatMessage(role="assistant", tool_calls=[ToolCall(name="crm.get_contact", arguments={"id": 7}, id="c1")]),
        ChatMessage(role="tool", content='{"name": "Ada"}', tool_call_id="c1"),
    ]
    async with FakeOpenAI([FakeResponse.text("Ada")]) as server:
        adapter = adapter_for(server)
        result = await adapter.chat(ChatRequest(messages=history, tools=TOOLS), CTX)
        await adapter.aclose()
    assert result.message == ChatMessage(role="assistant", content="Ada")
    request = server.requests[0]
    assistant, tool_message = request.messages[2], request.messages[3]
    assert assistant["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": request.tool_names[0], "arguments": '{"id": 7}'}}
    ]
    assert assistant["content"] is None
    assert tool_message == {"role": "tool", "content": '{"name": "Ada"}', "tool_call_id": "c1"}
    assert "tools" in request.body


@pytest.mark.asyncio
@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '"just a string"'])
async def test_undecodable_arguments_are_kept_raw_and_sent_back_verbatim(raw: str) -> None:
    async with FakeOpenAI([FakeResponse.tool_calls([("lookup_order", raw)]), FakeResponse.text("ok")]) as server:
        adapter = adapter_for(server)
        first = await adapter.chat(ChatRequest(messages=[ChatMessage(role="user", content="go")], tools=TOOLS), CTX)
        assert first.message.tool_calls == [
            ToolCall(name="lookup_order", arguments={RAW_ARGUMENTS_KEY: raw}, id="call_0")
        ]
        follow_up = [ChatMessage(role="user", content="go"), first.message]
        await adapter.chat(ChatRequest(messages=follow_up, tools=TOOLS), CTX)
        await adapter.aclose()
    assert server.requests[1].messages[1]["tool_calls"][0]["function"]["arguments"] == raw


@given(st.lists(st.text(max_size=80), unique=True, max_size=12))
def test_tool_name_codec_is_valid_unique_and_reversible(names: list[str]) -> None:
    codec = ToolNameCodec(names)
    encoded = [codec.encode(name) for name in names]
    assert all(PROVIDER_NAME.fullmatch(name) for name in encoded)
    assert len(set(encoded)) == len(encoded)
    assert [codec.decode(name) for name in encoded] == names


def test_tool_name_codec_keeps_valid_names_and_resolves_clashes() -> None:
    codec = ToolNameCodec(["crm_get", "crm.get", "crm get"])
    assert codec.encode("crm_get") == "crm_get"
    assert len({codec.encode("crm_get"), codec.encode("crm.get"), codec.encode("crm get")}) == 3
    assert codec.decode("something_else") == "something_else"


# -- failures ------------------------------------------------------------------------------------


async def failure(response: FakeResponse) -> AdapterError:
    async with FakeOpenAI([response]) as server:
        adapter = adapter_for(server)
        with pytest.raises(AdapterError) as info:
            await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    return info.value


@pytest.mark.asyncio
async def test_429_is_retryable_and_carries_retry_after_seconds() -> None:
    error = await failure(FakeResponse.error(429, "slow down", retry_after="7"))
    assert (error.retryable, error.retry_after, error.status) == (True, 7.0, 429)
    assert "HTTP 429" in error.message
    assert "slow down" in error.message


@pytest.mark.asyncio
async def test_503_honours_an_http_date_retry_after() -> None:
    error = await failure(FakeResponse.error(503, retry_after="Wed, 21 Oct 2015 07:28:00 GMT"))
    assert (error.retryable, error.retry_after, error.status) == (True, 0.0, 503)


@pytest.mark.asyncio
async def test_500_is_retryable_without_retry_after() -> None:
    error = await failure(FakeResponse.error(500, "upstream exploded", retry_after="5"))
    assert (error.retryable, error.retry_after, error.status) == (True, None, 500)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "code", "fatal"),
    [
        (400, "BAD_REQUEST", True),
        (401, "AUTHENTICATION_FAILED", True),
        (403, "AUTHENTICATION_FAILED", True),
        (404, "MODEL_NOT_FOUND", True),
        (422, "ADAPTER_ERROR", False),
    ],
)
async def test_other_4xx_are_not_retryable(status: int, code: str, fatal: bool) -> None:
    error = await failure(FakeResponse.error(status, "bad request body"))
    assert (error.retryable, error.status, error.code, error.fatal) == (False, status, code, fatal)
    assert "bad request body" in error.message


@pytest.mark.asyncio
async def test_malformed_json_in_a_200_is_a_clear_retryable_error() -> None:
    error = await failure(FakeResponse.malformed('{"choices": ['))
    assert (error.retryable, error.code, error.fatal) == (True, "MALFORMED_RESPONSE", False)
    assert "malformed JSON" in error.message


@pytest.mark.asyncio
@pytest.mark.parametrize("body", [{"id": "x"}, {"choices": []}, {"choices": [{"index": 0}]}])
async def test_a_body_without_choices_is_a_clear_retryable_error(body: dict[str, object]) -> None:
    error = await failure(FakeResponse(body=body))
    assert (error.retryable, error.code) == (True, "MALFORMED_RESPONSE")
    assert "choice" in error.message


@pytest.mark.asyncio
async def test_an_error_body_with_status_200_is_classified_by_its_code() -> None:
    error = await failure(FakeResponse(body={"error": {"code": 502, "message": "provider returned error"}}))
    assert (error.retryable, error.status) == (True, 502)
    assert "provider returned error" in error.message


@pytest.mark.asyncio
async def test_connection_failure_is_retryable() -> None:
    async with FakeOpenAI() as server:
        base_url = server.base_url
    adapter = openai_compat_adapter(base_url, "fake-model", KEY)
    with pytest.raises(AdapterError) as info:
        await adapter.complete("2+2?", CTX)
    await adapter.aclose()
    assert info.value.retryable
    assert info.value.status is None


@pytest.mark.asyncio
async def test_cancelling_a_request_abandons_the_http_request() -> None:
    async with FakeOpenAI([FakeResponse.text("late", delay=30)]) as server:
        adapter = adapter_for(server)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(adapter.complete("2+2?", CTX), 0.2)
        await server.wait_cancelled(1)
        await adapter.aclose()
    assert server.cancelled == 1


def test_parse_retry_after() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert parse_retry_after("12", now) == 12.0
    assert parse_retry_after(" 1.5 ", now) == 1.5
    assert parse_retry_after("Thu, 01 Jan 2026 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Thu, 01 Jan 2026 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("-3", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("", now) is None
    assert parse_retry_after(None, now) is None


# -- secrets and configuration --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_key_never_appears_in_errors_repr_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    errors: list[AdapterError] = []
    # This server expects another key and, like some providers, echoes the one it was given.
    async with FakeOpenAI(api_key="sk-the-right-one") as server:
        adapter = adapter_for(server)
        with pytest.raises(AdapterError) as info:
            await adapter.complete("2+2?", CTX)
        errors.append(info.value)
        await adapter.aclose()
    assert server.requests[0].authorization == f"Bearer {KEY}"
    # Echoes in a malformed body, and straddling the point where long details are cut short.
    echoes = [FakeResponse.malformed(f"oops {KEY} oops"), FakeResponse.error(500, "x" * 280 + KEY)]
    async with FakeOpenAI(echoes) as server:
        echoed = adapter_for(server)
        for _ in echoes:
            with pytest.raises(AdapterError) as info:
                await echoed.complete("2+2?", CTX)
            errors.append(info.value)
        await echoed.aclose()
        base_url = server.base_url
    closed = openai_compat_adapter(base_url, "fake-model", KEY)
    with pytest.raises(AdapterError) as info:
        await closed.complete("2+2?", CTX)
    errors.append(info.value)
    await closed.aclose()

    assert "Incorrect API key provided: ***" in errors[0].message
    texts = [repr(adapter), str(adapter), caplog.text]
    for error in errors:
        texts += [error.message, str(error), repr(error), "".join(traceback.format_exception(error))]
        texts += [str(error.to_json())]
    for text in texts:
        assert KEY not in text
        assert KEY[:12] not in text


@pytest.mark.asyncio
async def test_a_run_report_never_contains_the_key() -> None:
    async with FakeOpenAI([FakeResponse.error(429, f"bad key {KEY}")]) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), retries=0)
    assert report.rows[0].error is not None
    assert KEY not in dumps(report)
    async with FakeOpenAI([FakeResponse.error(401, f"bad key {KEY}")]) as server:
        with pytest.raises(RunStoppedError) as stopped:
            await run(tiny_benchmark("2+2?"), adapter_for(server))
    assert KEY not in stopped.value.message
    assert KEY not in dumps(stopped.value.report)


def test_missing_keys_name_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        openai_compat_adapter("http://127.0.0.1:9/v1", "m")
    with pytest.raises(ConfigurationError, match="OPENROUTER_API_KEY"):
        openrouter_adapter("vendor/model")


def test_environment_supplies_base_url_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", KEY)
    assert openrouter_adapter("vendor/model").base_url == OPENROUTER_BASE_URL
    with FakeOpenAI([FakeResponse.text("4")]).in_thread() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        adapter = openai_compat_adapter(model="fake-model")

        async def ask() -> str:
            try:
                return (await adapter.complete("2+2?", CTX)).text
            finally:
                await adapter.aclose()

        assert asyncio.run(ask()) == "4"
        assert adapter.base_url == server.base_url
    assert server.requests[0].authorization == f"Bearer {KEY}"


@pytest.mark.parametrize(
    ("base_url", "message"),
    [("ftp://example.com/v1", "http"), ("https:///v1", "host"), ("https://user:pw@example.com/v1", "credentials")],
)
def test_bad_base_urls_are_configuration_errors(base_url: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        openai_compat_adapter(base_url, "m", KEY)


@pytest.mark.parametrize("base_url", ["localhost:8000/v1", "http://[::1/v1", "http://host:port/v1", "http://host:0/v1"])
def test_malformed_base_urls_are_configuration_errors_that_do_not_echo_them(base_url: str) -> None:
    with pytest.raises(ConfigurationError, match="must be an http") as info:
        openai_compat_adapter(base_url, "m", KEY)
    assert base_url not in info.value.message


def test_a_malformed_base_url_from_the_environment_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "https://user:pw@example.com/v1")
    with pytest.raises(ConfigurationError, match=r"^\$OPENAI_BASE_URL must not contain credentials") as info:
        openai_compat_adapter(model="m", api_key=KEY)
    assert "pw" not in info.value.message


def test_a_model_is_required() -> None:
    with pytest.raises(ConfigurationError, match="model"):
        openai_compat_adapter("http://127.0.0.1:9/v1", None, KEY)


def test_one_adapter_serves_successive_event_loops_and_leaks_no_session() -> None:
    with (
        warnings.catch_warnings(record=True) as caught,
        FakeOpenAI(default=FakeResponse.text("4")).in_thread() as server,
    ):
        warnings.simplefilter("always", ResourceWarning)
        adapter = adapter_for(server)

        async def ask(adapter: OpenAICompatAdapter, close: bool) -> str:
            text = (await adapter.complete("2+2?", CTX)).text
            if close:
                await adapter.aclose()
            return text

        # The first loops end without aclose(): later loops must not reuse their dead sessions,
        # and those sessions must have been closed before their loops were.
        assert asyncio.run(ask(adapter, close=False)) == "4"
        assert asyncio.run(ask(adapter, close=False)) == "4"
        assert asyncio.run(ask(adapter, close=True)) == "4"
        del adapter
        gc.collect()
    assert len(server.requests) == 3
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


@pytest.mark.asyncio
async def test_requests_after_aclose_reopen_a_session() -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        adapter = adapter_for(server)
        await adapter.complete("a", CTX)
        await adapter.aclose()
        await adapter.aclose()
        assert (await adapter.complete("b", CTX)).text == "4"
        await adapter.aclose()


# -- through the runner --------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_run_recovers_from_429_and_500() -> None:
    script = [FakeResponse.error(429, retry_after="0"), FakeResponse.error(500), FakeResponse.text("4", cost=0.01)]
    async with FakeOpenAI(script) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), options=fast_retries(retries=2))
    [row] = report.rows
    assert (row.passed, row.attempts, row.error) == (True, 3, None)
    assert report.usage.cost_usd == pytest.approx(0.01)


@pytest.mark.asyncio
async def test_exhausted_retries_become_a_zero_score_row_with_the_error() -> None:
    async with FakeOpenAI([FakeResponse.error(500, "down for maintenance")] * 3) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), options=fast_retries(retries=2))
    [row] = report.rows
    assert (row.score, row.passed, row.attempts) == (0.0, False, 3)
    assert row.error is not None
    assert "HTTP 500: down for maintenance" in row.error
    assert "after 3 attempts" in row.error
    assert report.totals.failed == 1


@pytest.mark.asyncio
async def test_non_retryable_errors_are_not_retried() -> None:
    async with FakeOpenAI([FakeResponse.error(422, "unprocessable")]) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), options=fast_retries(retries=2))
    assert report.rows[0].attempts == 1
    assert report.rows[0].error_code == "ADAPTER_ERROR"
    assert "HTTP 422: unprocessable" in (report.rows[0].error or "")
    assert len(server.requests) == 1


@pytest.mark.asyncio
async def test_a_malformed_200_is_retried_like_a_5xx() -> None:
    async with FakeOpenAI([FakeResponse.malformed("<html>"), FakeResponse.text("4")]) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), options=fast_retries())
    assert (report.rows[0].passed, report.rows[0].attempts, report.rows[0].error) == (True, 2, None)
    assert len(server.requests) == 2


@pytest.mark.asyncio
async def test_a_timeout_cancels_the_request_and_becomes_an_error_row() -> None:
    async with FakeOpenAI([FakeResponse.text("4", delay=30)]) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), timeout=0.2, retries=0)
        await server.wait_cancelled(1)
    [row] = report.rows
    assert (row.score, row.attempts) == (0.0, 1)
    assert "timed out" in (row.error or "")


@pytest.mark.asyncio
async def test_a_timed_out_attempt_is_retried() -> None:
    async with FakeOpenAI([FakeResponse.text("4", delay=30), FakeResponse.text("4")]) as server:
        report = await run(tiny_benchmark("2+2?"), adapter_for(server), options=fast_retries(timeout=0.2, retries=1))
        await server.wait_cancelled(1)
    assert (report.rows[0].passed, report.rows[0].attempts) == (True, 2)


@pytest.mark.asyncio
async def test_rows_and_totals_carry_usage_and_cost() -> None:
    answers = {
        "a": FakeResponse.text("4", prompt_tokens=5, completion_tokens=1, cost=0.001, delay=0.05),
        "b": FakeResponse.text("5", prompt_tokens=7, completion_tokens=2, cost=0.002),
        "c": FakeResponse.text("4", prompt_tokens=9, completion_tokens=3),
    }
    async with FakeOpenAI(handler=lambda request: answers[request.prompt]) as server:
        report = await run(tiny_benchmark("a", "b", "c"), adapter_for(server), concurrency=3)
    assert [row.task_id for row in report.rows] == ["t0", "t1", "t2"]
    assert [row.passed for row in report.rows] == [True, False, True]
    assert [row.usage.cost_usd for row in report.rows] == [0.001, 0.002, None]
    assert (report.usage.prompt_tokens, report.usage.completion_tokens) == (21, 6)
    assert report.usage.cost_usd == pytest.approx(0.003)
    assert report.provider == "openai"
    assert report.model == "fake-model"


@pytest.mark.asyncio
async def test_native_tool_calls_reach_the_grader_with_original_names() -> None:
    def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
        names = [call.name for call in trace.tool_calls or []]
        ok = names == ["crm.get_contact"]
        return TaskScore(score=1.0 if ok else 0.0, passed=ok, reason=f"called {names}")

    benchmark = tiny_benchmark("find 7", answer_modes=("native",), tools=TOOLS, grade=grade)

    def answer(request: RecordedRequest) -> FakeResponse:
        return FakeResponse.tool_calls([(request.tool_names[0], {"id": 7})])

    async with FakeOpenAI(handler=answer) as server:
        report = await run(benchmark, adapter_for(server), mode="native")
    assert report.rows[0].passed, report.rows[0].reason
    assert report.rows[0].trace.tool_calls == [ToolCall(name="crm.get_contact", arguments={"id": 7}, id="call_0")]


def test_provider_safe_name() -> None:
    assert provider_safe_name("issues.create") == "issues_create"
    assert provider_safe_name("crm_get-v2") == "crm_get-v2"
    assert provider_safe_name("x" * 70 + ".y") == "x" * 64
    assert provider_safe_name("...") == "___"
    assert provider_safe_name("") == "tool"
