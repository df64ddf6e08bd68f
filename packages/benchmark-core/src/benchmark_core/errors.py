"""One exception hierarchy, mapped once to CLI exit codes, HTTP statuses and MCP tool errors.

Every error carries a stable machine-readable `code`. `exit_code` is 1 for a caller's mistake and 2
for a failure while running; `http_status` is what the HTTP API answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .model import RunReport


class BenchmarkError(Exception):
    """Base class. Subclasses fix `code`, `exit_code` and `http_status`."""

    code: str = "INTERNAL_ERROR"
    exit_code: int = 2
    http_status: int = 500

    def __init__(self, message: str, *, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, dict[str, str]]:
        return error_document(self.code, self.message)


class UsageError(BenchmarkError):
    """The caller asked for something invalid (exit 1, HTTP 400)."""

    code = "INVALID_USAGE"
    exit_code = 1
    http_status = 400


class DefinitionError(UsageError):
    """A benchmark definition or task list is inconsistent (duplicate id, unknown kind, ...)."""

    code = "INVALID_DEFINITION"


class TaskFileError(UsageError):
    """A task file cannot be read or one of its lines is not a valid task."""

    code = "INVALID_TASK_FILE"


class TaskNotFoundError(UsageError):
    code = "TASK_NOT_FOUND"
    http_status = 404


class TasksNotAllowedError(UsageError):
    """A remote surface asked for a task file outside `data/` that is not on the allow-list."""

    code = "TASKS_NOT_ALLOWED"
    http_status = 403


class InvalidSubmissionError(UsageError):
    """A submission that is not a valid trace (see `benchmark_core.submission`). `path` is the JSON
    path of the problem, when one part of the submission is to blame."""

    code = "INVALID_SUBMISSION"
    http_status = 422

    def __init__(self, message: str, *, code: Optional[str] = None, path: Optional[str] = None) -> None:
        super().__init__(message, code=code)
        self.path = path


class InvalidJsonError(UsageError):
    """A request body or a file given on the command line is not strict JSON."""

    code = "INVALID_JSON"


class InvalidArgumentsError(UsageError):
    """An MCP tool call whose arguments do not fit the tool's input schema."""

    code = "INVALID_ARGUMENTS"


class UnknownToolError(UsageError):
    """An MCP tool call naming a tool the server does not offer."""

    code = "UNKNOWN_TOOL"
    http_status = 404


class ConfigurationError(UsageError):
    """Unknown provider, missing API key, bad option values."""

    code = "INVALID_CONFIGURATION"


class IncomparableReportsError(UsageError):
    """`compare` was given reports of different benchmarks, versions, answer modes or task sets."""

    code = "INCOMPARABLE_REPORTS"


class BenchmarkFileError(UsageError):
    """A benchmark given as `path/to/file.py:name` could not be loaded; the message names the file
    and, for an error in it, the line."""

    code = "INVALID_BENCHMARK_FILE"


class ScaffoldError(UsageError):
    """`benchmark-core new` was given a name it cannot use or a folder that is not empty."""

    code = "INVALID_SCAFFOLD"


class GraderError(DefinitionError):
    """A benchmark's grader broke its contract (see `Benchmark.grade`): a bug in the benchmark, so
    a failure while running (exit 2, HTTP 500), not the caller's mistake."""

    code = "GRADER_ERROR"
    exit_code = 2
    http_status = 500


class PluginLoadError(BenchmarkError):
    """An installed benchmark plugin failed to load; names the distribution and entry point."""

    code = "PLUGIN_LOAD_ERROR"


class AdapterError(BenchmarkError):
    """A model provider failed. `retryable` errors are retried by the runner; `retry_after` is the
    provider's requested pause in seconds, when it sent one. `fatal` errors are those no retry and no
    other task can get past (a rejected key, an unknown model, a parameter the provider refuses): the
    runner stops the whole run at the first one instead of paying for a failing request per task.

    `code` classifies the failure for the error breakdown: `AUTHENTICATION_FAILED` (401/403),
    `MODEL_NOT_FOUND` (404), `BAD_REQUEST` (400), `RATE_LIMITED` (429), `PROVIDER_ERROR` (5xx),
    `MALFORMED_RESPONSE`, `CONNECTION_FAILED`, `TIMEOUT`, or `ADAPTER_ERROR` for anything else.
    """

    code = "ADAPTER_ERROR"
    http_status = 502

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = False,
        retry_after: Optional[float] = None,
        status: Optional[int] = None,
        code: Optional[str] = None,
        fatal: bool = False,
    ) -> None:
        super().__init__(message, code=code)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.fatal = fatal


class RunStoppedError(BenchmarkError):
    """A run ended before every task had a row: a fatal provider error, or `max_errors` reached.
    `report` is the partial report of the rows that finished (`complete` false), which the CLI still
    writes; with a journal, the run can be resumed once the cause is fixed."""

    code = "RUN_STOPPED"

    def __init__(self, message: str, report: RunReport, *, code: Optional[str] = None) -> None:
        super().__init__(message, code=code)
        self.report = report


class JournalError(UsageError):
    """A run journal cannot be used as asked: it exists and `--resume` was not given, it was written
    by a different run (the message names the field that differs), or it is unreadable."""

    code = "JOURNAL_MISMATCH"


def error_document(code: str, message: str) -> dict[str, dict[str, str]]:
    """`{"error": {"code", "message"}}`: how every surface reports a failure."""
    return {"error": {"code": code, "message": message}}


def describe_error(exc: BaseException) -> str:
    """A `BenchmarkError`'s own message; for anything else its type, then its text if it has any,
    because the text of an unexpected exception alone often says nothing (`'x'` for a KeyError)."""
    if isinstance(exc, BenchmarkError):
        return exc.message
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
