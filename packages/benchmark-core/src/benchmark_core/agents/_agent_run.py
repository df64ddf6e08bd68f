"""Runs of an agent rather than a model (`run --agent`, `run(benchmark, agent=...)`).

An `AgentRun` is a `Run` whose episodes are played by an agent that owns its loop: per episode task
it opens an `EpisodeSession` seeded as a model run's episode would be, lets the agent play it (an
`AgentCommand` through the session's MCP endpoint on a loopback server the run starts, or an async
Python callable given the session), and grades the session's trace with the runner's own `graded`,
so the journal, resume, lock, concurrency, epochs and report are those of model runs. Only episode
tasks are run; a benchmark without an environment is refused (`NotAnEpisodeError`, exit 1).

Each row records the agent (`AgentRecord`: label, exit status, wall time, tool calls, stderr tail)
and the usage it reported; an agent that crashes, times out or exits non-zero is an errored row
(`AGENT_FAILED`) that keeps the calls it made. The report names the agent as its model (the label)
with provider `agent`. No response cache: an agent's requests are its own.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import attrs

from .._model import (
    AgentRecord,
    ChatRequest,
    ChatResult,
    CompletionResult,
    Episode,
    JsonValue,
    RunReport,
    RunRow,
    Task,
    Trace,
)
from ..adapters.base import AdapterContext
from ..episodes._episode import EpisodeError
from ..episodes._session import EpisodeSession
from ..errors._failures import AgentFailedError
from ..errors._sessions import NotAnEpisodeError
from ..errors._usage import ConfigurationError
from ..runs._options import RunOptions
from ..runs._requests import TaskRequests
from ..runs._runner import Run
from ._command import AgentCommand, run_agent_command
from ._sandbox import bwrap_program, run_files

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..episodes._session_registry import SessionRegistry

#: An agent written in Python: given the open session, it plays the episode and returns its answer.
AgentCallable = Callable[[EpisodeSession], Awaitable[JsonValue]]
Agent = Union[AgentCommand, str, AgentCallable]


class AgentAdapter:
    """What the report and journal header name: the agent's label as the model, provider `agent`.
    It answers no request: an agent run sends none of its own."""

    def __init__(self, label: str) -> None:
        self._label = label

    @property
    def provider(self) -> str:
        return "agent"

    @property
    def model(self) -> str:
        return self._label

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        raise ConfigurationError("an agent run sends no model requests")

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        raise ConfigurationError("an agent run sends no model requests")

    async def aclose(self) -> None:
        return None


def agent_label(agent: Agent, label: Optional[str] = None) -> str:
    if label:
        return label
    if isinstance(agent, AgentCommand):
        return agent.name
    if isinstance(agent, str):
        return AgentCommand(agent).name
    return getattr(agent, "__name__", type(agent).__name__)


class AgentRun(Run):
    def __init__(
        self,
        benchmark: Benchmark,
        agent: Agent,
        options: RunOptions,
        *,
        label: Optional[str] = None,
        hidden: Sequence[Path] = (),
        **kwargs: Any,
    ) -> None:
        if benchmark.environment is None:
            raise NotAnEpisodeError(
                f"benchmark {benchmark.id!r} has no environment: its tasks are single prompts, which an agent "
                "command cannot play; run it against a model (--model, --provider)"
            )
        self.agent: Union[AgentCommand, AgentCallable] = AgentCommand(agent) if isinstance(agent, str) else agent
        if isinstance(self.agent, AgentCommand) and self.agent.sandbox == "bwrap":
            bwrap_program()  # refused before anything starts where the seal cannot be made
        #: What the seal masks besides the benchmarks' packages: the caller's files (a sweep's).
        self._hidden = [*hidden, *run_files(benchmark, options, kwargs.get("tasks"), kwargs.get("journal"))]
        super().__init__(
            benchmark, AgentAdapter(agent_label(agent, label)), attrs.evolve(options, cache=False), **kwargs
        )
        self._registry: Optional[SessionRegistry] = None
        self._base_url = ""
        self._records: dict[tuple[str, Optional[int]], tuple[AgentRecord, Any]] = {}

    def _select(self, whole: list[Task]) -> None:
        episodes = [task for task in whole if task.kind == "episode"]
        if not episodes:
            raise NotAnEpisodeError(
                f"the task list of {self.benchmark.id!r} holds no episode task, so an agent has nothing to play "
                "(pick a split with episodes with --tasks)"
            )
        super()._select(episodes)

    async def execute(self) -> RunReport:
        if not isinstance(self.agent, AgentCommand):
            return await super().execute()
        async with _session_server(self.benchmark, self.options.concurrency) as (registry, base_url):
            self._registry, self._base_url = registry, base_url
            return await super().execute()

    async def _run_task(self, task: Task, index: int, epoch: Optional[int]) -> RunRow:
        row = await super()._run_task(task, index, epoch)
        kept = self._records.pop((task.id, epoch), None)
        if kept is None:
            return row
        record, usage = kept
        return attrs.evolve(row, agent=record, usage=usage if usage is not None else row.usage)

    async def _answer(self, task: Task, requests: TaskRequests) -> tuple[Trace, Optional[Episode]]:
        session = EpisodeSession(self.benchmark, task, seed=requests.seed, limits=self._limits)
        label, key = self.adapter.model, (task.id, requests.epoch)
        started = time.perf_counter()
        try:
            answer, status, tail, usage = await self._play(session)
        except AgentFailedError as exc:
            record = AgentRecord(
                label=label,
                exit_status=exc.exit_status,
                wall_ms=exc.wall_ms,
                tool_calls=len(session.tool_log),
                stderr_tail=exc.stderr_tail,
                sandbox=self.sandbox,
            )
            self._records[key] = (record, None)
            raise EpisodeError(exc, session.episode()) from exc
        except Exception as exc:  # a Python agent's bug: its row errs, with the calls it made
            wall = round((time.perf_counter() - started) * 1000)
            record = AgentRecord(label=label, wall_ms=wall, tool_calls=len(session.tool_log), sandbox=self.sandbox)
            self._records[key] = (record, None)
            failed = AgentFailedError(f"agent raised {type(exc).__name__}: {exc}", None, "", wall)
            raise EpisodeError(failed, session.episode()) from exc
        wall = round((time.perf_counter() - started) * 1000)
        record = AgentRecord(
            label=label,
            exit_status=status,
            wall_ms=wall,
            tool_calls=len(session.tool_log),
            stderr_tail=tail,
            sandbox=self.sandbox,
        )
        self._records[key] = (record, usage)
        session.answer = answer
        return session.trace(), session.episode()

    @property
    def sandbox(self) -> str:
        """Which seal the agent ran in: a Python callable runs in the runner's process, unsealed."""
        return self.agent.sandbox if isinstance(self.agent, AgentCommand) else "none"

    async def _play(self, session: EpisodeSession) -> tuple[JsonValue, Optional[int], str, Any]:
        """The agent's answer, exit status, stderr tail and reported usage (None: none reported)."""
        if not isinstance(self.agent, AgentCommand):
            return await self.agent(session), None, "", None
        assert self._registry is not None
        session_id, token = self._registry.add(session)
        try:
            result = await run_agent_command(
                self.agent,
                benchmark_id=self.benchmark.id,
                task_id=session.task.id,
                prompt=session.prompt,
                system=session.system,
                url=f"{self._base_url}/v1/sessions/{session_id}/mcp",
                token=token,
                hidden=self._hidden,
            )
        finally:
            self._registry.remove(session_id)
        return result.answer, result.exit_status, result.stderr_tail, result.usage


@asynccontextmanager
async def _session_server(benchmark: Benchmark, concurrency: int) -> AsyncIterator[tuple[SessionRegistry, str]]:
    """The run's sessions (their routes and MCP endpoints, nothing else of the HTTP API) on a free
    loopback port."""
    from aiohttp import web

    from ..episodes._session_registry import DEFAULT_MAX_OPEN, SessionRegistry
    from ..servers._http import create_app
    from ..servers._http_sessions import REGISTRY_KEY

    app = create_app(benchmark, routes="sessions")
    registry = SessionRegistry(max_open=max(DEFAULT_MAX_OPEN, concurrency))
    app[REGISTRY_KEY] = registry
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        yield registry, f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()
