"""Episode sessions graded as model runs are: the offline mock played through a session gives the
runner's own rows, for every episode of every benchmark (the example, rollback-recovery's public and
full splits, schema-mutation's drift episodes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

import pytest
from benchmark_core import ToolLogEntry, load_benchmark
from benchmark_core.adapters.mock import mock_adapter
from benchmark_core.episodes._episode import EpisodeLimits
from benchmark_core.episodes._session import EPISODE_DONE, MAX_TOOL_CALLS, open_session
from benchmark_core.errors._sessions import NotAnEpisodeError, SessionFinishedError
from benchmark_core.errors._tasks import TaskNotFoundError
from benchmark_core.example import benchmark as example
from benchmark_core.runs._runner import run
from benchmark_core.testing.sessions import play_mock

SPLITS = [
    ("benchmark-core-example", None),
    ("benchmark-rollback-recovery", None),
    ("benchmark-rollback-recovery", "tasks-full"),
    ("benchmark-schema-mutation", "tasks-full"),
]


@pytest.mark.parametrize(("benchmark_id", "tasks"), SPLITS)
async def test_the_mock_through_a_session_scores_as_the_mock_run(benchmark_id: str, tasks: Optional[str]) -> None:
    bench = load_benchmark(benchmark_id)
    source = bench.task_file(tasks) if tasks is not None else None
    whole = await bench.load_tasks(source)
    report = await run(bench, mock_adapter(), tasks=source, seed=3, concurrency=4)
    episodes = [(i, t) for i, t in enumerate(whole) if t.kind == "episode"]
    assert episodes
    rows = {row.task_id: row for row in report.rows}
    for position, task in episodes:
        session = await open_session(bench, task.id, tasks=source, seed=3)
        score = await play_mock(session, position)
        row = rows[task.id]
        assert (score.score, score.passed, score.details) == (row.score, row.passed, row.details), task.id
        assert _calls(session.tool_log) == _calls(row.trace.tool_log or []), task.id


def _calls(log: Sequence[ToolLogEntry]) -> list[tuple[object, ...]]:
    """The calls and what they returned (call ids are the agent's own)."""
    return [(e.name, e.arguments, e.result, e.error) for e in log]


async def test_a_session_serves_the_environments_tools_and_refuses_after_the_budget() -> None:
    task = next(t for t in example.tasks() if t.kind == "episode")
    session = await open_session(example, task.id, seed=1, limits=EpisodeLimits(max_tool_calls=2))
    assert session.prompt == task.prompt and "support agent" in session.system
    assert [tool.name for tool in session.tools] == ["lookup_order", "refund"]
    order = task.metadata["orderId"]
    assert session.call("lookup_order", {"order_id": order}).error.code == "HTTP_500"  # type: ignore[union-attr]
    assert session.call("nope", {}).error.code == "UNKNOWN_TOOL"  # type: ignore[union-attr]
    refused = session.call("refund", {"order_id": order, "amount": 1})
    assert refused.error is not None and refused.error.code == MAX_TOOL_CALLS
    assert len(session.tool_log) == 2
    score = await session.finish("gave up")
    assert not score.passed and "episode aborted: max_tool_calls (2) reached" in score.reason
    with pytest.raises(SessionFinishedError):
        session.call("lookup_order", {"order_id": order})
    with pytest.raises(SessionFinishedError):
        await session.finish("again")


async def test_calls_after_the_episode_is_done_are_refused_and_not_logged() -> None:
    task = next(t for t in example.tasks() if t.kind == "episode")
    session = await open_session(example, task.id)
    order, total = task.metadata["orderId"], task.metadata["orderTotal"]
    session.call("lookup_order", {"order_id": order})
    assert session.call("refund", {"order_id": order, "amount": total}).error is None
    done = session.call("refund", {"order_id": order, "amount": 1})
    assert done.error is not None and done.error.code == EPISODE_DONE
    assert len(session.tool_log) == 2
    assert (await session.finish("ok")).passed


async def test_arguments_a_submission_could_not_hold_are_refused() -> None:
    task = next(t for t in example.tasks() if t.kind == "episode")
    session = await open_session(example, task.id)
    assert session.call("lookup_order", ["A"]).error.code == "INVALID_ARGUMENTS"  # type: ignore[union-attr]
    deep: dict[str, object] = {}
    for _ in range(100):
        deep = {"x": deep}
    assert session.call("lookup_order", deep).error.code == "INVALID_ARGUMENTS"  # type: ignore[union-attr]
    assert session.tool_log == []


async def test_only_episodes_open() -> None:
    single = next(t for t in example.tasks() if t.kind == "single")
    with pytest.raises(NotAnEpisodeError):
        await open_session(example, single.id)
    with pytest.raises(TaskNotFoundError):
        await open_session(example, "no-such-task")
