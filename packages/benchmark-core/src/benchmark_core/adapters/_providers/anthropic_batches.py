"""Anthropic's Message Batches API.

https://docs.anthropic.com/en/api/creating-message-batches,
https://docs.anthropic.com/en/api/retrieving-message-batches and
https://docs.anthropic.com/en/api/retrieving-message-batch-results:

1. `POST {root}/v1/messages/batches` with `requests`, each `{"custom_id", "params"}`, where `params`
   is the body a direct `POST /v1/messages` would send;
2. `GET {root}/v1/messages/batches/{id}` until `processing_status` is `ended`; `request_counts`
   holds `processing`, `succeeded`, `errored`, `canceled` and `expired`;
3. `GET results_url`: JSONL, one `{"custom_id", "result"}` a line, the result's `type` being
   `succeeded` (with the `message`), `errored` (with the `error`), `canceled` or `expired`.

Message Batches take no metadata, so a batch whose create answer was lost is found by listing
(https://docs.anthropic.com/en/api/listing-message-batches: `GET {root}/v1/messages/batches` with
`limit` up to 1000 and `after_id`, the most recent first; `data`, `has_more`, `last_id`) the
batches created since the run journaled it (`created_since`), which the runner matches by their
request count and creation time (`runs._batch`).

Expired and canceled items are resubmittable, as are errors of type `api_error`,
`overloaded_error` and `rate_limit_error`; other errors (an invalid request) are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Optional
from urllib.parse import urlencode

from ..._model import JsonObject
from .._batches import BatchEndpoints, BatchOutcome, BatchStatus, ListedBatch, count_of, parse_time, result_line
from .._json_http import JsonPoster

__all__ = ["AnthropicBatches"]

_RETRYABLE_ERRORS = frozenset({"api_error", "overloaded_error", "rate_limit_error"})
#: Batches per page of the list, and pages read at most (the list goes back to the workspace's
#: first batch; those created since a run's journal line are on the first page or two).
_PAGE = 100
_PAGES = 20
_COUNTS = ("processing", "succeeded", "errored", "canceled", "expired")


class AnthropicBatches(BatchEndpoints):
    """The Message Batches endpoints under an Anthropic API root (`https://api.anthropic.com`)."""

    def __init__(self, poster: JsonPoster, base_url: str) -> None:
        super().__init__(poster)
        self._endpoint = f"{base_url.rstrip('/')}/v1/messages/batches"

    async def submit(self, items: Sequence[JsonObject], metadata: dict[str, str]) -> str:
        # Message Batches take no metadata: the journal alone ties a batch to its run.
        data = await self._poster.post(self._endpoint, {"requests": list(items)})
        return self._text(data, "id", "message batch")

    async def find(self, tag: str) -> Optional[str]:
        return None  # Message Batches keep no metadata: nothing ties a batch to its tag

    async def created_since(self, since: datetime) -> list[ListedBatch]:
        """Page through the list, the most recent first, until a batch created before `since`."""
        found: list[ListedBatch] = []
        after: Optional[str] = None
        for _ in range(_PAGES):
            query = {"limit": str(_PAGE), **({"after_id": after} if after is not None else {})}
            data = await self._poster.get_json(f"{self._endpoint}?{urlencode(query)}")
            page = [b for b in data.get("data") or [] if isinstance(b, dict)]
            for batch in page:
                created = parse_time(batch.get("created_at"))
                if created is None:
                    continue
                if created < since:
                    return found
                found.append(ListedBatch(self._text(batch, "id", "message batch"), created, _requests(batch)))
            last = data.get("last_id")
            if data.get("has_more") is not True or not isinstance(last, str) or not page:
                break
            after = last
        return found

    async def status(self, batch_id: str) -> BatchStatus:
        data = await self._poster.get_json(f"{self._endpoint}/{batch_id}")
        state = self._text(data, "processing_status", "message batch")
        counts = data.get("request_counts")
        counts = counts if isinstance(counts, dict) else {}
        numbers = {key: count_of(counts.get(key)) for key in _COUNTS}
        failed = numbers["errored"] + numbers["canceled"] + numbers["expired"]
        return BatchStatus(
            id=batch_id,
            state=state,
            ended=state == "ended",
            total=sum(numbers.values()),
            succeeded=numbers["succeeded"],
            failed=failed,
        )

    async def results(self, batch_id: str) -> list[BatchOutcome]:
        data = await self._poster.get_json(f"{self._endpoint}/{batch_id}")
        url = self._text(data, "results_url", "message batch")
        content = await self._poster.get_bytes(url)
        return [_outcome(line) for line in content.decode("utf-8").splitlines() if line.strip()]


def _requests(batch: JsonObject) -> int:
    """A listed batch's request count: the sum of its `request_counts`."""
    counts = batch.get("request_counts")
    return sum(count_of(counts.get(key)) for key in _COUNTS) if isinstance(counts, dict) else 0


def _outcome(line: str) -> BatchOutcome:
    read = result_line(line, "result")
    if isinstance(read, BatchOutcome):
        return read
    custom_id, entry = read
    result = entry["result"]
    if not isinstance(result, dict):
        return BatchOutcome(custom_id=custom_id, error="the result is not an object")
    kind = result.get("type")
    if kind == "succeeded" and isinstance(result.get("message"), dict):
        return BatchOutcome(custom_id=custom_id, answer=result["message"])
    if kind in ("expired", "canceled"):
        return BatchOutcome(custom_id=custom_id, error=str(kind), retryable=True)
    error = result.get("error")
    inner = error.get("error") if isinstance(error, dict) else None
    detail = inner if isinstance(inner, dict) else error if isinstance(error, dict) else {}
    error_type = str(detail.get("type") or "error")
    message = f"{error_type}: {detail.get('message') or 'no message'}"
    return BatchOutcome(custom_id=custom_id, error=message, retryable=error_type in _RETRYABLE_ERRORS)
