"""A run's machinery beyond `benchmark_core.run`: the `Run` object behind it, its journal's path,
shards (`run --shard I/N`) and merging the shards' reports into one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._runner": ("Run",),
    "._journal": ("journal_path",),
    "._shards": ("Shard",),
    ".._model": ("ShardInfo",),
    "._merge": (
        "ShardSource",
        "merge_shards",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._model import ShardInfo
    from ._journal import journal_path
    from ._merge import ShardSource, merge_shards
    from ._runner import Run
    from ._shards import Shard
__all__ = [
    "Run",
    "Shard",
    "ShardInfo",
    "ShardSource",
    "journal_path",
    "merge_shards",
]
# End of the generated block.
