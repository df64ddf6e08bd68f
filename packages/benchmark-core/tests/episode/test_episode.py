"""Episodes: the loop, budgets, replay, and the example's order environment."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from benchmark_core import (
    AdapterContext,
    MockPolicies,
    ScriptedTurn,
    Task,
    ToolCall,
    ToolLogEntry,
    mock_adapter,
    replay,
)
from benchmark_core.chat import ChatMessage, ChatRequest, ChatResult, CompletionResult
from benchmark_core.episodes import EpisodeLimits, run_episode
from benchmark_core.errors import AdapterError
from benchmark_core.example import OrderLookupEnvironment, benchmark
from benchmark_core.reports import Usage

TASK = benchmark.tasks()[-1]


def good_policies() -> MockPolicies:
    return benchmark.mock_policies


def test_good_script_retries_and_refunds() -> None:
    result = asyncio.run(run_episode(TASK, mock_adapter(policies=good_policies()), OrderLookupEnvironment()))
    episode = result.episode
    assert [e.name for e in episode.tool_log] == ["lookup_order", "lookup_order", "refund"]
    assert episode.tool_log[0].error is not None and episode.tool_log[0].error.code == "HTTP_500"
    assert episode.tool_log[1].result["total"] == 35.0
    assert episode.final_state["orders"][0]["refunded"] == 35.0
    assert episode.aborted is None
    # The environment reports done after the full refund, so the closing turn is never requested.
    assert result.answer is None
    roles = [m.role for m in episode.transcript]
    assert roles[:2] == ["system", "user"]
    assert roles.count("tool") == 3
    assert result.usage.prompt_tokens > 0


def test_turn_and_tool_call_budgets_abort_but_keep_the_episode() -> None:
    adapter = mock_adapter(policies=good_policies())
    by_turns = asyncio.run(run_episode(TASK, adapter, OrderLookupEnvironment(), EpisodeLimits(max_turns=2)))
    assert by_turns.episode.aborted == "budget"
    assert by_turns.episode.abort_detail == "max_turns (2) reached"
    assert len(by_turns.episode.tool_log) == 2
    by_calls = asyncio.run(run_episode(TASK, adapter, OrderLookupEnvironment(), EpisodeLimits(max_tool_calls=1)))
    assert by_calls.episode.aborted == "budget"
    assert by_calls.episode.abort_detail == "max_tool_calls (1) reached"
    assert len(by_calls.episode.tool_log) == 1


class CostlyAdapter:
    """Looks the order up forever, reporting $0.40 per turn."""

    provider = "costly"
    model = "costly-1"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        raise NotImplementedError

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        call = ToolCall(name="lookup_order", arguments={"order_id": "A1001"}, id=f"c{len(request.messages)}")
        return ChatResult(ChatMessage(role="assistant", tool_calls=[call]), Usage(100, 10, 0.4))

    async def aclose(self) -> None:
        return None


def test_dollar_budget() -> None:
    result = asyncio.run(run_episode(TASK, CostlyAdapter(), OrderLookupEnvironment(), EpisodeLimits(max_dollars=1.0)))
    assert result.episode.aborted == "budget"
    assert result.episode.abort_detail is not None and result.episode.abort_detail.startswith("max_dollars (1.0)")
    assert result.usage.cost_usd == pytest.approx(1.2)
    assert len(result.episode.tool_log) == 2


def test_replay_reexecutes_only_recorded_calls_and_ignores_recorded_results() -> None:
    forged = [
        ToolLogEntry("lookup_order", {"order_id": "A1001"}, result={"total": 0}),
        ToolLogEntry("refund", {"order_id": "A1001", "amount": 35}, result={"ok": True}),
    ]
    replayed = replay(OrderLookupEnvironment(), TASK, forged, seed=1)
    assert replayed.tool_log[0].error is not None and replayed.tool_log[0].error.code == "HTTP_500"
    assert replayed.tool_log[1].result["amount"] == 35.0
    assert replayed.final_state["orders"][0]["refunded"] == 35.0
    assert replay(OrderLookupEnvironment(), TASK, forged, seed=1) == replayed


@pytest.mark.parametrize(
    ("name", "arguments", "code"),
    [
        ("drop_tables", {}, "UNKNOWN_TOOL"),
        ("lookup_order", {"order_id": 7}, "INVALID_ARGUMENTS"),
        ("refund", {"order_id": "A1001", "amount": "lots"}, "INVALID_ARGUMENTS"),
        ("refund", {"order_id": "A1001", "amount": True}, "INVALID_ARGUMENTS"),
        ("refund", {"order_id": "Z9", "amount": 1}, "NOT_FOUND"),
        ("refund", {"order_id": "A1001", "amount": 60}, "OVER_LIMIT"),
        ("refund", {"order_id": "A1001", "amount": -1}, "INVALID_ARGUMENTS"),
    ],
)
def test_tool_errors_are_returned_not_raised(name: str, arguments: dict[str, Any], code: str) -> None:
    env = OrderLookupEnvironment()
    env.reset(TASK, 1)
    outcome = env.call_tool(name, arguments)
    assert outcome.error is not None and outcome.error.code == code
    assert outcome.result is None


def test_refund_cannot_exceed_what_was_paid() -> None:
    env = OrderLookupEnvironment()
    env.reset(TASK, 1)
    assert env.call_tool("refund", {"order_id": "A1001", "amount": 20}).error is None
    assert not env.done()
    outcome = env.call_tool("refund", {"order_id": "A1001", "amount": 20})
    assert outcome.error is not None and outcome.error.code == "EXCEEDS_TOTAL"


def test_final_answer_ends_the_episode() -> None:
    policies = MockPolicies(good_script=lambda task: [ScriptedTurn.say("Nothing to do.")])
    result = asyncio.run(run_episode(TASK, mock_adapter(policies=policies), OrderLookupEnvironment()))
    assert result.answer == "Nothing to do."
    assert result.episode.tool_log == []


def test_episode_task_through_the_runner_is_graded_by_replay() -> None:
    report = benchmark.run(mock_adapter(policies=benchmark.mock_policies), task_ids=[TASK.id])
    row = report.rows[0]
    assert row.passed and row.score == 1.0
    assert row.episode is not None and row.trace.tool_log == row.episode.tool_log
    assert row.details["refunded"] == 35.0
    bad = Task(id=TASK.id, kind="episode", prompt=TASK.prompt, metadata=TASK.metadata)
    assert benchmark.score(bad.id, {"toolLog": [], "finalState": {"orders": [{"refunded": 35.0}]}}).score == 0.0


class FailsOnSecondTurn:
    """Looks the order up, then the provider refuses every later request."""

    provider = "flaky"
    model = "flaky-1"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        raise NotImplementedError

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        if any(m.role == "assistant" for m in request.messages):
            raise AdapterError("HTTP 400: context too long", status=400)
        call = ToolCall(name="lookup_order", arguments={"order_id": "A1001"}, id="c1")
        return ChatResult(ChatMessage(role="assistant", tool_calls=[call]), Usage(10, 1))

    async def aclose(self) -> None:
        return None


def test_a_failed_turn_keeps_the_episode_so_far_in_the_error_row() -> None:
    report = benchmark.run(FailsOnSecondTurn(), task_ids=[TASK.id], retries=0)
    row = report.rows[0]
    assert row.error == "HTTP 400: context too long"
    assert row.score == 0.0
    assert row.episode is not None
    assert [e.name for e in row.episode.tool_log] == ["lookup_order"]
    assert [m.role for m in row.episode.transcript] == ["system", "user", "assistant", "tool"]
    assert row.trace.tool_log == row.episode.tool_log
    assert row.usage.prompt_tokens == 10
