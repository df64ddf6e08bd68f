"""Pacing from rate-limit headers: requests wait before they are sent, not after a 429.

A run holds one `Pacer`. Before each attempt the runner `claim`s a slot: a number and the seconds to
wait before sending. The adapter reports what the answer's headers said (`observe`, through
`AdapterContext.rate_limits_seen`). The pacer keeps a model of each bucket the provider declared
(requests, tokens): the level the last answer reported, less the requests claimed since that
answer's request (the provider had not counted them yet), refilled at the rate the headers imply,
`(limit - remaining) / reset`, since a reset is the time until the bucket is full again. A claim
takes one request (and the mean tokens of a request so far) from each bucket; when a bucket would
fall below its reserve, the claim waits until the refill covers it. So the slots of a burst are
spread over the refill, in claim order, as a token bucket would admit them.

A slot that must wait sleeps in `wait`, and its send time is not fixed at its claim: each answer
whose headers move the model by a request or more re-plans every slot still waiting, in claim
order, from the new level. So the burst the headers announce is spent as soon as an answer shows
it is there, and a model that one answer made too low (a server that writes its headers when it
answers, after counting the requests sent meanwhile) does not leave the bucket full while slots
sleep on the old plan; one that an answer made lower postpones them. When a provider sends
only a reset without a limit, a drained bucket waits for the reset. `retry-after` (and
`retry-after-ms`) stay with the request they answered: the runner waits that long before retrying
it (`runs._requests`), while the 429's bucket headers, if any, update the model here.

Before the first answer nothing is known, and a run's first round (`--concurrency` requests at once)
could overrun a small bucket. With `probe=True` (the runner sets it for adapters whose
`reports_rate_limits` is true) the first request goes alone: the others wait until it is answered
(`probe_answered`), which costs one round trip per run.

A provider that sends none of these headers leaves the pacer inactive: claims never wait, and the
adaptive limiter (`runs._limiter`) alone reacts to 429s, as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Optional

from ._ratelimits import Budget, RateLimits, parse_rate_limits

__all__ = ["Pacer"]

#: Weight of the newest rate estimate: resets are rounded (to the millisecond, or the second), so
#: single estimates are smoothed.
_RATE_WEIGHT = 0.3


class _Bucket:
    """One bucket as the pacer believes it to be now."""

    __slots__ = ("capacity", "full_at", "level", "rate", "stamp")

    def __init__(self) -> None:
        self.level: Optional[float] = None
        self.stamp = 0.0
        self.rate: Optional[float] = None
        self.capacity = 0.0
        self.full_at: Optional[float] = None

    def take(self, cost: float, now: float, reserve: float, margin: float) -> float:
        """Take `cost` from the bucket; the seconds until the level is back at `reserve`, or at what
        the bucket refills in `margin` seconds if that is more."""
        if self.level is None:
            return 0.0
        if self.rate is not None:
            reserve = max(reserve, self.rate * margin)
            self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        elif self.full_at is not None and now >= self.full_at:
            self.level, self.full_at = self.capacity, None
        self.stamp = now
        self.level -= cost
        if self.level >= reserve:
            return 0.0
        if self.rate is not None:
            return (reserve - self.level) / self.rate
        return self.full_at - now if self.full_at is not None else 0.0

    def level_at(self, now: float) -> Optional[float]:
        """The level the model gives the bucket at `now` (None: nothing known)."""
        if self.level is None:
            return None
        if self.rate is not None:
            return min(self.capacity, self.level + (now - self.stamp) * self.rate)
        return self.level

    def update(self, budget: Budget, ahead: float, now: float) -> None:
        """What an answer reported, less `ahead`: what was claimed after its request."""
        self.level = budget.remaining - ahead
        self.stamp = now
        limit = budget.limit
        # Without a limit, the bucket holds at least the most that was ever seen in it.
        self.capacity = limit if limit is not None else max(self.capacity, budget.remaining)
        if budget.reset is None:
            return
        if limit is not None and limit > budget.remaining and budget.reset > 0:
            estimate = (limit - budget.remaining) / budget.reset
            self.rate = estimate if self.rate is None else self.rate + _RATE_WEIGHT * (estimate - self.rate)
        elif self.rate is None:
            self.full_at = now + budget.reset


class _Waiting:
    """A slot sleeping in `Pacer.wait`: when it is due, and the timer that wakes it then."""

    __slots__ = ("due", "due_now", "timer")

    def __init__(self, due: float, due_now: asyncio.Future[None]) -> None:
        self.due = due
        self.due_now = due_now
        self.timer: Optional[asyncio.TimerHandle] = None

    def schedule(self, loop: asyncio.AbstractEventLoop, now: float) -> None:
        """(Re)start the timer for `due`; a slot already due is woken at once."""
        self.cancel()
        if self.due_now.done():
            return
        if self.due <= now:
            self.due_now.set_result(None)
        else:
            self.timer = loop.call_later(self.due - now, self._wake)

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _wake(self) -> None:
        if not self.due_now.done():
            self.due_now.set_result(None)


class Pacer:
    """Decides how long each request waits before it is sent (see the module docstring).

    `reserve` is what each bucket keeps back, in requests (the token bucket keeps as many mean
    requests' worth), or what it refills in `margin` seconds if that is more: the allowance for a
    request reaching the provider a moment before the pacer planned (the event loop's and the
    network's jitter). `clock` is for tests.
    """

    def __init__(
        self,
        *,
        reserve: float = 1.0,
        margin: float = 0.05,
        probe: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reserve = reserve
        self.margin = margin
        self._probing = probe
        self._probe_done: Optional[asyncio.Event] = None
        self._clock = clock
        self._requests = _Bucket()
        self._tokens = _Bucket()
        self._claimed = 0
        self._seen = 0
        self._tokens_per_request: Optional[float] = None
        #: The slots sleeping in `wait`, in claim order: when each is due, and what wakes it.
        self._waiting: dict[int, _Waiting] = {}
        #: Whether any answer carried rate-limit headers (until then, claims never wait).
        self.active = False

    @property
    def probing(self) -> bool:
        """Whether the first request is out and unanswered: the next claim must await `probe_answered`."""
        return self._probing and self._claimed > 0

    async def probe_answered(self) -> None:
        while self.probing:
            if self._probe_done is None:
                self._probe_done = asyncio.Event()
            await self._probe_done.wait()

    def finished(self, slot: int) -> None:
        """The request of `slot` has its answer (or failed): after the first, every claim may go."""
        if slot == 1 and self._probing:
            self._probing = False
            if self._probe_done is not None:
                self._probe_done.set()

    def claim(self) -> tuple[int, float]:
        """The next request's slot number and the seconds it should wait before it is sent."""
        self._claimed += 1
        if not self.active:
            return self._claimed, 0.0
        now = self._clock()
        tokens = self._tokens_per_request or 0.0
        wait = max(
            self._requests.take(1.0, now, self.reserve, self.margin),
            self._tokens.take(tokens, now, self.reserve * tokens, self.margin),
        )
        return self._claimed, wait

    async def wait(self, slot: int, seconds: float) -> None:
        """Sleep until `slot` (claimed with a wait of `seconds`) is due, as re-planned meanwhile."""
        loop = asyncio.get_running_loop()
        waiting = _Waiting(self._clock() + seconds, loop.create_future())
        self._waiting[slot] = waiting
        try:
            waiting.schedule(loop, self._clock())
            await waiting.due_now
        finally:
            waiting.cancel()
            del self._waiting[slot]

    def _replan(self, now: float) -> None:
        """The waiting slots' send times from the model as it is now: their claims are given back to
        the buckets and taken again in claim order."""
        waiting = list(self._waiting.values())
        tokens = self._tokens_per_request or 0.0
        requests, token_bucket = self._requests, self._tokens
        if requests.level is not None:
            requests.level += len(waiting)
        if token_bucket.level is not None:
            token_bucket.level += len(waiting) * tokens
        loop = asyncio.get_running_loop()
        for entry in waiting:
            wait = max(
                requests.take(1.0, now, self.reserve, self.margin),
                token_bucket.take(tokens, now, self.reserve * tokens, self.margin),
            )
            if now + wait < entry.due:
                entry.due = now + wait
                entry.schedule(loop, now)

    def observe(self, slot: int, limits: RateLimits, used_tokens: Optional[int] = None) -> None:
        """What the answer to the request of `slot` said; `used_tokens` is what it cost, if known."""
        if used_tokens is not None and used_tokens > 0:
            mean = self._tokens_per_request
            self._tokens_per_request = used_tokens if mean is None else mean + 0.1 * (used_tokens - mean)
        if limits.requests is None and limits.tokens is None:
            return
        now = self._clock()
        self.active = True
        if slot < self._seen:  # an older request's answer, overtaken by a newer one's
            return
        self._seen = slot
        ahead = self._claimed - slot
        before = self._requests.level_at(now)
        if limits.requests is not None:
            self._requests.update(limits.requests, float(ahead), now)
        if limits.tokens is not None:
            self._tokens.update(limits.tokens, ahead * (self._tokens_per_request or 0.0), now)
        after = self._requests.level_at(now)
        if self._waiting and before is not None and after is not None and after - before >= 1.0:
            self._replan(now)

    def observe_headers(self, slot: int, headers: Mapping[str, str], used_tokens: Optional[int] = None) -> None:
        """`observe` for an answer's raw headers."""
        self.observe(slot, parse_rate_limits(headers), used_tokens)
