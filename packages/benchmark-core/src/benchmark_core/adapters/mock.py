"""The offline mock adapter: a deterministic mix of good and bad answers, no network."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Optional

from attrs import Factory, frozen

from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult, Task, ToolCall, Usage
from .._util.rng import mulberry32
from ..errors._provider import AdapterError
from ..errors._usage import ConfigurationError
from .base import AdapterContext, ModelAdapter


@frozen
class ScriptedTurn:
    """One assistant turn of a mock episode script: tool calls, or a final message."""

    content: Optional[str] = None
    tool_calls: list[ToolCall] = Factory(list)

    @classmethod
    def call(cls, name: str, **arguments: Any) -> ScriptedTurn:
        return cls(tool_calls=[ToolCall(name=name, arguments=arguments)])

    @classmethod
    def say(cls, text: str) -> ScriptedTurn:
        return cls(content=text)


AnswerPolicy = Callable[[Task], str]
CallPolicy = Callable[[Task], list[ToolCall]]
ScriptPolicy = Callable[[Task], list[ScriptedTurn]]


@frozen
class MockPolicies:
    """How the offline mock answers this benchmark. The mock is "good" on even task positions and
    "bad" on odd ones, so every run shows both outcomes.

    Unset single-task policies fall back to the task's `expected` value (good) and a fixed wrong
    answer (bad); episode scripts must be given by any benchmark that has episodes.
    """

    good_answer: Optional[AnswerPolicy] = None
    bad_answer: Optional[AnswerPolicy] = None
    good_calls: Optional[CallPolicy] = None
    bad_calls: Optional[CallPolicy] = None
    good_script: Optional[ScriptPolicy] = None
    bad_script: Optional[ScriptPolicy] = None


class MockAdapter:
    """Answers well on even task positions and badly on odd ones, so a run shows both outcomes (in
    runs of several epochs, a seeded 30% of the tasks flip in each later epoch). With a `skill` P
    (`run --mock-skill P`, a sweep model's `mock_skill`) it answers a share P of the tasks well
    instead, chosen by a hash of its model name and each task id (see `is_good`).

    Single tasks get `policies.good_answer/bad_answer` (defaults: the task's `expected` value, and a
    fixed wrong answer); native tool calls get `good_calls/bad_calls`; episodes follow the
    `good_script/bad_script` turn by turn. Usage is reported as whitespace-separated word counts so
    token accounting is exercised offline; cost stays None.
    """

    def __init__(
        self,
        seed: int = 1,
        policies: Optional[MockPolicies] = None,
        model: str = "offline",
        skill: Optional[float] = None,
    ) -> None:
        if skill is not None and not 0 <= skill <= 1:
            raise ConfigurationError(f"mock_skill must be between 0 and 1, not {skill!r}")
        self.seed = seed
        self.policies = policies or MockPolicies()
        self._policies_given = policies is not None
        self._model = model
        #: The share of tasks answered well (None: even task positions, 50%); see `is_good`.
        self.skill = skill

    def for_benchmark(self, policies: MockPolicies, skill: Optional[float] = None) -> MockAdapter:
        """This mock, answering with `policies` unless it was built with policies of its own, and with
        `skill` when given (a run's `mock_skill`); the runner calls it so that a plain `mock_adapter()`
        plays each benchmark's scripts."""
        chosen = skill if skill is not None else self.skill
        if self._policies_given and chosen == self.skill:
            return self
        return MockAdapter(self.seed, self.policies if self._policies_given else policies, self._model, chosen)

    @property
    def provider(self) -> str:
        return "mock"

    @property
    def model(self) -> str:
        return self._model

    def is_good(self, ctx: AdapterContext) -> bool:
        """Good on even task positions in the first epoch, or with a `skill` P on the tasks whose draw
        (a hash of the model name and the task id, uniform in [0, 1)) is below P: a share P of them,
        the same tasks in every run, other tasks for another model name. In each later epoch a seeded
        30% of the tasks flip, so that runs of several epochs show pass^k below pass@1 and a flip rate."""
        good = ctx.task_index % 2 == 0 if self.skill is None else _draw(self._model, ctx.task.id) < self.skill
        if ctx.sampling_index == 0:
            return good
        flip = mulberry32(ctx.seed * 31 + ctx.task_index * 7_919 + ctx.sampling_index)() < 0.3
        return good != flip

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        good = self.is_good(ctx)
        policy = self.policies.good_answer if good else self.policies.bad_answer
        text = policy(ctx.task) if policy is not None else _default_answer(ctx.task, good, self.seed)
        return CompletionResult(text=text, usage=_usage(prompt, text))

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        good = self.is_good(ctx)
        prompt_text = " ".join(m.content or "" for m in request.messages)
        if ctx.task.kind == "single":
            call_policy = self.policies.good_calls if good else self.policies.bad_calls
            if call_policy is None:
                raise AdapterError(f"the mock has no native tool-call policy for task {ctx.task.id!r}")
            calls = [_with_id(call, i) for i, call in enumerate(call_policy(ctx.task))]
            # No call: the model answers in text instead (a decline, say), as the text policy would.
            text_policy = self.policies.good_answer if good else self.policies.bad_answer
            content = text_policy(ctx.task) if not calls and text_policy is not None else None
            message = ChatMessage(role="assistant", content=content, tool_calls=calls or None)
            spoken = content if content is not None else json.dumps([c.arguments for c in calls])
            return ChatResult(message=message, usage=_usage(prompt_text, spoken))
        script_policy = self.policies.good_script if good else self.policies.bad_script
        if script_policy is None:
            raise AdapterError(f"the mock has no episode script for task {ctx.task.id!r}")
        script = script_policy(ctx.task)
        turn_number = sum(1 for m in request.messages if m.role == "assistant")
        turn = script[turn_number] if turn_number < len(script) else ScriptedTurn.say("Done.")
        calls = [_with_id(call, turn_number * 100 + i) for i, call in enumerate(turn.tool_calls)]
        message = ChatMessage(role="assistant", content=turn.content, tool_calls=calls or None)
        return ChatResult(
            message=message, usage=_usage(prompt_text, turn.content or json.dumps([c.arguments for c in calls]))
        )

    async def aclose(self) -> None:
        return None


def mock_adapter(
    seed: int = 1, policies: Optional[MockPolicies] = None, model: str = "offline", skill: Optional[float] = None
) -> MockAdapter:
    return MockAdapter(seed=seed, policies=policies, model=model, skill=skill)


def for_run(adapter: ModelAdapter, policies: MockPolicies, skill: Optional[float]) -> ModelAdapter:
    """The adapter a run sends to: a mock playing the benchmark's `policies` with the run's
    `mock_skill` (`MockAdapter.for_benchmark`), any other adapter as it is, which a skill is refused for."""
    if isinstance(adapter, MockAdapter):
        return adapter.for_benchmark(policies, skill=skill)
    if skill is not None:
        raise ConfigurationError(f"mock_skill is for the mock provider only, not {adapter.provider}")
    return adapter


def _draw(model: str, task_id: str) -> float:
    """A number in [0, 1) fixed by the model name and the task id (SHA-256: the same on every platform)."""
    digest = hashlib.sha256(f"{model}\n{task_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _default_answer(task: Task, good: bool, seed: int) -> str:
    if good:
        return task.expected if isinstance(task.expected, str) else json.dumps(task.expected)
    return f"I am not sure (mock seed {seed})."


def _with_id(call: ToolCall, n: int) -> ToolCall:
    return call if call.id else ToolCall(name=call.name, arguments=call.arguments, id=f"call_{n}")


def _usage(prompt: str, completion: str) -> Usage:
    return Usage(prompt_tokens=len(prompt.split()), completion_tokens=len(completion.split()))
