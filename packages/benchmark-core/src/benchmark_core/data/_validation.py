"""The rules a benchmark definition is held to when it is built (`check_definition`), and those its
task lists are held to each time they are loaded (`validate_tasks`); each names the first offender."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._model import BENCHMARK_STATUSES, PROVENANCE_KINDS, TASK_KINDS, Task
from ..errors._tasks import DefinitionError
from ..wire._converter import check_json

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

BENCHMARK_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
TASK_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
ANSWER_MODES: tuple[str, ...] = ("prompt", "native")


def validate_tasks(tasks: Sequence[Task], *, has_environment: bool, parsed: bool = False) -> tuple[Task, ...]:
    """Unique, well-formed ids and known kinds; episodes need an environment. Names the offender.

    Tasks built in code must also be JSON (they could hold NaN or a set, which every surface would
    fail to send); `parsed=True` says they were read from strict JSON, which they are by construction.
    """
    seen: set[str] = set()
    for position, task in enumerate(tasks, start=1):
        if not isinstance(task, Task):
            raise DefinitionError(f"task #{position} is a {type(task).__name__}, not a Task")
        if not TASK_ID_RE.match(task.id):
            raise DefinitionError(
                f"task #{position} has an invalid id {task.id!r}: use letters, digits, '.', '_', ':' or '-'"
            )
        if task.id in seen:
            raise DefinitionError(f"duplicate task id {task.id!r} (task #{position})")
        seen.add(task.id)
        if task.kind not in TASK_KINDS:
            raise DefinitionError(
                f"task {task.id!r} has unknown kind {task.kind!r}; expected one of {', '.join(TASK_KINDS)}"
            )
        if task.kind == "episode" and not has_environment:
            raise DefinitionError(f"task {task.id!r} is an episode but the benchmark has no environment")
        if not parsed:
            _check_json(task)
    return tuple(tasks)


def _check_json(task: Task) -> None:
    try:
        check_json(task)
    except (TypeError, ValueError) as exc:
        raise DefinitionError(f"task {task.id!r} is not JSON: {exc}") from None


def check_definition(benchmark: Benchmark) -> None:
    """The definition's rules, checked in the order the arguments are documented."""
    id = benchmark.id
    if not isinstance(id, str) or not BENCHMARK_ID_RE.match(id):
        raise DefinitionError(f"invalid benchmark id {id!r}: use lowercase letters, digits and '-'")
    for label in ("name", "tagline", "version", "category"):
        value = getattr(benchmark, label)
        if not isinstance(value, str) or not value.strip():
            raise DefinitionError(f"benchmark {id!r}: {label} must be a non-empty string")
    if benchmark.status not in BENCHMARK_STATUSES:
        raise DefinitionError(
            f"benchmark {id!r}: unknown status {benchmark.status!r}; expected one of {', '.join(BENCHMARK_STATUSES)}"
        )
    sources = (benchmark._static_tasks, benchmark._loader, benchmark._tasks_file)
    if sum(source is not None for source in sources) != 1:
        raise DefinitionError(f"benchmark {id!r}: give exactly one of tasks, load_tasks or tasks_file")
    for label, hook in (
        ("grade", benchmark.grader),
        ("native_messages", benchmark._native_messages),
        ("groups", benchmark.group_labeler),
        ("episode_context", benchmark._episode_context),
    ):
        if (hook is not None or label == "grade") and not callable(hook):
            raise DefinitionError(f"benchmark {id!r}: {label} must be callable")
    cluster_by = benchmark.cluster_by
    if cluster_by is not None and (not isinstance(cluster_by, str) or not cluster_by):
        raise DefinitionError(f"benchmark {id!r}: cluster_by must name a group dimension (a non-empty string)")
    if cluster_by is not None and benchmark.group_labeler is None:
        raise DefinitionError(
            f"benchmark {id!r}: cluster_by {cluster_by!r} names a group dimension, but the benchmark declares no groups"
        )
    if not benchmark.provenance:
        raise DefinitionError(f"benchmark {id!r}: at least one provenance record is required")
    for record in benchmark.provenance:
        if record.kind not in PROVENANCE_KINDS:
            raise DefinitionError(
                f"benchmark {id!r}: provenance {record.name!r} has unknown kind {record.kind!r}; "
                f"expected one of {', '.join(PROVENANCE_KINDS)}"
            )
    for mode in benchmark.answer_modes:
        if mode not in ANSWER_MODES:
            raise DefinitionError(
                f"benchmark {id!r}: unknown answer mode {mode!r}; expected one of {', '.join(ANSWER_MODES)}"
            )
    if benchmark._static_tasks is not None:
        validate_tasks(benchmark._static_tasks, has_environment=benchmark.environment is not None)
