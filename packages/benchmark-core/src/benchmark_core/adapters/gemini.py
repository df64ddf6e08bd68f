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

from collections.abc import Mapping
from urllib.parse import quote

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject
from . import _gemini_wire as wire
from ._native import NativeAdapter
from .base import AdapterContext, GenerationSettings
from .catalog import PROVIDERS_BY_NAME
from .toolnames import request_names

__all__ = ["GEMINI_BASE_URL", "GeminiAdapter", "gemini_adapter"]

_INFO = PROVIDERS_BY_NAME["gemini"]
GEMINI_BASE_URL = _INFO.base_url


class GeminiAdapter(NativeAdapter):
    """A model behind generateContent. `base_url` is the API root (without `/v1beta`); `model` is
    the model id, with or without the `models/` prefix."""

    _provider = "gemini"

    def _headers(self, api_key: str) -> Mapping[str, str]:
        return {"x-goog-api-key": api_key}

    def _url(self, base_url: str, model: str) -> str:
        return f"{base_url}/v1beta/models/{quote(model.removeprefix('models/'), safe='')}:generateContent"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        fields: JsonObject = {"contents": [{"role": "user", "parts": [{"text": prompt}]}]}
        data, cached = await self.exchange(fields, ctx)
        candidate = wire.first_candidate(data, self.errors)
        return CompletionResult(
            text=wire.text_of(wire.parts_of(candidate)),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(candidate),
        )

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = request_names(request)
        fields = wire.request_fields(list(request.messages), list(request.tools), names)
        data, cached = await self.exchange(fields, ctx)
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


#: The adapter with its API root and key from the arguments, else the variables of the provider table.
gemini_adapter = GeminiAdapter.from_environment
