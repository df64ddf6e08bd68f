"""Anthropic's Messages API, natively: `POST {base_url}/v1/messages` with `x-api-key` and
`anthropic-version: 2023-06-01` (https://docs.anthropic.com/en/api/messages).

The wire format (tool_use and tool_result blocks, extended thinking, prompt caching, usage with
cache reads and writes, truncation) is `_anthropic_wire`. Failures are those of every provider: 429
(with `retry-after`), 529 (overloaded) and other 5xx, timeouts, connection failures and malformed
answers are retried; 400, 401, 403 and 404 (an unknown model) end the run. The key goes only into
the `x-api-key` header and is scrubbed from every error message. With `prices`, each answer's cost
and what the prompt cache saved are computed from its usage (Anthropic reports no cost).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject
from . import _anthropic_wire as wire
from ._native import NativeAdapter
from .base import AdapterContext, GenerationSettings
from .catalog import PROVIDERS_BY_NAME
from .toolnames import request_names

__all__ = ["ANTHROPIC_BASE_URL", "AnthropicAdapter", "anthropic_adapter"]

_INFO = PROVIDERS_BY_NAME["anthropic"]
ANTHROPIC_BASE_URL = _INFO.base_url


class AnthropicAdapter(NativeAdapter):
    """A model behind the Messages API. `base_url` is the API root, without `/v1`."""

    _provider = "anthropic"

    def _headers(self, api_key: str) -> Mapping[str, str]:
        return {"x-api-key": api_key, "anthropic-version": wire.ANTHROPIC_VERSION}

    def _url(self, base_url: str, model: str) -> str:
        return f"{base_url}/v1/messages"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        fields: JsonObject = {"messages": [{"role": "user", "content": prompt}]}
        data, cached = await self.exchange(fields, ctx)
        blocks = wire.content_blocks(data, self.errors)
        return CompletionResult(
            text=wire.text_of(blocks),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(data),
        )

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = request_names(request)
        fields = wire.request_fields(list(request.messages), list(request.tools), names, cache_prefix=True)
        data, cached = await self.exchange(fields, ctx)
        blocks = wire.content_blocks(data, self.errors)
        return ChatResult(
            message=wire.reply_of(blocks, names, self.errors),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(data),
        )

    def _settings_fields(self, settings: GenerationSettings) -> JsonObject:
        return {**wire.settings_fields(settings, self.errors), "model": self._model}

    def _check(self, data: JsonObject) -> None:
        wire.content_blocks(data, self.errors)


#: The adapter with its API root and key from the arguments, else the variables of the provider table.
anthropic_adapter = AnthropicAdapter.from_environment
