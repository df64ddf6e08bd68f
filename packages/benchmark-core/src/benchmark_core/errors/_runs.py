"""A run's output and its end: journals that cannot be used, shards that are not one run, an
output locked or not writable, and a run stopped before every task had a row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ._base import BenchmarkError, UsageError

if TYPE_CHECKING:
    from .._model import RunReport


class JournalError(UsageError):
    """A journal that cannot be used as asked: no --resume, another run's (the field named), unreadable."""

    code = "JOURNAL_MISMATCH"


class JournalExistsError(JournalError):
    """`run --output` found the journal of an earlier run and `--resume` was not given."""

    code = "JOURNAL_EXISTS"


class ShardMergeError(UsageError):
    """`merge` got shards that are not one run: missing, overlapping, or disagreeing (the message says which)."""

    code = "SHARDS_MISMATCH"


class OutputLockedError(UsageError):
    """Another process holds the lock on the output's journal (`runs._output_lock`); the message names its pid."""

    code = "OUTPUT_LOCKED"


class OutputWriteError(BenchmarkError):
    """A run's journal or report could not be written; the message names the file and the rows safe."""

    code = "OUTPUT_WRITE_FAILED"


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
