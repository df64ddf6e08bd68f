"""The results browser: `create_view_app` (what `benchmark-core view` serves) over a
`ResultsCatalog` of saved reports and live journals, and the same pages as a static site
(`write_site`, what `leaderboard --site` writes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._catalog": ("ResultsCatalog",),
    "._app": ("create_view_app",),
    "._site": ("write_site",),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._app import create_view_app
    from ._catalog import ResultsCatalog
    from ._site import write_site
__all__ = [
    "ResultsCatalog",
    "create_view_app",
    "write_site",
]
# End of the generated block.
