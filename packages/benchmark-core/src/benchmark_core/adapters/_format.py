"""What one provider's HTTP format is, for the one `ChatAdapter` (`_chat`): the request's URL,
headers and body, the answer read back (text, tool calls, usage, served-by, truncation), how its
errors and rate-limit headers read, and its batch API if it has one. A provider is one module of
`_providers/` holding a `ProviderFormat` subclass named `FORMAT`, and a row of the provider table
(`catalog`) whose `wire` names that module.

The defaults here are what most providers share: an error body's message at `error.message`, the
`x-ratelimit-*` headers, no batch API.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Optional, Union

from .._model import ChatMessage, ChatRequest, JsonObject, JsonValue, ServedBy, Usage
from ..errors._provider import AdapterError
from ._json_values import error_message
from ._ratelimits import RateLimits, parse_rate_limits
from .base import GenerationSettings
from .catalog import ProviderInfo

if TYPE_CHECKING:
    from ._batches import BatchClient
    from ._json_http import JsonPoster
    from ._provider_errors import ProviderErrors
    from ._toolnames import ToolNameCodec


class ProviderFormat:
    """One provider's HTTP format (see the module docstring); `info` is its row of the table."""

    #: The rate-limit header families its answers carry (`_ratelimits.FAMILIES`).
    rate_limit_families: tuple[str, ...] = ("openai",)

    def __init__(self, info: ProviderInfo) -> None:
        self.info = info
        #: Fields merged into every request body before the run's settings.
        self.extra_body: JsonObject = {}

    # The request.

    def headers(self, api_key: str) -> dict[str, str]:
        """The headers of every request, the key among them (none when the key is empty)."""
        raise NotImplementedError

    def endpoint(self, base_url: str, model: str) -> str:
        """Where requests are sent, given the validated API root."""
        raise NotImplementedError

    def settings_fields(self, settings: GenerationSettings, model: str, errors: ProviderErrors) -> JsonObject:
        """The body fields of a run's settings and the model (built once per settings object);
        settings the provider refuses are a fatal `AdapterError`."""
        raise NotImplementedError

    def prompt_fields(self, prompt: str) -> JsonObject:
        """The body fields of a single prompt."""
        raise NotImplementedError

    def chat_fields(self, request: ChatRequest, names: ToolNameCodec) -> JsonObject:
        """The body fields of a chat turn with tools, the tools under `names`."""
        raise NotImplementedError

    # The answer.

    def check(self, data: JsonObject, errors: ProviderErrors) -> None:
        """Raise the `AdapterError` of an answer that is not well formed (so it is not cached)."""
        raise NotImplementedError

    def completion(self, data: JsonObject, errors: ProviderErrors) -> tuple[str, bool]:
        """A single prompt's answer: its text and whether it stopped at the token limit."""
        raise NotImplementedError

    def reply(
        self, data: JsonObject, request: ChatRequest, names: ToolNameCodec, errors: ProviderErrors
    ) -> tuple[ChatMessage, bool]:
        """A chat turn's answer: the assistant message (the benchmark's tool names) and truncation."""
        raise NotImplementedError

    def usage(self, data: JsonObject) -> Usage:
        raise NotImplementedError

    def served_by(self, data: JsonObject) -> Optional[ServedBy]:
        raise NotImplementedError

    def used_tokens(self, data: Optional[JsonObject]) -> Optional[int]:
        """The tokens an answer says its request used, for pacing (None: not said)."""
        raise NotImplementedError

    # Failures and rate limits.

    def error(
        self, status: int, data: JsonValue, text: str, retry_after: Union[str, float, None], errors: ProviderErrors
    ) -> AdapterError:
        """The `AdapterError` of a non-2xx answer: `data` its JSON (None if not JSON), `text` its raw
        body, `retry_after` what its headers said."""
        return errors.status(status, error_message(data) or text, retry_after)

    def rate_limits(self, headers: Mapping[str, str]) -> RateLimits:
        """What an answer's headers say of the budget left."""
        return parse_rate_limits(headers, families=self.rate_limit_families)

    # Batches.

    @property
    def supports_batch(self) -> bool:
        return False

    def batch_client(self, poster: JsonPoster, base_url: str) -> BatchClient:
        raise NotImplementedError(f"{self.info.name} has no batch API here")

    def batch_line(self, custom_id: str, body: JsonObject) -> JsonObject:
        """One item of a batch's input: the body a direct request would send, wrapped."""
        raise NotImplementedError(f"{self.info.name} has no batch API here")


def format_of(info: ProviderInfo) -> ProviderFormat:
    """The format object of the table's row `info`: the `FORMAT` of `_providers/<info.wire>.py`."""
    module = importlib.import_module(f"._providers.{info.wire}", __package__)
    found: ProviderFormat = module.FORMAT(info)
    return found
