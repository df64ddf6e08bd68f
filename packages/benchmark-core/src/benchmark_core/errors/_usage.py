"""A caller's mistakes on the command line and in configuration: options, keys and extras,
files, benchmarks, reports that cannot be compared (exit 1)."""

from __future__ import annotations

from ._base import UsageError


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


class MissingExtraError(UsageError):
    """A feature needs an optional extra that is not installed (the message names it and its pip command)."""

    code = "EXTRA_NOT_INSTALLED"


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
