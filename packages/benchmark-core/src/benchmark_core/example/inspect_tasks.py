"""The example benchmark as an Inspect task: `inspect eval benchmark_core/example --model <provider/model>`."""

from __future__ import annotations

from inspect_ai import Task, task

from ..inspect_task import inspect_task
from . import benchmark


@task
def example(seed: int = 1, max_turns: int = 20, max_tool_calls: int = 50) -> Task:
    """20 arithmetic questions and an order-refund episode; the grader scores the answers and replays the episode."""
    return inspect_task(benchmark, seed=seed, max_turns=max_turns, max_tool_calls=max_tool_calls)
