"""A benchmark's committed data: reading and writing task files (canonical JSONL), checking tasks,
the command line every seeded generator shares (`split_generator_main`) and the PROVENANCE.md it
renders (`provenance_markdown`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._taskfiles": (
        "dump_task_file",
        "load_task_file",
        "resolve_remote_tasks",
    ),
    "._validation": ("validate_tasks",),
    "._splits": (
        "split_generator_main",
        "SplitRenderer",
    ),
    "..reports._report": ("provenance_markdown",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ..reports._report import provenance_markdown
    from ._splits import SplitRenderer, split_generator_main
    from ._taskfiles import dump_task_file, load_task_file, resolve_remote_tasks
    from ._validation import validate_tasks
__all__ = [
    "SplitRenderer",
    "dump_task_file",
    "load_task_file",
    "provenance_markdown",
    "resolve_remote_tasks",
    "split_generator_main",
    "validate_tasks",
]
# End of the generated block.
