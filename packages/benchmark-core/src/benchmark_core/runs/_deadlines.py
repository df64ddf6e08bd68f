"""Request timeouts for a whole run, kept by one timer.

`asyncio.wait_for` creates a task per call, and a `call_later` per request puts a handle on the
loop's timer heap that is cancelled moments later; at thousands of requests a second both show in
the runner's CPU. Every request of a run has the same timeout, so deadlines fall in the order the
requests start: a FIFO queue of them and a single timer armed for the oldest unfinished one do the
same job at a constant cost per request.
"""

from __future__ import annotations

import asyncio
import sys
from collections import deque
from collections.abc import Awaitable
from typing import Any, Optional, TypeVar

R = TypeVar("R")

_WAITING, _DONE, _EXPIRED = 0, 1, 2


class _Deadline:
    __slots__ = ("state", "task", "when")

    def __init__(self, when: float, task: asyncio.Task[Any]) -> None:
        self.when = when
        self.task = task
        self.state = _WAITING


class Deadlines:
    """`within(awaitable)` awaits it for at most `timeout` seconds; past that, the awaiting task is
    cancelled and the cancellation becomes `asyncio.TimeoutError`. Any other cancellation
    propagates unchanged. One instance serves one event loop."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._queue: deque[_Deadline] = deque()
        self._timer: Optional[asyncio.TimerHandle] = None

    async def within(self, awaitable: Awaitable[R]) -> R:
        task = asyncio.current_task()
        assert task is not None
        loop = task.get_loop()
        deadline = _Deadline(loop.time() + self.timeout, task)
        self._queue.append(deadline)
        if self._timer is None:
            self._timer = loop.call_at(deadline.when, self._expire)
        try:
            result = await awaitable
        except asyncio.CancelledError:
            if deadline.state != _EXPIRED:
                raise
            _uncancel(task)
            raise asyncio.TimeoutError from None
        finally:
            if deadline.state == _WAITING:
                deadline.state = _DONE
        if deadline.state == _EXPIRED:  # the awaitable swallowed our cancellation and returned anyway
            _uncancel(task)
        return result

    def close(self) -> None:
        """Stop the timer (at the end of the run)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._queue.clear()

    def _expire(self) -> None:
        """Cancel every request past its deadline, drop finished ones, and re-arm for the next."""
        self._timer = None
        queue = self._queue
        loop = asyncio.get_running_loop()
        now = loop.time()
        while queue:
            head = queue[0]
            if head.state == _WAITING and head.when > now:
                self._timer = loop.call_at(head.when, self._expire)
                return
            queue.popleft()
            if head.state == _WAITING:
                head.state = _EXPIRED
                head.task.cancel()


def _uncancel(task: asyncio.Task[Any]) -> None:
    """Forget a cancellation this module requested and handled (Python 3.11+ counts them)."""
    if sys.version_info >= (3, 11):
        task.uncancel()
