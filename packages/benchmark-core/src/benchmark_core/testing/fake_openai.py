"""A scriptable OpenAI-compatible server for tests: real HTTP on 127.0.0.1, canned answers.

    async with FakeOpenAI([FakeResponse.error(429, retry_after="0"), FakeResponse.text("4")]) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", api_key="sk-test")
        ...
        assert server.requests[1].body["model"] == "fake-model"

Every `POST /v1/chat/completions` takes the next queued `FakeResponse`. Once the queue is empty the
`handler` answers (a callable, sync or async, given the `RecordedRequest`), else `default`, else a 500
that names the request which found nothing scripted, so a test that under-scripts fails loudly.

With `api_key` set, a request without `Authorization: Bearer <api_key>` gets a 401 whose message
echoes the presented key, as some real providers do, so tests can check that adapters redact it.
`cancelled` counts requests whose client hung up before the answer was sent (the handler is
cancelled then), which is how tests see that a timed-out request was really abandoned.

Two modes stand in for a real provider under load:

- `rate_limit=R`: a token bucket of R requests per second (holding up to `burst`, default R); a
  request beyond it gets a 429 with `Retry-After` (whole seconds until the next token, at least 1),
  as providers answer. `rate_limited` counts them. With `rate_headers=True` every answer also
  carries OpenAI's `x-ratelimit-*-requests` headers (and a 429 `retry-after-ms`), and `token_rate=T`
  adds a bucket of T tokens per second (holding T) that each answer's `usage.total_tokens` is
  spent from, with its `x-ratelimit-*-tokens` headers; see `testing.buckets`.
- `fault_rate=p`: each request fails with probability p (seeded by `fault_seed`), in turn a 429 with
  `Retry-After: 1`, a 500, and a 200 whose body is cut off. `faults` counts them.

For synchronous code under test (`asyncio.run`, click's `CliRunner`), `in_thread()` serves from a
background thread instead.
"""

from __future__ import annotations

import asyncio
import collections
import inspect
import json
import math
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Optional, Union

import attrs
from aiohttp import web
from attrs import Factory, frozen

from .._model import JsonObject, JsonValue
from .buckets import TokenBucket, retry_headers
from .loopback import LoopbackServer

CHAT_PATH = "/v1/chat/completions"


@frozen
class RecordedRequest:
    """One request the server received. `body` is the parsed JSON body (None when it was not JSON)."""

    index: int
    method: str
    path: str
    headers: dict[str, str]
    body: JsonValue

    @property
    def authorization(self) -> Optional[str]:
        return self.headers.get("Authorization")

    @property
    def messages(self) -> list[JsonObject]:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return messages if isinstance(messages, list) else []

    @property
    def tool_names(self) -> list[str]:
        """The function names offered in `tools`, as sent on the wire."""
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [t["function"]["name"] for t in tools or []]

    @property
    def prompt(self) -> str:
        """The content of the last user message, which is how handlers usually tell tasks apart."""
        for message in reversed(self.messages):
            if message.get("role") == "user" and isinstance(message.get("content"), str):
                return str(message["content"])
        return ""


@frozen
class FakeResponse:
    """What the server answers: `body` as JSON, or `raw` text sent as is, after `delay` seconds."""

    status: int = 200
    body: JsonValue = None
    raw: Optional[str] = None
    headers: dict[str, str] = Factory(dict)
    delay: float = 0.0

    @classmethod
    def text(
        cls,
        content: str,
        *,
        prompt_tokens: int = 10,
        completion_tokens: int = 2,
        cost: Optional[float] = None,
        usage: bool = True,
        delay: float = 0.0,
    ) -> FakeResponse:
        """A plain assistant answer. `cost` adds OpenRouter's `usage.cost`; `usage=False` omits usage."""
        message: JsonObject = {"role": "assistant", "content": content}
        return cls(body=chat_completion(message, _usage(usage, prompt_tokens, completion_tokens, cost)), delay=delay)

    @classmethod
    def tool_calls(
        cls,
        calls: Sequence[tuple[str, Union[JsonObject, str]]],
        *,
        content: Optional[str] = None,
        prompt_tokens: int = 10,
        completion_tokens: int = 5,
        cost: Optional[float] = None,
        delay: float = 0.0,
    ) -> FakeResponse:
        """An assistant turn calling tools: `(name, arguments)` pairs with ids `call_0`, `call_1`, ...
        Arguments given as a string are sent verbatim (for undecodable-arguments cases)."""
        wire_calls = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)},
            }
            for i, (name, args) in enumerate(calls)
        ]
        message: JsonObject = {"role": "assistant", "content": content, "tool_calls": wire_calls}
        return cls(body=chat_completion(message, _usage(True, prompt_tokens, completion_tokens, cost)), delay=delay)

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "fake failure",
        *,
        retry_after: Optional[str] = None,
        delay: float = 0.0,
        headers: Optional[dict[str, str]] = None,
    ) -> FakeResponse:
        """An OpenAI-shaped error body with `status`, `headers`, and a `Retry-After` header when given."""
        headers = {**(headers or {}), **({"Retry-After": retry_after} if retry_after is not None else {})}
        body = {"error": {"message": message, "type": "fake_error", "code": status}}
        return cls(status=status, body=body, headers=headers, delay=delay)

    @classmethod
    def malformed(cls, raw: str = '{"choices": [', *, status: int = 200) -> FakeResponse:
        return cls(status=status, raw=raw)


def chat_completion(message: JsonObject, usage: Optional[JsonObject] = None) -> JsonObject:
    """A `chat.completion` body with one choice holding `message`."""
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    body: JsonObject = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def _usage(include: bool, prompt_tokens: int, completion_tokens: int, cost: Optional[float]) -> Optional[JsonObject]:
    if not include:
        return None
    usage: JsonObject = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if cost is not None:
        usage["cost"] = cost
    return usage


Handler = Callable[[RecordedRequest], Union[FakeResponse, Awaitable[FakeResponse]]]


class FakeOpenAI(LoopbackServer):
    """The server. Use as an async context manager (or `in_thread()`); `base_url` ends in `/v1`."""

    def __init__(
        self,
        responses: Iterable[FakeResponse] = (),
        *,
        handler: Optional[Handler] = None,
        default: Optional[FakeResponse] = None,
        api_key: Optional[str] = None,
        record: bool = True,
        rate_limit: Optional[float] = None,
        burst: Optional[float] = None,
        rate_headers: bool = False,
        token_rate: Optional[float] = None,
        fault_rate: float = 0.0,
        fault_seed: int = 0,
    ) -> None:
        self.queue: collections.deque[FakeResponse] = collections.deque(responses)
        self.rate_limit = rate_limit
        self.requests_bucket = TokenBucket(rate_limit, burst) if rate_limit is not None else None
        self.tokens_bucket = TokenBucket(token_rate) if token_rate is not None else None
        self.rate_headers = rate_headers
        self.rate_limited = 0
        self.fault_rate = fault_rate
        self._faults = random.Random(fault_seed)
        self.faults = 0
        self.handler = handler
        self.default = default
        self.api_key = api_key
        self.record = record
        self.requests: list[RecordedRequest] = []
        self.received = 0
        self.cancelled = 0
        super().__init__()
        self._cancellation = asyncio.Event()

    def enqueue(self, *responses: FakeResponse) -> None:
        self.queue.extend(responses)

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def routes(self, app: web.Application) -> None:
        app.router.add_post(CHAT_PATH, self._handle)

    def _over_rate_limit(self) -> Optional[FakeResponse]:
        """A 429 when a bucket is empty; None (and one request spent) otherwise."""
        requests, tokens = self.requests_bucket, self.tokens_bucket
        waits = []
        if requests is not None and not requests.take(1.0):
            waits.append(requests.wait())
        if tokens is not None:
            tokens.refill()
            if tokens.level < 0:
                waits.append(tokens.wait(0.0))
        if not waits:
            return None
        self.rate_limited += 1
        if self.rate_headers:
            return FakeResponse.error(429, "rate limit exceeded", headers=retry_headers(max(waits)))
        return FakeResponse.error(429, "rate limit exceeded", retry_after=str(max(1, math.ceil(max(waits)))))

    def _with_rate_headers(self, response: FakeResponse) -> FakeResponse:
        """The answer with the buckets' headers, after spending its tokens."""
        headers = dict(response.headers)
        if self.tokens_bucket is not None:
            usage = response.body.get("usage") if isinstance(response.body, dict) else None
            used = usage.get("total_tokens") if isinstance(usage, dict) else None
            self.tokens_bucket.spend(float(used) if isinstance(used, int) else 0.0)
            headers.update(self.tokens_bucket.headers("tokens"))
        if self.requests_bucket is not None:
            headers.update(self.requests_bucket.headers("requests"))
        return attrs.evolve(response, headers=headers)

    async def wait_cancelled(self, count: int = 1, timeout: float = 5.0) -> None:
        """Wait until `count` requests have been abandoned by their clients (TimeoutError if not).
        Only from the loop serving the server, i.e. not with `in_thread()`."""

        async def wait() -> None:
            while self.cancelled < count:
                self._cancellation.clear()
                await self._cancellation.wait()

        await asyncio.wait_for(wait(), timeout)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body: JsonValue = json.loads(raw)
        except ValueError:
            body = None
        recorded = RecordedRequest(
            index=self.received, method=request.method, path=request.path, headers=dict(request.headers), body=body
        )
        self.received += 1
        if self.record:
            self.requests.append(recorded)
        response = await self._pick(recorded)
        if self.rate_headers:
            response = self._with_rate_headers(response)
        if response.delay > 0:
            try:
                await asyncio.sleep(response.delay)
            except asyncio.CancelledError:
                self.cancelled += 1
                self._cancellation.set()
                raise
        if response.raw is not None:
            return web.Response(
                status=response.status, text=response.raw, headers=response.headers, content_type="application/json"
            )
        return web.json_response(response.body, status=response.status, headers=response.headers)

    async def _pick(self, request: RecordedRequest) -> FakeResponse:
        if self.api_key is not None and request.authorization != f"Bearer {self.api_key}":
            presented = (request.authorization or "").removeprefix("Bearer ")
            return FakeResponse.error(401, f"Incorrect API key provided: {presented}")
        limited = self._over_rate_limit()
        if limited is not None:
            return limited
        if self.fault_rate and self._faults.random() < self.fault_rate:
            self.faults += 1
            kind = self.faults % 3
            if kind == 1:
                return FakeResponse.error(429, "rate limited (injected fault)", retry_after="1")
            if kind == 2:
                return FakeResponse.error(500, "internal error (injected fault)")
            return FakeResponse.malformed('{"id": "chatcmpl-fake", "choices": [{"mess')
        if self.queue:
            return self.queue.popleft()
        if self.handler is not None:
            answer: Any = self.handler(request)
            return await answer if inspect.isawaitable(answer) else answer  # type: ignore[no-any-return]
        if self.default is not None:
            return self.default
        return FakeResponse.error(500, f"FakeOpenAI: nothing scripted for request #{request.index}")
