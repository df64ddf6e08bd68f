"""The solver: one benchmark task answered by the sample's model, its submission kept in the store.

Single tasks are answered as `benchmark_core.run` answers them (the prompt, or in native mode the
task's tools offered as Inspect tools); episodes run `run_episode` against a fresh environment with
the run's seed, so the tool calls go to the same seeded simulator the grader replays.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import LimitExceededError, Store

from .._model import ChatRequest, Episode, JsonValue, Task, ToolLogEntry, ToolResult, Trace
from ..adapters.base import AdapterContext
from ..episodes._environment import Environment, EnvironmentStart
from ..episodes._episode import EpisodeError, EpisodeLimits, run_episode
from ..wire._converter import to_wire
from .adapter import InspectModelAdapter
from .benchmarks import resolve_benchmark

#: Store keys: the submission to grade (wire form) and why an episode stopped early, if it did.
TRACE_KEY = "benchmark_core:trace"
ABORT_KEY = "benchmark_core:abort"


@solver
def benchmark_solver(
    benchmark: str,
    mode: str,
    seed: int = 1,
    tasks: Optional[str] = None,
    max_turns: int = 20,
    max_tool_calls: int = 50,
) -> Solver:
    """Answer the sample's task of `benchmark` (an id) in answer `mode`, with `seed` for episodes'
    environments and `max_turns`/`max_tool_calls` as their budgets (Inspect's own limits apply too)."""
    limits = EpisodeLimits(max_turns=max_turns, max_tool_calls=max_tool_calls)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        bench = resolve_benchmark(benchmark)
        task = await bench.get_task(str(state.sample_id), tasks)
        adapter = InspectModelAdapter(state)
        ctx = AdapterContext(task=task, seed=seed)
        if task.kind == "episode":
            assert bench.environment is not None  # validate_tasks refuses episodes without one
            env = _RecordingEnvironment(bench.environment(), state.store)
            try:
                outcome = await run_episode(task, adapter, env, limits, seed=seed, ctx=ctx)
            except EpisodeError as exc:
                # Inspect scores a sample stopped by one of its limits: keep what the agent did.
                _keep(state.store, _episode_trace(exc.episode, None), _limit_detail(exc.cause))
                raise exc.cause from None
            episode = outcome.episode
            _keep(state.store, _episode_trace(episode, outcome.answer), episode.abort_detail)
            adapter.follow(episode.transcript)
        elif mode == "native":
            request = ChatRequest(messages=bench.native_messages(task), tools=list(task.tools))
            result = await adapter.chat(request, ctx)
            calls = list(result.message.tool_calls or [])
            _keep(state.store, Trace(answer=result.message.content, tool_calls=calls), None)
        else:
            completion = await adapter.complete(task.prompt, ctx)
            _keep(state.store, Trace(answer=completion.text), None)
        return state

    return solve


def _episode_trace(episode: Episode, answer: Optional[str]) -> Trace:
    return Trace(answer=answer, tool_log=episode.tool_log, final_state=episode.final_state)


def _keep(store: Store, trace: Trace, abort: Optional[str]) -> None:
    store.set(TRACE_KEY, to_wire(trace))
    store.set(ABORT_KEY, abort)


def _limit_detail(cause: BaseException) -> Optional[str]:
    if isinstance(cause, LimitExceededError):
        return f"Inspect {cause.type} limit: {cause.message}"
    return None


class _RecordingEnvironment:
    """The benchmark's environment, each executed call written to the store as it happens, so that a
    sample Inspect cancels mid-episode (its time or working limit) is still graded on the calls made.
    The finished episode's log, with the model's call ids, replaces this record."""

    def __init__(self, env: Environment, store: Store) -> None:
        self._env = env
        self._store = store
        self._log: list[ToolLogEntry] = []

    def reset(self, task: Task, seed: int) -> EnvironmentStart:
        self._log = []
        return self._env.reset(task, seed)

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        recorded = copy.deepcopy(arguments)
        outcome = self._env.call_tool(name, arguments)
        self._log.append(ToolLogEntry(name=name, arguments=recorded, result=outcome.result, error=outcome.error))
        _keep(self._store, Trace(tool_log=list(self._log), final_state=self._env.state()), None)
        return outcome

    def state(self) -> JsonValue:
        return self._env.state()

    def done(self) -> bool:
        return self._env.done()
