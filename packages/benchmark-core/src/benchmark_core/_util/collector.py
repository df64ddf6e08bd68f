"""The cyclic garbage collector paused over work that builds many objects and no cycle."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block, its state before restored after (a caller that had it
    off keeps it off). Reading a results folder's reports builds hundreds of thousands of
    acyclic objects, and the collector's passes over that growing heap were a fifth of the
    reading time; the objects are looked at once when the collector runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
