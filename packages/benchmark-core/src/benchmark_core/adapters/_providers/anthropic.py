"""Anthropic's Messages API, natively: `POST {base_url}/v1/messages` with `x-api-key` and
`anthropic-version: 2023-06-01` (https://docs.anthropic.com/en/api/messages); requests built from
the core model, answers read back, Message Batches (`anthropic_batches`). 429 (with `retry-after`),
529 (overloaded) and other 5xx are retried; 400, 401, 403 and 404 (an unknown model) end the run.
The rate-limit headers are `anthropic-ratelimit-*`. With `prices`, each answer's cost and what the
prompt cache saved are computed from its usage (Anthropic reports no cost).

- System messages go into the top-level `system` (text blocks); user turns are `user` messages;
  an assistant turn is its thinking blocks (kept verbatim, signatures included, under
  `provider_state["anthropic"]`), its text and its `tool_use` blocks; consecutive tool results are
  `tool_result` blocks of one `user` message, as the API requires after a turn with several calls.
- Tools are `{name, description, input_schema}`, names encoded per request with a `ToolNameCodec`.
- Prompt caching: with `cache_prefix`, the last block of the shared prefix (the system prompt, else
  the last tool) carries `cache_control: {"type": "ephemeral"}`, so every turn of an episode after
  the first reads the system prompt and tools from the cache. (The API caches only prefixes above a
  minimum length, 1,024 tokens on most models; shorter ones are sent uncached, with no error.)
- Settings: `max_tokens` is always sent (`--max-tokens`, else `DEFAULT_MAX_TOKENS`). Reasoning effort
  turns on extended thinking with the budget `THINKING_BUDGETS` gives it ("none": off); without
  `--max-tokens`, `max_tokens` is then the budget plus `DEFAULT_MAX_TOKENS`, and a given one must
  exceed the budget. With thinking on, the API takes no temperature other than 1 and a `top_p` only
  from 0.95 to 1; other values are refused here before anything is sent.
- Usage: `prompt_tokens` is every prompt token (`input_tokens`, which excludes the cache, plus
  `cache_read_input_tokens` and `cache_creation_input_tokens`); `cached_tokens` the cache reads,
  `cache_write_tokens` the writes; `reasoning_tokens` is `output_tokens_details.thinking_tokens`, the
  part of the (inclusive) output tokens spent thinking, when the answer reports it.
- `stop_reason: "max_tokens"` marks the answer truncated.
"""

from __future__ import annotations

from typing import Optional

from ..._model import ChatMessage, ChatRequest, JsonObject, JsonValue, ServedBy, ToolSpec, Usage
from ...errors._provider import AdapterError, BadRequestError, MalformedResponseError
from .._batches import BatchClient
from .._chat import ChatAdapter
from .._format import ProviderFormat
from .._json_http import JsonPoster
from .._json_values import count_in, non_negative_count, tool_call
from .._prices import Prices
from .._provider_errors import ProviderErrors
from .._toolnames import ToolNameCodec
from ..base import GenerationSettings
from ..catalog import PROVIDERS_BY_NAME
from .anthropic_batches import AnthropicBatches

__all__ = ["ANTHROPIC_BASE_URL", "FORMAT", "AnthropicAdapter", "AnthropicFormat", "anthropic_adapter"]

ANTHROPIC_BASE_URL = PROVIDERS_BY_NAME["anthropic"].base_url
#: The one adapter, under the name it had when it was Anthropic's own class.
AnthropicAdapter = ChatAdapter

ANTHROPIC_VERSION = "2023-06-01"
#: `max_tokens` when `--max-tokens` is not given (the API requires one).
DEFAULT_MAX_TOKENS = 4096
#: Extended-thinking budgets (`budget_tokens`) per reasoning effort; "none" sends no thinking.
THINKING_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 4096, "medium": 10_000, "high": 24_000, "xhigh": 32_000}
STATE_KEY = "anthropic"
_EPHEMERAL: JsonObject = {"type": "ephemeral"}
_THINKING_TYPES = ("thinking", "redacted_thinking")


def settings_fields(settings: GenerationSettings, errors: ProviderErrors) -> JsonObject:
    """The body fields of a run's generation settings (built once per run). Conflicts with
    extended thinking are fatal: every request of the run would be refused."""
    body: JsonObject = dict(settings.extra_body)
    budget = THINKING_BUDGETS.get(settings.reasoning_effort or "none")
    max_tokens = settings.max_tokens
    if budget is not None:
        if max_tokens is not None and max_tokens <= budget:
            raise _refused(errors, f"max_tokens {max_tokens} must exceed the thinking budget {budget}")
        if settings.temperature is not None and settings.temperature != 1:
            raise _refused(errors, "extended thinking takes no temperature but 1")
        if settings.top_p is not None and not 0.95 <= settings.top_p <= 1:
            raise _refused(errors, "extended thinking takes top_p only from 0.95 to 1")
        body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        max_tokens = max_tokens if max_tokens is not None else budget + DEFAULT_MAX_TOKENS
    else:
        if settings.temperature is not None:
            body["temperature"] = settings.temperature
    if settings.top_p is not None:
        body["top_p"] = settings.top_p
    body["max_tokens"] = max_tokens if max_tokens is not None else DEFAULT_MAX_TOKENS
    return body


def _refused(errors: ProviderErrors, message: str) -> AdapterError:
    return errors.error(f"{message} (see --reasoning-effort in the provider docs)", kind=BadRequestError, fatal=True)


def wire_tool(tool: ToolSpec, names: ToolNameCodec) -> JsonObject:
    out: JsonObject = {"name": names.encode(tool.name), "input_schema": tool.parameters}
    if tool.description:
        out["description"] = tool.description
    return out


def request_fields(
    messages: list[ChatMessage], tools: list[ToolSpec], names: ToolNameCodec, *, cache_prefix: bool
) -> JsonObject:
    """`system`, `messages` and `tools` of a request; the prefix marked for caching if asked."""
    system: list[JsonObject] = [
        {"type": "text", "text": m.content} for m in messages if m.role == "system" and m.content
    ]
    wire_tools = [wire_tool(tool, names) for tool in tools]
    if cache_prefix and (system or wire_tools):
        last = system[-1] if system else wire_tools[-1]
        last["cache_control"] = _EPHEMERAL
    out: JsonObject = {}
    if system:
        out["system"] = system
    out["messages"] = wire_messages([m for m in messages if m.role != "system"], names)
    if wire_tools:
        out["tools"] = wire_tools
    return out


def wire_messages(messages: list[ChatMessage], names: ToolNameCodec) -> list[JsonValue]:
    """Messages as `user`/`assistant` turns of content blocks, consecutive same-role turns merged."""
    out: list[JsonObject] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message, names)
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return list(out)


def _blocks(message: ChatMessage, names: ToolNameCodec) -> list[JsonObject]:
    if message.role == "tool":
        return [{"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": message.content or ""}]
    if message.role != "assistant":
        return [{"type": "text", "text": message.content or ""}]
    state = (message.provider_state or {}).get(STATE_KEY)
    blocks: list[JsonObject] = [dict(b) for b in state if isinstance(b, dict)] if isinstance(state, list) else []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls or []:
        blocks.append({"type": "tool_use", "id": call.id, "name": names.encode(call.name), "input": call.arguments})
    # The API refuses an assistant message without content; an empty answer is sent as empty text.
    return blocks or [{"type": "text", "text": ""}]


def content_blocks(data: JsonObject, errors: ProviderErrors) -> list[JsonObject]:
    """The answer's content blocks; an error when the answer is not a message."""
    content = data.get("content")
    if data.get("type") == "error" or not isinstance(content, list):
        raise errors.error("the response has no content blocks", retryable=True, kind=MalformedResponseError)
    return [block for block in content if isinstance(block, dict)]


def reply_of(blocks: list[JsonObject], names: ToolNameCodec, errors: ProviderErrors) -> ChatMessage:
    """The assistant turn: text, tool calls (with the benchmark's names), thinking kept for the next turn."""
    texts, thoughts, calls, state = [], [], [], []
    for position, block in enumerate(blocks):
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind in _THINKING_TYPES:
            state.append(block)
            if kind == "thinking" and isinstance(block.get("thinking"), str):
                thoughts.append(block["thinking"])
        elif kind == "tool_use":
            name = block.get("name")
            if not isinstance(name, str):
                raise errors.error(f"tool_use block #{position + 1} in the response has no name")
            calls.append(tool_call(names, name, block.get("input"), block.get("id")))
    return ChatMessage(
        role="assistant",
        content="".join(texts) if texts or not calls else None,
        tool_calls=calls or None,
        reasoning="\n\n".join(thoughts) if thoughts else None,
        provider_state={STATE_KEY: list(state)} if state else None,
    )


def text_of(blocks: list[JsonObject]) -> str:
    return "".join(b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str))


def truncated(data: JsonObject) -> bool:
    return data.get("stop_reason") == "max_tokens"


class AnthropicFormat(ProviderFormat):
    """The Messages API: `base_url` is the API root, without `/v1`."""

    rate_limit_families = ("anthropic",)

    def headers(self, api_key: str) -> dict[str, str]:
        return {"x-api-key": api_key, "anthropic-version": ANTHROPIC_VERSION}

    def endpoint(self, base_url: str, model: str) -> str:
        return f"{base_url}/v1/messages"

    def settings_fields(self, settings: GenerationSettings, model: str, errors: ProviderErrors) -> JsonObject:
        return {**settings_fields(settings, errors), "model": model}

    def prompt_fields(self, prompt: str) -> JsonObject:
        return {"messages": [{"role": "user", "content": prompt}]}

    def chat_fields(self, request: ChatRequest, names: ToolNameCodec) -> JsonObject:
        return request_fields(list(request.messages), list(request.tools), names, cache_prefix=True)

    def check(self, data: JsonObject, errors: ProviderErrors) -> None:
        content_blocks(data, errors)

    def completion(self, data: JsonObject, errors: ProviderErrors) -> tuple[str, bool]:
        return text_of(content_blocks(data, errors)), truncated(data)

    def reply(
        self, data: JsonObject, request: ChatRequest, names: ToolNameCodec, errors: ProviderErrors
    ) -> tuple[ChatMessage, bool]:
        return reply_of(content_blocks(data, errors), names, errors), truncated(data)

    def usage(self, data: JsonObject) -> Usage:
        usage = data.get("usage")
        if not isinstance(usage, dict):
            return Usage()
        read = non_negative_count(usage.get("cache_read_input_tokens"))
        written = non_negative_count(usage.get("cache_creation_input_tokens"))
        prompt = (non_negative_count(usage.get("input_tokens")) or 0) + (read or 0) + (written or 0)
        return Usage(
            prompt_tokens=prompt,
            completion_tokens=non_negative_count(usage.get("output_tokens")) or 0,
            reasoning_tokens=count_in(usage, "output_tokens_details", "thinking_tokens"),
            cached_tokens=read,
            cache_write_tokens=written,
        )

    def served_by(self, data: JsonObject) -> Optional[ServedBy]:
        model = data.get("model")
        return ServedBy(model=model) if isinstance(model, str) and model else None

    def used_tokens(self, data: Optional[JsonObject]) -> Optional[int]:
        """`usage.input_tokens + output_tokens`."""
        used, made = count_in(data, "usage", "input_tokens"), count_in(data, "usage", "output_tokens")
        return used + made if used is not None and made is not None else None

    @property
    def supports_batch(self) -> bool:
        return True

    def batch_client(self, poster: JsonPoster, base_url: str) -> BatchClient:
        return AnthropicBatches(poster, base_url)

    def batch_line(self, custom_id: str, body: JsonObject) -> JsonObject:
        """One request of a Message Batch: the `params` a direct request would send."""
        return {"custom_id": custom_id, "params": body}


#: The format object of the table's rows whose `wire` is "anthropic".
FORMAT = AnthropicFormat


def anthropic_adapter(
    model: str, api_key: Optional[str] = None, *, base_url: Optional[str] = None, prices: Optional[Prices] = None
) -> ChatAdapter:
    """The adapter with its API root and key from the arguments, else the variables of the provider table."""
    return ChatAdapter.from_environment(
        PROVIDERS_BY_NAME["anthropic"], model, api_key, base_url=base_url, prices=prices
    )
