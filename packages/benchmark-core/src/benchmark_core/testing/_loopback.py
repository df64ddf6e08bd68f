"""What every fake provider shares: a real aiohttp server on 127.0.0.1, the queue of scripted
answers, the handler and default behind it, recorded requests, cancelled requests, a token-bucket
rate limit and seeded injected faults. A fake gives its routes, its key check and the shapes of its
errors, faults and rate-limit headers (`FakeOpenAI`, `FakeAnthropic`, `FakeGemini`).
"""

from __future__ import annotations

import asyncio
import collections
import inspect
import json
import math
import random
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Optional, TypeVar, Union

from aiohttp import web
from attrs import Factory, frozen

from .._model import JsonObject, JsonValue

T = TypeVar("T")


def run_in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a loop of its own in another thread, for synchronous code where
    asyncio cannot run (a Playwright test: Playwright's loop counts as running in the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()


@contextmanager
def loop_in_thread(name: str) -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a daemon thread for the duration of the `with` block."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


@contextmanager
def serve_app_in_thread(app: web.Application) -> Iterator[str]:
    """Serve an aiohttp app on 127.0.0.1 from a daemon thread's loop, for synchronous code (a
    Playwright test); yields its base URL, without a trailing slash."""
    runner = web.AppRunner(app)
    with loop_in_thread("serve_app_in_thread") as loop:

        async def start() -> str:
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            return f"http://127.0.0.1:{runner.addresses[0][1]}"

        base = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
        try:
            yield base
        finally:
            asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=30)


@frozen
class RecordedRequest:
    """One request the server received. `body` is the parsed JSON body (None when it was not JSON)."""

    index: int
    method: str
    path: str
    headers: dict[str, str]
    body: JsonValue
    #: The URL's query parameters.
    query: dict[str, str] = Factory(dict)
    #: The route's variables (`{deployment}` of Azure's path).
    route: dict[str, str] = Factory(dict)

    @property
    def authorization(self) -> Optional[str]:
        return self.headers.get("Authorization")

    @property
    def messages(self) -> list[JsonObject]:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return messages if isinstance(messages, list) else []

    @property
    def tool_names(self) -> list[str]:
        """The function names offered in `tools`, as sent on the wire (OpenAI's shape)."""
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
class ScriptedResponse:
    """What a fake answers: `body` as JSON, or `raw` text sent as is, after `delay` seconds. Each
    fake's response class adds builders in its provider's shape."""

    status: int = 200
    body: JsonValue = None
    raw: Optional[str] = None
    headers: dict[str, str] = Factory(dict)
    delay: float = 0.0
    #: The media type of `raw` (server-sent events for a streamed answer).
    content_type: str = "application/json"


Handler = Callable[[RecordedRequest], Union[ScriptedResponse, Awaitable[ScriptedResponse]]]
S = TypeVar("S", bound="LoopbackServer")


class LoopbackServer:
    """The server. Use as an async context manager (or `in_thread()`)."""

    #: (method, path) of every route the subclass answers.
    routes: tuple[tuple[str, str], ...] = ()

    def __init__(
        self,
        responses: Iterable[ScriptedResponse] = (),
        *,
        handler: Optional[Handler] = None,
        default: Optional[ScriptedResponse] = None,
        api_key: Optional[str] = None,
        record: bool = True,
        rate_limit: Optional[float] = None,
        burst: Optional[float] = None,
        fault_rate: float = 0.0,
        fault_seed: int = 0,
    ) -> None:
        self.queue: collections.deque[ScriptedResponse] = collections.deque(responses)
        self.rate_limit = rate_limit
        self.burst = burst if burst is not None else (rate_limit or 0.0)
        self._tokens = self.burst
        self._refilled = time.monotonic()
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
        self._runner: Optional[web.AppRunner] = None
        self._port = 0
        self._cancellation = asyncio.Event()

    def enqueue(self, *responses: ScriptedResponse) -> None:
        self.queue.extend(responses)

    @property
    def root_url(self) -> str:
        """`http://127.0.0.1:PORT`, without a path."""
        if self._runner is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return f"http://127.0.0.1:{self._port}"

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1:`port` (0: a free port)."""
        app = web.Application()
        self.add_routes(app)
        # handler_cancellation: a client hanging up must cancel the handler, so `cancelled` can count it.
        runner = web.AppRunner(app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", port)
        await site.start()
        self._port = int(runner.addresses[0][1])
        self._runner = runner

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self: S) -> S:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        await self.close()

    @contextmanager
    def in_thread(self: S) -> Iterator[S]:
        """Serve from an event loop in a daemon thread for the duration of the `with` block."""
        with loop_in_thread(type(self).__name__) as loop:
            asyncio.run_coroutine_threadsafe(self.start(), loop).result(timeout=10)
            try:
                yield self
            finally:
                asyncio.run_coroutine_threadsafe(self.close(), loop).result(timeout=10)

    async def wait_cancelled(self, count: int = 1, timeout: float = 5.0) -> None:
        """Wait until `count` requests have been abandoned by their clients (TimeoutError if not).
        Only from the loop serving the server, i.e. not with `in_thread()`."""

        async def wait() -> None:
            while self.cancelled < count:
                self._cancellation.clear()
                await self._cancellation.wait()

        await asyncio.wait_for(wait(), timeout)

    # What a subclass gives.

    def add_routes(self, app: web.Application) -> None:
        """Route every (method, path) of `routes` to the scripted answers; a fake with routes of its
        own (the batch APIs) adds them instead."""
        for method, path in self.routes:
            app.router.add_route(method, path, self._handle)

    def unrouted(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        """The answer to a request for a resource the provider does not have (checked first), or None."""
        return None

    def unauthorized(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        """The answer to a request without the right key, or None when it may pass."""
        return None

    def error(self, status: int, message: str, *, retry_after: Optional[str] = None) -> ScriptedResponse:
        """An error in the provider's shape."""
        raise NotImplementedError

    def malformed_fault(self) -> ScriptedResponse:
        """A 200 whose body is cut off."""
        return ScriptedResponse(raw='{"cut off')

    def injected_fault(self, kind: int) -> ScriptedResponse:
        """Injected fault `kind` (1, 2, 0 in turn): a 429 with `Retry-After: 1`, a 500, a cut-off 200."""
        if kind == 1:
            return self.error(429, "rate limited (injected fault)", retry_after="1")
        if kind == 2:
            return self.error(500, "internal error (injected fault)")
        return self.malformed_fault()

    def normalized(self, body: JsonValue) -> JsonValue:
        """The request body in the one spelling the fake reads (what is recorded)."""
        return body

    def refuse(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        """The provider's refusal of a malformed request (checked before anything scripted), or None."""
        return None

    def finish(self, request: RecordedRequest, response: ScriptedResponse) -> ScriptedResponse:
        """The answer as sent, given the request (a fake fills in what depends on it)."""
        return response

    def rate_headers(self) -> dict[str, str]:
        """Headers telling the client how much of the rate limit is left (none by default)."""
        return {}

    # The common machinery.

    def _over_rate_limit(self) -> Optional[ScriptedResponse]:
        """A 429 when the token bucket is empty; None (and one token spent) otherwise."""
        if self.rate_limit is None:
            return None
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._refilled) * self.rate_limit)
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return None
        self.rate_limited += 1
        wait = (1 - self._tokens) / self.rate_limit
        return self.error(429, "rate limit exceeded", retry_after=str(max(1, math.ceil(wait))))

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body: JsonValue = self.normalized(json.loads(raw))
        except ValueError:
            body = None
        recorded = RecordedRequest(
            index=self.received,
            method=request.method,
            path=request.path,
            headers=dict(request.headers),
            body=body,
            query=dict(request.query),
            route=dict(request.match_info),
        )
        self.received += 1
        if self.record:
            self.requests.append(recorded)
        response = await self._pick(recorded)
        if response.delay > 0:
            try:
                await asyncio.sleep(response.delay)
            except asyncio.CancelledError:
                self.cancelled += 1
                self._cancellation.set()
                raise
        headers = {**self.rate_headers(), **response.headers}
        if response.raw is not None:
            return web.Response(
                status=response.status, text=response.raw, headers=headers, content_type=response.content_type
            )
        return web.json_response(response.body, status=response.status, headers=headers)

    async def _pick(self, request: RecordedRequest) -> ScriptedResponse:
        refused = self.unrouted(request)
        if refused is None and self.api_key is not None:
            refused = self.unauthorized(request)
        if refused is not None:
            return refused
        limited = self._over_rate_limit()
        if limited is not None:
            return limited
        if self.fault_rate and self._faults.random() < self.fault_rate:
            self.faults += 1
            return self.injected_fault(self.faults % 3)
        refused = self.refuse(request)
        if refused is not None:
            return refused
        return self.finish(request, await self._scripted(request))

    async def _scripted(self, request: RecordedRequest) -> ScriptedResponse:
        if self.queue:
            return self.queue.popleft()
        if self.handler is not None:
            answer: Any = self.handler(request)
            return await answer if inspect.isawaitable(answer) else answer  # type: ignore[no-any-return]
        if self.default is not None:
            return self.default
        return self.error(500, f"{type(self).__name__}: nothing scripted for request #{request.index}")
