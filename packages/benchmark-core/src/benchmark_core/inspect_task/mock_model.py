"""`benchmark-mock`: benchmark-core's offline mock as an Inspect model provider.

`inspect eval benchmark_schema_mutation/schema_mutation --model benchmark-mock/offline` answers
every sample as `benchmark-core run --provider mock` answers the same task: well on even task
positions, badly on odd ones, with the benchmark's own mock policies. No network, no key.

A model provider is not told which sample it answers, so the mock finds the task from the
conversation, as any model would read it: the first user message is the task's prompt (and an
episode's system prompt tells apart two episodes that share one). Model args (`-M name=value`):
`benchmark`, the id to search (default: every installed benchmark); `tasks`, an alternate task file;
`seed`, the run seed.
"""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from inspect_ai.model import ChatMessage as InspectMessage
from inspect_ai.model import (
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolChoice, ToolInfo

from .._benchmark.definition import Benchmark
from .._benchmark.plugins import discover_benchmarks
from .._model import ChatMessage, ChatRequest, Task, ToolSpec, Usage
from ..adapters._toolnames import provider_safe_name
from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter
from ..errors._failures import PluginLoadError
from ..errors._usage import ConfigurationError
from .benchmarks import resolve_benchmark

_Candidate = tuple[Benchmark, int, Task]


@modelapi(name="benchmark-mock")
class BenchmarkMockAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        config: GenerateConfig = GenerateConfig(),
        benchmark: Optional[str] = None,
        tasks: Optional[str] = None,
        seed: int = 1,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_args:
            raise ConfigurationError(
                f"benchmark-mock takes the model args benchmark, tasks and seed, not {', '.join(sorted(model_args))}"
            )
        self._benchmark = benchmark
        self._tasks = tasks
        self._seed = int(seed)
        self._by_prompt: Optional[dict[str, list[_Candidate]]] = None
        self._lock = asyncio.Lock()

    async def generate(
        self,
        input: list[InspectMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        benchmark, position, task = await self._find(input)
        mock = MockAdapter(seed=self._seed, policies=benchmark.mock_policies, model=self.model_name)
        ctx = AdapterContext(task=task, task_index=position, seed=self._seed)
        if task.kind == "single" and not tools:
            completion = await mock.complete(_first(input, "user"), ctx)
            output = ModelOutput.from_content(self.model_name, completion.text)
            output.usage = _usage(completion.usage)
            return output
        request = ChatRequest(
            messages=[ChatMessage(role=m.role, content=m.text) for m in input],
            tools=[ToolSpec(name=t.name, description=t.description) for t in tools],
        )
        result = await mock.chat(request, ctx)
        offered = {t.name for t in tools}
        calls = [
            # What a provider does: it can only write a name in its own spelling.
            InspectToolCall(
                id=call.id,
                function=call.name if call.name in offered else provider_safe_name(call.name),
                arguments=dict(call.arguments),
            )
            for call in result.message.tool_calls or []
        ]
        message = ChatMessageAssistant(
            content=result.message.content or "", tool_calls=calls or None, model=self.model_name, source="generate"
        )
        output = ModelOutput.from_message(message, stop_reason="tool_calls" if calls else "stop")
        output.usage = _usage(result.usage)
        return output

    async def _find(self, input: list[InspectMessage]) -> _Candidate:
        prompt = _first(input, "user")
        candidates = (await self._index()).get(prompt, [])
        if len(candidates) > 1:
            system = _first(input, "system")
            candidates = [
                (b, i, t)
                for b, i, t in candidates
                if t.kind == "episode"
                and b.environment is not None
                and b.environment().reset(t, self._seed).system == system
            ]
        if len(candidates) != 1:
            where = f"benchmark {self._benchmark!r}" if self._benchmark else "any installed benchmark"
            found = "no task" if not candidates else "more than one task"
            raise ConfigurationError(f"benchmark-mock: {found} of {where} has the prompt {prompt[:80]!r}")
        return candidates[0]

    async def _index(self) -> dict[str, list[_Candidate]]:
        async with self._lock:
            if self._by_prompt is None:
                benchmarks = [resolve_benchmark(self._benchmark)] if self._benchmark is not None else _installed()
                index: dict[str, list[_Candidate]] = {}
                for benchmark in benchmarks:
                    for position, task in enumerate(await benchmark.load_tasks(self._tasks)):
                        index.setdefault(task.prompt, []).append((benchmark, position, task))
                        native = _native_prompt(benchmark, task)
                        if native is not None and native != task.prompt:
                            index.setdefault(native, []).append((benchmark, position, task))
                self._by_prompt = index
            return self._by_prompt


def _native_prompt(benchmark: Benchmark, task: Task) -> Optional[str]:
    """The user message a single task sends in native mode, when the benchmark words it apart from
    the prompt (schema-mutation sends the request alone)."""
    if task.kind != "single" or not task.tools:
        return None
    return next((m.content for m in benchmark.native_messages(task) if m.role == "user" and m.content), None)


def _installed() -> list[Benchmark]:
    """Every installed benchmark that loads (one that fails to load has no task to find)."""
    loaded = []
    for entry in discover_benchmarks():
        try:
            loaded.append(entry.load())
        except PluginLoadError:
            continue
    return loaded


def _first(messages: list[InspectMessage], role: str) -> str:
    return next((m.text for m in messages if m.role == role), "")


def _usage(usage: Usage) -> ModelUsage:
    return ModelUsage(
        input_tokens=usage.prompt_tokens,
        output_tokens=usage.completion_tokens,
        total_tokens=usage.prompt_tokens + usage.completion_tokens,
    )
