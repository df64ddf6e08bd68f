"""Task files (JSONL, one task per line) and the allow-list rule for remote surfaces."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from .._model import Task
from .._util.json_values import jsonl_lines, loads
from ..errors._base import UsageError
from ..errors._tasks import TaskFileError, TasksNotAllowedError
from ..wire._converter import dumps, from_wire

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark


def load_task_file(path: Path) -> list[Task]:
    """Read a JSONL task file. Blank lines are skipped; any other bad line (not JSON, not a task, a
    task id seen before) is an error naming the file and line number."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the JSON
    except FileNotFoundError:
        raise TaskFileError(f"task file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFileError(f"cannot read task file {path}: {exc}") from None
    return parse_task_text(text, str(path))


def parse_task_text(text: str, origin: str) -> list[Task]:
    """The tasks of JSONL text, checked as `load_task_file` checks a file; `origin` names the text in
    messages (a path, or what rendered it)."""
    tasks: list[Task] = []
    first_line: dict[str, int] = {}
    for number, line in jsonl_lines(text):
        try:
            data = loads(line)
        except json.JSONDecodeError as exc:
            raise TaskFileError(f"{origin}:{number}: not JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:
            raise TaskFileError(f"{origin}:{number}: not JSON ({exc})") from None
        try:
            task = from_wire(data, Task, what="task")
        except UsageError as exc:
            raise TaskFileError(f"{origin}:{number}: {exc.message}") from None
        if task.id in first_line:
            first = first_line[task.id]
            raise TaskFileError(f"{origin}:{number}: duplicate task id {task.id!r} (first on line {first})")
        first_line[task.id] = number
        tasks.append(task)
    if not tasks:
        raise TaskFileError(f"task file {origin} holds no tasks")
    return tasks


def file_version(path: Optional[Union[str, Path]]) -> tuple[str, str]:
    """The resolved path and the version (modification time and size) of a task file, so that an
    edited file is read again and only its latest version stays cached; ("", "") for no file."""
    if path is None:
        return "", ""
    # No Path() around a Path, and os.stat on it: this runs once per task lookup (every score request).
    resolved = _resolve(path if isinstance(path, Path) else Path(path))
    try:
        stat = os.stat(resolved)
    except OSError:
        return str(resolved), ""
    return str(resolved), f"{stat.st_mtime_ns}:{stat.st_size}"


@functools.lru_cache(maxsize=256)
def _resolve(path: Path) -> Path:
    # Resolving walks every component of the path (a syscall each): once per path, not per request.
    return path.resolve()


def dump_task_file(tasks: list[Task]) -> str:
    """The canonical JSONL text of a task list (what generators commit)."""
    return "".join(dumps(task) + "\n" for task in tasks)


#: The prefix of the split files a benchmark ships (`tasks-extended.jsonl`), which a bare name may leave out.
SPLIT_PREFIX = "tasks-"


def shipped_file_names(name: str) -> list[str]:
    """The files of `data/` a bare task-file name may mean, in the order they are tried: the name with
    `.jsonl` added when missing, then the same with the split prefix (`full` -> `tasks-full.jsonl`)."""
    file = name if name.endswith(".jsonl") else name + ".jsonl"
    return [file] if file.startswith(SPLIT_PREFIX) else [file, SPLIT_PREFIX + file]


def shipped_splits(data_dir: Path) -> str:
    """The task files a benchmark ships in `data_dir`, as a bare name picks them (for error messages)."""
    return ", ".join(sorted(path.stem for path in data_dir.glob("*.jsonl"))) or "none"


def resolve_remote_tasks(benchmark: Benchmark, name: str) -> Path:
    """Resolve a task-file name given to a remote surface (HTTP, MCP).

    A bare name (no directory part) resolves inside the benchmark's `data/` folder, with `.jsonl`
    added when missing (and the `tasks-` prefix when only that file exists: `shipped_file_names`),
    and must stay inside it after symlinks are resolved. Anything else is
    allowed only when its resolved path equals one listed in the benchmark's allow-list variable
    (colon-separated paths).
    """
    if not name or "\x00" in name:
        raise TasksNotAllowedError("empty or invalid task file name")
    is_bare = "/" not in name and "\\" not in name and name not in (".", "..")
    if is_bare and benchmark.data_dir is not None:
        data_dir = benchmark.data_dir.resolve()
        named, *prefixed = [(data_dir / file).resolve() for file in shipped_file_names(name)]
        # A name that escapes data/ (a symlink out of it) is judged by the allow-list below.
        if named.parent == data_dir:
            for candidate in (named, *prefixed):
                if candidate.parent == data_dir and candidate.is_file():
                    return candidate
            raise TaskFileError(
                f"no task file named {name!r} in the benchmark's data folder; it ships: {shipped_splits(data_dir)}"
            )
    allowed = _allow_list(benchmark)
    candidate = Path(name).expanduser().resolve()
    if candidate in allowed:
        return candidate
    variable = benchmark.tasks_allow_env or "(none defined for this benchmark)"
    raise TasksNotAllowedError(
        f"task file {name!r} is outside the benchmark's data folder and not on the allow-list {variable}"
    )


def remote_task_names(benchmark: Benchmark) -> list[str]:
    """The task-file names a remote caller may give today: each file in `data/`, bare and with
    `.jsonl` (a split file also without its `tasks-` prefix, unless a file of that name exists), then
    each allow-listed path as the allow-list spells it. What the OpenAPI document lists as the
    values of `tasks`."""
    names: list[str] = []
    if benchmark.data_dir is not None and benchmark.data_dir.is_dir():
        files = sorted(path for path in benchmark.data_dir.glob("*.jsonl") if path.is_file())
        stems = {path.stem for path in files}
        for path in files:
            names += [path.stem, path.name]
            short = path.stem[len(SPLIT_PREFIX) :]
            if path.stem.startswith(SPLIT_PREFIX) and short and short not in stems:
                names.append(short)
    if benchmark.tasks_allow_env:
        raw = os.environ.get(benchmark.tasks_allow_env, "")
        names += [p for p in raw.split(os.pathsep) if p.strip() and p not in names]
    return names


def _allow_list(benchmark: Benchmark) -> set[Path]:
    if not benchmark.tasks_allow_env:
        return set()
    raw = os.environ.get(benchmark.tasks_allow_env, "")
    return {Path(p).expanduser().resolve() for p in raw.split(os.pathsep) if p.strip()}
