"""The root of the one exception hierarchy, the CLI's exit codes, and how every surface reports an error.

Every error is a class under `BenchmarkError`, one class per stable machine-readable `code` (clients
depend on the strings, so they never change). `exit_code` is `EXIT_USAGE` for a caller's mistake and
`EXIT_FAILURE` for a failure while running; `http_status` is what the HTTP API answers. Classes the
HTTP API can answer with say what they mean there in `http_meaning`: the OpenAPI document lists
them (`_catalogue.error_classes`), so the list cannot drift from the code.
"""

from __future__ import annotations

from typing import ClassVar, Optional

#: Exit codes of every command line: success, invalid usage, a failure while running, and a run
#: ended by a signal (128 + the signal number, as shells report it).
EXIT_OK = 0
EXIT_USAGE = 1
EXIT_FAILURE = 2
EXIT_SIGINT = 130
EXIT_SIGTERM = 143


class BenchmarkError(Exception):
    """Base class. Subclasses fix `code`, `exit_code` and `http_status`."""

    #: A bare `BenchmarkError` is reported as internal; core raises `InternalError` for that.
    code: ClassVar[str] = "INTERNAL_ERROR"
    exit_code: ClassVar[int] = EXIT_FAILURE
    http_status: ClassVar[int] = 500
    #: What this error means to an HTTP client, for the errors the HTTP API can answer with (the
    #: OpenAPI document lists those); None for the others.
    http_meaning: ClassVar[Optional[str]] = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        return error_document(self.code, self.message)


class InternalError(BenchmarkError):
    """An unexpected failure (a bug, not the caller's doing): every surface reports anything that
    is not a `BenchmarkError` as this, with the details only in the server log or traceback."""

    code = "INTERNAL_ERROR"
    http_meaning = "an unexpected server error (its details only in the server log)."


class UsageError(BenchmarkError):
    """The caller asked for something invalid (exit 1, HTTP 400): the base of every caller's mistake."""

    code = "INVALID_USAGE"
    exit_code = EXIT_USAGE
    http_status = 400


def error_document(code: str, message: str) -> dict[str, dict[str, str]]:
    """`{"error": {"code", "message"}}`: how every surface reports a failure."""
    return {"error": {"code": code, "message": message}}


def describe_error(exc: BaseException) -> str:
    """A `BenchmarkError`'s own message; for anything else its type, then its text if it has any,
    because the text of an unexpected exception alone often says nothing (`'x'` for a KeyError)."""
    if isinstance(exc, BenchmarkError):
        return exc.message
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
