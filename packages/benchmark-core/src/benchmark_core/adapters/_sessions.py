"""aiohttp sessions per event loop, so that one adapter serves several `asyncio.run` calls in turn.

A session is opened lazily on the loop that first needs it. `close()` closes the current loop's
session and the next request opens a new one; a session whose owner never closed it is still closed
on its own loop when that loop shuts down (see `_close_at_loop_shutdown`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

import aiohttp
from attrs import frozen


@frozen
class _LoopSession:
    session: aiohttp.ClientSession
    keeper: AsyncGenerator[None, None]


async def _close_at_loop_shutdown(session: aiohttp.ClientSession) -> AsyncGenerator[None, None]:
    """Suspended for the session's life. An event loop finalises the async generators started on
    it (`asyncio.run` does, via `shutdown_asyncgens`), so a session whose adapter was never
    `aclose()`d is still closed on its own loop, before that loop closes."""
    try:
        yield
    finally:
        await session.close()


class LoopSessions:
    """One `ClientSession` per running event loop, each with its own connection pool."""

    def __init__(self, max_connections: int, timeout: aiohttp.ClientTimeout) -> None:
        self._max_connections = max_connections
        self._timeout = timeout
        self._sessions: dict[asyncio.AbstractEventLoop, _LoopSession] = {}

    async def current(self) -> aiohttp.ClientSession:
        """The running loop's session, opened on first use (or after it was closed)."""
        entry = self._sessions.get(asyncio.get_running_loop())
        if entry is None or entry.session.closed:
            entry = await self._open()
        return entry.session

    async def _open(self) -> _LoopSession:
        loop = asyncio.get_running_loop()
        for stale in [other for other in self._sessions if other.is_closed()]:
            del self._sessions[stale]
        limit = self._max_connections
        connector = aiohttp.TCPConnector(limit=limit, limit_per_host=limit)
        session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
        keeper = _close_at_loop_shutdown(session)
        await keeper.__anext__()
        entry = _LoopSession(session, keeper)
        self._sessions[loop] = entry
        return entry

    async def close(self) -> None:
        """Close the current event loop's session; the next request opens a new one."""
        entry = self._sessions.pop(asyncio.get_running_loop(), None)
        if entry is not None:
            await entry.keeper.aclose()
