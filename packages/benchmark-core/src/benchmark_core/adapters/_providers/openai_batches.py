"""OpenAI's Batch API: JSONL in and out through the Files API.

https://platform.openai.com/docs/api-reference/batch and
https://platform.openai.com/docs/api-reference/files:

1. `POST {base}/files`, multipart with `purpose=batch` and the JSONL file, one request a line:
   `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {...}}`;
2. `POST {base}/batches` with `input_file_id`, `endpoint: "/v1/chat/completions"`,
   `completion_window: "24h"` and `metadata`;
3. `GET {base}/batches/{id}` until `status` is `completed`, `failed`, `expired` or `cancelled`;
   `request_counts` holds `total`, `completed` and `failed`;
4. `GET {base}/files/{output_file_id}/content` (and `error_file_id`): lines
   `{"custom_id", "response": {"status_code", "body"}, "error": {"code", "message"} | null}`.

Requests the batch did not reach before its window closed come back with the error code
`batch_expired`, or with no line at all; both are resubmittable. A non-2xx `status_code` is
resubmittable when it is 429 or 5xx.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Optional

import aiohttp

from ..._model import JsonObject
from .._batches import BatchEndpoints, BatchOutcome, BatchStatus, count_of, result_line
from .._json_http import JsonPoster
from .._json_values import error_message

__all__ = ["BATCH_ENDPOINT", "COMPLETION_WINDOW", "OpenAIBatches"]

BATCH_ENDPOINT = "/v1/chat/completions"
COMPLETION_WINDOW = "24h"
_ENDED = frozenset({"completed", "failed", "expired", "cancelled"})


class OpenAIBatches(BatchEndpoints):
    """The batch endpoints under an OpenAI API root (`https://api.openai.com/v1`)."""

    def __init__(self, poster: JsonPoster, base_url: str) -> None:
        super().__init__(poster)
        self._base = base_url.rstrip("/")

    async def submit(self, items: Sequence[JsonObject], metadata: dict[str, str]) -> str:
        lines = "".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n" for item in items)
        form = aiohttp.FormData()
        form.add_field("purpose", "batch")
        form.add_field("file", lines.encode(), filename="batch.jsonl", content_type="application/jsonl")
        uploaded = await self._poster.post_form(f"{self._base}/files", form)
        body: JsonObject = {
            "input_file_id": self._text(uploaded, "id", "file"),
            "endpoint": BATCH_ENDPOINT,
            "completion_window": COMPLETION_WINDOW,
            "metadata": metadata,
        }
        return self._text(await self._poster.post(f"{self._base}/batches", body), "id", "batch")

    async def find(self, tag: str) -> Optional[str]:
        """Among the most recent batches (`GET /batches?limit=100`), the one whose metadata holds `tag`."""
        data = await self._poster.get_json(f"{self._base}/batches?limit=100")
        for batch in data.get("data") or []:
            metadata = batch.get("metadata") if isinstance(batch, dict) else None
            if isinstance(metadata, dict) and metadata.get("benchmark_core_tag") == tag:
                return self._text(batch, "id", "batch")
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        data = await self._poster.get_json(f"{self._base}/batches/{batch_id}")
        state = self._text(data, "status", "batch")
        counts = data.get("request_counts")
        counts = counts if isinstance(counts, dict) else {}
        return BatchStatus(
            id=batch_id,
            state=state,
            ended=state in _ENDED,
            total=count_of(counts.get("total")),
            succeeded=count_of(counts.get("completed")),
            failed=count_of(counts.get("failed")),
        )

    async def results(self, batch_id: str) -> list[BatchOutcome]:
        data = await self._poster.get_json(f"{self._base}/batches/{batch_id}")
        outcomes: list[BatchOutcome] = []
        for key in ("output_file_id", "error_file_id"):
            file_id = data.get(key)
            if isinstance(file_id, str) and file_id:
                content = await self._poster.get_bytes(f"{self._base}/files/{file_id}/content")
                outcomes += [_outcome(line) for line in content.decode("utf-8").splitlines() if line.strip()]
        if data.get("status") == "failed" and not outcomes:
            # The input itself was refused (validation): sending it again would be refused again.
            reason = error_message(data.get("errors")) or _first_error(data.get("errors")) or "the batch failed"
            raise self._poster.errors.error(f"batch {batch_id} failed: {reason}", fatal=True)
        return outcomes


def _outcome(line: str) -> BatchOutcome:
    read = result_line(line, "custom_id")
    if isinstance(read, BatchOutcome):
        return read
    custom_id, entry = read
    error = entry.get("error")
    response = entry.get("response")
    if isinstance(error, dict):
        code = str(error.get("code") or "error")
        return BatchOutcome(
            custom_id=custom_id, error=f"{code}: {error.get('message') or 'no message'}", retryable=_retryable(code)
        )
    if not isinstance(response, dict) or not isinstance(response.get("body"), dict):
        return BatchOutcome(custom_id=custom_id, error="the result has no response body", retryable=True)
    status = response.get("status_code")
    body: JsonObject = response["body"]
    if status != 200:
        message = error_message(body) or "no message"
        retry = isinstance(status, int) and (status == 429 or status >= 500)
        return BatchOutcome(custom_id=custom_id, error=f"HTTP {status}: {message}", retryable=retry)
    return BatchOutcome(custom_id=custom_id, answer=body)


def _retryable(code: str) -> bool:
    return code in ("batch_expired", "batch_cancelled", "rate_limit_exceeded", "server_error", "timeout")


def _first_error(errors: Any) -> str:
    data = errors.get("data") if isinstance(errors, dict) else None
    first = data[0] if isinstance(data, list) and data else None
    message = first.get("message") if isinstance(first, dict) else None
    return message if isinstance(message, str) else ""
