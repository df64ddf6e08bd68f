"""Task files (JSONL, one task per line) and the allow-list rule for remote surfaces."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import TaskFileError, TasksNotAllowedError
from .model import Task
from .wire import from_wire

if TYPE_CHECKING:
    from .definition import Benchmark


def load_task_file(path: Path) -> list[Task]:
    """Read a JSONL task file. Blank lines are skipped; any other bad line is an error naming the
    file and line number."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskFileError(f"task file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFileError(f"cannot read task file {path}: {exc}") from None
    tasks: list[Task] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line, parse_constant=_reject_constant, parse_float=_finite_float)
        except json.JSONDecodeError as exc:
            raise TaskFileError(f"{path}:{number}: not JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:
            raise TaskFileError(f"{path}:{number}: not JSON ({exc})") from None
        try:
            tasks.append(from_wire(data, Task, what="task"))
        except Exception as exc:
            raise TaskFileError(f"{path}:{number}: {exc}") from None
    if not tasks:
        raise TaskFileError(f"task file {path} holds no tasks")
    return tasks


def _reject_constant(name: str) -> float:
    # NaN and Infinity are accepted by Python's json module but are not JSON; no surface could emit them.
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is out of range for a number")
    return value


def dump_task_file(tasks: list[Task]) -> str:
    """The canonical JSONL text of a task list (what generators commit)."""
    from .wire import dumps

    return "".join(dumps(task) + "\n" for task in tasks)


def resolve_remote_tasks(benchmark: Benchmark, name: str) -> Path:
    """Resolve a task-file name given to a remote surface (HTTP, MCP).

    A bare name (no directory part) resolves inside the benchmark's `data/` folder, with `.jsonl`
    added when missing, and must stay inside it after symlinks are resolved. Anything else is
    allowed only when its resolved path equals one listed in the benchmark's allow-list variable
    (colon-separated paths).
    """
    if not name or "\x00" in name:
        raise TasksNotAllowedError("empty or invalid task file name")
    is_bare = "/" not in name and "\\" not in name and name not in (".", "..")
    if is_bare and benchmark.data_dir is not None:
        data_dir = benchmark.data_dir.resolve()
        candidate = (data_dir / (name if name.endswith(".jsonl") else name + ".jsonl")).resolve()
        if candidate.parent == data_dir:
            if not candidate.is_file():
                raise TaskFileError(f"no task file named {name!r} in the benchmark's data folder")
            return candidate
    allowed = _allow_list(benchmark)
    candidate = Path(name).expanduser().resolve()
    if candidate in allowed:
        return candidate
    variable = benchmark.tasks_allow_env or "(none defined for this benchmark)"
    raise TasksNotAllowedError(
        f"task file {name!r} is outside the benchmark's data folder and not on the allow-list {variable}"
    )


def _allow_list(benchmark: Benchmark) -> set[Path]:
    if not benchmark.tasks_allow_env:
        return set()
    raw = os.environ.get(benchmark.tasks_allow_env, "")
    return {Path(p).expanduser().resolve() for p in raw.split(os.pathsep) if p.strip()}
