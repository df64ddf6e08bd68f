"""Serving until Ctrl+C or SIGTERM: the one way core's servers wait."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def stop_signals() -> Iterator[asyncio.Event]:
    """An event that SIGINT and SIGTERM set while the block runs, in place of interrupting it, so a
    server can await it and then shut down cleanly (a second Ctrl+C does not cut the shutdown short).
    Where the running loop takes no signal handlers (Windows, a thread other than the main one), the
    signals keep their default effect: Ctrl+C arrives as KeyboardInterrupt."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    installed: list[signal.Signals] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
        except (NotImplementedError, RuntimeError):
            continue
        installed.append(signum)
    try:
        yield stop
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
