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
from typing import Union

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject
from . import _anthropic_wire as wire
from ._native import NativeAdapter
from .anthropic_batches import AnthropicBatches
from .base import AdapterContext, GenerationSettings
from .batches import BatchRequest
from .catalog import PROVIDERS_BY_NAME
from .toolnames import ToolNameCodec, request_names

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
        data, cached = await self.exchange(_prompt_fields(prompt), ctx)
        return self._completion(data, cached)

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        names = request_names(request)
        fields = wire.request_fields(list(request.messages), list(request.tools), names, cache_prefix=True)
        data, cached = await self.exchange(fields, ctx)
        return self._chat_result(data, names, cached)

    supports_batch = True

    def batch_client(self) -> AnthropicBatches:
        return AnthropicBatches(self._poster, self._base_url)

    def batch_item(self, custom_id: str, request: BatchRequest, ctx: AdapterContext) -> JsonObject:
        """One request of a Message Batch: the `params` a direct request would send."""
        if isinstance(request, str):
            fields = _prompt_fields(request)
        else:
            names = request_names(request)
            fields = wire.request_fields(list(request.messages), list(request.tools), names, cache_prefix=True)
        return {"custom_id": custom_id, "params": self.body(fields, ctx.settings)}

    def batch_answer(self, request: BatchRequest, answer: JsonObject) -> Union[CompletionResult, ChatResult]:
        if isinstance(request, str):
            return self._completion(answer, False)
        return self._chat_result(answer, request_names(request), False)

    def _completion(self, data: JsonObject, cached: bool) -> CompletionResult:
        blocks = wire.content_blocks(data, self.errors)
        return CompletionResult(
            text=wire.text_of(blocks),
            usage=self.priced(wire.usage_of(data)),
            served_by=wire.served_by_of(data),
            cached=cached,
            truncated=wire.truncated(data),
        )

    def _chat_result(self, data: JsonObject, names: ToolNameCodec, cached: bool) -> ChatResult:
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


def _prompt_fields(prompt: str) -> JsonObject:
    return {"messages": [{"role": "user", "content": prompt}]}


#: The adapter with its API root and key from the arguments, else the variables of the provider table.
anthropic_adapter = AnthropicAdapter.from_environment
