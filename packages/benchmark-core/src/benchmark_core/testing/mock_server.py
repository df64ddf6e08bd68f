"""Our offline mock, served over HTTP: a `FakeOpenAI` (or `FakeAnthropic`, `FakeGemini`) handler
that answers every request the way `mock_adapter()` would answer it in-process (good on even task
positions, bad on odd ones; episode scripts turn by turn), so that tests can run any benchmark
through a real adapter and compare the report with a mock run's, or kill and resume a run that takes
real time. The OpenAI fake reports the mock's token counts; the others estimate theirs.

    async with FakeOpenAI(handler=mock_handler(benchmark, delay=0.05)) as server:
        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")

Requests are matched to tasks by their system and first user message (an episode's system message
comes from its environment, so two episodes with the same prompt are still told apart);
`requests_per_task` counts what each task was sent.
"""

from __future__ import annotations

import collections
from typing import Literal, Optional

from attrs import evolve, frozen

from .._benchmark.definition import Benchmark
from .._model import ChatMessage, ChatRequest, JsonObject, JsonValue, Task, Usage
from ..adapters._toolnames import ToolNameCodec
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ._loopback import RecordedRequest, ScriptedResponse
from .fake_anthropic import AnthropicResponse
from .fake_gemini import GeminiResponse
from .fake_openai import FakeResponse

Wire = Literal["openai", "anthropic", "gemini", "azure"]
_THOUGHT = "The mock weighs the task before it answers."


@frozen
class _View:
    """What the mock needs of a request, whatever its wire format."""

    system: str
    prompt: str
    tools: bool
    thinking: bool
    history: list[ChatMessage]


class MockHandler:
    """The handler; call `benchmark.tasks()` outside an event loop before serving (done here).
    `wire` is the format of the fake it serves: "openai" (`FakeOpenAI`), "anthropic"
    (`FakeAnthropic`; with thinking on, every answer starts with a signed thinking block) or
    "gemini" (`FakeGemini`; with thinking on, every answer has a thought part)."""

    def __init__(
        self,
        benchmark: Benchmark,
        *,
        delay: float = 0.0,
        seed: int = 1,
        tasks: Optional[list[Task]] = None,
        wire: Wire = "openai",
    ):
        self._benchmark = benchmark
        self._delay = delay
        self._seed = seed
        self._wire = wire
        self._mock = MockAdapter(seed, benchmark.mock_policies)
        self._by_prompt: dict[tuple[str, str], tuple[int, Task]] = {}
        for index, task in enumerate(tasks if tasks is not None else benchmark.tasks()):
            self._by_prompt.setdefault((self._system(task), task.prompt), (index, task))
            if task.kind == "single":  # native mode sends the benchmark's own messages
                native = benchmark.native_messages(task)
                system = next((m.content or "" for m in native if m.role == "system"), "")
                user = next((m.content or "" for m in native if m.role == "user"), "")
                self._by_prompt.setdefault((system, user), (index, task))
        self.requests_per_task: collections.Counter[str] = collections.Counter()

    def _view(self, request: RecordedRequest) -> _View:
        return _VIEWS[self._wire](request.body if isinstance(request.body, dict) else {})

    def knows(self, request: RecordedRequest) -> bool:
        """Whether `request` is one of this benchmark's tasks (by its system and first user message)."""
        view = self._view(request)
        return (view.system, view.prompt) in self._by_prompt

    async def __call__(self, request: RecordedRequest) -> ScriptedResponse:
        view = self._view(request)
        found = self._by_prompt.get((view.system, view.prompt))
        if found is None:
            return _error(self._wire, f"mock server: no task has the prompt {view.prompt[:60]!r}")
        index, task = found
        self.requests_per_task[task.id] += 1
        ctx = AdapterContext(task=task, task_index=index, seed=self._seed)
        if not view.tools:
            completion = await self._mock.complete(view.prompt, ctx)
            return self._answer(view, completion.text, [], completion.usage)
        result = await self._mock.chat(ChatRequest(messages=view.history), ctx)
        calls = result.message.tool_calls or []
        codec = ToolNameCodec([*self._tool_names(task), *(call.name for call in calls)])
        wire_calls = [(codec.encode(call.name), call.arguments) for call in calls]
        return self._answer(view, result.message.content, wire_calls, result.usage)

    def _answer(
        self, view: _View, text: Optional[str], calls: list[tuple[str, JsonObject]], usage: Usage
    ) -> ScriptedResponse:
        thought = _THOUGHT if view.thinking else None
        if self._wire == "anthropic":
            if calls:
                return evolve(AnthropicResponse.tool_use(calls, text=text, thinking=thought), delay=self._delay)
            return evolve(AnthropicResponse.text(text or "", thinking=thought), delay=self._delay)
        if self._wire == "gemini":
            if calls:
                return evolve(GeminiResponse.function_calls(calls, text=text, thought=thought), delay=self._delay)
            return evolve(GeminiResponse.text(text or "", thought=thought), delay=self._delay)
        prompt, completion = usage.prompt_tokens, usage.completion_tokens
        if calls:
            return FakeResponse.tool_calls(
                calls, content=text, delay=self._delay, prompt_tokens=prompt, completion_tokens=completion
            )
        return FakeResponse.text(text or "", delay=self._delay, prompt_tokens=prompt, completion_tokens=completion)

    def _system(self, task: Task) -> str:
        if task.kind == "single" or self._benchmark.environment is None:
            return ""
        return self._benchmark.environment().reset(task, self._seed).system

    def _tool_names(self, task: Task) -> list[str]:
        if task.kind == "single" or self._benchmark.environment is None:
            return [tool.name for tool in task.tools]
        return [tool.name for tool in self._benchmark.environment().reset(task, self._seed).tools]


def _error(wire: Wire, message: str) -> ScriptedResponse:
    if wire == "anthropic":
        return AnthropicResponse.error(400, message)
    if wire == "gemini":
        return GeminiResponse.error(400, message)
    return FakeResponse.error(400, message)


def _text(value: JsonValue) -> str:
    """The text of a content: a string, or the text blocks/parts of a list."""
    if isinstance(value, str):
        return value
    items = value if isinstance(value, list) else []
    return "".join(str(i["text"]) for i in items if isinstance(i, dict) and isinstance(i.get("text"), str))


def _openai_view(body: JsonObject) -> _View:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    prompt = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
    system = next((str(m.get("content")) for m in messages if m.get("role") == "system"), "")
    history = [ChatMessage(role=m["role"], content=_text(m.get("content"))) for m in messages]
    return _View(system, prompt, bool(body.get("tools")), False, history)


def _anthropic_view(body: JsonObject) -> _View:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    prompt = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
    history = [ChatMessage(role=m["role"], content=_text(m.get("content"))) for m in messages]
    thinking = isinstance(body.get("thinking"), dict) and body["thinking"].get("type") == "enabled"
    return _View(_text(body.get("system")), prompt, bool(body.get("tools")), thinking, history)


def _gemini_view(body: JsonObject) -> _View:
    contents = [c for c in body.get("contents") or [] if isinstance(c, dict)]
    prompt = next((_text(c.get("parts")) for c in contents if c.get("role") == "user"), "")
    history = [
        ChatMessage(role="assistant" if c.get("role") == "model" else "user", content=_text(c.get("parts")))
        for c in contents
    ]
    instruction = body.get("systemInstruction")
    system = _text(instruction.get("parts")) if isinstance(instruction, dict) else ""
    config = body.get("generationConfig")
    thinking = isinstance(config, dict) and (config.get("thinkingConfig") or {}).get("thinkingBudget", 0) > 0
    return _View(system, prompt, bool(body.get("tools")), thinking, history)


_VIEWS = {"openai": _openai_view, "azure": _openai_view, "anthropic": _anthropic_view, "gemini": _gemini_view}


def mock_handler(
    benchmark: Benchmark,
    *,
    delay: float = 0.0,
    seed: int = 1,
    tasks: Optional[list[Task]] = None,
    wire: Wire = "openai",
) -> MockHandler:
    """A fake provider's handler playing `benchmark`'s mock policies (see the module docstring)."""
    return MockHandler(benchmark, delay=delay, seed=seed, tasks=tasks, wire=wire)


class MockHandlers:
    """Several benchmarks' `MockHandler`s behind one server (a sweep sends it every benchmark's
    tasks): each request goes to the handler whose benchmark has its prompt."""

    def __init__(self, handlers: list[MockHandler]) -> None:
        self.handlers = handlers

    async def __call__(self, request: RecordedRequest) -> ScriptedResponse:
        for handler in self.handlers:
            if handler.knows(request):
                return await handler(request)
        return _error("openai", f"mock server: no benchmark has the prompt {request.prompt[:60]!r}")


def mock_handlers(benchmarks: list[Benchmark], *, delay: float = 0.0, seed: int = 1) -> MockHandlers:
    """One `FakeOpenAI` handler playing the mock policies of each of `benchmarks`."""
    return MockHandlers([MockHandler(benchmark, delay=delay, seed=seed) for benchmark in benchmarks])
