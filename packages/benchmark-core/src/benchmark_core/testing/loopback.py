"""The life of a fake server on 127.0.0.1: started on a free port, as an async context manager or
from a background thread (`in_thread()`, for synchronous code under test such as `asyncio.run` or
click's `CliRunner`). Subclasses add their routes in `routes(app)`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Optional, TypeVar

from aiohttp import web

S = TypeVar("S", bound="LoopbackServer")


class LoopbackServer:
    def __init__(self) -> None:
        self._runner: Optional[web.AppRunner] = None
        self._port = 0

    def routes(self, app: web.Application) -> None:
        raise NotImplementedError

    @property
    def root_url(self) -> str:
        """`http://127.0.0.1:<port>`, while the server runs."""
        if self._runner is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return f"http://127.0.0.1:{self._port}"

    async def start(self) -> None:
        app = web.Application()
        self.routes(app)
        # handler_cancellation: a client hanging up must cancel the handler, so fakes can count it.
        runner = web.AppRunner(app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
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
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name=type(self).__name__, daemon=True)
        thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self.start(), loop).result(timeout=10)
            try:
                yield self
            finally:
                asyncio.run_coroutine_threadsafe(self.close(), loop).result(timeout=10)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            loop.close()
