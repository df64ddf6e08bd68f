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

from benchmark_core.packaging import lazy_attributes

from .__about__ import __version__
from ._definition import (
    EXTENDED_TASKS_FILE,
    FULL_TASKS_FILE,
    TASKS_ALLOW_ENV,
    TASKS_FILE,
    benchmark,
    run,
    run_async,
    score,
    score_async,
)
from ._provenance import PROVENANCE

if TYPE_CHECKING:
    from ._abstention import grade, grade_no_call
    from ._extract import extract_call, extract_calls
    from ._grader import (
        OUTCOMES,
        SubmittedCall,
        distinct_calls,
        grade_call,
        schema_check,
        stale_signals,
        submitted_call,
        submitted_calls,
    )
    from ._mutations import ALL_KINDS, EXTENDED_KINDS, MUTATION_KINDS, STALE_SIGNALS, Migration, migrate
    from ._native import native_messages
    from ._policies import MOCK_POLICIES, bad_call, half_adapted_call
    from ._prompt import render_prompt
    from ._schemas.catalogue import ADDED_SCHEMAS, ALL_SCHEMAS, BASE_SCHEMAS, EXTENDED, HELD_OUT, NO_CALLS
    from ._schemas.types import (
        NO_CALL_REASONS,
        Alternatives,
        Authored,
        BaseSchema,
        Deprecation,
        Endpoint,
        EnumChange,
        Extended,
        NewRequired,
        NoCall,
        Option,
        Pagination,
        Rename,
        Scope,
        Split,
        TypeChange,
    )
    from ._summary import summarize, summary_markdown, task_groups
    from .generator import PUBLIC_SEED, generate_tasks, render_split, render_tasks

# Loaded on first use: the command line loads the package for `benchmark` alone, and `list` or
# `--help` need neither the grader nor the schema tables; and importing the generator eagerly would
# make `python -m benchmark_schema_mutation.generator` warn that the module was imported twice.
_EXPORTS = {
    ".generator": ("PUBLIC_SEED", "generate_tasks", "render_tasks", "render_split"),
    "._prompt": ("render_prompt",),
    "._abstention": ("grade", "grade_no_call"),
    "._extract": ("extract_call", "extract_calls"),
    "._grader": (
        "OUTCOMES",
        "SubmittedCall",
        "distinct_calls",
        "grade_call",
        "schema_check",
        "stale_signals",
        "submitted_call",
        "submitted_calls",
    ),
    "._native": ("native_messages",),
    "._mutations": ("ALL_KINDS", "EXTENDED_KINDS", "MUTATION_KINDS", "STALE_SIGNALS", "Migration", "migrate"),
    "._policies": ("MOCK_POLICIES", "bad_call", "half_adapted_call"),
    "._schemas.catalogue": ("ADDED_SCHEMAS", "ALL_SCHEMAS", "BASE_SCHEMAS", "EXTENDED", "HELD_OUT", "NO_CALLS"),
    "._schemas.types": (
        "NO_CALL_REASONS",
        "Alternatives",
        "Authored",
        "BaseSchema",
        "Deprecation",
        "Endpoint",
        "EnumChange",
        "Extended",
        "NewRequired",
        "NoCall",
        "Option",
        "Pagination",
        "Rename",
        "Scope",
        "Split",
        "TypeChange",
    ),
    "._summary": ("summarize", "summary_markdown", "task_groups"),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)


__all__ = [
    "ADDED_SCHEMAS",
    "ALL_KINDS",
    "ALL_SCHEMAS",
    "BASE_SCHEMAS",
    "EXTENDED",
    "EXTENDED_KINDS",
    "EXTENDED_TASKS_FILE",
    "FULL_TASKS_FILE",
    "HELD_OUT",
    "MOCK_POLICIES",
    "MUTATION_KINDS",
    "NO_CALLS",
    "NO_CALL_REASONS",
    "OUTCOMES",
    "PROVENANCE",
    "PUBLIC_SEED",
    "STALE_SIGNALS",
    "TASKS_ALLOW_ENV",
    "TASKS_FILE",
    "Alternatives",
    "Authored",
    "BaseSchema",
    "Deprecation",
    "Endpoint",
    "EnumChange",
    "Extended",
    "Migration",
    "NewRequired",
    "NoCall",
    "Option",
    "Pagination",
    "Rename",
    "Scope",
    "Split",
    "SubmittedCall",
    "TypeChange",
    "__version__",
    "bad_call",
    "benchmark",
    "distinct_calls",
    "extract_call",
    "extract_calls",
    "generate_tasks",
    "grade",
    "grade_call",
    "grade_no_call",
    "half_adapted_call",
    "migrate",
    "native_messages",
    "render_prompt",
    "render_tasks",
    "run",
    "run_async",
    "schema_check",
    "score",
    "score_async",
    "stale_signals",
    "submitted_call",
    "submitted_calls",
    "summarize",
    "summary_markdown",
    "task_groups",
    "render_split",
]
