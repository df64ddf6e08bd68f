"""The one HTTP chat adapter, over a provider's format object (`_format.ProviderFormat`): the model and endpoint,
the URL checked and the key required by one rule, the body fields of a run's settings built once
per settings object, the exchange through the shared `JsonPoster` (response cache included), the
well-formedness check that keeps garbled answers out of the cache, prices, batches and `aclose`.

One aiohttp `ClientSession` is opened lazily per event loop, so one adapter serves several
`asyncio.run` calls in turn; `aclose()` closes the current loop's session and the next request opens
a new one. Cancelling a request (the runner's timeout does) closes its connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional, Union

from attrs import evolve

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject, JsonValue, Usage
from ..errors._provider import AdapterError
from ..errors._usage import ConfigurationError
from ._batches import BatchClient, BatchRequest
from ._format import ProviderFormat, format_of
from ._json_http import DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT, JsonPoster, check_base_url, resolve_endpoint
from ._prices import Prices
from ._provider_errors import ProviderErrors
from ._toolnames import ToolNameCodec, request_names
from .base import AdapterContext, GenerationSettings
from .catalog import ProviderInfo


class ChatAdapter:
    """A model behind one provider's API, spoken through `provider_format`. `base_url` is the API root (checked:
    an http(s) URL with a host and no credentials); `api_key` may be empty only where the table's row
    needs none (a local server). `extra_body` is merged into every request body (the model and
    messages win), `extra_headers` into every request's headers. `provider` is the name it reports
    (the row's by default). Build it with `make_adapter`, or `from_environment`."""

    #: Answers' rate-limit headers go to the run's pacer (which then probes with the first request).
    reports_rate_limits = True

    def __init__(
        self,
        provider_format: ProviderFormat,
        *,
        base_url: str,
        model: str,
        api_key: str,
        provider: Optional[str] = None,
        prices: Optional[Prices] = None,
        extra_body: Optional[Mapping[str, JsonValue]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> None:
        self._provider = provider or provider_format.info.name
        if not model:
            raise ConfigurationError(f"{self._provider}: a model id is required")
        if not api_key and provider_format.info.key_required:
            raise ConfigurationError(f"{self._provider}: the API key is empty")
        self._format = provider_format
        headers = {**(extra_headers or {}), **provider_format.headers(api_key)}
        self._poster = JsonPoster(
            self._provider,
            api_key,
            headers,
            provider_format,
            max_connections=max_connections,
            request_timeout=request_timeout,
        )
        self._model = model
        self._base_url = check_base_url(base_url)
        self._endpoint = provider_format.endpoint(self._base_url, model)
        self._extra_body: JsonObject = {**provider_format.extra_body, **(extra_body or {})}
        self._prices = prices
        # The body fields a run's settings give every request (built once per settings object).
        self._base: tuple[Optional[GenerationSettings], JsonObject] = (None, {})

    @classmethod
    def from_environment(
        cls,
        info: ProviderInfo,
        model: str,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        prices: Optional[Prices] = None,
        provider_format: Optional[ProviderFormat] = None,
        provider: Optional[str] = None,
        extra_body: Optional[Mapping[str, JsonValue]] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    ) -> ChatAdapter:
        """The adapter of the table's row `info`, its API root and key from the arguments, else the
        variables the row names, else the row's default root; `provider_format` defaults to the row's."""
        url, key = resolve_endpoint(
            provider or info.name,
            info.base_url,
            info.base_url_variable,
            info.key_variable,
            base_url=base_url,
            api_key=api_key,
            key_required=info.key_required,
        )
        return cls(
            provider_format if provider_format is not None else format_of(info),
            base_url=url,
            model=model,
            api_key=key,
            provider=provider,
            prices=prices,
            extra_body=extra_body,
            extra_headers=extra_headers,
            max_connections=max_connections,
            request_timeout=request_timeout,
        )

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
        return f"{type(self).__name__}(provider={self._provider!r}, model={self._model!r}, base_url={self._base_url!r})"

    async def aclose(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        await self._poster.close()

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        data, cached = await self._exchange(self._format.prompt_fields(prompt), ctx)
        return self._completion(data, cached)

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = request_names(request)
        data, cached = await self._exchange(self._format.chat_fields(request, names), ctx)
        return self._chat_result(data, request, names, cached)

    def body(self, fields: JsonObject, settings: GenerationSettings) -> JsonObject:
        """The request body of `fields` under `settings` (a batch item carries the same)."""
        settings_seen, base = self._base
        if settings_seen is not settings:
            merged = evolve(settings, extra_body={**self._extra_body, **settings.extra_body})
            base = self._format.settings_fields(merged, self._model, self.errors)
            self._base = (settings, base)
        return {**base, **fields}

    # Batches (`--batch`), where the provider's format has a batch API.

    @property
    def supports_batch(self) -> bool:
        return self._format.supports_batch

    def batch_client(self) -> BatchClient:
        return self._format.batch_client(self._poster, self._base_url)

    def batch_item(self, custom_id: str, request: BatchRequest, ctx: AdapterContext) -> JsonObject:
        """One item of a batch's input: the body a direct request would send."""
        if isinstance(request, str):
            fields = self._format.prompt_fields(request)
        else:
            fields = self._format.chat_fields(request, request_names(request))
        return self._format.batch_line(custom_id, self.body(fields, ctx.settings))

    def batch_answer(self, request: BatchRequest, answer: JsonObject) -> Union[CompletionResult, ChatResult]:
        if isinstance(request, str):
            return self._completion(answer, False)
        return self._chat_result(answer, request, request_names(request), False)

    # The answer.

    def _completion(self, data: JsonObject, cached: bool) -> CompletionResult:
        text, truncated = self._format.completion(data, self.errors)
        return CompletionResult(
            text=text,
            usage=self._usage(data),
            served_by=self._format.served_by(data),
            cached=cached,
            truncated=truncated,
        )

    def _chat_result(self, data: JsonObject, request: ChatRequest, names: ToolNameCodec, cached: bool) -> ChatResult:
        message, truncated = self._format.reply(data, request, names, self.errors)
        return ChatResult(
            message=message,
            usage=self._usage(data),
            served_by=self._format.served_by(data),
            cached=cached,
            truncated=truncated,
        )

    def _usage(self, data: JsonObject) -> Usage:
        usage = self._format.usage(data)
        return self._prices.priced(usage) if self._prices is not None and usage.cost_usd is None else usage

    async def _exchange(self, fields: JsonObject, ctx: AdapterContext) -> tuple[JsonObject, bool]:
        body = self.body(fields, ctx.settings)
        return await self._poster.exchange(self._endpoint, body, ctx, self._well_formed)

    def _well_formed(self, data: JsonObject) -> bool:
        try:
            self._format.check(data, self.errors)
        except AdapterError:
            return False
        return True
