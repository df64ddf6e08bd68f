"""`inspect_task`: any `Benchmark` as an Inspect AI `Task`."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional, Union

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample

from .._benchmark.definition import Benchmark
from .._model import Task as BenchmarkTask
from ..errors._usage import ConfigurationError, EventLoopRunningError
from ..wire._converter import to_wire
from .benchmarks import remember_benchmark
from .scorer import benchmark_scorer
from .solver import benchmark_solver


def inspect_task(
    benchmark: Benchmark,
    *,
    mode: Optional[str] = None,
    tasks: Optional[Union[str, Path]] = None,
    seed: int = 1,
    max_turns: int = 20,
    max_tool_calls: int = 50,
) -> Task:
    """An Inspect task with one sample per benchmark task (sample id = task id, input = prompt).

    `mode` is the answer mode of single tasks (default: the benchmark's first); `tasks` an alternate
    JSONL task file; `seed` seeds episodes' environments and their replay; `max_turns` and
    `max_tool_calls` bound each episode as `benchmark_core.run` does, inside Inspect's own limits.
    The scorer is the benchmark's grader. Raises `ConfigurationError` for a mode the benchmark does
    not support, or native mode when a single task has no tools.
    """
    answer_mode = mode or benchmark.answer_modes[0]
    if answer_mode not in benchmark.answer_modes:
        raise ConfigurationError(
            f"benchmark {benchmark.id!r} supports answer modes {', '.join(benchmark.answer_modes)}, not {answer_mode!r}"
        )
    if max_turns < 1 or max_tool_calls < 0:
        raise ConfigurationError("max_turns must be at least 1 and max_tool_calls zero or more")
    source = str(tasks) if tasks is not None else None
    task_list = _load(benchmark, source)
    if answer_mode == "native" and any(t.kind == "single" and not t.tools for t in task_list):
        raise ConfigurationError("native answer mode needs tools on every single task")
    remember_benchmark(benchmark)
    return Task(
        dataset=MemoryDataset([_sample(t) for t in task_list], name=benchmark.id),
        solver=benchmark_solver(
            benchmark.id, answer_mode, seed=seed, tasks=source, max_turns=max_turns, max_tool_calls=max_tool_calls
        ),
        scorer=benchmark_scorer(benchmark.id, seed=seed, tasks=source),
        version=benchmark.version,
        metadata={"benchmark": benchmark.id, "mode": answer_mode, "seed": seed},
    )


def _sample(task: BenchmarkTask) -> Sample:
    expected = task.expected
    target = "" if expected is None else expected if isinstance(expected, str) else json.dumps(to_wire(expected))
    return Sample(id=task.id, input=task.prompt, target=target, metadata={"kind": task.kind})


def _load(benchmark: Benchmark, source: Optional[str]) -> list[BenchmarkTask]:
    """The task list, also when Inspect builds the task inside a running event loop (`eval_async`)."""
    try:
        return benchmark.tasks(source)
    except EventLoopRunningError:
        pass
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(benchmark.tasks, source).result()
