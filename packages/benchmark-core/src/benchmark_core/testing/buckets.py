"""A token bucket for the fakes' token limits, and how OpenAI writes its rate-limit headers.

OpenAI's headers (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers):
`x-ratelimit-limit-requests`, `x-ratelimit-remaining-requests`, `x-ratelimit-reset-requests` (a Go
duration until the bucket is full again, like "1s", "6m0s" or "20ms") and the same for `-tokens`;
a 429 also carries `retry-after-ms` and `Retry-After` (whole seconds).
"""

from __future__ import annotations

import math
import time
from typing import Optional


class TokenBucket:
    """`rate` per second, holding up to `capacity`; what is spent may leave it below zero."""

    def __init__(self, rate: float, capacity: Optional[float] = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.capacity = capacity if capacity is not None else rate
        self.level = self.capacity
        self._stamp = time.monotonic()

    def refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self._stamp) * self.rate)
        self._stamp = now

    def spend(self, cost: float) -> None:
        """Spend `cost` after the fact (it may leave the bucket below zero)."""
        self.refill()
        self.level -= cost

    def wait(self, need: float = 1.0) -> float:
        """Seconds until the bucket holds `need`."""
        return max(0.0, (need - self.level) / self.rate)

    def reset(self) -> float:
        """Seconds until the bucket is full again."""
        return max(0.0, (self.capacity - self.level) / self.rate)

    def headers(self, dimension: str) -> dict[str, str]:
        """OpenAI's three headers for this bucket (`dimension`: "requests" or "tokens")."""
        return {
            f"x-ratelimit-limit-{dimension}": str(int(self.capacity)),
            f"x-ratelimit-remaining-{dimension}": str(max(0, math.floor(self.level))),
            f"x-ratelimit-reset-{dimension}": go_duration(self.reset()),
        }


def go_duration(seconds: float) -> str:
    """A duration as OpenAI writes resets: "20ms" below a second, else "1.5s", "6m0s", "1h2m3s"."""
    if seconds < 1:
        return f"{math.ceil(seconds * 1000)}ms"
    minutes, rest = divmod(seconds, 60)
    hours, minutes = divmod(int(minutes), 60)
    text = f"{rest:.3f}".rstrip("0").rstrip(".") + "s"
    if hours:
        return f"{hours}h{minutes}m{text}"
    return f"{minutes}m{text}" if minutes else text
