"""Schema Mutation as an Inspect task (needs `pip install "benchmark-core[inspect]"`):

inspect eval benchmark_schema_mutation/schema_mutation --model <provider/model> [-T mode=native]
"""

from __future__ import annotations

from typing import Optional

from benchmark_core.inspect_task import inspect_task
from inspect_ai import Task, task

from ._definition import benchmark


@task
def schema_mutation(mode: Optional[str] = None, tasks: Optional[str] = None) -> Task:
    """One sample per task. `mode`: prompt (the schema in the prompt, a JSON answer; the default) or
    native (the schema offered as tools, the model's tool call graded). `tasks`: another task file,
    such as a hidden split."""
    return inspect_task(benchmark, mode=mode, tasks=tasks)
