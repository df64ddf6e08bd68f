"""Model turns: chat messages and requests, what a provider answered (with its `Usage` and who served
it), and the `Episode` a tool-use task leaves."""

from __future__ import annotations

from typing import Literal, Optional, TypeVar

from attrs import Factory, frozen

from .tasks import JsonValue, ToolSpec, optional_field
from .traces import ToolCall, ToolLogEntry


@frozen
class Usage:
    """Token and cost accounting. `cost_usd` stays None when no provider reported a cost."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: Optional[float] = None
    #: Reasoning tokens (part of the completion) and prompt tokens served from the provider's prompt
    #: cache, when the provider's usage object reports them.
    reasoning_tokens: Optional[int] = optional_field()
    cached_tokens: Optional[int] = optional_field()
    #: Prompt tokens written to the provider's prompt cache (Anthropic's `cache_creation_input_tokens`),
    #: and the dollars the cached prompt tokens saved against the uncached price, net of the cache
    #: writes' surcharge, when the adapter knows the model's prices.
    cache_write_tokens: Optional[int] = optional_field()
    cache_saved_usd: Optional[float] = optional_field()

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=_add_optional(self.cost_usd, other.cost_usd),
            reasoning_tokens=_add_optional(self.reasoning_tokens, other.reasoning_tokens),
            cached_tokens=_add_optional(self.cached_tokens, other.cached_tokens),
            cache_write_tokens=_add_optional(self.cache_write_tokens, other.cache_write_tokens),
            cache_saved_usd=_add_optional(self.cache_saved_usd, other.cache_saved_usd),
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


N = TypeVar("N", int, float)


def _add_optional(a: Optional[N], b: Optional[N]) -> Optional[N]:
    """A sum that stays None while neither side was reported."""
    if a is None:
        return b
    return a if b is None else a + b


ChatRole = Literal["system", "user", "assistant", "tool"]


@frozen
class ChatMessage:
    """One chat message in OpenAI's shape (content, tool calls, tool results).

    An assistant turn may also carry the model's `reasoning` as text (Anthropic's thinking blocks,
    DeepSeek's `reasoning_content`, Gemini's thought summaries) and `provider_state`: what a provider
    requires back verbatim with this turn on the next request of the conversation, under the name of
    its wire format (`{"anthropic": [thinking blocks with their signatures]}`, `{"gemini": [parts
    with their thought signatures]}`). Other adapters ignore a state that is not theirs.
    """

    role: ChatRole
    content: Optional[str] = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_call_id: Optional[str] = None
    reasoning: Optional[str] = optional_field()
    provider_state: Optional[dict[str, JsonValue]] = optional_field()


@frozen
class ChatRequest:
    messages: list[ChatMessage]
    tools: list[ToolSpec] = Factory(list)


@frozen
class ServedBy:
    """What the provider says answered a request: the response's `model`, and the upstream provider
    when a router (OpenRouter) names one."""

    model: Optional[str] = None
    provider: Optional[str] = None


@frozen
class ChatResult:
    """A model turn. `cached` is true when it came from the run's response cache, not the provider."""

    message: ChatMessage
    usage: Usage = Factory(Usage)
    served_by: Optional[ServedBy] = None
    cached: bool = False
    #: The answer was cut off at the request's token limit (`stop_reason: "max_tokens"`,
    #: `finish_reason: "length"`, `finishReason: "MAX_TOKENS"`).
    truncated: bool = False


@frozen
class CompletionResult:
    text: str
    usage: Usage = Factory(Usage)
    served_by: Optional[ServedBy] = None
    cached: bool = False
    truncated: bool = False


AbortReason = Literal["budget"]


@frozen
class Episode:
    """A finished tool-use episode. `aborted` is "budget" when a turn, tool-call or dollar limit was
    hit; `abort_detail` says which."""

    transcript: list[ChatMessage]
    tool_log: list[ToolLogEntry]
    final_state: JsonValue = None
    aborted: Optional[AbortReason] = None
    abort_detail: Optional[str] = None
