"""What the native adapters (Anthropic Messages, Gemini generateContent) share: the model and
endpoint, the body fields of a run's settings built once per settings object, the exchange through
the shared `JsonPoster` (cache included), prices, and `aclose`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

from .._errors import AdapterError, ConfigurationError
from .._model import JsonObject, Usage
from ._json_http import DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT, JsonPoster
from ._openai_errors import ProviderErrors
from .base import AdapterContext, GenerationSettings
from .prices import Prices


class NativeAdapter:
    """The common half of a native adapter; subclasses give `_settings_fields` and `_check`."""

    _provider = "native"
    #: Answers' rate-limit headers go to the run's pacer (which then probes with the first request).
    reports_rate_limits = True

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str,
        headers: Mapping[str, str],
        prices: Optional[Prices],
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> None:
        if not model:
            raise ConfigurationError(f"{self._provider}: a model id is required")
        if not api_key:
            raise ConfigurationError(f"{self._provider}: the API key is empty")
        self._poster = JsonPoster(
            self._provider, api_key, headers, max_connections=max_connections, request_timeout=request_timeout
        )
        self._model = model
        self._base_url = base_url.rstrip("/")
        self._prices = prices
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

    @property
    def errors(self) -> ProviderErrors:
        return self._poster.errors

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self._model!r}, base_url={self._base_url!r})"

    async def aclose(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        await self._poster.close()

    def priced(self, usage: Usage) -> Usage:
        return self._prices.priced(usage) if self._prices is not None else usage

    async def exchange(self, url: str, fields: JsonObject, ctx: AdapterContext) -> tuple[JsonObject, bool]:
        """The answer to a request of `fields` plus the run's settings; whether it came from the cache."""
        return await self._poster.exchange(url, self.body(fields, ctx.settings), ctx, self._well_formed)

    def body(self, fields: JsonObject, settings: GenerationSettings) -> JsonObject:
        """The request body of `fields` under `settings` (a batch item carries the same)."""
        settings_seen, base = self._base
        if settings_seen is not settings:
            base = self._settings_fields(settings)
            self._base = (settings, base)
        return {**base, **fields}

    def _settings_fields(self, settings: GenerationSettings) -> JsonObject:
        raise NotImplementedError

    def _check(self, data: JsonObject) -> None:
        """Raise the `AdapterError` of an answer that is not well formed."""
        raise NotImplementedError

    def _well_formed(self, data: JsonObject) -> bool:
        try:
            self._check(data)
        except AdapterError:
            return False
        return True
