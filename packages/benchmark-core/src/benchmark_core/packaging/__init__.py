"""Building a benchmark package: `scaffold_package` (what `benchmark-core new` writes) and
`lazy_attributes`, the module `__getattr__` a package's `__init__` uses to load its names on first
access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._scaffold": ("scaffold_package",),
    ".._util.lazy": ("lazy_attributes",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._util.lazy import lazy_attributes
    from ._scaffold import scaffold_package
__all__ = [
    "lazy_attributes",
    "scaffold_package",
]
# End of the generated block.
