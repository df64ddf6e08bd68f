"""One process per output: a run writing `<output>` holds an exclusive `flock` on its journal,
`<output>.journal.jsonl`, for its whole life, and a second process asking for it is refused at once
(`OutputLockedError`, naming the holder's pid) before it sends anything.

The kernel drops an `flock` when the process holding it ends, however it ends (SIGKILL included), so
a killed run never leaves its output blocked. The holder's pid is written into the journal as a line
of its own, `{"holder": {"pid": N}}` (after the header line; alone in a journal whose run has not
started yet), which readers of the journal skip, so the lock and the name of
its holder live in one file. A lock is taken once per process and path and counted (the CLI holds it
around the run and its report; the journal takes it again while open), and released when the last
holder lets go. A journal that never got its header line (the run stopped before starting) is removed
on release.

`flock` is advisory and local: docs/durable-runs.md says what holds on network filesystems. On
Windows there is no `fcntl`; runs go ahead without the lock there (`LOCKING` is False), as documented.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from ..errors._runs import OutputLockedError
from ._files import RunFiles

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: Whether this platform has `flock` (not on Windows, where runs are not locked).
LOCKING = fcntl is not None
HOLDER_KEY = "holder"


class OutputLock:
    """A held lock on one journal path; `release()` once per `lock_output` call."""

    def __init__(self, path: Path, fd: Optional[int]) -> None:
        self.path = path
        self.fd = fd
        self.holds = 1
        #: Where this process's holder line starts and ends, to take it out again when nothing
        #: was written after it (a refused or skipped run leaves the journal as it found it).
        self.holder_span = (0, 0)

    def release(self) -> None:
        self.holds -= 1
        if self.holds > 0:
            return
        _held.pop(str(self.path), None)
        if self.fd is None:
            return
        try:
            if self.path.exists() and not holds_a_run(self.path):
                self.path.unlink()
            elif os.fstat(self.fd).st_size == self.holder_span[1] > self.holder_span[0]:
                os.ftruncate(self.fd, self.holder_span[0])
        except OSError:
            pass  # a journal left behind is harmless: the next run starts afresh or resumes it
        finally:
            os.close(self.fd)  # closing the descriptor drops the lock


_held: dict[str, OutputLock] = {}


def lock_output(journal: Path) -> OutputLock:
    """Take the lock on `journal` (created if missing) or raise `OutputLockedError` at once."""
    journal = Path(os.path.abspath(journal))
    held = _held.get(str(journal))
    if held is not None:
        held.holds += 1
        return held
    if not LOCKING:  # pragma: no cover - Windows
        lock = OutputLock(journal, None)
    else:
        lock = OutputLock(journal, _locked_descriptor(journal))
        _cut_torn_tail(lock.fd)
        lock.holder_span = write_holder(lock.fd)
    _held[str(journal)] = lock
    return lock


def _locked_descriptor(journal: Path) -> int:
    assert fcntl is not None
    journal.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(journal, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _locked_error(journal) from None
        # A run that just finished may have removed the file we opened: lock the journal that is there.
        try:
            here, there = os.fstat(fd), os.stat(journal)
            if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)


def _locked_error(journal: Path) -> OutputLockedError:
    pid = holder_pid(journal)
    who = f"another process (pid {pid})" if pid is not None else "another process"
    output = RunFiles.of_journal(journal).report
    return OutputLockedError(
        f"{output} is being written by {who}, which holds the lock on {journal}; "
        "nothing was sent. Wait for it to finish, or stop it (the lock goes with the process) and "
        "continue with --resume"
    )


def holder_pid(journal: Path) -> Optional[int]:
    """The pid the journal's last holder line names (the current holder, while one holds the lock)."""
    try:
        lines = journal.read_bytes().split(b"\n")
    except OSError:
        return None
    for line in reversed(lines):
        if is_holder_line(line):
            try:
                pid = json.loads(line)[HOLDER_KEY]["pid"]
            except (ValueError, KeyError, TypeError):
                continue
            return pid if isinstance(pid, int) else None
    return None


def is_holder_line(line: bytes) -> bool:
    return line.startswith(b'{"' + HOLDER_KEY.encode() + b'"')


def _cut_torn_tail(fd: Optional[int]) -> None:
    """Cut a line the last writer did not finish (a SIGKILL mid-write), before appending after it."""
    assert fd is not None
    size = os.fstat(fd).st_size
    if size == 0:
        return
    data = os.pread(fd, size, 0)
    if not data.endswith(b"\n"):
        os.ftruncate(fd, data.rfind(b"\n") + 1)


def write_holder(fd: Optional[int]) -> tuple[int, int]:
    """Append this process's holder line (after the header, when a fresh journal is written); the
    offsets it spans."""
    assert fd is not None
    line = (json.dumps({HOLDER_KEY: {"pid": os.getpid()}}) + "\n").encode()
    try:
        start = os.lseek(fd, 0, os.SEEK_END)
        if os.write(fd, line) == len(line):
            return start, start + len(line)
        os.ftruncate(fd, start)
    except OSError:
        pass  # a full disk: the lock still holds, only the holder's pid goes unnamed
    return 0, 0


def holds_a_run(journal: Path) -> bool:
    """Whether the journal has a line other than holder lines (its header, at least)."""
    try:
        with open(journal, "rb") as handle:
            return any(line.strip() and not is_holder_line(line) for line in handle)
    except FileNotFoundError:
        return False
