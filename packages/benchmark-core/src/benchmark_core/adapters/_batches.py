"""Batch APIs: many single requests submitted at once, answered within a day, at half price.

An adapter that offers one (`BatchCapable`: the OpenAI-compatible adapter for OpenAI's Files and
Batches, the Anthropic adapter for Message Batches) gives the runner three things:

- `batch_item(custom_id, request, ctx)`: the request exactly as a direct call would send it (the same
  body: model, messages, tools and every generation setting, reasoning effort included), wrapped
  as one line of the provider's batch input;
- `batch_answer(request, answer)`: a batch result read back as the direct call's result would be;
- `batch_client()`: the `BatchClient` that submits a list of items, reports a batch's `BatchStatus`
  and fetches its `BatchOutcome`s by custom id.

`BATCH_DISCOUNT` is the share of the direct price both providers take off batched requests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Optional, Protocol, Union, runtime_checkable

from attrs import frozen

from .._model import ChatRequest, ChatResult, CompletionResult, JsonObject
from ..errors._provider import MalformedResponseError
from .base import AdapterContext

if TYPE_CHECKING:
    from ._json_http import JsonPoster

__all__ = [
    "BATCH_DISCOUNT",
    "BatchEndpoints",
    "BatchCapable",
    "BatchClient",
    "BatchOutcome",
    "BatchStatus",
    "BatchRequest",
    "ListedBatch",
    "batch_capable",
    "count_of",
    "parse_time",
    "result_line",
]

#: OpenAI and Anthropic both bill batched requests at 50% of the direct price.
BATCH_DISCOUNT = 0.5

#: A single task's request: a prompt (prompt mode) or a chat with tools (native mode).
BatchRequest = Union[str, ChatRequest]


@frozen
class BatchStatus:
    """A batch as the provider reports it: its `state` in the provider's words, whether it has
    `ended` (its results can be fetched), and its counts."""

    id: str
    state: str
    ended: bool
    total: int = 0
    succeeded: int = 0
    failed: int = 0

    def describe(self) -> str:
        """One line for progress output: `batch_abc: in_progress, 40/100 done, 1 failed`."""
        done = self.succeeded + self.failed
        failed = f", {self.failed} failed" if self.failed else ""
        return f"batch {self.id}: {self.state}, {done}/{self.total} done{failed}"


@frozen
class BatchOutcome:
    """One item's result: the provider's answer body (a direct call's answer), or the error with
    whether submitting it again may succeed (expired, 429, 5xx) or not (a rejected request)."""

    custom_id: str
    answer: Optional[JsonObject] = None
    error: Optional[str] = None
    retryable: bool = False


@frozen
class ListedBatch:
    """A batch as the provider's list shows it: its id, when it was created, and how many requests
    it holds (what a batch created without metadata can be recognised by)."""

    id: str
    created_at: datetime
    requests: int


class BatchClient(Protocol):
    """One provider's batch endpoints."""

    async def submit(self, items: Sequence[JsonObject], metadata: dict[str, str]) -> str:
        """Create a batch of `items` (lines from `batch_item`); its id."""
        ...

    async def status(self, batch_id: str) -> BatchStatus: ...

    async def find(self, tag: str) -> Optional[str]:
        """The id of a batch created with `metadata["benchmark_core_tag"] == tag`, or None (also when
        the provider keeps no metadata)."""
        ...

    async def results(self, batch_id: str) -> list[BatchOutcome]:
        """The outcome of every item of an ended batch (items without one count as expired)."""
        ...

    async def created_since(self, since: datetime) -> list[ListedBatch]:
        """The batches created at or after `since`, most recent first, for a provider whose batches
        keep no metadata to `find` them by (empty for the others)."""
        ...

    async def aclose(self) -> None: ...


@runtime_checkable
class BatchCapable(Protocol):
    """An adapter with a batch API."""

    def batch_client(self) -> BatchClient: ...

    def batch_item(self, custom_id: str, request: BatchRequest, ctx: AdapterContext) -> JsonObject: ...

    def batch_answer(self, request: BatchRequest, answer: JsonObject) -> Union[CompletionResult, ChatResult]: ...


def batch_capable(adapter: object) -> Optional[BatchCapable]:
    """The adapter as a `BatchCapable`, or None when its provider has no batch API here."""
    return adapter if isinstance(adapter, BatchCapable) and getattr(adapter, "supports_batch", True) else None


def count_of(value: Any) -> int:
    """A count from a provider's batch object: a whole number >= 0, else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


class BatchEndpoints:
    """What both providers' batch clients share: the adapter's poster (its headers, key and
    errors), closing it, and reading what an answer must hold."""

    def __init__(self, poster: JsonPoster) -> None:
        self._poster = poster

    async def aclose(self) -> None:
        await self._poster.close()

    def _text(self, data: JsonObject, key: str, what: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self._poster.errors.error(
                f"the {what} answer has no {key!r}", retryable=True, kind=MalformedResponseError
            )
        return value


def parse_time(value: object) -> Optional[datetime]:
    """An RFC 3339 timestamp (`2024-08-20T18:37:24.100435Z`, any number of fraction digits) as an
    aware datetime, or None when it is not one."""
    if not isinstance(value, str):
        return None
    match = _RFC3339.match(value)
    if match is None:
        return None
    head, fraction, zone = match.groups()
    micros = (fraction or "")[1:7].ljust(6, "0")
    try:
        parsed = datetime.fromisoformat(f"{head}.{micros}{'+00:00' if zone in ('Z', 'z') else zone}")
    except ValueError:
        return None
    return parsed.astimezone(timezone.utc)


_RFC3339 = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|z|[+-]\d\d:\d\d)$")


def result_line(line: str, key: str) -> Union[tuple[str, JsonObject], BatchOutcome]:
    """A results line's custom id and its object under `key` (`response`/`error` entries for
    OpenAI: `key` is what must be present, may be null), or the outcome of an unreadable line."""
    try:
        entry = json.loads(line)
    except ValueError:
        entry = None
    custom_id = entry.get("custom_id") if isinstance(entry, dict) else None
    if not isinstance(entry, dict) or not isinstance(custom_id, str) or key not in entry:
        return BatchOutcome(custom_id="", error=f"unreadable result line: {line[:80]!r}")
    return custom_id, entry
