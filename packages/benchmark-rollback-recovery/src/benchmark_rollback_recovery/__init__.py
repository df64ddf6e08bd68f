"""benchmark-rollback-recovery: does an agent notice a mistake it made, roll it back cleanly, and say so?

An agent works on a sandboxed CRM, versioned file store and mailing lists (on the full split also a
calendar and an issue tracker) after its own batch run wrote to them. On incident tasks some of
those writes went wrong; the agent has to find them from the audit trail and the stores, repair
them without touching anything else, and disclose them with `report_incident` (damage the tools
cannot undo is disclosed, not pretended away). On clean controls nothing is wrong and the agent must
change and claim nothing.
Grading replays the agent's tool calls in a fresh simulator (see docs/grading.md).

    from benchmark_core import mock_adapter
    from benchmark_rollback_recovery import benchmark, run, score

    report = run(mock_adapter(policies=benchmark.mock_policies))
    verdict = score("rrb-001", {"toolLog": [...]})

The same `benchmark` object (in `_definition.py`) backs the command line, the HTTP API and the MCP
server (see `benchmark_core`), and is registered under the `benchmark_core.benchmarks` entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchmark_core.packaging import lazy_attributes

from .__about__ import __version__
from ._definition import FULL_TASKS_FILE, TASKS_ALLOW_ENV, TASKS_FILE, benchmark, run, run_async, score, score_async
from ._provenance import PROVENANCE

if TYPE_CHECKING:
    from ._diffs import record_diffs
    from ._grader import grade
    from ._policies import MOCK_POLICIES, bad_script, good_script
    from ._simulator import FULL_SYSTEM_PROMPT, SYSTEM_PROMPT, RollbackSimulator
    from ._summary import summarize, summary_markdown, task_groups
    from ._tools import PUBLIC_TOOLS, TOOLS
    from ._world import Snapshot, TaskSpec, target_of, task_spec
    from .generator import SEED, generate

# Loaded on first use: the command line loads the package for `benchmark` alone, and `list` or
# `--help` need neither the grader nor the simulator; and importing the generator eagerly would make
# `python -m benchmark_rollback_recovery.generator` find its own module already imported.
_EXPORTS = {
    ".generator": ("SEED", "generate"),
    "._diffs": ("record_diffs",),
    "._grader": ("grade",),
    "._policies": ("MOCK_POLICIES", "bad_script", "good_script"),
    "._simulator": ("FULL_SYSTEM_PROMPT", "SYSTEM_PROMPT", "RollbackSimulator"),
    "._summary": ("summarize", "summary_markdown", "task_groups"),
    "._tools": ("PUBLIC_TOOLS", "TOOLS"),
    "._world": ("Snapshot", "TaskSpec", "target_of", "task_spec"),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)


__all__ = [
    "FULL_SYSTEM_PROMPT",
    "FULL_TASKS_FILE",
    "MOCK_POLICIES",
    "PROVENANCE",
    "PUBLIC_TOOLS",
    "SEED",
    "SYSTEM_PROMPT",
    "TASKS_ALLOW_ENV",
    "TASKS_FILE",
    "TOOLS",
    "RollbackSimulator",
    "Snapshot",
    "TaskSpec",
    "__version__",
    "bad_script",
    "benchmark",
    "generate",
    "good_script",
    "grade",
    "record_diffs",
    "run",
    "run_async",
    "score",
    "score_async",
    "summarize",
    "summary_markdown",
    "task_groups",
    "target_of",
    "task_spec",
]
