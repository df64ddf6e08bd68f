"""Our offline mock, served over HTTP: a `FakeOpenAI` handler that answers every request the way
`mock_adapter()` would answer it in-process (good on even task positions, bad on odd ones; episode
scripts turn by turn), so that tests can run any benchmark through the real OpenAI-compatible adapter
and compare the report with a mock run's, or kill and resume a run that takes real time.

    async with FakeOpenAI(handler=mock_handler(benchmark, delay=0.05)) as server:
        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")

Requests are matched to tasks by their system and first user message (an episode's system message
comes from its environment, so two episodes with the same prompt are still told apart);
`requests_per_task` counts what each task was sent.
"""

from __future__ import annotations

import collections
from typing import Optional

from .._benchmark.definition import Benchmark
from .._model import ChatMessage, ChatRequest, Task
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ..adapters.toolnames import ToolNameCodec
from .fake_openai import FakeResponse, RecordedRequest


class MockHandler:
    """The handler; call `benchmark.tasks()` outside an event loop before serving (done here)."""

    def __init__(self, benchmark: Benchmark, *, delay: float = 0.0, seed: int = 1, tasks: Optional[list[Task]] = None):
        self._benchmark = benchmark
        self._delay = delay
        self._seed = seed
        self._mock = MockAdapter(seed, benchmark.mock_policies)
        self._by_prompt: dict[tuple[str, str], tuple[int, Task]] = {}
        for index, task in enumerate(tasks if tasks is not None else benchmark.tasks()):
            self._by_prompt.setdefault((self._system(task), task.prompt), (index, task))
        self.requests_per_task: collections.Counter[str] = collections.Counter()

    def knows(self, request: RecordedRequest) -> bool:
        """Whether `request` is one of this benchmark's tasks (by its system and first user message)."""
        return self._key(request) in self._by_prompt

    def _key(self, request: RecordedRequest) -> tuple[str, str]:
        messages = request.messages
        prompt = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
        system = next((str(m.get("content")) for m in messages if m.get("role") == "system"), "")
        return system, prompt

    async def __call__(self, request: RecordedRequest) -> FakeResponse:
        messages = request.messages
        system, prompt = self._key(request)
        if (system, prompt) not in self._by_prompt:
            return FakeResponse.error(400, f"mock server: no task has the prompt {prompt[:60]!r}")
        index, task = self._by_prompt[(system, prompt)]
        self.requests_per_task[task.id] += 1
        ctx = AdapterContext(task=task, task_index=index, seed=self._seed)
        if not isinstance(request.body, dict) or not request.body.get("tools"):
            completion = await self._mock.complete(prompt, ctx)
            usage = completion.usage
            return FakeResponse.text(
                completion.text,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                delay=self._delay,
            )
        history = [
            ChatMessage(role=m["role"], content=m.get("content") if isinstance(m.get("content"), str) else None)
            for m in messages
        ]
        result = await self._mock.chat(ChatRequest(messages=history), ctx)
        calls = result.message.tool_calls or []
        if not calls:
            return FakeResponse.text(
                result.message.content or "",
                prompt_tokens=result.usage.prompt_tokens,
                completion_tokens=result.usage.completion_tokens,
                delay=self._delay,
            )
        codec = ToolNameCodec([*self._tool_names(task), *(call.name for call in calls)])
        return FakeResponse.tool_calls(
            [(codec.encode(call.name), call.arguments) for call in calls],
            content=result.message.content,
            prompt_tokens=result.usage.prompt_tokens,
            completion_tokens=result.usage.completion_tokens,
            delay=self._delay,
        )

    def _system(self, task: Task) -> str:
        if task.kind == "single" or self._benchmark.environment is None:
            return ""
        return self._benchmark.environment().reset(task, self._seed).system

    def _tool_names(self, task: Task) -> list[str]:
        if task.kind == "single" or self._benchmark.environment is None:
            return [tool.name for tool in task.tools]
        return [tool.name for tool in self._benchmark.environment().reset(task, self._seed).tools]


def mock_handler(
    benchmark: Benchmark, *, delay: float = 0.0, seed: int = 1, tasks: Optional[list[Task]] = None
) -> MockHandler:
    """A `FakeOpenAI` handler playing `benchmark`'s mock policies (see the module docstring)."""
    return MockHandler(benchmark, delay=delay, seed=seed, tasks=tasks)


class MockHandlers:
    """Several benchmarks' `MockHandler`s behind one server (a sweep sends it every benchmark's
    tasks): each request goes to the handler whose benchmark has its prompt."""

    def __init__(self, handlers: list[MockHandler]) -> None:
        self.handlers = handlers

    async def __call__(self, request: RecordedRequest) -> FakeResponse:
        for handler in self.handlers:
            if handler.knows(request):
                return await handler(request)
        return FakeResponse.error(400, f"mock server: no benchmark has the prompt {request.prompt[:60]!r}")


def mock_handlers(benchmarks: list[Benchmark], *, delay: float = 0.0, seed: int = 1) -> MockHandlers:
    """One `FakeOpenAI` handler playing the mock policies of each of `benchmarks`."""
    return MockHandlers([MockHandler(benchmark, delay=delay, seed=seed) for benchmark in benchmarks])
