"""What a model provider answered when it failed: one class per kind of failure, for the error
breakdown and the runner's retries (exit 2, HTTP 502)."""

from __future__ import annotations

from typing import Optional

from ._base import BenchmarkError


class AdapterError(BenchmarkError):
    """A model provider failed. `retryable` errors are retried by the runner; `retry_after` is the provider's
    requested pause in seconds, when it sent one. `fatal` errors are those no retry and no other task can get past
    (a rejected key, an unknown model, a parameter the provider refuses): the runner stops the whole run at the
    first one instead of paying for a failing request per task.

    The subclasses below classify the failure for the error breakdown; `AdapterError` itself (`ADAPTER_ERROR`) is
    anything else."""

    code = "ADAPTER_ERROR"
    http_status = 502

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = False,
        retry_after: Optional[float] = None,
        status: Optional[int] = None,
        fatal: bool = False,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.fatal = fatal


class AuthenticationFailedError(AdapterError):
    """The provider refused the API key (HTTP 401 or 403)."""

    code = "AUTHENTICATION_FAILED"


class ModelNotFoundError(AdapterError):
    """The provider does not know the model (HTTP 404)."""

    code = "MODEL_NOT_FOUND"


class BadRequestError(AdapterError):
    """The provider refused the request as malformed (HTTP 400), e.g. a parameter it does not take."""

    code = "BAD_REQUEST"


class RateLimitedError(AdapterError):
    """The provider asked to slow down (HTTP 429)."""

    code = "RATE_LIMITED"


class ProviderError(AdapterError):
    """The provider failed on its side (HTTP 5xx)."""

    code = "PROVIDER_ERROR"


class MalformedResponseError(AdapterError):
    """The provider answered, but not with a usable response body."""

    code = "MALFORMED_RESPONSE"


class ConnectionFailedError(AdapterError):
    """The provider could not be reached."""

    code = "CONNECTION_FAILED"


class RequestTimeoutError(AdapterError):
    """The provider did not answer within the request timeout."""

    code = "TIMEOUT"


class BatchItemFailedError(AdapterError):
    """A batch returned an item as failed (or never returned it) more often than it may be resubmitted."""

    code = "BATCH_ITEM_FAILED"
