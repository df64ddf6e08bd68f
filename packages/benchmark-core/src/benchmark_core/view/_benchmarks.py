"""What the view knows of a report's benchmark when it is installed: its tasks (every task file
it ships, for prompts and expected answers) and the size of a task set by its digest (for a live
run's ETA). A benchmark that is not installed still shows: without prompts, and without an ETA."""

from __future__ import annotations

import contextlib
import functools
from typing import TYPE_CHECKING, Optional

from .._model import Task
from ..errors._base import BenchmarkError

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

__all__ = ["installed", "task_index", "task_set_size"]


@functools.cache
def installed(benchmark_id: str) -> Optional[Benchmark]:
    from .._benchmark.plugins import load_benchmark

    try:
        return load_benchmark(benchmark_id)
    except BenchmarkError:
        return None


@functools.cache
def _task_lists(benchmark_id: str) -> tuple[tuple[Task, ...], ...]:
    """The benchmark's default task list, then every other JSONL file it ships."""
    bench = installed(benchmark_id)
    if bench is None:
        return ()
    lists: list[tuple[Task, ...]] = []
    with contextlib.suppress(BenchmarkError):
        lists.append(tuple(bench.tasks()))
    if bench.data_dir is not None:
        for path in sorted(bench.data_dir.glob("*.jsonl")):
            try:
                lists.append(tuple(bench.tasks(path)))
            except BenchmarkError:
                continue  # a data file that is not a task list
    return tuple(lists)


@functools.cache
def task_index(benchmark_id: str) -> dict[str, Task]:
    """Task id -> task, over every task list the benchmark ships (the default list wins)."""
    index: dict[str, Task] = {}
    for tasks in reversed(_task_lists(benchmark_id)):
        index.update((task.id, task) for task in tasks)
    return index


@functools.cache
def _digests(benchmark_id: str) -> dict[str, int]:
    from ..stats._identity import task_set_digest

    return {task_set_digest(tasks): len(tasks) for tasks in _task_lists(benchmark_id)}


def task_set_size(benchmark_id: str, digest: str) -> Optional[int]:
    """How many tasks the task set with this digest has, when it is one the benchmark ships."""
    return _digests(benchmark_id).get(digest)
