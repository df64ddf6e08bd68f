"""The cyclic garbage collector paused over work that builds many objects and no cycle."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["collector_paused"]

# The collector is one switch for the whole process, while pauses come from several threads (the
# view's catalog refresh beside a request's leaderboard): the pauses are counted, and the last
# one to end restores the state the first one found, whatever order they end in.
_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block, its state before restored after (a caller that had it
    off keeps it off). Reading a results folder's reports builds hundreds of thousands of
    acyclic objects, and the collector's passes over that growing heap were a fifth of the
    reading time; the objects are looked at once when the collector runs again."""
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()
