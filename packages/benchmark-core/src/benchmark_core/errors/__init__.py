"""The errors benchmark-core raises, one hierarchy under `BenchmarkError`, and the CLI's exit codes.

Each error has a stable machine-readable `code` (the HTTP API's and MCP's `{"error": {"code", ...}}`)
and an `exit_code` (0 ok, 1 invalid usage, 2 runtime failure; 130 and 143 for a run ended by SIGINT
or SIGTERM). `UsageError` and its subclasses are a user's mistake, `ConfigurationError` a missing
key or extra, `AdapterError` and its subclasses what a provider answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._base": (
        "EXIT_FAILURE",
        "EXIT_OK",
        "EXIT_SIGINT",
        "EXIT_SIGTERM",
        "EXIT_USAGE",
        "BenchmarkError",
        "InternalError",
        "UsageError",
    ),
    "._tasks": (
        "DefinitionError",
        "InvalidScoreRequestError",
        "InvalidSubmissionError",
        "TaskFileError",
        "TaskNotFoundError",
        "TasksNotAllowedError",
    ),
    "._requests": (
        "InvalidArgumentsError",
        "InvalidJsonError",
        "MethodNotAllowedError",
        "RequestTooLargeError",
        "RouteNotFoundError",
        "UnknownToolError",
    ),
    "._sessions": (
        "InvalidSessionRequestError",
        "NotAnEpisodeError",
        "SessionFinishedError",
        "SessionNotFoundError",
        "SessionUnauthorizedError",
        "TooManySessionsError",
    ),
    "._usage": (
        "BenchmarkFileError",
        "BenchmarkNotFoundError",
        "ConfigurationError",
        "EventLoopRunningError",
        "IncomparableReportsError",
        "MissingExtraError",
        "MissingFileError",
        "ScaffoldError",
        "UnreadableFileError",
    ),
    "._runs": (
        "JournalError",
        "JournalExistsError",
        "MaxErrorsError",
        "OutputLockedError",
        "OutputWriteError",
        "RunStoppedError",
        "ShardMergeError",
    ),
    "._failures": (
        "AgentFailedError",
        "GraderError",
        "ListenError",
        "PluginLoadError",
    ),
    "._provider": (
        "AdapterError",
        "AuthenticationFailedError",
        "BadRequestError",
        "BatchItemFailedError",
        "ConnectionFailedError",
        "MalformedResponseError",
        "ModelNotFoundError",
        "ProviderError",
        "RateLimitedError",
        "RequestTimeoutError",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._base import (
        EXIT_FAILURE,
        EXIT_OK,
        EXIT_SIGINT,
        EXIT_SIGTERM,
        EXIT_USAGE,
        BenchmarkError,
        InternalError,
        UsageError,
    )
    from ._failures import AgentFailedError, GraderError, ListenError, PluginLoadError
    from ._provider import (
        AdapterError,
        AuthenticationFailedError,
        BadRequestError,
        BatchItemFailedError,
        ConnectionFailedError,
        MalformedResponseError,
        ModelNotFoundError,
        ProviderError,
        RateLimitedError,
        RequestTimeoutError,
    )
    from ._requests import (
        InvalidArgumentsError,
        InvalidJsonError,
        MethodNotAllowedError,
        RequestTooLargeError,
        RouteNotFoundError,
        UnknownToolError,
    )
    from ._runs import (
        JournalError,
        JournalExistsError,
        MaxErrorsError,
        OutputLockedError,
        OutputWriteError,
        RunStoppedError,
        ShardMergeError,
    )
    from ._sessions import (
        InvalidSessionRequestError,
        NotAnEpisodeError,
        SessionFinishedError,
        SessionNotFoundError,
        SessionUnauthorizedError,
        TooManySessionsError,
    )
    from ._tasks import (
        DefinitionError,
        InvalidScoreRequestError,
        InvalidSubmissionError,
        TaskFileError,
        TaskNotFoundError,
        TasksNotAllowedError,
    )
    from ._usage import (
        BenchmarkFileError,
        BenchmarkNotFoundError,
        ConfigurationError,
        EventLoopRunningError,
        IncomparableReportsError,
        MissingExtraError,
        MissingFileError,
        ScaffoldError,
        UnreadableFileError,
    )
__all__ = [
    "AdapterError",
    "AgentFailedError",
    "AuthenticationFailedError",
    "BadRequestError",
    "BatchItemFailedError",
    "BenchmarkError",
    "BenchmarkFileError",
    "BenchmarkNotFoundError",
    "ConfigurationError",
    "ConnectionFailedError",
    "DefinitionError",
    "EXIT_FAILURE",
    "EXIT_OK",
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "EXIT_USAGE",
    "EventLoopRunningError",
    "GraderError",
    "IncomparableReportsError",
    "InternalError",
    "InvalidArgumentsError",
    "InvalidJsonError",
    "InvalidScoreRequestError",
    "InvalidSessionRequestError",
    "InvalidSubmissionError",
    "JournalError",
    "JournalExistsError",
    "ListenError",
    "MalformedResponseError",
    "MaxErrorsError",
    "MethodNotAllowedError",
    "MissingExtraError",
    "MissingFileError",
    "ModelNotFoundError",
    "NotAnEpisodeError",
    "OutputLockedError",
    "OutputWriteError",
    "PluginLoadError",
    "ProviderError",
    "RateLimitedError",
    "RequestTimeoutError",
    "RequestTooLargeError",
    "RouteNotFoundError",
    "RunStoppedError",
    "ScaffoldError",
    "SessionFinishedError",
    "SessionNotFoundError",
    "SessionUnauthorizedError",
    "ShardMergeError",
    "TaskFileError",
    "TaskNotFoundError",
    "TasksNotAllowedError",
    "TooManySessionsError",
    "UnknownToolError",
    "UnreadableFileError",
    "UsageError",
]
# End of the generated block.
