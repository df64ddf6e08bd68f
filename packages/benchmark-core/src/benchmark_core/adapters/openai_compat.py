"""OpenAI-compatible chat completions over aiohttp; OpenRouter is a preset of it.

The adapter speaks `POST {base_url}/chat/completions` with `messages` and OpenAI-shaped `tools`, and
maps the answer back onto the core model:

- Tool names. Providers accept only `^[a-zA-Z0-9_-]{1,64}$`; benchmark tools are often named like
  `crm.get_contact`. Names are encoded per request (valid names unchanged, others sanitised and made
  unique) and decoded in the returned `tool_calls`, so callers only ever see the original names.
- Tool arguments arrive as a JSON-encoded string. When that string is not a JSON object, the call is
  kept rather than failed: its arguments become `{RAW_ARGUMENTS_KEY: <the raw text>}`, graders see a
  malformed call, and the raw text goes back verbatim if the call is replayed in a later turn.
- Usage: `prompt_tokens`, `completion_tokens` and, when the provider reports one (OpenRouter's
  `usage.cost`), the cost in USD.
- Generation settings from the context (`temperature`, `top_p`, `max_tokens`, `seed`, reasoning
  effort, and `extra_body` fields) are sent only when given. Reasoning effort is OpenAI's
  `reasoning_effort`, and OpenRouter's `reasoning: {"effort": ...}`.
- Failures raise `AdapterError`: 429, 5xx, timeouts, connection failures and malformed 200 replies
  (not JSON, no choices) are retryable, and 429 and 503 carry `Retry-After` (seconds or an HTTP
  date) as `retry_after`. 400, 401, 403 and 404 are fatal: no retry or other task can succeed.
- With a response cache in the context, a request whose digest is cached is answered from disk;
  every well-formed answer is stored.
- What served the request (the response's `model`, OpenRouter's `provider`) and, when reported,
  reasoning and cached prompt tokens are passed on.
- The API key is held in a masking wrapper, sent only in the Authorization header (redirects are not
  followed, so it never travels to another host) and scrubbed from every error message.

One aiohttp `ClientSession` is opened lazily per event loop, so one adapter serves several
`asyncio.run` calls in turn; `aclose()` closes the current loop's session and the next request opens
a new one. Cancelling a request (the runner's timeout does) closes its connection.

The wire format lives in `_openai_wire`, failures in `_openai_errors`, sessions in `_sessions`.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from typing import Optional
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from .._errors import (
    AdapterError,
    ConfigurationError,
    ConnectionFailedError,
    MalformedResponseError,
    RequestTimeoutError,
    describe_error,
)
from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult, JsonObject, JsonValue
from ._cache import request_key
from ._openai_errors import ProviderErrors, Secret, parse_retry_after
from ._openai_wire import (
    RAW_ARGUMENTS_KEY,
    content_text,
    error_message,
    first_message,
    served_by_of,
    tool_calls_of,
    usage_of,
    wire_message,
    wire_tool,
)
from ._sessions import LoopSessions
from .base import AdapterContext, GenerationSettings
from .toolnames import ToolNameCodec

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
]

OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
#: Connections per adapter (and per host): above any sensible run concurrency, so requests never
#: queue inside aiohttp's pool behind the runner's own semaphore.
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_REQUEST_TIMEOUT = 600.0


class OpenAICompatAdapter:
    """A model behind an OpenAI-compatible `/chat/completions` endpoint. Build it with
    `openai_compat_adapter` or `openrouter_adapter`, which read keys from the environment.

    `extra_body` is merged into every request body (the model and messages win); `extra_headers`
    into every request's headers.
    """

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
    ) -> None:
        if not model:
            raise ConfigurationError(f"{provider}: a model id is required")
        if not api_key:
            raise ConfigurationError(f"{provider}: the API key is empty")
        if max_connections < 1:
            raise ConfigurationError("max_connections must be at least 1")
        key = Secret(api_key)
        self._errors = ProviderErrors(provider, key)
        self._provider = provider
        self._model = model
        self._base_url = _check_base_url(base_url)
        self._endpoint = _endpoint(self._base_url)
        self._extra_body = dict(extra_body or {})
        # Built once: aiohttp copies the headers of every request, so they can be shared.
        headers = {"Content-Type": "application/json", **(extra_headers or {}), "Authorization": f"Bearer {api_key}"}
        self._headers = Secret(headers)
        self._sessions = LoopSessions(max_connections, aiohttp.ClientTimeout(total=request_timeout))
        # The body fields a run's settings give every request (built once per settings object).
        self._base: tuple[Optional[GenerationSettings], JsonObject] = (None, {})

    @property
    def provider(self) -> str:
        return self._provider

    @property
    def model(self) -> str:
        return self._model

    @property
    def base_url(self) -> str:
        return self._base_url

    def __repr__(self) -> str:
        return f"OpenAICompatAdapter(provider={self._provider!r}, model={self._model!r}, base_url={self._base_url!r})"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        data, cached = await self._exchange([{"role": "user", "content": prompt}], None, ctx)
        message = first_message(data, self._errors)
        return CompletionResult(
            text=content_text(message) or "", usage=usage_of(data), served_by=served_by_of(data), cached=cached
        )

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = ToolNameCodec(
            [tool.name for tool in request.tools]
            + [call.name for message in request.messages for call in message.tool_calls or []]
        )
        messages = [wire_message(message, names) for message in request.messages]
        tools = [wire_tool(tool, names) for tool in request.tools] or None
        data, cached = await self._exchange(messages, tools, ctx)
        message = first_message(data, self._errors)
        calls = tool_calls_of(message, names, self._errors)
        reply = ChatMessage(role="assistant", content=content_text(message), tool_calls=calls or None)
        return ChatResult(message=reply, usage=usage_of(data), served_by=served_by_of(data), cached=cached)

    async def aclose(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        await self._sessions.close()

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
        body: JsonObject = {**self._extra_body, **settings.extra_body}
        for key, value in (
            ("temperature", settings.temperature),
            ("top_p", settings.top_p),
            ("max_tokens", settings.max_tokens),
            ("seed", settings.seed),
        ):
            if value is not None:
                body[key] = value
        if settings.reasoning_effort is not None:
            if self._provider == "openrouter":
                body["reasoning"] = {**body.get("reasoning", {}), "effort": settings.reasoning_effort}
            else:
                body["reasoning_effort"] = settings.reasoning_effort
        body["model"] = self._model
        return body

    async def _exchange(
        self, messages: list[JsonObject], tools: Optional[list[JsonObject]], ctx: AdapterContext
    ) -> tuple[JsonObject, bool]:
        """The provider's answer to one request, from the context's cache when it holds it; a fresh
        answer is stored once it has proved well formed. Returns the answer and whether it was cached."""
        body = self._body(messages, tools, ctx.settings)
        cache = ctx.cache
        if cache is None:
            return await self._post(body), False
        key = request_key(self._endpoint, body, ctx.sampling_index)
        hit = cache.get(key)
        if hit is not None and self._well_formed(hit):
            return hit, True
        data = await self._post(body)
        if self._well_formed(data):
            cache.put(key, data)
        return data, False

    def _well_formed(self, data: JsonObject) -> bool:
        try:
            first_message(data, self._errors)
        except AdapterError:
            return False
        return True

    async def _post(self, body: JsonObject) -> JsonObject:
        try:
            payload = json.dumps(body, ensure_ascii=False).encode()
        except (TypeError, ValueError) as exc:
            raise self._errors.error(f"the request cannot be encoded as JSON: {exc}") from None
        failure: Optional[str] = None
        try:
            session = await self._sessions.current()
            headers = self._headers.reveal()
            async with session.post(self._endpoint, data=payload, headers=headers, allow_redirects=False) as response:
                raw = await response.read()
                status = response.status
                retry_after = response.headers.get("Retry-After")
        except asyncio.TimeoutError:
            failure = "request timed out"
        except aiohttp.ClientError as exc:
            failure = describe_error(exc)
        # Raised outside the except blocks so that no aiohttp exception (whose request info holds
        # the Authorization header) rides along as the AdapterError's __context__.
        if failure is not None:
            kind = RequestTimeoutError if failure == "request timed out" else ConnectionFailedError
            raise self._errors.error(f"request failed: {failure}", retryable=True, kind=kind)
        return self._decoded(raw, status, retry_after)

    def _decoded(self, raw: bytes, status: int, retry_after: Optional[str]) -> JsonObject:
        """The JSON object of a 2xx answer; the matching `AdapterError` for anything else."""
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not 200 <= status < 300:
            text = error_message(data) or raw.decode("utf-8", errors="replace")
            raise self._errors.status(status, text, retry_after)
        if not isinstance(data, dict):
            # A 200 whose body is cut off or garbled is a transient fault of the provider's path.
            text = self._errors.snippet(raw.decode("utf-8", errors="replace"))
            raise self._errors.error(
                f"malformed JSON in the response (HTTP {status}): {text!r}",
                status=status,
                retryable=True,
                kind=MalformedResponseError,
            )
        return data


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
) -> OpenAICompatAdapter:
    """An adapter for any OpenAI-compatible endpoint.

    `base_url` defaults to `$OPENAI_BASE_URL`, then to OpenAI's; `api_key` to `$OPENAI_API_KEY`,
    and a missing key is a `ConfigurationError` naming that variable, as is a malformed URL taken
    from the environment.
    """
    if not base_url:
        base_url = os.environ.get("OPENAI_BASE_URL", "").strip()
        if base_url:
            _check_base_url(base_url, origin="$OPENAI_BASE_URL")
    return OpenAICompatAdapter(
        base_url=base_url or OPENAI_BASE_URL,
        model=model or "",
        api_key=api_key or _env_key("OPENAI_API_KEY", provider),
        provider=provider,
        extra_body=extra_body,
        extra_headers=extra_headers,
        max_connections=max_connections,
        request_timeout=request_timeout,
    )


def openrouter_adapter(
    model: str, api_key: Optional[str] = None, *, base_url: Optional[str] = None
) -> OpenAICompatAdapter:
    """OpenRouter (`api_key` defaults to `$OPENROUTER_API_KEY`), asking it to report each request's
    cost in `usage.cost`. `base_url` is for proxies and tests."""
    return OpenAICompatAdapter(
        base_url=base_url or OPENROUTER_BASE_URL,
        model=model,
        api_key=api_key or _env_key("OPENROUTER_API_KEY", "openrouter"),
        provider="openrouter",
        extra_body={"usage": {"include": True}},
    )


def _env_key(variable: str, provider: str) -> str:
    value = os.environ.get(variable, "").strip()
    if not value:
        raise ConfigurationError(f"{provider}: no API key given and ${variable} is not set")
    return value


def _check_base_url(base_url: str, origin: str = "the base URL") -> str:
    """The URL without a trailing slash. Errors never echo it: it might carry credentials."""
    try:
        parts = urlsplit(base_url)
        valid = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
        has_credentials = parts.username is not None or parts.password is not None
    except ValueError:  # an unbalanced IPv6 bracket, or a port that is not a number from 1 to 65535
        valid, has_credentials = False, False
    if not valid:
        raise ConfigurationError(f"{origin} must be an http(s) URL with a host, like http://127.0.0.1:8000/v1")
    if has_credentials:
        raise ConfigurationError(f"{origin} must not contain credentials; give the key as the API key")
    return base_url.rstrip("/")


def _endpoint(base_url: str) -> str:
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/chat/completions"))
