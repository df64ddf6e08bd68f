"""Rate-limit headers, read into one shape whatever the provider.

- OpenAI (and OpenRouter, Groq, Together, which copy it): `x-ratelimit-limit-requests`,
  `x-ratelimit-remaining-requests`, `x-ratelimit-reset-requests` and the same three for `-tokens`; a
  reset is a Go-style duration until the bucket is full again ("1s", "6m0s", "20ms", "1h2m3.5s").
  https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
- Anthropic: `anthropic-ratelimit-requests-limit`, `-remaining`, `-reset` and the same for `tokens`;
  a reset is an RFC 3339 time. https://docs.anthropic.com/en/api/rate-limits#response-headers
- `retry-after-ms` (OpenAI's precise form of `Retry-After`), then `Retry-After` (seconds or an HTTP
  date).

`Pacer` (in `pacing.py`) turns what these say into waits before a request is sent.
"""

from __future__ import annotations

import email.utils
import functools
import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Optional

from attrs import frozen

__all__ = ["Budget", "RateLimits", "parse_duration", "parse_rate_limits", "parse_reset_time", "parse_retry_after"]

_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|ns)")
_UNIT_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
#: The header families by name, as (pattern, the names of "limit", "remaining" and "reset", is the
#: reset a time). A provider's format object names the families its answers carry.
FAMILIES: dict[str, tuple[str, tuple[str, str, str], bool]] = {
    "openai": ("x-ratelimit-{}-{}", ("limit", "remaining", "reset"), False),
    "anthropic": ("anthropic-ratelimit-{1}-{0}", ("limit", "remaining", "reset"), True),
}


@frozen
class Budget:
    """One bucket as a response saw it: what is `remaining`, out of `limit` (None: not sent), and
    the seconds until it is full again (`reset`; None: not sent or unreadable)."""

    remaining: float
    limit: Optional[float] = None
    reset: Optional[float] = None


@frozen
class RateLimits:
    """What one response said about the budget left: requests and tokens (None: not sent), and how
    long to wait before the next request (`retry_after`, seconds; None: not sent)."""

    requests: Optional[Budget] = None
    tokens: Optional[Budget] = None
    retry_after: Optional[float] = None

    @property
    def empty(self) -> bool:
        return self.requests is None and self.tokens is None and self.retry_after is None


def parse_duration(text: Optional[str]) -> Optional[float]:
    """Seconds from an OpenAI reset duration ("6m0s", "20ms", "1.5s") or a plain number of seconds;
    None when absent or unreadable."""
    if text is None:
        return None
    text = text.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        position, seconds = 0, 0.0
        for match in _DURATION_PART.finditer(text):
            if match.start() != position:
                return None
            seconds += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
            position = match.end()
        if position != len(text):
            return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def parse_reset_time(text: Optional[str], now: Optional[datetime] = None) -> Optional[float]:
    """Seconds from now until an RFC 3339 time (Anthropic's resets), 0 for one in the past; None
    when absent or unreadable."""
    if text is None or not text.strip():
        return None
    value = text.strip()
    if value.endswith(("Z", "z")):  # Python 3.10's fromisoformat does not read "Z"
        value = value[:-1] + "+00:00"
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())


def parse_rate_limits(
    headers: Mapping[str, str], now: Optional[datetime] = None, families: Sequence[str] = tuple(FAMILIES)
) -> RateLimits:
    """The rate limits a response's headers describe, in the header `families` named (every one by
    default); `RateLimits.empty` when it sent none."""
    lower = {key.lower(): value for key, value in headers.items()}
    if lower.keys().isdisjoint(_signal_names(tuple(families))):
        return _NONE  # most answers of most providers: no budget is read without a `remaining`
    requests = tokens = None
    for family in families:
        pattern, (limit, remaining, reset), reset_is_time = FAMILIES[family]
        requests = requests or _budget(lower, pattern, "requests", (limit, remaining, reset), reset_is_time, now)
        tokens = tokens or _budget(lower, pattern, "tokens", (limit, remaining, reset), reset_is_time, now)
    return RateLimits(requests=requests, tokens=tokens, retry_after=retry_after_of(lower, now))


_NONE = RateLimits()


@functools.cache
def _signal_names(families: tuple[str, ...]) -> frozenset[str]:
    """The headers without which `families` read as `RateLimits.empty`: each bucket's `remaining`
    (a bucket is read only when it is sent) and the two retry-after headers."""
    names = {"retry-after-ms", "retry-after"}
    for family in families:
        pattern, (_, remaining, _), _ = FAMILIES[family]
        names.update(pattern.format(remaining, dimension) for dimension in ("requests", "tokens"))
    return frozenset(names)


def parse_retry_after(value: Optional[str], now: Optional[datetime] = None) -> Optional[float]:
    """Seconds to wait from a `Retry-After` header (delay-seconds or an HTTP date); None if absent
    or unreadable, 0 for a date in the past."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    return max(0.0, seconds) if math.isfinite(seconds) else None


def retry_after_of(headers: Mapping[str, str], now: Optional[datetime] = None) -> Optional[float]:
    """Seconds to wait from `retry-after-ms`, else `Retry-After` (headers with lower-case names)."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            value = float(milliseconds) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value
    return parse_retry_after(headers.get("retry-after"), now)


def _budget(
    headers: Mapping[str, str],
    pattern: str,
    dimension: str,
    names: tuple[str, str, str],
    reset_is_time: bool,
    now: Optional[datetime],
) -> Optional[Budget]:
    limit_name, remaining_name, reset_name = names
    remaining = _number(headers.get(pattern.format(remaining_name, dimension)))
    if remaining is None:
        return None
    reset_text = headers.get(pattern.format(reset_name, dimension))
    reset = parse_reset_time(reset_text, now) if reset_is_time else parse_duration(reset_text)
    return Budget(remaining=remaining, limit=_number(headers.get(pattern.format(limit_name, dimension))), reset=reset)


def _number(text: Optional[str]) -> Optional[float]:
    if text is None:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None
