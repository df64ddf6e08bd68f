"""JSON over HTTP for every provider adapter: the sessions, the masked headers, the response cache,
the `AdapterError` of each failure, with the key scrubbed from every message, and the rate-limit
headers of every answer (any status) reported to the run's pacer with the tokens the request used
(`AdapterContext.limits_seen`; see `_pacing`). `retry-after-ms` is read before `Retry-After`. What
is provider-specific (an error body's message and meaning, the rate-limit header family, the tokens
an answer reports) is asked of the provider's `AnswerReader`, its format object. The API root is
checked here, by one rule for every provider (`check_base_url`).

The headers (which hold the key) are built once and kept in a `Secret`; redirects are not followed,
so the key never travels to another host. Errors raised here carry no aiohttp exception as their
context (its request info holds the headers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Optional, Protocol, Union
from urllib.parse import urlsplit, urlunsplit

import aiohttp
from multidict import CIMultiDictProxy

from .._model import JsonObject, JsonValue
from ..cache._cache import request_key
from ..errors._base import describe_error
from ..errors._provider import AdapterError, ConnectionFailedError, MalformedResponseError, RequestTimeoutError
from ..errors._usage import ConfigurationError
from ._provider_errors import ProviderErrors
from ._ratelimits import RateLimits, retry_after_of
from ._secret import Secret
from ._sessions import LoopSessions
from .base import AdapterContext

#: Connections per adapter (and per host): above any sensible run concurrency, so requests never
#: queue inside aiohttp's pool behind the runner's own semaphore.
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_REQUEST_TIMEOUT = 600.0


class AnswerReader(Protocol):
    """What the transport asks of a provider's format object about an answer."""

    def error(
        self, status: int, data: JsonValue, text: str, retry_after: Union[str, float, None], errors: ProviderErrors
    ) -> AdapterError: ...

    def rate_limits(self, headers: Mapping[str, str]) -> RateLimits: ...

    def used_tokens(self, data: Optional[JsonObject]) -> Optional[int]: ...


class JsonPoster:
    """POSTs JSON bodies with one provider's headers and reads JSON answers (and, for batch APIs,
    GETs JSON and files and uploads multipart forms); `reader` reads what is the provider's own."""

    def __init__(
        self,
        provider: str,
        key: str,
        headers: Mapping[str, str],
        reader: AnswerReader,
        *,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> None:
        if max_connections < 1:
            raise ConfigurationError("max_connections must be at least 1")
        self.errors = ProviderErrors(provider, Secret(key))
        self._reader = reader
        # Built once: aiohttp copies the headers of every request, so they can be shared.
        self._headers = Secret({"Content-Type": "application/json", **headers})
        self._form_headers = Secret(dict(headers))
        self._sessions = LoopSessions(max_connections, aiohttp.ClientTimeout(total=request_timeout))

    async def close(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        await self._sessions.close()

    async def exchange(
        self, url: str, body: JsonObject, ctx: AdapterContext, well_formed: Callable[[JsonObject], bool]
    ) -> tuple[JsonObject, bool]:
        """The provider's answer to one request, from the context's cache when it holds it; a fresh
        answer is stored once it has proved well formed. Returns the answer and whether it was cached."""
        cache = ctx.cache
        if cache is None:
            return await self.post(url, body, ctx), False
        key = request_key(url, body, ctx.sampling_index)
        hit = cache.get(key)
        if hit is not None and well_formed(hit):
            return hit, True
        data = await self.post(url, body, ctx)
        if well_formed(data):
            cache.put(key, data)
        return data, False

    async def post(self, url: str, body: JsonObject, ctx: Optional[AdapterContext] = None) -> JsonObject:
        try:
            payload = _BODY.encode(body).encode()
        except (TypeError, ValueError) as exc:
            raise self.errors.error(f"the request cannot be encoded as JSON: {exc}") from None
        status, raw, answer_headers = await self.send("POST", url, payload)
        data: Optional[JsonObject] = None
        try:
            data = self.decoded(raw, status, retry_after_of(answer_headers))
            return data
        finally:  # a 429's headers count too: they say the bucket is empty
            if ctx is not None:
                ctx.limits_seen(self._reader.rate_limits(answer_headers), self._reader.used_tokens(data))

    async def get_json(self, url: str) -> JsonObject:
        status, raw, headers = await self.send("GET", url)
        return self.decoded(raw, status, retry_after_of(headers))

    async def get_bytes(self, url: str) -> bytes:
        """A 2xx answer's body as it is (a file's content); the `AdapterError` of anything else."""
        status, raw, headers = await self.send("GET", url)
        if not 200 <= status < 300:
            self.decoded(raw, status, retry_after_of(headers))
        return raw

    async def post_form(self, url: str, form: aiohttp.FormData) -> JsonObject:
        """A multipart upload (aiohttp writes its own Content-Type), answered with JSON."""
        status, raw, headers = await self.send("POST", url, form)
        return self.decoded(raw, status, retry_after_of(headers))

    async def send(
        self, method: str, url: str, payload: Union[bytes, aiohttp.FormData, None] = None
    ) -> tuple[int, bytes, CIMultiDictProxy[str]]:
        """One request: the status, body and headers of the answer, whatever its status; an
        `AdapterError` (retryable) when no answer came."""
        failure: Optional[str] = None
        try:
            session = await self._sessions.current()
            headers = (self._form_headers if isinstance(payload, aiohttp.FormData) else self._headers).reveal()
            async with session.request(method, url, data=payload, headers=headers, allow_redirects=False) as response:
                return response.status, await response.read(), response.headers
        except asyncio.TimeoutError:
            failure = "request timed out"
        except aiohttp.ClientError as exc:
            failure = describe_error(exc)
        # Raised outside the except blocks so that no aiohttp exception (whose request info holds
        # the headers) rides along as the AdapterError's __context__.
        kind = RequestTimeoutError if failure == "request timed out" else ConnectionFailedError
        raise self.errors.error(f"request failed: {failure}", retryable=True, kind=kind)

    def decoded(self, raw: bytes, status: int, retry_after: Union[str, float, None]) -> JsonObject:
        """The JSON object of a 2xx answer; the matching `AdapterError` for anything else."""
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not 200 <= status < 300:
            raise self._reader.error(status, data, raw.decode("utf-8", errors="replace"), retry_after, self.errors)
        if not isinstance(data, dict):
            # A 200 whose body is cut off or garbled is a transient fault of the provider's path.
            text = self.errors.snippet(raw.decode("utf-8", errors="replace"))
            raise self.errors.error(
                f"malformed JSON in the response (HTTP {status}): {text!r}",
                status=status,
                retryable=True,
                kind=MalformedResponseError,
            )
        return data


# Built once: json.dumps with an option builds a new encoder for every request body.
_BODY = json.JSONEncoder(ensure_ascii=False)


def check_base_url(base_url: str, origin: str = "the base URL") -> str:
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


def resolve_endpoint(
    name: str,
    default_url: str,
    url_variable: Optional[str],
    key_variable: Optional[str],
    *,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
    key_required: bool = True,
) -> tuple[str, str]:
    """The API root and key of provider `name`: `base_url`, else `$url_variable`, else `default_url`;
    `api_key`, else `$key_variable` ("" when not required and not set). A missing key or a
    malformed URL from the environment is a `ConfigurationError` naming the variable."""
    import os

    url = (base_url or "").strip()
    if not url and url_variable:
        url = os.environ.get(url_variable, "").strip()
        if url:
            check_base_url(url, origin=f"${url_variable}")
    key = api_key or (os.environ.get(key_variable, "").strip() if key_variable else "")
    if not key and key_required:
        raise ConfigurationError(f"{name}: no API key given and ${key_variable} is not set")
    if not url and not default_url:  # a provider with no public root (Azure: the user's resource)
        raise ConfigurationError(f"{name}: no endpoint given (--base-url) and ${url_variable} is not set")
    return check_base_url(url or default_url), key


def endpoint_under(base_url: str, path: str) -> str:
    """`path` appended to the API root's path (its query, if any, kept after it)."""
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + path))
