"""Fake batch APIs for tests: OpenAI's Files + Batches and Anthropic's Message Batches, each a real
aiohttp server on 127.0.0.1.

    fake = FakeOpenAIBatches(mock_handler(benchmark), processing_delay=0.5)
    with fake.in_thread():
        adapter = openai_compat_adapter(fake.base_url, "m", "sk-test")   # base_url ends in /v1
        ...
    assert set(fake.submissions.values()) == {1}   # every custom id submitted exactly once

- `FakeOpenAIBatches` follows https://platform.openai.com/docs/api-reference/batch and
  https://platform.openai.com/docs/api-reference/files: `POST /v1/files` (multipart, `purpose=batch`),
  `POST /v1/batches` (`input_file_id`, `endpoint` `/v1/chat/completions`, `completion_window` `24h`),
  `GET /v1/batches/{id}` (`status`, `request_counts`, `output_file_id`, `error_file_id`), `GET
  /v1/batches` (the most recent first, `limit`) and
  `GET /v1/files/{id}/content` (JSONL: `custom_id`, `response.status_code`, `response.body`, `error`).
- `FakeAnthropicBatches` follows https://docs.anthropic.com/en/api/creating-message-batches and
  https://docs.anthropic.com/en/api/retrieving-message-batch-results: `POST /v1/messages/batches`
  (`requests` of `custom_id` and `params`), `GET /v1/messages/batches/{id}` (`processing_status`,
  `request_counts`, `results_url`, `created_at`), `GET /v1/messages/batches` (per
  https://docs.anthropic.com/en/api/listing-message-batches: the most recent first, `limit` 1 to
  1000, default 20, paged by `after_id`/`before_id`; `data`, `first_id`, `last_id`, `has_more`) and
  the results (JSONL: `custom_id`, `result.type` `succeeded`
  with its `message`, `errored` with its `error`, or `expired`). `base_url` is the API root, without
  `/v1`, as `ANTHROPIC_BASE_URL` holds it.

Each item's answer comes from `handler` (as a fake's: given a `RecordedRequest` whose body is the
item's request body, it returns a `FakeResponse`, or for Anthropic an `AnthropicResponse`;
`mock_handler(benchmark, wire=...)` plays the mock in either shape).
`create_delay` holds back the answer to a create (the batch exists meanwhile; with a client timeout
shorter than it, the create's answer is lost). A batch is
`in_progress` for `processing_delay` seconds, its counts rising with the time, then ends.
`item_fault(custom_id, submission)` (submission counts from 1) may fail an item: "expired" or
"error" (a 500); None answers it. `submissions` counts each custom id's submissions; `batches`
holds the created batches; with `api_key`, requests without it get a 401.
"""

from __future__ import annotations

import asyncio
import collections
import inspect
import json
import re
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any, Optional

from aiohttp import web
from attrs import define, field

from .._model import JsonObject
from ._loopback import Handler, LoopbackServer, RecordedRequest, ScriptedResponse
from .fake_anthropic import estimate_tokens

ItemFault = Callable[[str, int], Optional[str]]
_ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@define
class FakeBatch:
    """One created batch: its items (custom id -> request body), when it was created, its results
    once it has ended (custom id -> (status, body), or None for an expired item)."""

    id: str
    items: dict[str, JsonObject]
    created: float
    metadata: JsonObject = field(factory=dict)
    results: Optional[dict[str, Optional[tuple[int, JsonObject]]]] = None
    polls: int = 0
    #: The wall-clock time of its creation (what the list endpoints show).
    created_at: float = field(factory=time.time)


class _BatchServer(LoopbackServer):
    """What both fakes share: the handler, faults, delay, counts and the end of a batch."""

    def __init__(
        self,
        handler: Handler,
        *,
        processing_delay: float = 0.0,
        item_fault: Optional[ItemFault] = None,
        api_key: Optional[str] = None,
        create_delay: float = 0.0,
    ) -> None:
        super().__init__(handler=handler, api_key=api_key)
        self.processing_delay = processing_delay
        self.create_delay = create_delay
        self.item_fault = item_fault
        self.batches: dict[str, FakeBatch] = {}
        self.submissions: collections.Counter[str] = collections.Counter()
        self.polls = 0

    async def _create(self, prefix: str, items: dict[str, JsonObject], metadata: JsonObject) -> FakeBatch:
        """Create the batch, then answer after `create_delay` (a client timing out meanwhile does
        not know the batch exists, as after a lost answer)."""
        batch = FakeBatch(f"{prefix}_{len(self.batches) + 1:04d}", items, time.monotonic(), metadata)
        self.submissions.update(items.keys())
        self.batches[batch.id] = batch
        if self.create_delay > 0:
            await asyncio.sleep(self.create_delay)
        return batch

    def _counts(self, batch: FakeBatch) -> tuple[int, int, int]:
        """(total, succeeded, failed) now: rising with the time while in progress."""
        total = len(batch.items)
        if batch.results is None:
            share = 1.0 if self.processing_delay <= 0 else (time.monotonic() - batch.created) / self.processing_delay
            return total, int(total * min(share, 0.99)), 0
        failed = sum(1 for result in batch.results.values() if result is None or result[0] != 200)
        return total, total - failed, failed

    async def _advance(self, batch: FakeBatch) -> None:
        """Count a poll; end the batch (answer every item) once its processing delay has passed."""
        self.polls += 1
        batch.polls += 1
        if batch.results is not None or time.monotonic() - batch.created < self.processing_delay:
            return
        results: dict[str, Optional[tuple[int, JsonObject]]] = {}
        for number, (custom_id, body) in enumerate(batch.items.items()):
            fault = self.item_fault(custom_id, self.submissions[custom_id]) if self.item_fault else None
            if fault == "expired":
                results[custom_id] = None
            elif fault == "error":
                results[custom_id] = (500, {"error": {"type": "api_error", "message": "injected item failure"}})
            else:
                request = RecordedRequest(index=number, method="POST", path="(batch item)", headers={}, body=body)
                assert self.handler is not None  # given to the constructor
                answer: Any = self.handler(request)
                response: ScriptedResponse = await answer if inspect.isawaitable(answer) else answer
                results[custom_id] = (response.status, self.finished(body, response))
        batch.results = results

    def finished(self, body: JsonObject, response: ScriptedResponse) -> JsonObject:
        """An item's answer as the provider sends it (the Anthropic fake fills in the model and usage)."""
        return response.body if isinstance(response.body, dict) else {}

    def _guarded(self, handler: Callable[[web.Request], Awaitable[web.Response]]) -> Any:
        """`handler` behind the key check of `_auth`."""

        async def guarded(request: web.Request) -> web.Response:
            refused = self._auth(request)
            return refused if refused is not None else await handler(request)

        return guarded

    def _auth(self, request: web.Request) -> Optional[web.Response]:
        raise NotImplementedError

    def _refused(self, request: web.Request, header: str, value: str) -> Optional[web.Response]:
        if self.api_key is None or request.headers.get(header) == value:
            return None
        return _error(401, "authentication_error", "invalid API key")

    async def _batch_of(self, request: web.Request) -> FakeBatch:
        batch = self.batches.get(request.match_info["batch_id"])
        if batch is None:
            raise web.HTTPNotFound(
                text=json.dumps({"error": {"message": "no such batch"}}), content_type="application/json"
            )
        return batch


class FakeOpenAIBatches(_BatchServer):
    """OpenAI's Files and Batches (see the module docstring); `base_url` ends in `/v1`."""

    def __init__(self, handler: Handler, **options: Any) -> None:
        super().__init__(handler, **options)
        self.files: dict[str, tuple[str, bytes]] = {}

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/files", self._guarded(self._upload))
        app.router.add_get("/v1/files/{file_id}/content", self._guarded(self._content))
        app.router.add_post("/v1/batches", self._guarded(self._create_batch))
        app.router.add_get("/v1/batches/{batch_id}", self._guarded(self._retrieve))
        app.router.add_get("/v1/batches", self._guarded(self._list))

    def _auth(self, request: web.Request) -> Optional[web.Response]:
        return self._refused(request, "Authorization", f"Bearer {self.api_key}")

    async def _upload(self, request: web.Request) -> web.Response:
        form = await request.post()
        upload = form.get("file")
        if form.get("purpose") != "batch" or not isinstance(upload, web.FileField):
            return _error(400, "invalid_request_error", "a batch file upload needs purpose=batch and a file")
        file_id = f"file-{len(self.files) + 1:04d}"
        content = upload.file.read()
        self.files[file_id] = ("batch", content)
        return web.json_response(
            {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
             "filename": upload.filename, "purpose": "batch"}
        )  # fmt: skip

    async def _content(self, request: web.Request) -> web.Response:
        entry = self.files.get(request.match_info["file_id"])
        if entry is None:
            return _error(404, "invalid_request_error", "no such file")
        return web.Response(body=entry[1], content_type="application/octet-stream")

    async def _create_batch(self, request: web.Request) -> web.Response:
        body = await request.json()
        entry = self.files.get(str(body.get("input_file_id")))
        if entry is None or body.get("endpoint") != "/v1/chat/completions" or body.get("completion_window") != "24h":
            return _error(400, "invalid_request_error", "unknown input file, endpoint or completion window")
        items: dict[str, JsonObject] = {}
        for line in entry[1].decode().splitlines():
            item = json.loads(line)
            if item.get("method") != "POST" or item.get("url") != "/v1/chat/completions" or item["custom_id"] in items:
                return _error(400, "invalid_request_error", f"bad or duplicate line {item.get('custom_id')!r}")
            items[item["custom_id"]] = item["body"]
        batch = await self._create("batch", items, body.get("metadata") or {})
        return web.json_response(self._object(batch))

    async def _retrieve(self, request: web.Request) -> web.Response:
        batch = await self._batch_of(request)
        await self._advance(batch)
        return web.json_response(self._object(batch))

    async def _list(self, request: web.Request) -> web.Response:
        """The most recent batches first, at most `limit` (default 20) of them."""
        limit = int(request.query.get("limit", "20"))
        batches = list(reversed(self.batches.values()))[:limit]
        return web.json_response({"object": "list", "data": [self._object(b) for b in batches], "has_more": False})

    def _object(self, batch: FakeBatch) -> JsonObject:
        total, completed, failed = self._counts(batch)
        data: JsonObject = {
            "id": batch.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": None,
            "input_file_id": "", "completion_window": "24h", "created_at": int(time.time()),
            "status": "in_progress" if batch.results is None else "completed", "output_file_id": None,
            "error_file_id": None, "request_counts": {"total": total, "completed": completed, "failed": failed},
            "metadata": batch.metadata,
        }  # fmt: skip
        if batch.results is not None:
            out, errors = self._result_files(batch)
            data["output_file_id"], data["error_file_id"] = out, errors
        return data

    def _result_files(self, batch: FakeBatch) -> tuple[Optional[str], Optional[str]]:
        key = f"file-{batch.id}-output"
        if key not in self.files:
            good: list[JsonObject] = []
            bad: list[JsonObject] = []
            assert batch.results is not None
            for custom_id, result in batch.results.items():
                if result is None:
                    error = {"code": "batch_expired", "message": "This request could not be executed before the "
                             "completion window expired."}  # fmt: skip
                    bad.append(
                        {"id": f"batch_req_{custom_id}", "custom_id": custom_id, "response": None, "error": error}
                    )
                    continue
                status, body = result
                response = {"status_code": status, "request_id": f"req_{custom_id}", "body": body}
                line: JsonObject = {"id": f"batch_req_{custom_id}", "custom_id": custom_id, "error": None,
                                    "response": response}  # fmt: skip
                (good if status == 200 else bad).append(line)
            self.files[key] = ("batch_output", _jsonl(good))
            self.files[f"file-{batch.id}-errors"] = ("batch_output", _jsonl(bad))
        errors = f"file-{batch.id}-errors"
        return (key if self.files[key][1] else None), (errors if self.files[errors][1] else None)


class FakeAnthropicBatches(_BatchServer):
    """Anthropic's Message Batches (see the module docstring); `base_url` is the API root."""

    def finished(self, body: JsonObject, response: ScriptedResponse) -> JsonObject:
        message = dict(super().finished(body, response))
        if message.get("type") == "message":  # `AnthropicResponse` leaves these to the server
            usage = dict(message.get("usage") or {})
            if usage.get("input_tokens") is None:
                usage["input_tokens"] = sum(
                    estimate_tokens(body.get(key, [])) for key in ("messages", "system", "tools")
                )
            if usage.get("output_tokens") is None:
                usage["output_tokens"] = estimate_tokens(message.get("content"))
            message["usage"] = usage
            message["model"] = message.get("model") or body.get("model")
        return message

    @property
    def base_url(self) -> str:
        return self.root_url

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/messages/batches", self._guarded(self._create_batch))
        app.router.add_get("/v1/messages/batches", self._guarded(self._list))
        app.router.add_get("/v1/messages/batches/{batch_id}", self._guarded(self._retrieve))
        app.router.add_get("/v1/messages/batches/{batch_id}/results", self._guarded(self._results))

    def _auth(self, request: web.Request) -> Optional[web.Response]:
        if request.headers.get("anthropic-version") is None:
            return _error(400, "invalid_request_error", "anthropic-version header is required")
        return self._refused(request, "x-api-key", str(self.api_key))

    async def _create_batch(self, request: web.Request) -> web.Response:
        body = await request.json()
        items: dict[str, JsonObject] = {}
        for entry in body.get("requests") or []:
            custom_id, params = entry.get("custom_id"), entry.get("params")
            valid = isinstance(custom_id, str) and _ANTHROPIC_ID.match(custom_id) and custom_id not in items
            if not valid or not isinstance(params, dict) or not {"model", "max_tokens", "messages"} <= set(params):
                return _error(400, "invalid_request_error", f"invalid request {custom_id!r}")
            items[custom_id] = params
        if not items:
            return _error(400, "invalid_request_error", "requests: at least one is required")
        return web.json_response(self._object(await self._create("msgbatch", items, {}), request))

    async def _retrieve(self, request: web.Request) -> web.Response:
        batch = await self._batch_of(request)
        await self._advance(batch)
        return web.json_response(self._object(batch, request))

    async def _list(self, request: web.Request) -> web.Response:
        """The most recent batches first: `limit` of them (1 to 1000, default 20), after `after_id`
        or before `before_id` (exclusive cursors)."""
        try:
            limit = int(request.query.get("limit", "20"))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 1000:
            return _error(400, "invalid_request_error", "limit: must be between 1 and 1000")
        batches = list(reversed(self.batches.values()))
        ids = [b.id for b in batches]
        after, before = request.query.get("after_id"), request.query.get("before_id")
        for cursor in (after, before):
            if cursor is not None and cursor not in ids:
                return _error(404, "not_found_error", f"no batch {cursor!r}")
        if after is not None:
            page = batches[ids.index(after) + 1 :][:limit]
            more = ids.index(after) + 1 + limit < len(ids)
        elif before is not None:
            page = batches[: ids.index(before)][-limit:]
            more = ids.index(before) - limit > 0
        else:
            page, more = batches[:limit], limit < len(ids)
        data = [self._object(batch, request) for batch in page]
        return web.json_response(
            {"data": data, "has_more": more, "first_id": page[0].id if page else None,
             "last_id": page[-1].id if page else None}
        )  # fmt: skip

    async def _results(self, request: web.Request) -> web.Response:
        batch = await self._batch_of(request)
        if batch.results is None:
            return _error(400, "invalid_request_error", "the batch is still processing")
        lines = []
        for custom_id, result in batch.results.items():
            if result is None:
                lines.append({"custom_id": custom_id, "result": {"type": "expired"}})
            elif result[0] == 200:
                lines.append({"custom_id": custom_id, "result": {"type": "succeeded", "message": result[1]}})
            else:
                error = {"type": "error", "error": result[1].get("error") or {"type": "api_error", "message": "?"}}
                lines.append({"custom_id": custom_id, "result": {"type": "errored", "error": error}})
        return web.Response(body=_jsonl(lines), content_type="application/binary")

    def _object(self, batch: FakeBatch, request: web.Request) -> JsonObject:
        total, succeeded, failed = self._counts(batch)
        ended = batch.results is not None
        expired = sum(1 for r in (batch.results or {}).values() if r is None)
        counts = {"processing": total - succeeded - failed, "succeeded": succeeded, "errored": failed - expired,
                  "canceled": 0, "expired": expired}  # fmt: skip
        return {
            "id": batch.id, "type": "message_batch", "processing_status": "ended" if ended else "in_progress",
            "request_counts": counts, "ended_at": "2026-01-01T00:00:00Z" if ended else None,
            "created_at": _rfc3339(batch.created_at), "expires_at": _rfc3339(batch.created_at + 86_400),
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.root_url}/v1/messages/batches/{batch.id}/results" if ended else None,
        }  # fmt: skip


def _rfc3339(moment: float) -> str:
    """A time as Anthropic writes them: `2024-08-20T18:37:24.100435Z`."""
    return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _jsonl(lines: list[Any]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def _error(status: int, kind: str, message: str) -> web.Response:
    return web.json_response({"type": "error", "error": {"type": kind, "message": message}}, status=status)
