"""Tool-use episodes beyond the root's `Environment`, `Toolbox`, `ToolRefusal` and `replay`: running
one live (`run_episode`, with `EpisodeLimits`), its result and replay types, the `Tool` a `Toolbox`
declares, and the house's tool error codes (`UNKNOWN_TOOL`, `INVALID_ARGUMENTS`, `NOT_FOUND`,
`CONFLICT`) that a `ToolRefusal` carries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._episode": (
        "run_episode",
        "EpisodeError",
        "EpisodeLimits",
        "EpisodeResult",
        "Replay",
    ),
    ".._model": ("Episode",),
    # Sessions: an episode opened for an agent that runs its own loop, and agent commands.
    "._session": ("EpisodeSession", "open_session"),
    "._toolbox": (
        "CONFLICT",
        "INVALID_ARGUMENTS",
        "NOT_FOUND",
        "UNKNOWN_TOOL",
        "Tool",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._model import Episode
    from ._episode import EpisodeError, EpisodeLimits, EpisodeResult, Replay, run_episode
    from ._session import EpisodeSession, open_session
    from ._toolbox import CONFLICT, INVALID_ARGUMENTS, NOT_FOUND, UNKNOWN_TOOL, Tool
__all__ = [
    "CONFLICT",
    "Episode",
    "EpisodeError",
    "EpisodeLimits",
    "EpisodeResult",
    "EpisodeSession",
    "INVALID_ARGUMENTS",
    "NOT_FOUND",
    "Replay",
    "Tool",
    "UNKNOWN_TOOL",
    "open_session",
    "run_episode",
]
# End of the generated block.
