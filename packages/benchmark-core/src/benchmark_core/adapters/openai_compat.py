"""OpenAI-compatible chat completions over aiohttp; OpenRouter, vLLM, Ollama, llama.cpp, Together,
Groq, DeepSeek, Fireworks, Mistral and xAI are presets of it (`catalog.PROVIDER_TABLE`).

The adapter speaks `POST {base_url}/chat/completions` with `messages` and OpenAI-shaped `tools`, and
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
- Failures raise `AdapterError`: 429, 5xx, timeouts, connection failures and malformed 200 replies
  (not JSON, no choices) are retryable, and 429 and 503 carry `retry-after-ms`, else `Retry-After`
  (seconds or an HTTP date), as `retry_after`. 400, 401, 403 and 404 are fatal: no retry or other task can succeed.
- With a response cache in the context, a request whose digest is cached is answered from disk;
  every well-formed answer is stored.
- Rate-limit headers of every answer (`x-ratelimit-*`, see `ratelimits`) go to the run's pacer
  through `AdapterContext.rate_limits_seen`, with the tokens the request used.
- What served the request (the response's `model`, OpenRouter's `provider`) and, when reported,
  reasoning and cached prompt tokens are passed on.
- Batches (`--batch`, OpenAI's endpoint only): `batch_item` wraps the body a direct request would
  send as a line of a Files + Batches input file, `batch_answer` reads an output line's body as a
  direct answer, and `batch_client` is `openai_batches.OpenAIBatches`.
- The API key is held in a masking wrapper, sent only in the Authorization header (redirects are not
  followed, so it never travels to another host) and scrubbed from every error message.

One aiohttp `ClientSession` is opened lazily per event loop, so one adapter serves several
`asyncio.run` calls in turn; `aclose()` closes the current loop's session and the next request opens
a new one. Cancelling a request (the runner's timeout does) closes its connection.

The wire format lives in `_openai_wire`, failures in `_openai_errors`, the HTTP exchange (shared by
every provider adapter) in `_json_http`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional, Union
from urllib.parse import urlsplit, urlunsplit

from .._errors import AdapterError, BadRequestError, ConfigurationError
from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult, JsonObject, JsonValue, Usage
from ._json_http import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_REQUEST_TIMEOUT,
    HttpAdapter,
    JsonPoster,
    check_base_url,
    resolve_endpoint,
)
from ._openai_errors import parse_retry_after
from ._openai_wire import (
    RAW_ARGUMENTS_KEY,
    content_text,
    first_message,
    reasoning_of,
    served_by_of,
    tool_calls_of,
    truncated,
    usage_of,
    wire_message,
    wire_tool,
)
from .base import AdapterContext, GenerationSettings
from .batches import BatchRequest
from .catalog import PROVIDERS_BY_NAME, ProviderInfo
from .openai_batches import BATCH_ENDPOINT, OpenAIBatches
from .prices import Prices
from .toolnames import ToolNameCodec, request_names

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_REQUEST_TIMEOUT",
    "OPENAI_BASE_URL",
    "OPENROUTER_BASE_URL",
    "RAW_ARGUMENTS_KEY",
    "OpenAICompatAdapter",
    "openai_compat_adapter",
    "openrouter_adapter",
    "parse_retry_after",
    "preset_adapter",
]

OPENAI_BASE_URL = PROVIDERS_BY_NAME["openai"].base_url
OPENROUTER_BASE_URL = PROVIDERS_BY_NAME["openrouter"].base_url


class OpenAICompatAdapter(HttpAdapter):
    """A model behind an OpenAI-compatible `/chat/completions` endpoint. Build it with
    `openai_compat_adapter`, `openrouter_adapter` or `preset_adapter`, which read keys from the
    environment.

    `extra_body` is merged into every request body (the model and messages win); `extra_headers`
    into every request's headers. `quirks` is the provider's entry of the table (`catalog`): which
    field carries the token limit and the seed, and how reasoning effort is sent; by default the
    entry named `provider`, else OpenAI's. An empty key is allowed where the entry needs none (a
    local server): then no Authorization header is sent.
    """

    #: Answers' rate-limit headers go to the run's pacer (which then probes with the first request).
    reports_rate_limits = True

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str,
        provider: str = "openai",
        extra_body: Optional[Mapping[str, JsonValue]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        quirks: Optional[ProviderInfo] = None,
        prices: Optional[Prices] = None,
    ) -> None:
        self._quirks = quirks or PROVIDERS_BY_NAME.get(provider) or PROVIDERS_BY_NAME["openai"]
        if not model:
            raise ConfigurationError(f"{provider}: a model id is required")
        if not api_key and self._quirks.key_required:
            raise ConfigurationError(f"{provider}: the API key is empty")
        headers = {**(extra_headers or {})}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._poster = JsonPoster(
            provider, api_key, headers, max_connections=max_connections, request_timeout=request_timeout
        )
        self._errors = self._poster.errors
        self._provider = provider
        self._model = model
        self._base_url = check_base_url(base_url)
        self._endpoint = _endpoint(self._base_url)
        self._extra_body = dict(extra_body or {})
        self._prices = prices
        # The body fields a run's settings give every request (built once per settings object).
        self._base: tuple[Optional[GenerationSettings], JsonObject] = (None, {})

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        data, cached = await self._exchange([{"role": "user", "content": prompt}], None, ctx)
        return self._completion(data, cached)

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = request_names(request)
        messages = [wire_message(message, names) for message in request.messages]
        tools = [wire_tool(tool, names) for tool in request.tools] or None
        data, cached = await self._exchange(messages, tools, ctx)
        return self._chat_result(data, names, cached)

    @property
    def supports_batch(self) -> bool:
        """Whether `--batch` can use this endpoint: OpenAI's own (or a server standing in for it)."""
        return self._quirks.name == "openai"

    def batch_client(self) -> OpenAIBatches:
        return OpenAIBatches(self._poster, self._base_url)

    def batch_item(self, custom_id: str, request: BatchRequest, ctx: AdapterContext) -> JsonObject:
        """One line of a batch's input file: the body a direct request would send."""
        if isinstance(request, str):
            body = self._body([{"role": "user", "content": request}], None, ctx.settings)
        else:
            names = request_names(request)
            messages = [wire_message(message, names) for message in request.messages]
            body = self._body(messages, [wire_tool(tool, names) for tool in request.tools] or None, ctx.settings)
        return {"custom_id": custom_id, "method": "POST", "url": BATCH_ENDPOINT, "body": body}

    def batch_answer(self, request: BatchRequest, answer: JsonObject) -> Union[CompletionResult, ChatResult]:
        if isinstance(request, str):
            return self._completion(answer, False)
        return self._chat_result(answer, request_names(request), False)

    def _completion(self, data: JsonObject, cached: bool) -> CompletionResult:
        message = first_message(data, self._errors)
        return CompletionResult(
            text=content_text(message) or "",
            usage=self._usage(data),
            served_by=served_by_of(data),
            cached=cached,
            truncated=truncated(data),
        )

    def _chat_result(self, data: JsonObject, names: ToolNameCodec, cached: bool) -> ChatResult:
        message = first_message(data, self._errors)
        calls = tool_calls_of(message, names, self._errors)
        reply = ChatMessage(
            role="assistant", content=content_text(message), tool_calls=calls or None, reasoning=reasoning_of(message)
        )
        return ChatResult(
            message=reply,
            usage=self._usage(data),
            served_by=served_by_of(data),
            cached=cached,
            truncated=truncated(data),
        )

    def _usage(self, data: JsonObject) -> Usage:
        usage = usage_of(data)
        return self._prices.priced(usage) if self._prices is not None and usage.cost_usd is None else usage

    def _body(
        self, messages: list[JsonObject], tools: Optional[list[JsonObject]], settings: GenerationSettings
    ) -> JsonObject:
        settings_seen, base = self._base
        if settings_seen is not settings:
            base = self._base_body(settings)
            self._base = (settings, base)
        body: JsonObject = {**base, "messages": messages}
        if tools:
            body["tools"] = tools
        return body

    def _base_body(self, settings: GenerationSettings) -> JsonObject:
        """Every field but the messages and tools: extra fields, the settings given, the model."""
        quirks = self._quirks
        body: JsonObject = {**self._extra_body, **settings.extra_body}
        for key, value in (
            ("temperature", settings.temperature),
            ("top_p", settings.top_p),
            (quirks.max_tokens_field, settings.max_tokens),
            (quirks.seed_field, settings.seed),
        ):
            if value is not None:
                body[key] = value
        if settings.reasoning_effort is not None:
            if quirks.reasoning == "openrouter":
                body["reasoning"] = {**body.get("reasoning", {}), "effort": settings.reasoning_effort}
            elif quirks.reasoning == "reasoning_effort":
                body["reasoning_effort"] = settings.reasoning_effort
            else:
                raise self._errors.error(
                    f"{quirks.name} takes no reasoning effort ({quirks.quirks})", kind=BadRequestError, fatal=True
                )
        body["model"] = self._model
        return body

    async def _exchange(
        self, messages: list[JsonObject], tools: Optional[list[JsonObject]], ctx: AdapterContext
    ) -> tuple[JsonObject, bool]:
        body = self._body(messages, tools, ctx.settings)
        return await self._poster.exchange(self._endpoint, body, ctx, self._well_formed)

    def _well_formed(self, data: JsonObject) -> bool:
        try:
            first_message(data, self._errors)
        except AdapterError:
            return False
        return True


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
) -> OpenAICompatAdapter:
    """An adapter for any OpenAI-compatible endpoint.

    `base_url` defaults to `$OPENAI_BASE_URL`, then to OpenAI's; `api_key` to `$OPENAI_API_KEY`,
    and a missing key is a `ConfigurationError` naming that variable, as is a malformed URL taken
    from the environment.
    """
    info = PROVIDERS_BY_NAME["openai"]
    url, key = resolve_endpoint(
        provider, info.base_url, info.base_url_variable, info.key_variable, base_url=base_url, api_key=api_key
    )
    return OpenAICompatAdapter(
        base_url=url,
        model=model or "",
        api_key=key,
        provider=provider,
        extra_body=extra_body,
        extra_headers=extra_headers,
        max_connections=max_connections,
        request_timeout=request_timeout,
        quirks=info,
        prices=prices,
    )


def openrouter_adapter(
    model: str, api_key: Optional[str] = None, *, base_url: Optional[str] = None, prices: Optional[Prices] = None
) -> OpenAICompatAdapter:
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
) -> OpenAICompatAdapter:
    """The adapter of the OpenAI-compatible provider `name` of the table (`catalog.PROVIDER_TABLE`):
    `base_url`, else its URL variable, else its default URL; `api_key`, else its key variable."""
    info = PROVIDERS_BY_NAME.get(name)
    if info is None or info.wire != "openai":
        raise ConfigurationError(f"{name!r} is not an OpenAI-compatible provider")
    url, key = resolve_endpoint(
        name,
        info.base_url,
        info.base_url_variable,
        info.key_variable,
        base_url=base_url,
        api_key=api_key,
        key_required=info.key_required,
    )
    return OpenAICompatAdapter(
        base_url=url,
        model=model,
        api_key=key,
        provider=name,
        extra_body={"usage": {"include": True}} if name == "openrouter" else None,
        quirks=info,
        prices=prices,
    )


def _endpoint(base_url: str) -> str:
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/chat/completions"))
