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
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import math
import os
from collections.abc import AsyncGenerator, Mapping
from datetime import datetime, timezone
from typing import Any, Optional
from urllib.parse import urlsplit, urlunsplit

import aiohttp
from attrs import frozen

from .._cache import request_key
from .._errors import (
    AdapterError,
    AuthenticationFailedError,
    BadRequestError,
    ConfigurationError,
    ConnectionFailedError,
    MalformedResponseError,
    ModelNotFoundError,
    ProviderError,
    RateLimitedError,
    RequestTimeoutError,
    describe_error,
)
from .._model import (
    ChatMessage,
    ChatRequest,
    ChatResult,
    CompletionResult,
    JsonObject,
    JsonValue,
    ServedBy,
    ToolCall,
    ToolSpec,
    Usage,
)
from .._text import shorten
from .base import AdapterContext, GenerationSettings
from .toolnames import ToolNameCodec

OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
#: Where the raw text of undecodable tool-call arguments is kept, in `ToolCall.arguments`.
RAW_ARGUMENTS_KEY = "__raw_arguments__"
#: Connections per adapter (and per host): above any sensible run concurrency, so requests never
#: queue inside aiohttp's pool behind the runner's own semaphore.
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_REQUEST_TIMEOUT = 600.0

_RETRY_AFTER_STATUSES = frozenset({429, 503})
#: Statuses no retry fixes and that every other request of the run would meet too.
_FATAL_STATUSES: dict[int, type[AdapterError]] = {
    400: BadRequestError,
    401: AuthenticationFailedError,
    403: AuthenticationFailedError,
    404: ModelNotFoundError,
}
_DETAIL_LIMIT = 300


class _Secret:
    """The API key. Printing, formatting or repr-ing it gives a mask; only `reveal()` gives the key."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "'***'"

    def __str__(self) -> str:
        return "***"


@frozen
class _LoopSession:
    session: aiohttp.ClientSession
    keeper: AsyncGenerator[None, None]


async def _close_at_loop_shutdown(session: aiohttp.ClientSession) -> AsyncGenerator[None, None]:
    """Suspended for the session's life. An event loop finalises the async generators started on
    it (`asyncio.run` does, via `shutdown_asyncgens`), so a session whose adapter was never
    `aclose()`d is still closed on its own loop, before that loop closes."""
    try:
        yield
    finally:
        await session.close()


def parse_retry_after(value: Optional[str], now: Optional[datetime] = None) -> Optional[float]:
    """Seconds to wait from a `Retry-After` header (delay-seconds or an HTTP date); None if absent
    or unreadable, 0 for a date in the past."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    return max(0.0, seconds) if math.isfinite(seconds) else None


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
        self._key = _Secret(api_key)
        self._provider = provider
        self._model = model
        self._base_url = _check_base_url(base_url)
        self._endpoint = _endpoint(self._base_url)
        self._extra_body = dict(extra_body or {})
        self._headers = {"Content-Type": "application/json", **(extra_headers or {})}
        self._max_connections = max_connections
        self._timeout = aiohttp.ClientTimeout(total=request_timeout)
        self._sessions: dict[asyncio.AbstractEventLoop, _LoopSession] = {}

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
        message = self._first_message(data)
        return CompletionResult(
            text=_content(message) or "", usage=_usage(data), served_by=_served_by(data), cached=cached
        )

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = ToolNameCodec(
            [tool.name for tool in request.tools]
            + [call.name for message in request.messages for call in message.tool_calls or []]
        )
        messages = [_wire_message(message, names) for message in request.messages]
        tools = [_wire_tool(tool, names) for tool in request.tools] or None
        data, cached = await self._exchange(messages, tools, ctx)
        message = self._first_message(data)
        calls = self._tool_calls(message, names)
        reply = ChatMessage(role="assistant", content=_content(message), tool_calls=calls or None)
        return ChatResult(message=reply, usage=_usage(data), served_by=_served_by(data), cached=cached)

    async def aclose(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        entry = self._sessions.pop(asyncio.get_running_loop(), None)
        if entry is not None:
            await entry.keeper.aclose()

    # -- HTTP --------------------------------------------------------------------------------

    async def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        entry = self._sessions.get(loop)
        if entry is None or entry.session.closed:
            for stale in [other for other in self._sessions if other.is_closed()]:
                del self._sessions[stale]
            connector = aiohttp.TCPConnector(limit=self._max_connections, limit_per_host=self._max_connections)
            session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
            keeper = _close_at_loop_shutdown(session)
            await keeper.__anext__()
            entry = _LoopSession(session, keeper)
            self._sessions[loop] = entry
        return entry.session

    def _body(
        self, messages: list[JsonObject], tools: Optional[list[JsonObject]], settings: GenerationSettings
    ) -> JsonObject:
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
        body["messages"] = messages
        if tools:
            body["tools"] = tools
        return body

    async def _exchange(
        self, messages: list[JsonObject], tools: Optional[list[JsonObject]], ctx: AdapterContext
    ) -> tuple[JsonObject, bool]:
        """The provider's answer to one request, from the context's cache when it holds it; a fresh
        answer is stored once it has proved well formed. Returns the answer and whether it was cached."""
        body = self._body(messages, tools, ctx.settings)
        cache = ctx.cache
        key = request_key(self._endpoint, body, ctx.sampling_index) if cache is not None else ""
        if cache is not None:
            hit = cache.get(key)
            if hit is not None and self._well_formed(hit):
                return hit, True
        data = await self._post(body)
        if cache is not None and self._well_formed(data):
            cache.put(key, data)
        return data, False

    def _well_formed(self, data: JsonObject) -> bool:
        try:
            self._first_message(data)
        except AdapterError:
            return False
        return True

    async def _post(self, body: JsonObject) -> JsonObject:
        try:
            payload = json.dumps(body, ensure_ascii=False).encode()
        except (TypeError, ValueError) as exc:
            raise self._error(f"the request cannot be encoded as JSON: {exc}") from None
        headers = {**self._headers, "Authorization": f"Bearer {self._key.reveal()}"}
        failure: Optional[str] = None
        try:
            session = await self._session()
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
            raise self._error(f"request failed: {failure}", retryable=True, kind=kind)
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not 200 <= status < 300:
            raise self._status_error(status, _error_message(data) or raw.decode("utf-8", errors="replace"), retry_after)
        if not isinstance(data, dict):
            # A 200 whose body is cut off or garbled is a transient fault of the provider's path.
            text = self._snippet(raw.decode("utf-8", errors="replace"))
            raise self._error(
                f"malformed JSON in the response (HTTP {status}): {text!r}",
                status=status,
                retryable=True,
                kind=MalformedResponseError,
            )
        return data

    # -- decoding ----------------------------------------------------------------------------

    def _first_message(self, data: JsonObject) -> JsonObject:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            error = data.get("error")
            if error is not None:
                # OpenRouter reports some upstream failures as a 200 whose body is an error.
                code = error.get("code") if isinstance(error, dict) else None
                status = code if isinstance(code, int) and not isinstance(code, bool) else 0
                raise self._status_error(status, _error_message(data) or "error without a message", None)
            raise self._error("the response has no choices", retryable=True, kind=MalformedResponseError)
        message = choices[0].get("message") if isinstance(choices[0], dict) else None
        if not isinstance(message, dict):
            raise self._error("the response's first choice has no message", retryable=True, kind=MalformedResponseError)
        return message

    def _tool_calls(self, message: JsonObject, names: ToolNameCodec) -> list[ToolCall]:
        wire_calls = message.get("tool_calls") or []
        if not isinstance(wire_calls, list):
            raise self._error("the response's tool_calls is not a list")
        calls = []
        for position, wire in enumerate(wire_calls):
            function = wire.get("function") if isinstance(wire, dict) else None
            name = function.get("name") if isinstance(function, dict) else None
            if not isinstance(function, dict) or not isinstance(name, str):
                raise self._error(f"tool call #{position + 1} in the response has no function name")
            call_id = wire.get("id")
            calls.append(
                ToolCall(
                    name=names.decode(name),
                    arguments=_decode_arguments(function.get("arguments")),
                    id=call_id if isinstance(call_id, str) else "",
                )
            )
        return calls

    # -- errors ------------------------------------------------------------------------------

    def _redact(self, text: str) -> str:
        return text.replace(self._key.reveal(), "***")

    def _snippet(self, text: str) -> str:
        """`text` redacted, on one line, cut short; redaction comes first so no key prefix survives the cut."""
        return shorten(" ".join(self._redact(text).split()), _DETAIL_LIMIT, ellipsis="...")

    def _error(
        self,
        message: str,
        *,
        retryable: bool = False,
        retry_after: Optional[float] = None,
        status: Optional[int] = None,
        kind: type[AdapterError] = AdapterError,
        fatal: bool = False,
    ) -> AdapterError:
        text = self._redact(f"{self._provider}: {message}")
        return kind(text, retryable=retryable, retry_after=retry_after, status=status, fatal=fatal)

    def _status_error(self, status: int, detail: str, retry_after: Optional[str]) -> AdapterError:
        detail = self._snippet(detail) or "no details"
        retryable = status == 429 or status >= 500
        if status == 429:
            kind: type[AdapterError] = RateLimitedError
        elif status >= 500:
            kind = ProviderError
        else:
            kind = _FATAL_STATUSES.get(status, AdapterError)
        return self._error(
            f"HTTP {status}: {detail}" if status else detail,
            retryable=retryable,
            retry_after=parse_retry_after(retry_after) if status in _RETRY_AFTER_STATUSES else None,
            status=status or None,
            kind=kind,
            fatal=status in _FATAL_STATUSES,
        )


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


def _wire_tool(tool: ToolSpec, names: ToolNameCodec) -> JsonObject:
    function: JsonObject = {"name": names.encode(tool.name), "parameters": tool.parameters}
    if tool.description:
        function["description"] = tool.description
    return {"type": "function", "function": function}


def _wire_message(message: ChatMessage, names: ToolNameCodec) -> JsonObject:
    content = message.content if message.content is not None or message.role == "assistant" else ""
    out: JsonObject = {"role": message.role, "content": content}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": names.encode(call.name), "arguments": _encode_arguments(call.arguments)},
            }
            for call in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    return out


def _encode_arguments(arguments: JsonObject) -> str:
    raw = arguments.get(RAW_ARGUMENTS_KEY)
    if len(arguments) == 1 and isinstance(raw, str):
        return raw
    return json.dumps(arguments, ensure_ascii=False)


def _decode_arguments(arguments: JsonValue) -> JsonObject:
    if isinstance(arguments, dict):
        return arguments
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict):
            return decoded
        return {RAW_ARGUMENTS_KEY: arguments}
    return {RAW_ARGUMENTS_KEY: json.dumps(arguments)}


def _content(message: JsonObject) -> Optional[str]:
    content = message.get("content")
    if isinstance(content, str) or content is None:
        return content
    if isinstance(content, list):
        # Some providers answer with content parts; the text parts are the answer.
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return str(content)


def _usage(data: JsonObject) -> Usage:
    usage = data.get("usage")
    if not isinstance(usage, dict):
        return Usage()
    cost = _non_negative(usage.get("cost"))
    return Usage(
        prompt_tokens=int(_non_negative(usage.get("prompt_tokens")) or 0),
        completion_tokens=int(_non_negative(usage.get("completion_tokens")) or 0),
        cost_usd=cost,
        reasoning_tokens=_detail_tokens(usage, "completion_tokens_details", "reasoning_tokens"),
        cached_tokens=_detail_tokens(usage, "prompt_tokens_details", "cached_tokens"),
    )


def _detail_tokens(usage: JsonObject, group: str, key: str) -> Optional[int]:
    details = usage.get(group)
    value = _non_negative(details.get(key)) if isinstance(details, dict) else None
    return int(value) if value is not None else None


def _served_by(data: JsonObject) -> Optional[ServedBy]:
    model, provider = data.get("model"), data.get("provider")
    served = ServedBy(
        model=model if isinstance(model, str) and model else None,
        provider=provider if isinstance(provider, str) and provider else None,
    )
    return served if served.model or served.provider else None


def _non_negative(value: Any) -> Optional[float]:
    """A finite number >= 0 from a provider's JSON, or None for anything else (bools included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) and number >= 0 else None


def _error_message(data: JsonValue) -> Optional[str]:
    """The message of an OpenAI-shaped error body (`{"error": {"message": ...}}`), if there is one."""
    if not isinstance(data, dict):
        return None
    error = data.get("error", data)
    message = error.get("message") if isinstance(error, dict) else error
    return message if isinstance(message, str) and message.strip() else None
