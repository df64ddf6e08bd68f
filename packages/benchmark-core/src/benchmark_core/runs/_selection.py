"""Which tasks a run sends: its task source loaded and checked, the `task_ids` it names, and the
rule native mode sets (a shard's share of them is `shards.shard_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from .._model import Task
from ..errors._tasks import TaskNotFoundError
from ..errors._usage import ConfigurationError

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

#: What a run's tasks come from: the benchmark's own file (None), another task file, or a list.
TaskSource = Union[str, Path, Sequence[Task], None]


async def run_task_list(
    benchmark: Benchmark, source: TaskSource, task_ids: Optional[Sequence[str]], mode: str
) -> list[Task]:
    """The tasks of `source`, checked, restricted to `task_ids` (a `TaskNotFoundError` names any the
    source lacks); in native mode every single task must offer tools."""
    if source is None or isinstance(source, (str, Path)):
        task_list = await benchmark.load_tasks(source)
    else:
        task_list = benchmark.checked_tasks(list(source))
    if task_ids is not None:
        wanted = set(task_ids)
        unknown = wanted - {t.id for t in task_list}
        if unknown:
            raise TaskNotFoundError(f"unknown task id(s): {', '.join(sorted(unknown))}")
        task_list = [t for t in task_list if t.id in wanted]
    if mode == "native" and any(t.kind == "single" and not t.tools for t in task_list):
        raise ConfigurationError("native answer mode needs tools on every single task")
    return task_list
