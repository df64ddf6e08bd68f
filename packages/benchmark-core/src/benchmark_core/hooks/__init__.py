"""The named types of the functions a benchmark definition takes (`define_benchmark(grade=...,
load_tasks=..., environment=..., summarize=...)`, `MockPolicies(good_answer=...)`), for annotating
your own hooks. `GradeContext`, what a grader receives, is at the root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._hooks": (
        "EpisodeContextHook",
        "Grader",
        "GroupLabeler",
        "NativeMessages",
        "Summarizer",
        "SummaryMarkdown",
        "TaskLoader",
    ),
    "..episodes._environment": ("EnvironmentFactory",),
    "..adapters.mock": (
        "AnswerPolicy",
        "CallPolicy",
        "ScriptPolicy",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ..adapters.mock import AnswerPolicy, CallPolicy, ScriptPolicy
    from ..episodes._environment import EnvironmentFactory
    from ._hooks import (
        EpisodeContextHook,
        Grader,
        GroupLabeler,
        NativeMessages,
        Summarizer,
        SummaryMarkdown,
        TaskLoader,
    )
__all__ = [
    "AnswerPolicy",
    "CallPolicy",
    "EnvironmentFactory",
    "EpisodeContextHook",
    "Grader",
    "GroupLabeler",
    "NativeMessages",
    "ScriptPolicy",
    "Summarizer",
    "SummaryMarkdown",
    "TaskLoader",
]
# End of the generated block.
