"""The run journal: every finished row, appended as it finishes, so a killed run can be resumed.

`<output>.journal.jsonl` holds a header line, then one line per finished row:

    {"journal": 1, "benchmark": ..., "version": ..., "taskSetDigest": ..., "model": ..., "provider": ...,
     "mode": ..., "seed": ..., "options": {...}, "startedAt": ...}
    {"row": {...the row's wire form...}}

Each row is written with one `write` on an append-only descriptor, so a SIGKILL leaves at most a
torn last line (discarded when the journal is read back, and cut off before appending); rows are
fsync'ed in the background, so a power cut loses at most the last moment of work. Resuming checks the
header against the run being started, field by field, and refuses a journal of another run.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

from .._errors import JournalError, JournalExistsError
from .._model import JsonObject, RunRow, Task
from .._model.wire import from_wire, to_wire

JOURNAL_FORMAT = 1
#: Header fields that must match for a journal to be resumed, in the order they are checked.
IDENTITY_FIELDS = ("benchmark", "version", "taskSetDigest", "model", "provider", "mode", "seed", "options")


def journal_path(output: Union[str, Path]) -> Path:
    """Where the journal of a run writing `output` lives: `<output>.journal.jsonl`."""
    output = Path(output)
    return output.with_name(output.name + ".journal.jsonl")


def task_set_digest(tasks: Sequence[Task]) -> str:
    """A digest of the tasks a run covers (their full wire form, in order)."""
    canonical = json.dumps(to_wire(list(tasks)), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


class Journal:
    """An open journal: `append` writes one finished row; `close` waits for the last fsync."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd
        self._sync: Optional[asyncio.Future[None]] = None
        self._dirty = False

    @classmethod
    def open(cls, path: Union[str, Path], header: JsonObject, *, resume: bool) -> tuple[Journal, list[RunRow]]:
        """Open `path` for a run whose identity is `header`.

        Without `resume` the journal must not exist yet (a usage error otherwise: it holds a run that
        would be lost). With `resume`, the rows of a matching journal are returned (the last row of a
        task wins) and new rows are appended; a missing journal starts afresh.
        """
        path = Path(path)
        kept: list[RunRow] = []
        if path.exists() and not resume:
            raise JournalExistsError(
                f"{path} exists: it holds the rows of an earlier run. Pass --resume to continue that run, "
                "or delete the journal to start over"
            )
        if path.exists():
            found, rows, good_bytes = read_journal(path)
            check_header(found, header, path)
            kept = rows
            with open(path, "r+b") as handle:  # cut a torn last line before appending
                handle.truncate(good_bytes)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
            _write_line(fd, {"journal": JOURNAL_FORMAT, **header})
            os.fsync(fd)
        return cls(path, fd), kept

    def append(self, row: RunRow) -> None:
        _write_line(self._fd, {"row": to_wire(row)})
        self._dirty = True
        if self._sync is None or self._sync.done():
            self._sync = asyncio.get_running_loop().run_in_executor(None, self._fsync)

    def _fsync(self) -> None:
        while self._dirty:
            self._dirty = False
            os.fsync(self._fd)

    async def close(self) -> None:
        if self._sync is not None:
            await asyncio.shield(self._sync)
        os.fsync(self._fd)
        os.close(self._fd)


def _write_line(fd: int, data: Any) -> None:
    line = (json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode()
    written = 0
    while written < len(line):
        written += os.write(fd, line[written:])


def read_journal(path: Path) -> tuple[JsonObject, list[RunRow], int]:
    """The header, the rows (the last one per task and epoch wins, in journal order) and the length
    in bytes of the intact part. A torn last line is left out; any other unreadable line is an error
    naming it."""
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    # Everything after the last newline is a line the writer had not finished.
    complete, good_bytes = lines[:-1], len(raw) - len(lines[-1])
    if not complete:
        raise JournalError(f"{path}: the journal has no header line; delete it to start over")
    header = _parse(complete[0], path, 1)
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_FORMAT:
        raise JournalError(f"{path}: line 1 is not a run journal header (format {JOURNAL_FORMAT})")
    by_task: dict[tuple[str, Optional[int]], RunRow] = {}
    for number, line in enumerate(complete[1:], start=2):
        entry = _parse(line, path, number)
        if not isinstance(entry, dict) or "row" not in entry:
            raise JournalError(f"{path}: line {number} is not a journal row")
        row = from_wire(entry["row"], RunRow, what=f"journal row (line {number})")
        key = (row.task_id, row.epoch)
        by_task.pop(key, None)  # re-inserted at the end: the order rows were journaled in
        by_task[key] = row
    return header, list(by_task.values()), good_bytes


def _parse(line: bytes, path: Path, number: int) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        raise JournalError(f"{path}: line {number} is not JSON; the journal is damaged") from None


def check_header(found: JsonObject, expected: JsonObject, path: Path) -> None:
    """Refuse a journal written by a different run, naming the first field that differs."""
    for key in IDENTITY_FIELDS:
        have, want = found.get(key), expected.get(key)
        if key == "options" and isinstance(have, dict) and isinstance(want, dict):
            for name in sorted(set(have) | set(want)):
                if have.get(name) != want.get(name):
                    raise JournalError(
                        f"{path} was written by a different run: options.{name} is "
                        f"{json.dumps(have.get(name))} there, {json.dumps(want.get(name))} now"
                    )
        elif have != want:
            what = "the task set" if key == "taskSetDigest" else key
            raise JournalError(
                f"{path} was written by a different run: {what} is {json.dumps(have)} there, {json.dumps(want)} now"
            )
