"""Episode sessions: one episode task opened for an agent that runs its own loop.

    session = await open_session(benchmark, "order-refund", seed=1)
    session.prompt, session.system, session.tools     # what the agent is given
    session.call("lookup_order", {"order_id": "A-1"})  # a ToolResult; the call is logged
    score = await session.finish("Refunded.")          # graded by replaying the session's log

A session holds the seeded environment and the log of the calls it executed. Grading builds the same
`Trace` a model run builds (the answer, the log, the environment's state) and hands it to the
benchmark's grader with the same `GradeContext` (seed and limits), so the grader replays the log in
a fresh environment exactly as it replays a model run's: nothing the agent says about its calls is
trusted. The MCP servers (stdio and streamable HTTP) and `run --agent` are built on this one class.

The episode's limits hold as in `run_episode`: a call beyond `max_tool_calls` is refused with the
tool error `MAX_TOOL_CALLS` and not executed, and the episode counts as aborted by its budget; once
the environment says the episode is done, further calls are refused with `EPISODE_DONE` (a model run
stops asking at that point). `max_turns` counts model turns, which only the agent sees; it does not
apply to sessions. Refused calls are not in the log: the live episode would not have run them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from .._model import Episode, JsonObject, JsonValue, Task, TaskScore, ToolLogEntry, ToolResult, ToolSpec, Trace
from ..errors._sessions import NotAnEpisodeError, SessionFinishedError
from ..errors._tasks import InvalidSubmissionError, TaskNotFoundError
from ..wire._converter import to_wire
from ._episode import EpisodeLimits, execute_call
from ._toolbox import INVALID_ARGUMENTS, UNKNOWN_TOOL, tool_error

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

#: Tool-error codes a session answers with itself (the environment's own codes pass through).
MAX_TOOL_CALLS = "MAX_TOOL_CALLS"
EPISODE_DONE = "EPISODE_DONE"
#: The tool errors an agent may get from any session's tools, whatever the environment (which adds
#: codes of its own, such as NOT_FOUND), and what each means: the catalogue `/openapi.json` lists.
#: They come back in a tool result (MCP `isError`, text `CODE: message`), never as an HTTP error.
SESSION_TOOL_ERRORS: dict[str, str] = {
    UNKNOWN_TOOL: "the call names no tool of the episode.",
    INVALID_ARGUMENTS: "the arguments break the tool's input schema, or are not a JSON object.",
    MAX_TOOL_CALLS: "the session's tool-call budget is spent; the call was not run.",
    EPISODE_DONE: "the environment says the episode is done; the call was not run, give the final answer.",
}


class EpisodeSession:
    """One open episode: its task, seeded environment and log (see the module docstring)."""

    def __init__(
        self, benchmark: Benchmark, task: Task, *, seed: int = 1, limits: Optional[EpisodeLimits] = None
    ) -> None:
        if task.kind != "episode" or benchmark.environment is None:
            raise NotAnEpisodeError(
                f"task {task.id!r} of {benchmark.id!r} is a {task.kind} task; only episodes have sessions"
                if benchmark.environment is not None
                else f"benchmark {benchmark.id!r} has no environment, so none of its tasks has a session"
            )
        self.benchmark = benchmark
        self.task = task
        self.seed = seed
        self.limits = limits if limits is not None else EpisodeLimits()
        self._env = benchmark.environment()
        start = self._env.reset(task, seed)
        self.system: str = start.system
        self.tools: list[ToolSpec] = list(start.tools)
        self.tool_log: list[ToolLogEntry] = []
        #: Why the episode's budget refused a call, once one did (the row's abort detail).
        self.abort_detail: Optional[str] = None
        self.answer: JsonValue = None
        self.score: Optional[TaskScore] = None
        self.opened = time.monotonic()
        self.last_used = self.opened

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def finished(self) -> bool:
        return self.score is not None

    def call(self, name: str, arguments: Any, call_id: str = "") -> ToolResult:
        """Run one tool call against the environment and log it; its result, or the tool error the
        agent sees (the environment's own, or the session's `MAX_TOOL_CALLS`/`EPISODE_DONE`, or
        `INVALID_ARGUMENTS` for arguments that are not a JSON object a submission may hold).
        `SessionFinishedError` once the session is finished."""
        if self.score is not None:
            raise SessionFinishedError(f"session for task {self.task.id!r} is finished; it takes no more calls")
        self.last_used = time.monotonic()
        refusal = self._refusal(name, arguments)
        if refusal is not None:
            return refusal
        entry = execute_call(self._env, name, arguments, call_id or f"call_{len(self.tool_log)}")
        self.tool_log.append(entry)
        return ToolResult(result=entry.result, error=entry.error)

    def _refusal(self, name: str, arguments: Any) -> Optional[ToolResult]:
        if len(self.tool_log) >= self.limits.max_tool_calls:
            self.abort_detail = f"max_tool_calls ({self.limits.max_tool_calls}) reached"
            spent = f"the episode's budget of {self.limits.max_tool_calls} tool calls is spent"
            return tool_error(MAX_TOOL_CALLS, spent)
        if self._env.done():
            return tool_error(EPISODE_DONE, "the episode is done; give your final answer")
        if not isinstance(arguments, dict):
            return tool_error(INVALID_ARGUMENTS, f"{name}: arguments must be a JSON object")
        from ..wire._submission import check_submission

        try:  # what the log will be graded as: a submission's tool log, within its nesting limit
            check_submission({"toolLog": [{"name": name, "arguments": arguments}]}, what=name)
        except InvalidSubmissionError as exc:
            return tool_error(INVALID_ARGUMENTS, exc.message)
        return None

    def trace(self) -> Trace:
        """The submission this session makes: the answer, the log and the environment's state (which
        the grader never trusts; it replays the log)."""
        return Trace(answer=self.answer, tool_log=list(self.tool_log), final_state=self._env.state())

    def episode(self) -> Episode:
        """The episode as a run row records it (no transcript: the agent's conversation is its own)."""
        return Episode(
            transcript=[],
            tool_log=list(self.tool_log),
            final_state=self._env.state(),
            aborted="budget" if self.abort_detail else None,
            abort_detail=self.abort_detail,
        )

    def submission(self) -> JsonObject:
        """The session as a submission file item that `score` grades: `{taskId, submission}`."""
        return {"taskId": self.task.id, "submission": to_wire(self.trace())}

    async def finish(self, answer: JsonValue = None) -> TaskScore:
        """End the session with the agent's final answer and grade it: the benchmark's grader on
        `trace()`, with the session's seed and limits, as a model run grades its rows.
        `SessionFinishedError` when already finished."""
        if self.score is not None:
            raise SessionFinishedError(f"session for task {self.task.id!r} is already finished")
        self.answer = answer
        context = self.benchmark.grade_context(self.seed, self.limits)
        score = await self.benchmark.grade(self.task, self.trace(), context)
        if self.abort_detail is not None:
            score = TaskScore(
                score.score, score.passed, f"{score.reason} (episode aborted: {self.abort_detail})", score.details
            )
        self.score = score
        return score

    def state(self) -> JsonObject:
        """What `GET /v1/sessions/{id}` answers: the task, the calls so far, and the score once finished."""
        return {
            "taskId": self.task.id,
            "seed": self.seed,
            "toolCalls": len(self.tool_log),
            "maxToolCalls": self.limits.max_tool_calls,
            "finished": self.finished,
            "score": to_wire(self.score) if self.score is not None else None,
        }


async def open_session(
    benchmark: Benchmark,
    task_id: str,
    *,
    tasks: Optional[Union[str, Path, Sequence[Task]]] = None,
    seed: int = 1,
    limits: Optional[EpisodeLimits] = None,
) -> EpisodeSession:
    """Open episode task `task_id` of `benchmark` (of the task file or list `tasks`, else its own) as
    a session with a fresh environment reset with `seed`. `TaskNotFoundError` for an unknown id,
    `NotAnEpisodeError` for a task that is not an episode."""
    if tasks is not None and not isinstance(tasks, (str, Path)):
        by_id = {task.id: task for task in benchmark.checked_tasks(tasks)}
        if task_id not in by_id:
            raise TaskNotFoundError(f"unknown task id {task_id!r} in the given tasks")
        task = by_id[task_id]
    else:
        task = await benchmark.get_task(task_id, tasks)
    return EpisodeSession(benchmark, task, seed=seed, limits=limits)
