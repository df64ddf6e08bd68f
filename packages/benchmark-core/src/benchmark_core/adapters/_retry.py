"""The one retry policy of a run, beside the pacer (`_pacing`): what waits between attempts after a
transient fault (429, 5xx, timeouts, malformed replies), for direct requests and batch polling alike.

The n-th retry waits `backoff_base * 2**(n-1)` seconds, at most `backoff_max`, times a jitter in
[0.5, 1.5) drawn from a generator seeded per sequence (so a run's delays do not depend on the order
its tasks finish in), and at least the provider's Retry-After (capped at `max_retry_after`). A
sequence gives up when `retries` (`--retries`; None: no count limit) is used up, or when the next
wait would overrun its `budget` (`--retry-budget`, seconds from the sequence's start).
"""

from __future__ import annotations

import random
import time
from typing import Optional

from attrs import frozen

from ..errors._provider import AdapterError


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
