"""Inspect AI integration (`pip install "benchmark-core[inspect]"`): any `Benchmark` as an Inspect task.

    from inspect_ai import eval
    from benchmark_core.inspect_task import inspect_task
    from benchmark_schema_mutation import benchmark

    eval(inspect_task(benchmark, mode="native"), model="openai/gpt-4o-mini")

Installed benchmarks register their tasks through Inspect's `inspect_ai` entry-point group, so
`inspect eval benchmark_schema_mutation/schema_mutation --model <provider/model>` works from the shell.
The `benchmark-mock` model provider (`--model benchmark-mock/offline`) plays benchmark-core's offline
mock. `import benchmark_core` never imports this package, nor inspect_ai.
"""

from __future__ import annotations

from .adapter import InspectModelAdapter, tool_infos
from .mock_model import BenchmarkMockAPI
from .scorer import benchmark_scorer, pass_rate
from .solver import ABORT_KEY, TRACE_KEY, benchmark_solver
from .task import inspect_task

__all__ = [
    "ABORT_KEY",
    "TRACE_KEY",
    "BenchmarkMockAPI",
    "InspectModelAdapter",
    "benchmark_scorer",
    "benchmark_solver",
    "inspect_task",
    "pass_rate",
    "tool_infos",
]
