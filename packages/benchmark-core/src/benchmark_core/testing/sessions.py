"""Driving episode sessions with the offline mock, in process: what the agent proofs compare with.

`play_mock(session, position)` plays the mock's script for the task at `position` of the run (good
on even positions, as `MockAdapter` decides) through the session's `call`, with the episode loop
of `run_episode` itself: the session stands in for the environment, so nothing here re-implements
the loop, and the session's log is what gets graded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Optional

from .._model import JsonValue, Task, TaskScore, ToolResult
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ..episodes._environment import EnvironmentStart
from ..episodes._episode import EpisodeLimits, run_episode
from ..episodes._session import EpisodeSession

__all__ = ["SessionEnvironment", "mock_agent", "play_mock", "play_mock_episode"]


class SessionEnvironment:
    """An `Environment` whose calls go through a session (already reset by `open_session`). It is
    never done: the session refuses calls after the episode ends, and the agent answers then."""

    def __init__(self, session: EpisodeSession) -> None:
        self._session = session

    def reset(self, task: Task, seed: int) -> EnvironmentStart:
        return EnvironmentStart(system=self._session.system, tools=list(self._session.tools))

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return self._session.call(name, arguments)

    def state(self) -> JsonValue:
        return self._session.trace().final_state

    def done(self) -> bool:
        return False


async def play_mock_episode(session: EpisodeSession, position: int) -> Optional[str]:
    """The mock's episode for `session`'s task at run position `position`, played through the
    session; the mock's final answer (the session stays open)."""
    mock = MockAdapter(session.seed, session.benchmark.mock_policies)
    ctx = AdapterContext(task=session.task, task_index=position, seed=session.seed)
    # The session enforces the tool-call budget; the turns are the mock's own business.
    limits = EpisodeLimits(max_turns=10_000, max_tool_calls=10_000)
    outcome = await run_episode(session.task, mock, SessionEnvironment(session), limits, seed=session.seed, ctx=ctx)
    return outcome.answer


async def play_mock(session: EpisodeSession, position: int) -> TaskScore:
    """`play_mock_episode`, then `finish` with the mock's final answer."""
    return await session.finish(await play_mock_episode(session, position))


def mock_agent(tasks: Sequence[Task]) -> Callable[[EpisodeSession], Awaitable[Optional[str]]]:
    """An agent for `run(benchmark, agent=...)` that plays the mock's scripts, each task at its
    position in `tasks` (the whole task list, as the mock runner numbers them)."""
    positions = {task.id: index for index, task in enumerate(tasks)}

    async def agent(session: EpisodeSession) -> Optional[str]:
        return await play_mock_episode(session, positions[session.task.id])

    return agent
