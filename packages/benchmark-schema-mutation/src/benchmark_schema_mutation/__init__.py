"""benchmark-schema-mutation: does a model follow the tool schema in front of it, or the one it memorised?

The SDK:

    from benchmark_schema_mutation import benchmark, run, score
    from benchmark_core import mock_adapter

    report = run(mock_adapter(policies=benchmark.mock_policies))
    verdict = score("sm-issues-renamed-field", {"answer": '{"name": "issues.create", "arguments": {...}}'})

The same `benchmark` object backs the command line, the HTTP API and the MCP server (see
`benchmark_core`), and is registered under the `benchmark_core.benchmarks` entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchmark_core import lazy_attributes

from .__about__ import __version__
from .definition import TASKS_ALLOW_ENV, TASKS_FILE, benchmark, run, run_async, score, score_async
from .grader import (
    OUTCOMES,
    SubmittedCall,
    extract_call,
    first_difference,
    grade,
    grade_call,
    schema_check,
    stale_signals,
    submitted_call,
)
from .mock_policies import MOCK_POLICIES, bad_call, half_adapted_call
from .mutations import MUTATION_KINDS, STALE_SIGNALS, Migration, migrate
from .provenance import PROVENANCE
from .schemas import BASE_SCHEMAS, BaseSchema, EnumChange, NewRequired, Option, Rename, Split, TypeChange
from .summary import summarize, summary_markdown, task_groups

if TYPE_CHECKING:
    from .generator import PUBLIC_SEED, generate_tasks, render_prompt, render_tasks, write_split

# The generator is loaded on first use: importing it eagerly would make
# `python -m benchmark_schema_mutation.generator` warn that the module was imported twice.
_LAZY = {
    name: ".generator" for name in ("PUBLIC_SEED", "generate_tasks", "render_prompt", "render_tasks", "write_split")
}

__getattr__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "BASE_SCHEMAS",
    "MOCK_POLICIES",
    "MUTATION_KINDS",
    "OUTCOMES",
    "PROVENANCE",
    "PUBLIC_SEED",
    "STALE_SIGNALS",
    "TASKS_ALLOW_ENV",
    "TASKS_FILE",
    "BaseSchema",
    "EnumChange",
    "Migration",
    "NewRequired",
    "Option",
    "Rename",
    "Split",
    "SubmittedCall",
    "TypeChange",
    "__version__",
    "bad_call",
    "benchmark",
    "extract_call",
    "first_difference",
    "generate_tasks",
    "grade",
    "grade_call",
    "half_adapted_call",
    "migrate",
    "render_prompt",
    "render_tasks",
    "run",
    "run_async",
    "schema_check",
    "score",
    "score_async",
    "stale_signals",
    "submitted_call",
    "summarize",
    "summary_markdown",
    "task_groups",
    "write_split",
]
