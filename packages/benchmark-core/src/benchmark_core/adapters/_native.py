"""What the native adapters (Anthropic Messages, Gemini generateContent) share: the model and
endpoint, the body fields of a run's settings built once per settings object, the exchange through
the shared `JsonPoster` (cache included), prices, and `aclose`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional, TypeVar

from .._errors import AdapterError, ConfigurationError
from .._model import JsonObject, Usage
from ._json_http import DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT, HttpAdapter, JsonPoster, resolve_endpoint
from ._openai_errors import ProviderErrors
from .base import AdapterContext, GenerationSettings
from .catalog import PROVIDERS_BY_NAME
from .prices import Prices

A = TypeVar("A", bound="NativeAdapter")


class NativeAdapter(HttpAdapter):
    """The common half of a native adapter; subclasses give their provider's name (an entry of the
    provider table), `_headers`, `_url`, `_settings_fields` and `_check`."""

    _provider = "native"
    #: Answers' rate-limit headers go to the run's pacer (which then probes with the first request).
    reports_rate_limits = True

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str,
        prices: Optional[Prices] = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> None:
        if not model:
            raise ConfigurationError(f"{self._provider}: a model id is required")
        if not api_key:
            raise ConfigurationError(f"{self._provider}: the API key is empty")
        self._poster = JsonPoster(
            self._provider,
            api_key,
            self._headers(api_key),
            max_connections=max_connections,
            request_timeout=request_timeout,
        )
        self._model = model
        self._base_url = base_url.rstrip("/")
        self._endpoint = self._url(self._base_url, model)
        self._prices = prices
        self._base: tuple[Optional[GenerationSettings], JsonObject] = (None, {})

    @classmethod
    def from_environment(
        cls: type[A],
        model: str,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        prices: Optional[Prices] = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> A:
        """The adapter, its API root and key from the arguments, else the variables the provider
        table names for it, else the table's default root."""
        info = PROVIDERS_BY_NAME[cls._provider]
        url, key = resolve_endpoint(
            info.name, info.base_url, info.base_url_variable, info.key_variable, base_url=base_url, api_key=api_key
        )
        return cls(
            base_url=url,
            model=model,
            api_key=key,
            prices=prices,
            max_connections=max_connections,
            request_timeout=request_timeout,
        )

    @property
    def errors(self) -> ProviderErrors:
        return self._poster.errors

    def priced(self, usage: Usage) -> Usage:
        return self._prices.priced(usage) if self._prices is not None else usage

    async def exchange(self, fields: JsonObject, ctx: AdapterContext) -> tuple[JsonObject, bool]:
        """The answer to a request of `fields` plus the run's settings; whether it came from the cache."""
        return await self._poster.exchange(self._endpoint, self.body(fields, ctx.settings), ctx, self._well_formed)

    def body(self, fields: JsonObject, settings: GenerationSettings) -> JsonObject:
        """The request body of `fields` under `settings` (a batch item carries the same)."""
        settings_seen, base = self._base
        if settings_seen is not settings:
            base = self._settings_fields(settings)
            self._base = (settings, base)
        return {**base, **fields}

    def _headers(self, api_key: str) -> Mapping[str, str]:
        raise NotImplementedError

    def _url(self, base_url: str, model: str) -> str:
        raise NotImplementedError

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
