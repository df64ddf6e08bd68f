"""One exception hierarchy, mapped once to CLI exit codes, HTTP statuses and MCP tool errors.

Every error is a class here, one class per stable machine-readable `code` (clients depend on the
strings, so they never change). `exit_code` is `EXIT_USAGE` for a caller's mistake and
`EXIT_FAILURE` for a failure while running; `http_status` is what the HTTP API answers. Classes the
HTTP API can answer with say what they mean there in `http_meaning`: the OpenAPI document lists
them from here (`error_classes`), so the list cannot drift from the code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Optional

if TYPE_CHECKING:
    from .._model import RunReport

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


# -- the caller's mistakes (exit 1, HTTP 4xx) ----------------------------------------------------


class UsageError(BenchmarkError):
    """The caller asked for something invalid (exit 1, HTTP 400)."""

    code = "INVALID_USAGE"
    exit_code = EXIT_USAGE
    http_status = 400


class DefinitionError(UsageError):
    """A benchmark definition or task list is inconsistent (duplicate id, unknown kind, ...)."""

    code = "INVALID_DEFINITION"
    http_meaning = (
        "the named task file has an invalid task id, or holds an episode the benchmark has no environment for."
    )


class TaskFileError(UsageError):
    """A task file cannot be read or one of its lines is not a valid task."""

    code = "INVALID_TASK_FILE"
    http_meaning = (
        "the named task file is missing from data/ or is not a valid task file (a line that is not a task, "
        "or repeats a task id; the message names the line)."
    )


class TaskNotFoundError(UsageError):
    """No task with this id."""

    code = "TASK_NOT_FOUND"
    http_status = 404
    http_meaning = "no task with this id."


class TasksNotAllowedError(UsageError):
    """A remote surface asked for a task file outside `data/` that is not on the allow-list."""

    code = "TASKS_NOT_ALLOWED"
    http_status = 403
    http_meaning = "the task file is outside data/ and not on the allow-list."


class InvalidSubmissionError(UsageError):
    """A submission that is not a valid trace (see `benchmark_core.wire._submission`). `path` is the JSON
    path of the problem, when one part of the submission is to blame."""

    code = "INVALID_SUBMISSION"
    http_status = 422
    http_meaning = (
        "the submission is not a valid trace (the Trace schema, within its nesting limit); the "
        "message names the JSON path of the problem."
    )

    def __init__(self, message: str, *, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.path = path


class InvalidScoreRequestError(InvalidSubmissionError):
    """The score request itself is malformed (not an object, a missing or mistyped field), not its submission."""

    http_status = 400
    http_meaning = "the score request is not {taskId, submission, tasks?, seed?}."


class InvalidJsonError(UsageError):
    """A request body or a file given on the command line is not strict JSON."""

    code = "INVALID_JSON"
    http_meaning = "the body is not JSON."


class RequestTooLargeError(UsageError):
    """A request body over the HTTP API's size limit."""

    code = "REQUEST_TOO_LARGE"
    http_status = 413
    http_meaning = "the body is over the size limit."


class RouteNotFoundError(UsageError):
    """An HTTP request for a path the API does not serve."""

    code = "NOT_FOUND"
    http_status = 404
    http_meaning = "no such route."


class MethodNotAllowedError(UsageError):
    """An HTTP request with a method the route does not accept."""

    code = "METHOD_NOT_ALLOWED"
    http_status = 405
    http_meaning = "the route exists but not for this method."


class InvalidArgumentsError(UsageError):
    """An MCP tool call whose arguments do not fit the tool's input schema."""

    code = "INVALID_ARGUMENTS"


class UnknownToolError(UsageError):
    """An MCP tool call naming a tool the server does not offer."""

    code = "UNKNOWN_TOOL"
    http_status = 404


class NotAnEpisodeError(UsageError):
    """An episode session was asked for a task that is not an episode, or of a benchmark without an
    environment (its tasks have no tools to serve)."""

    code = "NOT_AN_EPISODE"
    http_status = 422
    http_meaning = "the task is not an episode (or the benchmark has no environment), so it has no session."


class InvalidSessionRequestError(UsageError):
    """A session request that is not what the route takes (`{taskId, tasks?, seed?}`, `{answer}`)."""

    code = "INVALID_SESSION_REQUEST"
    http_meaning = "the body is not {taskId, tasks?, seed?} (opening a session) or {answer} (finishing one)."


class SessionNotFoundError(UsageError):
    """No open session with this id for this bearer token (an unknown id, a closed or idle-expired
    session, or another session's token: the three look the same, so no token probes other sessions)."""

    code = "SESSION_NOT_FOUND"
    http_status = 404
    http_meaning = "no open session with this id for this token (unknown, closed after its idle timeout, or another's)."


class SessionUnauthorizedError(UsageError):
    """A session route or the sessions' MCP endpoint called without a bearer token."""

    code = "UNAUTHORIZED"
    http_status = 401
    http_meaning = "the request has no Authorization: Bearer token; session routes need the session's token."


class SessionFinishedError(UsageError):
    """A tool call or a second finish on a session that was already finished."""

    code = "SESSION_FINISHED"
    http_status = 409
    http_meaning = "the session is finished: its score is final and its tools take no more calls."


class TooManySessionsError(UsageError):
    """The server holds as many open sessions as it allows."""

    code = "TOO_MANY_SESSIONS"
    http_status = 503
    http_meaning = "the server holds its maximum of open sessions; finish one, or retry once idle ones expire."


class ConfigurationError(UsageError):
    """Unknown provider, missing API key, bad option values."""

    code = "INVALID_CONFIGURATION"


class IncomparableReportsError(UsageError):
    """`compare` was given reports of different benchmarks, versions, answer modes or task sets."""

    code = "INCOMPARABLE_REPORTS"


class BenchmarkFileError(UsageError):
    """`--benchmark path/to/file.py:name` could not be loaded; the message names the file and line."""

    code = "INVALID_BENCHMARK_FILE"


class ScaffoldError(UsageError):
    """`benchmark-core new` was given a name it cannot use or a folder that is not empty."""

    code = "INVALID_SCAFFOLD"


class JournalError(UsageError):
    """A journal that cannot be used as asked: no --resume, another run's (the field named), unreadable."""

    code = "JOURNAL_MISMATCH"


class JournalExistsError(JournalError):
    """`run --output` found the journal of an earlier run and `--resume` was not given."""

    code = "JOURNAL_EXISTS"


class ShardMergeError(UsageError):
    """`merge` got shards that are not one run: missing, overlapping, or disagreeing (the message says which)."""

    code = "SHARDS_MISMATCH"


class MissingExtraError(UsageError):
    """A feature needs an optional extra that is not installed (the message names it and its pip command)."""

    code = "EXTRA_NOT_INSTALLED"


class OutputLockedError(UsageError):
    """Another process holds the lock on the output's journal (`runs._output_lock`); the message names its pid."""

    code = "OUTPUT_LOCKED"


class MissingFileError(UsageError):
    """A file named on the command line does not exist."""

    code = "FILE_NOT_FOUND"


class UnreadableFileError(UsageError):
    """A file named on the command line exists but cannot be read (permissions, not UTF-8, ...)."""

    code = "FILE_UNREADABLE"


class BenchmarkNotFoundError(UsageError):
    """`--benchmark ID` names no installed benchmark."""

    code = "BENCHMARK_NOT_FOUND"


class EventLoopRunningError(UsageError):
    """A synchronous facade (`Benchmark.run`, ...) was called inside a running event loop."""

    code = "EVENT_LOOP_RUNNING"


# -- failures while running (exit 2, HTTP 5xx) ---------------------------------------------------


class GraderError(BenchmarkError):
    """A benchmark's grader broke its contract (see `Benchmark.grade`): a bug in the benchmark, so
    a failure while running (exit 2, HTTP 500), not the caller's mistake."""

    code = "GRADER_ERROR"
    http_meaning = "the benchmark's grader failed (a bug in the benchmark)."


class PluginLoadError(BenchmarkError):
    """An installed benchmark plugin failed to load; names the distribution and entry point."""

    code = "PLUGIN_LOAD_ERROR"


class ListenError(BenchmarkError):
    """`serve` cannot listen on the address asked for (port taken, no such interface, ...)."""

    code = "LISTEN_FAILED"


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


class OutputWriteError(BenchmarkError):
    """A run's journal or report could not be written; the message names the file and the rows safe."""

    code = "OUTPUT_WRITE_FAILED"


class BatchItemFailedError(AdapterError):
    """A batch returned an item as failed (or never returned it) more often than it may be resubmitted."""

    code = "BATCH_ITEM_FAILED"


class AgentFailedError(BenchmarkError):
    """An agent command (`run --agent`) crashed, timed out or exited non-zero: its row is errored,
    with the exit status (None: killed at its timeout) and the tail of its stderr."""

    code = "AGENT_FAILED"

    def __init__(self, message: str, exit_status: Optional[int], stderr_tail: str, wall_ms: int) -> None:
        last = stderr_tail.strip().splitlines()[-3:]
        super().__init__(f"{message}; stderr ends: {' | '.join(last)}" if last else message)
        self.exit_status = exit_status
        self.stderr_tail = stderr_tail
        self.wall_ms = wall_ms


class RunStoppedError(BenchmarkError):
    """A run ended before every task had a row: a fatal provider error (`cause`, whose code this error then
    carries, so a stopped run reports why). `report` is the partial report of the rows that finished
    (`complete` false), which the CLI still writes; with a journal, the run resumes once the cause is fixed."""

    code = "RUN_STOPPED"

    def __init__(self, message: str, report: RunReport, *, cause: Optional[BenchmarkError] = None) -> None:
        super().__init__(message)
        self.report = report
        self.cause = cause
        if cause is not None:
            # An instance attribute: the class's code stays RUN_STOPPED, this stop names its cause.
            self.code = cause.code  # type: ignore[misc]


class MaxErrorsError(RunStoppedError):
    """A run stopped because `max_errors` rows errored."""

    code = "MAX_ERRORS"


def error_classes() -> list[type[BenchmarkError]]:
    """Every error class defined here, base first, in definition order (the module's namespace keeps it)."""
    return [value for value in globals().values() if isinstance(value, type) and issubclass(value, BenchmarkError)]


def error_document(code: str, message: str) -> dict[str, dict[str, str]]:
    """`{"error": {"code", "message"}}`: how every surface reports a failure."""
    return {"error": {"code": code, "message": message}}


def describe_error(exc: BaseException) -> str:
    """A `BenchmarkError`'s own message; for anything else its type, then its text if it has any,
    because the text of an unexpected exception alone often says nothing (`'x'` for a KeyError)."""
    if isinstance(exc, BenchmarkError):
        return exc.message
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
