"""What the remote surfaces (HTTP API, MCP server) share: the task-file rule, grading a submitted
trace, and tasks shown without their grading fields. The documents they return are built in
`benchmark_core.servers._documents`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import attrs

from .._model import Task, TaskScore
from ..data._taskfiles import resolve_remote_tasks
from ..errors._base import BenchmarkError
from ..wire._submission import parse_submission

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark


def without_grading(tasks: Sequence[Task]) -> list[Task]:
    """The tasks as a surface an agent may reach shows them: without their grading fields
    (`expected`, and `metadata`: the stale call, target states, what the grader reads)."""
    return [attrs.evolve(task, expected=None, metadata={}) for task in tasks]


class remote_task_file:  # lower case: it reads as a function, `with remote_task_file(...) as path`
    """The task file a remote caller named (None: the benchmark's own tasks), under the allow-list
    rule of `resolve_remote_tasks`, for use around the code that reads it.

    An error raised inside names the file as the caller did: the resolved path would tell a remote
    client where the package is installed on the server. (A class rather than a generator-based
    context manager: every score request enters one, and a generator costs it several calls more.)
    """

    def __init__(self, benchmark: Benchmark, name: Optional[str]) -> None:
        self.benchmark = benchmark
        self.name = name
        self.path = None if name is None else resolve_remote_tasks(benchmark, name)

    def __enter__(self) -> Optional[Path]:
        return self.path

    def __exit__(self, kind: Optional[type[BaseException]], exc: Optional[BaseException], _: Any) -> None:
        if not isinstance(exc, BenchmarkError):
            return
        path, name, data_dir = self.path, self.name, self.benchmark.data_dir
        if path is not None and name is not None and str(path) in exc.message:
            exc.message = exc.message.replace(str(path), name)
        elif data_dir is not None:  # an error in the benchmark's own file: its name only
            exc.message = exc.message.replace(str(data_dir) + os.sep, "")
        exc.args = (exc.message,)


async def load_remote_tasks(benchmark: Benchmark, name: Optional[str]) -> list[Task]:
    with remote_task_file(benchmark, name) as source:
        return await benchmark.load_tasks(source)


async def get_remote_task(benchmark: Benchmark, task_id: str, name: Optional[str]) -> Task:
    with remote_task_file(benchmark, name) as source:
        return await benchmark.get_task(task_id, source)


async def score_remote_submission(
    benchmark: Benchmark, task_id: str, submission: Any, name: Optional[str], seed: int
) -> TaskScore:
    """Grade a submission a remote caller sent against one task of the task file it named. The
    submission is checked first (`benchmark_core.wire._submission`); errors name its path as
    `$.submission...`, where both the HTTP body and the MCP tool's arguments hold it."""
    with remote_task_file(benchmark, name) as source:
        trace = parse_submission(submission, path="$.submission")
        task = await benchmark.get_task(task_id, source)
    return await benchmark.grade(task, trace, benchmark.grade_context(seed))
