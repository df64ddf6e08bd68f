"""Adaptive concurrency: how many model requests may be in flight, adjusted to the provider's limits.

Additive increase, multiplicative decrease (as TCP does): a rate-limited answer (429) halves the
limit, at most once per round of requests in flight, so that a burst of 429s from one overload counts
once; every success adds 1/limit, so the limit climbs back by about one per round while requests
succeed. The limit never exceeds the ceiling (`--concurrency`) and never falls below one.
"""

from __future__ import annotations

import asyncio
import collections


class AdaptiveLimiter:
    def __init__(self, ceiling: int) -> None:
        if ceiling < 1:
            raise ValueError("ceiling must be at least 1")
        self.ceiling = ceiling
        self._limit = float(ceiling)
        self._in_flight = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        # Requests are numbered as they start; a 429 only lowers the limit when its request started
        # after the previous lowering, i.e. it reflects the lowered limit.
        self._started = 0
        self._lowered_at = -1

    @property
    def limit(self) -> int:
        return max(1, int(self._limit))

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def try_acquire(self) -> int:
        """Take a slot if one is free at once: the request's number, or 0 (then `await acquire()`).
        Spares the coroutine of `acquire` on the common path, one per request."""
        if self._in_flight >= self.limit:
            return 0
        self._in_flight += 1
        self._started += 1
        return self._started

    async def acquire(self) -> int:
        """Wait for a slot; returns the request's number, to pass to `rate_limited`."""
        while self._in_flight >= self.limit:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                self._wake()
                raise
        self._in_flight += 1
        self._started += 1
        return self._started

    def release(self) -> None:
        self._in_flight -= 1
        if self._waiters:
            self._wake()

    def succeeded(self) -> None:
        if self._limit < self.ceiling:
            self._limit = min(float(self.ceiling), self._limit + 1.0 / self._limit)
            if self._waiters:
                self._wake()

    def rate_limited(self, ticket: int) -> None:
        if ticket > self._lowered_at:
            self._limit = max(1.0, self._limit / 2)
            self._lowered_at = self._started

    def _wake(self) -> None:
        free = self.limit - self._in_flight
        while free > 0 and self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                free -= 1
