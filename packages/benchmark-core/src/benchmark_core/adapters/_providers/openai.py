"""OpenAI's chat completions (`POST {base_url}/chat/completions`), the wire of `openai` and of every
preset of the provider table that speaks it (OpenRouter, vLLM, Ollama, llama.cpp, Together, Groq,
DeepSeek, Fireworks, Mistral, xAI). `OpenAIFormat` sends `messages` and OpenAI-shaped `tools`, and
maps the answer back onto the core model:

- Tool names. Providers accept only `^[a-zA-Z0-9_-]{1,64}$`; benchmark tools are often named like
  `crm.get_contact`. Names are encoded per request (valid names unchanged, others sanitised and made
  unique) and decoded in the returned `tool_calls`, so callers only ever see the original names.
- Tool arguments arrive as a JSON-encoded string. When that string is not a JSON object, the call is
  kept rather than failed: its arguments become `{RAW_ARGUMENTS_KEY: <the raw text>}`, graders see a
  malformed call, and the raw text goes back verbatim if the call is replayed in a later turn.
- Usage: `prompt_tokens`, `completion_tokens` and, when the provider reports one (OpenRouter's
  `usage.cost`), the cost in USD; otherwise, with `prices`, the cost computed from the tokens.
- Generation settings from the context (`temperature`, `top_p`, `--max-tokens`, the sampling seed,
  reasoning effort, and `extra_body` fields) are sent only when given, in the fields the preset
  names: the token limit as `max_completion_tokens` for OpenAI and Groq (OpenAI's reasoning models
  refuse `max_tokens`), `max_tokens` elsewhere; the seed as Mistral's `random_seed`; reasoning
  effort as `reasoning_effort`, OpenRouter's `reasoning: {"effort": ...}`, or refused (fatal) by a
  preset that takes none.
- The reasoning text servers put beside the answer (`reasoning_content`, `reasoning`) is kept in
  the transcript and never sent back (DeepSeek refuses it); `finish_reason: "length"` marks the
  answer truncated.
- What served the request (the response's `model`, OpenRouter's `provider`) and, when reported,
  reasoning and cached prompt tokens are passed on.
- Batches (`--batch`, OpenAI's endpoint only): `batch_line` wraps the body a direct request would
  send as a line of a Files + Batches input file (the chat adapter's `batch_item` and
  `batch_answer` do the rest), and `batch_client` is `openai_batches.OpenAIBatches`.

The exchange itself is the one HTTP chat adapter's (`_chat.py`, over `_json_http.JsonPoster`),
shared by every provider: which failures are retryable (429, 5xx, timeouts, malformed 200 replies,
with `retry-after-ms` or `Retry-After`) and which fatal, the response cache, the rate-limit headers
passed to the run's pacer, the masked API key, and one aiohttp session per event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

from ..._model import ChatMessage, ChatRequest, JsonObject, JsonValue, ServedBy, ToolCall, ToolSpec, Usage
from ...errors._provider import BadRequestError, MalformedResponseError
from ...errors._usage import ConfigurationError
from .._batches import BatchClient
from .._chat import ChatAdapter
from .._format import ProviderFormat
from .._json_http import DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT, JsonPoster, endpoint_under
from .._json_values import (
    RAW_ARGUMENTS_KEY,
    count_in,
    encode_arguments,
    error_message,
    non_negative,
    non_negative_count,
    tool_call,
)
from .._prices import Prices
from .._provider_errors import ProviderErrors
from .._ratelimits import parse_retry_after
from .._toolnames import ToolNameCodec
from ..base import GenerationSettings
from ..catalog import PROVIDERS_BY_NAME, ProviderInfo
from .openai_batches import BATCH_ENDPOINT, OpenAIBatches

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_REQUEST_TIMEOUT",
    "OPENAI_BASE_URL",
    "OPENROUTER_BASE_URL",
    "RAW_ARGUMENTS_KEY",
    "FORMAT",
    "OpenAICompatAdapter",
    "OpenAIFormat",
    "openai_compat_adapter",
    "openrouter_adapter",
    "parse_retry_after",
    "preset_adapter",
]

OPENAI_BASE_URL = PROVIDERS_BY_NAME["openai"].base_url
OPENROUTER_BASE_URL = PROVIDERS_BY_NAME["openrouter"].base_url
#: The adapter of every provider: kept under the name it had when it spoke OpenAI's wire only.
OpenAICompatAdapter = ChatAdapter


def wire_tool(tool: ToolSpec, names: ToolNameCodec) -> JsonObject:
    function: JsonObject = {"name": names.encode(tool.name), "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    return {"type": "function", "function": function}


def wire_message(message: ChatMessage, names: ToolNameCodec) -> JsonObject:
    content = message.content if message.content is not None or message.role == "assistant" else ""
    out: JsonObject = {"role": message.role, "content": content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": names.encode(call.name), "arguments": encode_arguments(call.arguments)},
            }
            for call in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def content_text(message: JsonObject) -> Optional[str]:
    content = message.get("content")
    if isinstance(content, str) or content is None:
        return content
    if isinstance(content, list):
        # Some providers answer with content parts; the text parts are the answer.
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return str(content)


def reasoning_of(message: JsonObject) -> Optional[str]:
    """The reasoning text some servers put beside the answer: `reasoning_content` (DeepSeek, vLLM,
    llama.cpp, xAI) or `reasoning` (Groq, OpenRouter)."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def truncated(data: JsonObject) -> bool:
    """Whether the first choice stopped at the token limit (`finish_reason: "length"`)."""
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    return isinstance(first, dict) and first.get("finish_reason") == "length"


def first_message(data: JsonObject, errors: ProviderErrors) -> JsonObject:
    """The message of the answer's first choice; an error when the answer has none."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        error = data.get("error")
        if error is not None:
            # OpenRouter reports some upstream failures as a 200 whose body is an error.
            code = error.get("code") if isinstance(error, dict) else None
            status = code if isinstance(code, int) and not isinstance(code, bool) else 0
            raise errors.status(status, error_message(data) or "error without a message", None)
        raise errors.error("the response has no choices", retryable=True, kind=MalformedResponseError)
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    if not isinstance(message, dict):
        raise errors.error("the response's first choice has no message", retryable=True, kind=MalformedResponseError)
    return message


def tool_calls_of(message: JsonObject, names: ToolNameCodec, errors: ProviderErrors) -> list[ToolCall]:
    """The answer's tool calls, with the names the benchmark gave its tools."""
    wire_calls = message.get("tool_calls") or []
    if not isinstance(wire_calls, list):
        raise errors.error("the response's tool_calls is not a list")
    calls = []
    for position, wire in enumerate(wire_calls):
        function = wire.get("function") if isinstance(wire, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(function, dict) or not isinstance(name, str):
            raise errors.error(f"tool call #{position + 1} in the response has no function name")
        calls.append(tool_call(names, name, function.get("arguments"), wire.get("id")))
    return calls


class OpenAIFormat(ProviderFormat):
    """Chat completions as the table's row `info` speaks them: which field carries the token limit
    and the seed, and how reasoning effort is sent. OpenRouter is asked for each answer's cost."""

    def __init__(self, info: ProviderInfo) -> None:
        super().__init__(info)
        if info.name == "openrouter":
            self.extra_body = {"usage": {"include": True}}

    def headers(self, api_key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def endpoint(self, base_url: str, model: str) -> str:
        return endpoint_under(base_url, "/chat/completions")

    def settings_fields(self, settings: GenerationSettings, model: str, errors: ProviderErrors) -> JsonObject:
        """Every field but the messages and tools: extra fields, the settings given, the model."""
        info = self.info
        body: JsonObject = dict(settings.extra_body)
        for key, value in (
            ("temperature", settings.temperature),
            ("top_p", settings.top_p),
            (info.max_tokens_field, settings.max_tokens),
            (info.seed_field, settings.seed),
        ):
            if value is not None:
                body[key] = value
        if settings.reasoning_effort is not None:
            if info.reasoning == "openrouter":
                body["reasoning"] = {**body.get("reasoning", {}), "effort": settings.reasoning_effort}
            elif info.reasoning == "reasoning_effort":
                body["reasoning_effort"] = settings.reasoning_effort
            else:
                raise errors.error(
                    f"{info.name} takes no reasoning effort ({info.quirks})", kind=BadRequestError, fatal=True
                )
        body["model"] = model
        return body

    def prompt_fields(self, prompt: str) -> JsonObject:
        return {"messages": [{"role": "user", "content": prompt}]}

    def chat_fields(self, request: ChatRequest, names: ToolNameCodec) -> JsonObject:
        fields: JsonObject = {"messages": [wire_message(message, names) for message in request.messages]}
        tools = [wire_tool(tool, names) for tool in request.tools]
        if tools:
            fields["tools"] = tools
        return fields

    def check(self, data: JsonObject, errors: ProviderErrors) -> None:
        first_message(data, errors)

    def completion(self, data: JsonObject, errors: ProviderErrors) -> tuple[str, bool]:
        return content_text(first_message(data, errors)) or "", truncated(data)

    def reply(
        self, data: JsonObject, request: ChatRequest, names: ToolNameCodec, errors: ProviderErrors
    ) -> tuple[ChatMessage, bool]:
        message = first_message(data, errors)
        calls = tool_calls_of(message, names, errors)
        reply = ChatMessage(
            role="assistant", content=content_text(message), tool_calls=calls or None, reasoning=reasoning_of(message)
        )
        return reply, truncated(data)

    def usage(self, data: JsonObject) -> Usage:
        usage = data.get("usage")
        if not isinstance(usage, dict):
            return Usage()
        return Usage(
            prompt_tokens=non_negative_count(usage.get("prompt_tokens")) or 0,
            completion_tokens=non_negative_count(usage.get("completion_tokens")) or 0,
            cost_usd=non_negative(usage.get("cost")),
            reasoning_tokens=count_in(usage, "completion_tokens_details", "reasoning_tokens"),
            cached_tokens=count_in(usage, "prompt_tokens_details", "cached_tokens"),
        )

    def served_by(self, data: JsonObject) -> Optional[ServedBy]:
        model, provider = data.get("model"), data.get("provider")
        model = model if isinstance(model, str) and model else None
        provider = provider if isinstance(provider, str) and provider else None
        return ServedBy(model=model, provider=provider) if model or provider else None

    def used_tokens(self, data: Optional[JsonObject]) -> Optional[int]:
        return count_in(data, "usage", "total_tokens")

    @property
    def supports_batch(self) -> bool:
        """Whether `--batch` can use this endpoint: OpenAI's own (or a server standing in for it)."""
        return self.info.name == "openai"

    def batch_client(self, poster: JsonPoster, base_url: str) -> BatchClient:
        return OpenAIBatches(poster, base_url)

    def batch_line(self, custom_id: str, body: JsonObject) -> JsonObject:
        return {"custom_id": custom_id, "method": "POST", "url": BATCH_ENDPOINT, "body": body}


#: The format object of the table's rows whose `wire` is "openai".
FORMAT = OpenAIFormat


def openai_compat_adapter(
    base_url: Optional[str] = None,
    model: Optional[str] = None,
    api_key: Optional[str] = None,
    *,
    provider: str = "openai",
    extra_body: Optional[Mapping[str, JsonValue]] = None,
    extra_headers: Optional[Mapping[str, str]] = None,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    prices: Optional[Prices] = None,
) -> ChatAdapter:
    """An adapter for any OpenAI-compatible endpoint.

    `base_url` defaults to `$OPENAI_BASE_URL`, then to OpenAI's; `api_key` to `$OPENAI_API_KEY`,
    and a missing key is a `ConfigurationError` naming that variable, as is a malformed URL taken
    from the environment. `provider` is the name the adapter reports (OpenAI's quirks are kept);
    `extra_body` is merged into every request body (the model and messages win), `extra_headers`
    into every request's headers.
    """
    return ChatAdapter.from_environment(
        PROVIDERS_BY_NAME["openai"],
        model or "",
        api_key,
        base_url=base_url,
        prices=prices,
        provider=provider,
        extra_body=extra_body,
        extra_headers=extra_headers,
        max_connections=max_connections,
        request_timeout=request_timeout,
    )


def openrouter_adapter(
    model: str, api_key: Optional[str] = None, *, base_url: Optional[str] = None, prices: Optional[Prices] = None
) -> ChatAdapter:
    """OpenRouter (`api_key` defaults to `$OPENROUTER_API_KEY`), asking it to report each request's
    cost in `usage.cost`. `base_url` is for proxies and tests."""
    return preset_adapter("openrouter", model, base_url=base_url, api_key=api_key, prices=prices)


def preset_adapter(
    name: str,
    model: str,
    *,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
    prices: Optional[Prices] = None,
) -> ChatAdapter:
    """The adapter of the OpenAI-compatible provider `name` of the table (`catalog.PROVIDER_TABLE`):
    `base_url`, else its URL variable, else its default URL; `api_key`, else its key variable."""
    info: Optional[ProviderInfo] = PROVIDERS_BY_NAME.get(name)
    if info is None or info.wire != "openai":
        raise ConfigurationError(f"{name!r} is not an OpenAI-compatible provider")
    return ChatAdapter.from_environment(info, model, api_key, base_url=base_url, prices=prices)
