"""Shared fixtures. The package is used as installed (wheel or editable): data is found through the
Benchmark's data_dir, never through a path into src/."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import Task, TaskScore, ToolCall, Trace
from benchmark_core.data import dump_task_file
from benchmark_core.testing.browser_fixtures import browser_type_launch_args, pytest_collection_modifyitems
from benchmark_schema_mutation import benchmark, grade_call

#: Positions of the public tasks copied into the alternate task file: one of each mutation kind.
ALTERNATE_POSITIONS = (0, 6, 12, 18, 24)

#: pytest-playwright's `page` on the system's Chromium (the HTML report's browser tests).
__all__ = ["browser_type_launch_args", "pytest_collection_modifyitems"]


@pytest.fixture(scope="session")
def tasks() -> list[Task]:
    return benchmark.tasks()


@pytest.fixture(scope="session")
def task_by_id(tasks: list[Task]) -> dict[str, Task]:
    return {task.id: task for task in tasks}


@pytest.fixture(scope="session")
def tasks_of_kind(tasks: list[Task]) -> Callable[[str], list[Task]]:
    def pick(kind: str) -> list[Task]:
        return [task for task in tasks if task.metadata["mutationKind"] == kind]

    return pick


@pytest.fixture(scope="session")
def grade_text() -> Callable[[Task, Any], TaskScore]:
    """Grade a prompt-mode answer: a string as is, anything else as its JSON text."""

    def run(task: Task, answer: Any) -> TaskScore:
        text = answer if isinstance(answer, str) or answer is None else json.dumps(answer)
        return grade_call(task, Trace(answer=text))

    return run


@pytest.fixture(scope="session")
def grade_native() -> Callable[[Task, list[dict[str, Any]]], TaskScore]:
    """Grade a native-mode submission: a list of {"name", "arguments"} calls."""

    def run(task: Task, calls: list[dict[str, Any]]) -> TaskScore:
        tool_calls = [ToolCall(name=c["name"], arguments=c["arguments"], id=f"call_{i}") for i, c in enumerate(calls)]
        return grade_call(task, Trace(tool_calls=tool_calls))

    return run


@pytest.fixture
def alternate_tasks(tasks: list[Task]) -> list[Task]:
    """Five public tasks, one per mutation kind, under new `alt-` ids: a task file this benchmark
    does not ship, as a held-out split would be."""
    return [attrs.evolve(tasks[i], id="alt-" + tasks[i].id) for i in ALTERNATE_POSITIONS]


@pytest.fixture
def alternate_file(tmp_path: Path, alternate_tasks: list[Task]) -> Path:
    path = tmp_path / "alternate.jsonl"
    path.write_text(dump_task_file(alternate_tasks), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _private_response_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs against a provider cache their responses by default; tests keep theirs out of ~/.cache
    (subprocesses inherit the variable)."""
    monkeypatch.setenv("BENCHMARK_CORE_CACHE", str(tmp_path_factory.mktemp("response-cache")))
