"""The response cache (on by default, `--no-cache` to bypass): `ResponseCache`, and reading,
clearing and pruning a cache folder as `benchmark-core cache info|clear|prune` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._cache": (
        "CacheInfo",
        "CacheRemoval",
        "ResponseCache",
        "cache_info",
        "clear_cache",
        "prune_cache",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._cache import CacheInfo, CacheRemoval, ResponseCache, cache_info, clear_cache, prune_cache
__all__ = [
    "CacheInfo",
    "CacheRemoval",
    "ResponseCache",
    "cache_info",
    "clear_cache",
    "prune_cache",
]
# End of the generated block.
