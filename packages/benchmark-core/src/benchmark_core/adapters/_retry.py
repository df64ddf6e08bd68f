"""The one retry policy and the one retry loop (`retrying`), beside the pacer (`_pacing`): what waits
between attempts after a transient fault (429, 5xx, timeouts, malformed replies), for a run's direct
requests, its batch calls and the model judge (`graders.judge_with_llm`) alike.

The n-th retry waits `backoff_base * 2**(n-1)` seconds, at most `backoff_max`, times a jitter in
[0.5, 1.5) drawn from a generator seeded per sequence (so a run's delays do not depend on the order
its tasks finish in), and at least the provider's Retry-After (capped at `max_retry_after`). A
sequence gives up when `retries` (`--retries`; None: no count limit) is used up, or when the next
wait would overrun its `budget` (`--retry-budget`, seconds from the sequence's start).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Optional, TypeVar

from attrs import frozen

from ..errors._provider import AdapterError

R = TypeVar("R")


@frozen
class RetryPolicy:
    """How a run retries (see the module docstring)."""

    retries: Optional[int] = None
    budget: float = 600.0
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    max_retry_after: float = 120.0

    def sequence(self, seed: int) -> Retries:
        """The retries of one request (or one batch call), its jitter seeded with `seed`."""
        return Retries(self, seed)


class Retries:
    """The attempts of one sequence: its deadline, and its jitter drawn on the first retry."""

    __slots__ = ("_deadline", "_jitter", "_policy", "_seed")

    def __init__(self, policy: RetryPolicy, seed: int) -> None:
        self._policy = policy
        self._seed = seed
        self._deadline = time.monotonic() + policy.budget
        self._jitter: Optional[random.Random] = None

    def delay(self, failure: AdapterError, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying after `attempt` (counted from 1) failed with `failure`; None
        when the retries or the budget are spent."""
        policy = self._policy
        if policy.retries is not None and attempt > policy.retries:
            return None
        if self._jitter is None:  # seeded on the first retry: most sequences never need one
            self._jitter = random.Random(self._seed)
        delay = min(policy.backoff_max, policy.backoff_base * 2 ** (attempt - 1)) * (0.5 + self._jitter.random())
        delay = max(delay, min(failure.retry_after or 0.0, policy.max_retry_after))
        return None if time.monotonic() + delay > self._deadline else delay


class GaveUp(Exception):
    """`retrying` stopped: `failure` (of attempt number `attempts`) may not be retried, or, when
    `retryable`, the policy's retries or budget are spent."""

    def __init__(self, failure: AdapterError, attempts: int, *, retryable: bool) -> None:
        super().__init__(failure.message)
        self.failure = failure
        self.attempts = attempts
        self.retryable = retryable


def transient(failure: AdapterError) -> bool:
    """Whether a failure is worth another attempt: retryable (429, 5xx, a timeout, ...) and not fatal."""
    return failure.retryable and not failure.fatal


async def retrying(
    attempt: Callable[[int], Awaitable[R]],
    retries: Retries,
    *,
    may_retry: Callable[[AdapterError], bool] = transient,
) -> R:
    """`attempt(n)` for n = 1, 2, ... until one returns: the one attempt/delay loop of direct requests,
    batch calls and the model judge. After an `AdapterError` that `may_retry` accepts, it waits what
    `retries` says (the backoff, at least the provider's Retry-After); otherwise, or once `retries` is
    spent, it raises `GaveUp`."""
    n = 0
    while True:
        n += 1
        try:
            return await attempt(n)
        except AdapterError as failure:
            retryable = may_retry(failure)
            delay = retries.delay(failure, n) if retryable else None
            if delay is None:
                raise GaveUp(failure, n, retryable=retryable) from None
        await asyncio.sleep(delay)
