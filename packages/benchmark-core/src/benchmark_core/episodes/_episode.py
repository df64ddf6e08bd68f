"""Tool-use episodes: run a model against an environment under budgets, and replay a tool log."""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Optional

from attrs import Factory, define, frozen

from .._model import (
    ChatMessage,
    ChatRequest,
    ChatResult,
    Episode,
    JsonValue,
    Task,
    ToolCall,
    ToolLogEntry,
    ToolSpec,
    Usage,
)
from ..adapters.base import AdapterContext, ModelAdapter
from ..wire._converter import to_wire
from ._environment import Environment
from ._resume import FinishedTurn, check_replayed


@frozen
class EpisodeLimits:
    """Budgets for one episode. `max_turns` counts model turns, `max_tool_calls` executed calls,
    `max_dollars` the provider-reported cost (ignored while no cost is reported)."""

    max_turns: int = 20
    max_tool_calls: int = 50
    max_dollars: Optional[float] = None


ChatCall = Callable[[ChatRequest], Awaitable[ChatResult]]
#: Told each finished turn of an episode that goes on (the runner journals it).
TurnHook = Callable[[FinishedTurn], None]


class EpisodeError(Exception):
    """A model turn failed for good mid-episode. `cause` is the failure; `episode` holds the
    transcript, tool log and state up to that turn, so the row that records the error keeps them."""

    def __init__(self, cause: Exception, episode: Episode) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.episode = episode


@frozen
class EpisodeResult:
    episode: Episode
    answer: Optional[str]
    usage: Usage


async def run_episode(
    task: Task,
    adapter: ModelAdapter,
    env: Environment,
    limits: EpisodeLimits = EpisodeLimits(),
    *,
    seed: int = 1,
    ctx: Optional[AdapterContext] = None,
    chat: Optional[ChatCall] = None,
    resume_from: Sequence[FinishedTurn] = (),
    on_turn: Optional[TurnHook] = None,
) -> EpisodeResult:
    """Reset `env`, then alternate model turns and tool calls until the model answers without
    calling a tool, the environment says it is done, or a budget runs out (`aborted="budget"`).

    `chat` lets the runner wrap each model turn with its timeout and retries; by default the adapter
    is called directly. `resume_from` continues an episode after its finished turns: their calls are
    replayed into `env` (`ReplayMismatch` if a result differs), the model is sent the transcript it
    had, and the budgets count those turns. `on_turn` is told every turn after which the episode
    goes on.
    """
    context = ctx or AdapterContext(task=task, seed=seed)

    async def direct(request: ChatRequest) -> ChatResult:
        return await adapter.chat(request, context)

    start = env.reset(task, seed)
    so_far = _EpisodeSoFar(
        env, [ChatMessage(role="system", content=start.system), ChatMessage(role="user", content=task.prompt)]
    )
    for number, turn in enumerate(resume_from):
        so_far.replay_turn(number, turn)
    answer, abort = await _play(chat or direct, start.tools, so_far, limits, on_turn)
    return EpisodeResult(episode=so_far.episode(abort), answer=answer, usage=so_far.usage)


async def _play(
    call: ChatCall,
    tools: Sequence[ToolSpec],
    so_far: _EpisodeSoFar,
    limits: EpisodeLimits,
    on_turn: Optional[TurnHook] = None,
) -> tuple[Optional[str], Optional[str]]:
    """The turns of an episode: the model's final answer, or why a budget ended the episode (neither
    when the environment says it is done)."""
    for _ in range(limits.max_turns - so_far.turns):
        message, usage = await so_far.model_turn(call, tools)
        cost = so_far.usage.cost_usd
        if limits.max_dollars is not None and cost is not None and cost > limits.max_dollars:
            return None, f"max_dollars ({limits.max_dollars}) exceeded: ${cost:.6f}"
        if not message.tool_calls:
            return message.content, None
        executed = len(so_far.tool_log)
        abort = so_far.execute(message.tool_calls, limits)
        if abort is not None:
            return None, abort
        if so_far.env.done():
            return None, None
        if on_turn is not None:
            on_turn(FinishedTurn(message, so_far.tool_log[executed:], usage))
    return None, f"max_turns ({limits.max_turns}) reached"


@define
class _EpisodeSoFar:
    """What an episode has done up to now: the transcript, the calls executed and the usage."""

    env: Environment
    transcript: list[ChatMessage]
    tool_log: list[ToolLogEntry] = Factory(list)
    usage: Usage = Factory(Usage)

    def episode(self, abort: Optional[str] = None) -> Episode:
        """The episode as it stands, with the environment's state now; `abort` says which budget ran out."""
        return Episode(
            transcript=self.transcript,
            tool_log=self.tool_log,
            final_state=self.env.state(),
            aborted="budget" if abort else None,
            abort_detail=abort,
        )

    @property
    def turns(self) -> int:
        """The model turns taken so far."""
        return sum(1 for message in self.transcript if message.role == "assistant")

    async def model_turn(self, call: ChatCall, tools: Sequence[ToolSpec]) -> tuple[ChatMessage, Usage]:
        """One model turn on the transcript so far, and its usage; a failure carries the episode up
        to this turn."""
        try:
            result = await call(ChatRequest(messages=list(self.transcript), tools=list(tools)))
        except Exception as exc:
            raise EpisodeError(exc, self.episode()) from exc
        self.usage = self.usage + result.usage
        self.transcript.append(result.message)
        return result.message, result.usage

    def replay_turn(self, number: int, turn: FinishedTurn) -> None:
        """Take a finished turn again without asking the model: its message into the transcript,
        its calls re-executed, each checked against the result the model was shown."""
        self.usage = self.usage + turn.usage
        self.transcript.append(turn.message)
        for journaled in turn.calls:
            entry = execute_call(self.env, journaled.name, journaled.arguments, journaled.call_id)
            check_replayed(number, journaled, entry)
            self._answered(entry)

    def execute(self, calls: Sequence[ToolCall], limits: EpisodeLimits) -> Optional[str]:
        """Execute the model's tool calls in order, each result answered in the transcript as a tool
        message; why the tool-call budget stopped them, if it did."""
        for tool_call in calls:
            if len(self.tool_log) >= limits.max_tool_calls:
                return f"max_tool_calls ({limits.max_tool_calls}) reached"
            self._answered(execute_call(self.env, tool_call.name, tool_call.arguments, tool_call.id))
        return None

    def _answered(self, entry: ToolLogEntry) -> None:
        """Log an executed call and answer it in the transcript as a tool message."""
        self.tool_log.append(entry)
        payload = {"error": to_wire(entry.error)} if entry.error else entry.result
        self.transcript.append(
            ChatMessage(role="tool", content=json.dumps(payload, ensure_ascii=False), tool_call_id=entry.call_id)
        )


@frozen
class Replay:
    """A tool log re-executed in a fresh environment: what each call returned then, and the state.

    `abort_detail` says why the log was cut short ("max_tool_calls (50) reached") when it held more
    calls than the budget, as a live episode would have been aborted; None otherwise.
    """

    tool_log: list[ToolLogEntry]
    final_state: JsonValue
    abort_detail: Optional[str] = None


AfterCall = Callable[[ToolLogEntry], None]


def replay(
    env: Environment,
    task: Task,
    tool_log: Sequence[ToolLogEntry],
    seed: int = 1,
    *,
    limits: Optional[EpisodeLimits] = None,
    after_call: Optional[AfterCall] = None,
) -> Replay:
    """Reset `env` and repeat exactly the recorded calls, in order; recorded results are ignored.
    Graders use this so that a submitted final state is never trusted.

    With `limits`, only the first `limits.max_tool_calls` calls run, as in a live episode, and the
    result says the log was over budget. `after_call` sees each executed entry while `env` still
    holds the state right after it (a grader can judge a call against the state it was made in).
    """
    env.reset(task, seed)
    budget = len(tool_log) if limits is None else min(len(tool_log), limits.max_tool_calls)
    executed = []
    for entry in tool_log[:budget]:
        done = execute_call(env, entry.name, entry.arguments, entry.call_id)
        executed.append(done)
        if after_call is not None:
            after_call(done)
    abort = None
    if budget < len(tool_log):
        assert limits is not None
        abort = f"max_tool_calls ({limits.max_tool_calls}) reached: {len(tool_log) - budget} more calls not run"
    return Replay(tool_log=executed, final_state=env.state(), abort_detail=abort)


def execute_call(env: Environment, name: str, arguments: dict[str, Any], call_id: str) -> ToolLogEntry:
    """Call one tool on a deep copy of the arguments, so the environment cannot alter the record
    (arguments nest: a list of line items, an object of fields)."""
    outcome = env.call_tool(name, copy.deepcopy(arguments))
    return ToolLogEntry(
        name=name, arguments=dict(arguments), result=outcome.result, error=outcome.error, call_id=call_id
    )
