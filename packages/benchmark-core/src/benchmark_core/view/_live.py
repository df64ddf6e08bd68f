"""Runs in progress, read from their journals (`<output>.journal.jsonl`, see `runs._journal`).

The view only reads: it never takes a journal's lock (`runs._output_lock`) and never writes, so a
run it watches goes on exactly as it would unwatched. Each journal is read from where the last read
stopped (`JournalTail`): a poll costs one `stat`, and a read only the new lines, parsed as plain JSON
(the four fields counted, never the whole row). A line the writer has not finished (no newline yet)
waits for the next read. A journal that shrank or was replaced (a resumed run cuts a torn line),
or has no header line yet (a starting run rewrites it), is read again from the start.

A journal is in progress while its run's report is missing or older than it; `running` says whether
a process holds its lock (read from /proc/locks on Linux; elsewhere, whether the process its last
holder line names is alive), so a killed run shows as a journal to resume.
The run's size comes from matching the header's task-set digest against the benchmark's shipped
task files (when the benchmark is installed); without it there is no ETA.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import time
from pathlib import Path
from typing import Any, Optional

from attrs import Factory, define, field, frozen

from ..runs._output_lock import HOLDER_KEY, is_holder_line
from ..stats._identity import RunIdentity

__all__ = ["JournalTail", "LiveRun"]


@frozen(kw_only=True)
class LiveRun:
    """One run in progress, as its journal shows it now."""

    key: str
    journal: str
    output: str
    benchmark: str
    version: str
    model: str
    provider: str
    mode: str
    started_at: str
    rows: int
    passed: int
    errored: int
    total: Optional[int]
    eta_seconds: Optional[float]
    running: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "journal": self.journal,
            "output": self.output,
            "benchmark": self.benchmark,
            "version": self.version,
            "model": self.model,
            "provider": self.provider,
            "mode": self.mode,
            "startedAt": self.started_at,
            "rows": self.rows,
            "passed": self.passed,
            "errored": self.errored,
            "total": self.total,
            "etaSeconds": self.eta_seconds,
            "running": self.running,
        }


@define
class JournalTail:
    """What one journal holds so far, read incrementally."""

    path: Path
    header: Optional[dict[str, Any]] = None
    #: (task id, epoch) -> "p", "f" or "e"; a task journaled again (a retry on resume) counts once.
    statuses: dict[tuple[str, Optional[int]], str] = Factory(dict)
    holder: Optional[int] = None
    _offset: int = field(default=0, init=False)
    _identity: tuple[int, int] = field(default=(0, 0), init=False)
    _size: int = field(default=-1, init=False)
    _first_seen: tuple[float, int] = field(default=(0.0, 0), init=False)

    def read(self) -> bool:
        """Read what was appended since the last call; False when the journal is gone."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return False
        identity = (info.st_dev, info.st_ino)
        # Until the header is in, the file may be rewritten from its start: a run's first process
        # writes its holder line, then truncates the file to put the header first.
        if identity != self._identity or info.st_size < self._offset or self.header is None:
            self.header, self.statuses, self.holder, self._offset = None, {}, None, 0
            self._identity, self._first_seen = identity, (0.0, 0)
        if info.st_size == self._size:
            return True
        self._size = info.st_size
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self._offset)
                data = handle.read()
        except FileNotFoundError:
            return False
        end = data.rfind(b"\n") + 1  # a last line without its newline is still being written
        for line in data[:end].split(b"\n")[:-1]:
            self._line(line)
        self._offset += end
        if self._first_seen == (0.0, 0):
            self._first_seen = (time.monotonic(), len(self.statuses))
        return True

    def _line(self, line: bytes) -> None:
        with contextlib.suppress(ValueError):
            if is_holder_line(line):
                pid = json.loads(line)[HOLDER_KEY].get("pid")
                self.holder = pid if isinstance(pid, int) else None
                return
            entry = json.loads(line)
            if not isinstance(entry, dict):
                return
            if self.header is None and "journal" in entry:
                self.header = entry
            elif isinstance(entry.get("row"), dict):
                row = entry["row"]
                status = "e" if row.get("error") is not None else "p" if row.get("passed") else "f"
                self.statuses[(str(row.get("taskId")), row.get("epoch"))] = status

    def rate(self) -> Optional[float]:
        """Rows a second, over what this view has watched (rows kept from a resumed run excluded)."""
        since, rows = self._first_seen
        elapsed = time.monotonic() - since
        new = len(self.statuses) - rows
        if new > 0 and elapsed > 0.5:
            return new / elapsed
        started = _parse_time(self.header.get("startedAt") if self.header else None)
        if started is not None and self.statuses:
            seconds = (dt.datetime.now(dt.timezone.utc) - started).total_seconds()
            return len(self.statuses) / seconds if seconds > 0 else None
        return None

    def live_run(self, key: str, journal: str, output: str, total: Optional[int]) -> LiveRun:
        header = self.header or {}
        identity = RunIdentity.from_header(header)
        counts = list(self.statuses.values())
        rows = len(counts)
        rate = self.rate()
        running = _locked(self._identity[1]) if Path(LOCKS).exists() else _alive(self.holder)
        eta = None
        if running and total is not None and rate:  # a stopped run has no time left to estimate
            eta = round(max(total - rows, 0) / rate, 1)
        return LiveRun(
            key=key,
            journal=journal,
            output=output,
            benchmark=_shown(identity.benchmark),
            version=_shown(identity.version),
            model=_shown(identity.model),
            provider=_shown(identity.provider),
            mode=_shown(identity.mode),
            started_at=str(header.get("startedAt", "")),
            rows=rows,
            passed=counts.count("p"),
            errored=counts.count("e"),
            total=total,
            eta_seconds=eta,
            running=running,
        )


def _shown(value: object) -> str:
    """A header field as the view shows it: "?" when the header does not record it."""
    return "?" if value is None else str(value)


#: Linux lists every lock held, with the inode it is on: whether a run holds its journal's lock
#: can be read there without asking for the lock.
LOCKS = "/proc/locks"


def _locked(inode: int) -> bool:
    try:
        with open(LOCKS, encoding="ascii", errors="replace") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5].rsplit(":", 1)[-1] == str(inode):
                    return True
    except OSError:
        return False
    return False


def _alive(pid: Optional[int]) -> bool:
    """Elsewhere, whether the process the last holder line names is alive."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _parse_time(text: Any) -> Optional[dt.datetime]:
    if not isinstance(text, str) or not text:
        return None
    try:
        parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=dt.timezone.utc)
