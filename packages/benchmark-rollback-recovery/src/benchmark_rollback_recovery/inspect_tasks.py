"""Rollback Recovery as an Inspect task (needs `pip install "benchmark-core[inspect]"`):

inspect eval benchmark_rollback_recovery/rollback_recovery --model <provider/model>
"""

from __future__ import annotations

from typing import Optional

from benchmark_core.inspect_task import inspect_task
from inspect_ai import Task, task

from ._definition import benchmark


@task
def rollback_recovery(
    tasks: Optional[str] = None, seed: int = 1, max_turns: int = 20, max_tool_calls: int = 50
) -> Task:
    """One episode per sample: the simulator's tools offered as Inspect tools, the agent loop under
    Inspect's limits and these budgets, and the tool log replayed by the grader. `tasks`: another task
    file, such as a hidden split; `seed`: the simulator's seed."""
    return inspect_task(benchmark, tasks=tasks, seed=seed, max_turns=max_turns, max_tool_calls=max_tool_calls)
