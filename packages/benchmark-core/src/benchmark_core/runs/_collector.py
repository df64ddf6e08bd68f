"""The cyclic garbage collector while runs are in progress.

A run keeps every finished row (a handful of objects each) while up to hundreds of requests are in
flight. With CPython's default young-generation threshold (700 net allocations), that steady growth
starts a collection every few tasks, and each one promotes the in-flight requests' objects to older
generations, whose own collections (full ones over the whole heap included) follow: at 20,000 tasks
and concurrency 200 that was about 50 us of the 250 us of client CPU per task
(`tools/bench_runner.py`). While any run is in progress the young-generation threshold is raised to
`RUN_THRESHOLD`; the previous thresholds come back when the last run ends, unless something else
changed them meanwhile. Reference counting still frees at once everything that is not in a cycle;
only cyclic garbage waits a little longer. A collector switched off (`gc.disable()`) or already
tuned higher is left as it is.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

#: Young-generation threshold during runs: a few thousand rows between collections.
RUN_THRESHOLD = 20_000


class _Tuning:
    """How many runs are in progress, and the thresholds to restore when the last one ends."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # runs may go on in several threads, each with its own loop
        self.runs = 0
        self.saved: Optional[tuple[int, int, int]] = None
        self.applied: Optional[tuple[int, int, int]] = None


_tuning = _Tuning()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the young-generation threshold for the duration of a run (see the module's notes)."""
    with _tuning.lock:
        if _tuning.runs == 0:
            young, middle, old = gc.get_threshold()
            if 0 < young < RUN_THRESHOLD:
                _tuning.saved = (young, middle, old)
                _tuning.applied = (RUN_THRESHOLD, middle, old)
                gc.set_threshold(*_tuning.applied)
        _tuning.runs += 1
    try:
        yield
    finally:
        with _tuning.lock:
            _tuning.runs -= 1
            if _tuning.runs == 0:
                if _tuning.saved is not None and gc.get_threshold() == _tuning.applied:
                    gc.set_threshold(*_tuning.saved)
                _tuning.saved = _tuning.applied = None
