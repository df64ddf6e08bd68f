"""Agents under test: an agent command (`AgentCommand`, what `run --agent` starts for each
episode) and the run of an agent over a benchmark's episodes (`benchmark_core.run(..., agent=)`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._command": ("AgentCommand",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._command import AgentCommand
__all__ = [
    "AgentCommand",
]
# End of the generated block.
