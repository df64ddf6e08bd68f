"""How every HTTP provider fails: the `AdapterError` for each HTTP status, prefixed with the
provider's name, with the key scrubbed from every message.

429, 5xx, timeouts, connection failures and malformed 200 replies are retryable; 429 and 503 carry
`Retry-After` (seconds or an HTTP date) as `retry_after`. 400, 401, 403 and 404 are fatal: no retry
or other task can succeed.
"""

from __future__ import annotations

from typing import Optional, Union

from .._util.text import shorten
from ..errors._provider import (
    AdapterError,
    AuthenticationFailedError,
    BadRequestError,
    ModelNotFoundError,
    ProviderError,
    RateLimitedError,
)
from ._ratelimits import parse_retry_after
from ._secret import Secret

_RETRY_AFTER_STATUSES = frozenset({429, 503})
#: Statuses no retry fixes and that every other request of the run would meet too.
_FATAL_STATUSES: dict[int, type[AdapterError]] = {
    400: BadRequestError,
    401: AuthenticationFailedError,
    403: AuthenticationFailedError,
    404: ModelNotFoundError,
}
_DETAIL_LIMIT = 300


class ProviderErrors:
    """Builds one provider's `AdapterError`s: messages prefixed with the provider's name, the key
    redacted before anything is cut short, so that no prefix of it survives."""

    def __init__(self, provider: str, key: Secret[str]) -> None:
        self._provider = provider
        self._key = key

    def redact(self, text: str) -> str:
        key = self._key.reveal()
        return text.replace(key, "***") if key else text

    def snippet(self, text: str) -> str:
        """`text` redacted, on one line, cut short."""
        return shorten(" ".join(self.redact(text).split()), _DETAIL_LIMIT, ellipsis="...")

    def error(
        self,
        message: str,
        *,
        retryable: bool = False,
        retry_after: Optional[float] = None,
        status: Optional[int] = None,
        kind: type[AdapterError] = AdapterError,
        fatal: bool = False,
    ) -> AdapterError:
        text = self.redact(f"{self._provider}: {message}")
        return kind(text, retryable=retryable, retry_after=retry_after, status=status, fatal=fatal)

    def status(self, status: int, detail: str, retry_after: Union[str, float, None]) -> AdapterError:
        """The error for an HTTP `status` (0: a 200 whose body is an error) with the provider's `detail`;
        `retry_after` is the header's text, or seconds already read from it."""
        detail = self.snippet(detail) or "no details"
        retryable = status == 429 or status >= 500
        if status == 429:
            kind: type[AdapterError] = RateLimitedError
        elif status >= 500:
            kind = ProviderError
        else:
            kind = _FATAL_STATUSES.get(status, AdapterError)
        return self.error(
            f"HTTP {status}: {detail}" if status else detail,
            retryable=retryable,
            retry_after=_seconds(retry_after) if status in _RETRY_AFTER_STATUSES else None,
            status=status or None,
            kind=kind,
            fatal=status in _FATAL_STATUSES,
        )


def _seconds(retry_after: Union[str, float, None]) -> Optional[float]:
    return parse_retry_after(retry_after) if retry_after is None or isinstance(retry_after, str) else retry_after
