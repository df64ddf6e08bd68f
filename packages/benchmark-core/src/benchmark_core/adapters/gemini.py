"""Google's Gemini API, natively: `POST {base_url}/v1beta/models/{model}:generateContent` with the
key in `x-goog-api-key` (https://ai.google.dev/api/generate-content).

The wire format (function declarations, `functionCall`/`functionResponse` parts, thinking, usage
with `thoughtsTokenCount`, truncation) is `_gemini_wire`. Failures are those of every provider: 429
(`RESOURCE_EXHAUSTED`), 503 and other 5xx, timeouts, connection failures and malformed answers are
retried; 400 (`INVALID_ARGUMENT`), 401, 403 (`PERMISSION_DENIED`) and 404 end the run. The key goes
only into its header (never into the URL's `?key=`, which would reach logs) and is scrubbed from
every error message. With `prices`, each answer's cost is computed from its usage.

Google's OpenAI-compatible endpoint was not used: this adapter reads `thoughtsTokenCount`, keeps
thought signatures for multi-turn function calling, and sends JSON Schema through
`parametersJsonSchema`, none of which that endpoint's documented subset promises.
"""

from __future__ import annotations

from typing import Optional
from urllib.parse import quote

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject
from . import _gemini_wire as wire
from ._json_http import DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT, resolve_endpoint
from ._native import NativeAdapter
from .base import AdapterContext, GenerationSettings
from .catalog import PROVIDERS_BY_NAME
from .prices import Prices
from .toolnames import ToolNameCodec

__all__ = ["GEMINI_BASE_URL", "GeminiAdapter", "gemini_adapter"]

_INFO = PROVIDERS_BY_NAME["gemini"]
GEMINI_BASE_URL = _INFO.base_url


class GeminiAdapter(NativeAdapter):
    """A model behind generateContent. `base_url` is the API root (without `/v1beta`); `model` is
    the model id, with or without the `models/` prefix."""

    _provider = "gemini"

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
        super().__init__(
            base_url=base_url,
            model=model,
            api_key=api_key,
            headers={"x-goog-api-key": api_key},
            prices=prices,
            max_connections=max_connections,
            request_timeout=request_timeout,
        )
        name = quote(model.removeprefix("models/"), safe="")
        self._endpoint = f"{self._base_url}/v1beta/models/{name}:generateContent"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        fields: JsonObject = {"contents": [{"role": "user", "parts": [{"text": prompt}]}]}
        data, cached = await self.exchange(self._endpoint, fields, ctx)
        candidate = wire.first_candidate(data, self.errors)
        return CompletionResult(
            text=wire.text_of(wire.parts_of(candidate)),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(candidate),
        )

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = ToolNameCodec(
            [tool.name for tool in request.tools]
            + [call.name for message in request.messages for call in message.tool_calls or []]
        )
        fields = wire.request_fields(list(request.messages), list(request.tools), names)
        data, cached = await self.exchange(self._endpoint, fields, ctx)
        candidate = wire.first_candidate(data, self.errors)
        turn = sum(1 for message in request.messages if message.role == "assistant")
        return ChatResult(
            message=wire.reply_of(wire.parts_of(candidate), names, turn, self.errors),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(candidate),
        )

    def _settings_fields(self, settings: GenerationSettings) -> JsonObject:
        return wire.settings_fields(settings)

    def _check(self, data: JsonObject) -> None:
        wire.first_candidate(data, self.errors)


def gemini_adapter(
    model: str,
    api_key: Optional[str] = None,
    *,
    base_url: Optional[str] = None,
    prices: Optional[Prices] = None,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
) -> GeminiAdapter:
    """The generateContent adapter. `base_url` defaults to `$GEMINI_BASE_URL`, then to Google's;
    `api_key` to `$GEMINI_API_KEY`."""
    url, key = resolve_endpoint(
        "gemini", GEMINI_BASE_URL, _INFO.base_url_variable, _INFO.key_variable, base_url=base_url, api_key=api_key
    )
    return GeminiAdapter(
        base_url=url,
        model=model,
        api_key=key,
        prices=prices,
        max_connections=max_connections,
        request_timeout=request_timeout,
    )
