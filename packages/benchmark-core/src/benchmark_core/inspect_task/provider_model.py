"""`benchmark`: benchmark-core's own provider adapters as an Inspect model provider.

`inspect eval benchmark_schema_mutation/schema_mutation --model benchmark/anthropic/claude-sonnet-4-5`
sends every request through the adapter `run --provider anthropic` uses (native Messages with
prompt caching and thinking blocks kept across an episode's turns), and likewise for every provider
of the table (`benchmark/gemini/...`, `benchmark/vllm/...`, `benchmark/deepseek/...`), each reading
its variables as on the CLI. `--model-base-url` overrides the API root; `-M prices='{...}'` gives
token prices. Inspect's own retries apply to the adapter's transient errors (`should_retry`).

The provider state a turn carries (Anthropic's signed thinking, Gemini's thought signatures) rides
in the Inspect message's `metadata`, so the next turn sends it back as the provider requires.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from inspect_ai.model import ChatMessage as InspectMessage
from inspect_ai.model import ChatMessageAssistant, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolChoice, ToolInfo

from .._model import ChatMessage, ChatRequest, Task, ToolCall, ToolSpec, Usage
from ..adapters.base import AdapterContext, GenerationSettings, ModelAdapter
from ..errors._provider import AdapterError
from ..errors._usage import ConfigurationError
from ..runs._target import RunTarget

STATE_KEY = "benchmark-core/provider_state"
#: Inspect does not say which sample a request belongs to; provider adapters read only the settings.
_SAMPLE = Task(id="inspect-sample", kind="single", prompt="")


@modelapi(name="benchmark")
class BenchmarkProviderAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        config: GenerateConfig = GenerateConfig(),
        prices: Optional[str] = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_args:
            raise ConfigurationError(f"benchmark: the only model arg is prices, not {', '.join(sorted(model_args))}")
        provider, _, model = model_name.partition("/")
        if not model or provider == "mock":
            raise ConfigurationError("benchmark: name a provider and its model, like benchmark/anthropic/claude-x")
        target = RunTarget(
            model=model, provider=provider, base_url=base_url, prices=json.loads(prices) if prices else None
        )
        self._adapter: ModelAdapter = target.adapter(api_key=api_key)

    async def generate(
        self, input: list[InspectMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        request = ChatRequest(messages=[_ours(m) for m in input], tools=[_spec(tool) for tool in tools])
        settings = GenerationSettings(
            temperature=config.temperature,
            top_p=config.top_p,
            max_tokens=config.max_tokens,
            seed=config.seed,
            reasoning_effort=config.reasoning_effort,
        )
        result = await self._adapter.chat(request, AdapterContext(task=_SAMPLE, settings=settings))
        reply = result.message
        calls = [
            InspectToolCall(id=call.id, function=call.name, arguments=dict(call.arguments))
            for call in reply.tool_calls or []
        ]
        metadata = {STATE_KEY: reply.provider_state} if reply.provider_state else None
        message = ChatMessageAssistant(
            content=reply.content or "", tool_calls=calls or None, model=self.model_name, metadata=metadata
        )
        if calls:
            output = ModelOutput.from_message(message, stop_reason="tool_calls")
        else:
            output = ModelOutput.from_message(message, stop_reason="max_tokens" if result.truncated else "stop")
        output.usage = _usage(result.usage)
        return output

    def should_retry(self, ex: BaseException) -> bool:
        return isinstance(ex, AdapterError) and ex.retryable

    async def aclose(self) -> None:
        await self._adapter.aclose()


def _ours(message: InspectMessage) -> ChatMessage:
    if isinstance(message, ChatMessageAssistant):
        state = (message.metadata or {}).get(STATE_KEY)
        calls = [ToolCall(name=c.function, arguments=dict(c.arguments), id=c.id) for c in message.tool_calls or []]
        return ChatMessage("assistant", message.text or None, calls or None, provider_state=state)
    if message.role == "tool":
        return ChatMessage("tool", message.text, tool_call_id=getattr(message, "tool_call_id", None))
    return ChatMessage(message.role, message.text)


def _spec(tool: ToolInfo) -> ToolSpec:
    return ToolSpec(
        name=tool.name, description=tool.description, parameters=tool.parameters.model_dump(exclude_none=True)
    )


def _usage(usage: Usage) -> ModelUsage:
    return ModelUsage(
        input_tokens=usage.prompt_tokens,
        output_tokens=usage.completion_tokens,
        total_tokens=usage.total_tokens,
        input_tokens_cache_read=usage.cached_tokens,
        input_tokens_cache_write=usage.cache_write_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        total_cost=usage.cost_usd,
    )
