"""A caller's mistakes about tasks: a definition or task file that is invalid, a task that is not
there or not allowed, a submission that is not a valid trace (exit 1, HTTP 4xx)."""

from __future__ import annotations

from typing import Optional

from ._base import UsageError


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
