"""The chat turns a model adapter sends and receives: `ChatMessage`, `ChatRequest`, `ChatResult` and
`CompletionResult` (the `ModelAdapter` protocol is at the root).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    ".._model": (
        "ChatMessage",
        "ChatRequest",
        "ChatResult",
        "CompletionResult",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from .._model import ChatMessage, ChatRequest, ChatResult, CompletionResult
__all__ = [
    "ChatMessage",
    "ChatRequest",
    "ChatResult",
    "CompletionResult",
]
# End of the generated block.
