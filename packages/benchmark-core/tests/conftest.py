"""Shared fixtures of benchmark-core's tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
from benchmark_core import (
    Benchmark,
    GradeContext,
    Provenance,
    Task,
    TaskScore,
    Trace,
    define_benchmark,
    mock_adapter,
    run,
)
from benchmark_core.data import dump_task_file
from benchmark_core.example import benchmark as example
from benchmark_core.testing import run_in_thread
from benchmark_core.testing.browser_fixtures import browser_type_launch_args, pytest_collection_modifyitems
from benchmark_core.wire import dumps, to_wire

PROVENANCE = Provenance(
    name="test tasks",
    kind="synthetic",
    url="https://example.invalid/tasks",
    licence="MIT",
    how_to_get="Built in the test.",
    retrieved_at="2026-10-15T00:00:00Z",
    contamination_notes="None.",
    refresh="Never.",
)


def equals_expected(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    ok = trace.answer == task.expected
    return TaskScore(1.0 if ok else 0.0, ok, "match" if ok else f"expected {task.expected!r}, got {trace.answer!r}")


BenchmarkFactory = Callable[..., Benchmark]

#: pytest-playwright's `page` and `browser` on the system's Chromium (the browser tests).
__all__ = ["browser_type_launch_args", "pytest_collection_modifyitems"]


@pytest.fixture
def make_benchmark() -> BenchmarkFactory:
    """Build a small single-task benchmark; keyword arguments override `define_benchmark`'s."""

    def factory(tasks: Optional[Sequence[Task]] = None, **overrides: Any) -> Benchmark:
        options: dict[str, Any] = {
            "id": "tiny",
            "name": "Tiny",
            "tagline": "A tiny benchmark for tests.",
            "tags": ["test"],
            "category": "test",
            "what_it_measures": "Nothing real.",
            "version": "0.0.1",
            "status": "alpha",
            "grade": equals_expected,
            "provenance": [PROVENANCE],
            "grading_method": "Exact string match.",
        }
        options.update(overrides)
        if tasks is not None:
            options["tasks"] = tasks
        elif "load_tasks" not in overrides and "tasks_file" not in overrides:
            options["tasks"] = [Task(id=f"t{i}", kind="single", prompt=f"Say {i}.", expected=str(i)) for i in range(6)]
        return define_benchmark(**options)

    return factory


def numbered_tasks(prefix: str, count: int) -> list[Task]:
    return [Task(id=f"{prefix}{i}", kind="single", prompt=f"Say {i}.", expected=str(i)) for i in range(count)]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A benchmark's data/ folder for the remote surfaces' tests: tasks.jsonl (3 tasks) and alt.jsonl
    (2), plus outside.jsonl (4) next to data/, which only the allow-list can reach."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "tasks.jsonl").write_text(dump_task_file(numbered_tasks("t", 3)), encoding="utf-8")
    (data / "alt.jsonl").write_text(dump_task_file(numbered_tasks("alt", 2)), encoding="utf-8")
    (tmp_path / "outside.jsonl").write_text(dump_task_file(numbered_tasks("out", 4)), encoding="utf-8")
    return data


@pytest.fixture(autouse=True)
def _private_response_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs against a provider cache their responses by default; tests keep theirs out of ~/.cache
    (subprocesses inherit the variable)."""
    monkeypatch.setenv("BENCHMARK_CORE_CACHE", str(tmp_path_factory.mktemp("response-cache")))


# Results folders for the results browser's tests (tests/view): real runs of the example benchmark
# by models of known skill (`mock_adapter(skill=...)`), saved where a sweep saves them, plus a loose
# `run --output` file.
VIEW_SKILLS = {"alpha": 0.9, "bravo": 0.6, "charlie": 0.4}


async def make_results(folder: Path, skills: dict[str, float] = VIEW_SKILLS) -> Path:
    for label, skill in skills.items():
        report = await run(example, mock_adapter(skill=skill, model=label), cache=False)
        path = folder / example.id / label / "report.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_wire(report)), encoding="utf-8")
    return folder


async def _view_results(folder: Path) -> Path:
    await make_results(folder)
    loose = await run(example, mock_adapter(skill=0.5, model="loose/one"), cache=False)
    (folder / "loose run.json").write_text(dumps(to_wire(loose)), encoding="utf-8")
    (folder / "notes.json").write_text('{"not": "a report"}', encoding="utf-8")
    return folder


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """Synchronous, for the browser tests too (their asyncio cannot run in the main thread)."""
    return run_in_thread(_view_results(tmp_path / "results"))
