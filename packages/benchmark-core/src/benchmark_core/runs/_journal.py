"""The run journal: every finished row, appended as it finishes, so a killed run can be resumed.

`<output>.journal.jsonl` holds a header line, then one line per finished row:

    {"journal": 1, "benchmark": ..., "version": ..., "taskSetDigest": ..., "model": ..., "provider": ...,
     "mode": ..., "seed": ..., "options": {...}, "startedAt": ..., "shard": {...}}
    {"row": {...the row's wire form...}}
    {"batch": {"id": "<tag>", "state": "submitting", "items": {"<custom id>": ["<task id>", <epoch or null>]}}}
    {"batch": {"id": "<tag>", "state": "submitted", "batch": "<the provider's batch id>"}}
    {"batch": {"id": "<tag>", "state": "in_progress", "counts": {"total": ..., "succeeded": ..., "failed": ...}}}

`batch` lines (runs with `--batch`) are written before a batch is created (its tag and items), once
the provider has created it (its id), each time its state or counts change, and when its results
are in (`fetched`); the lines of one tag are merged, later fields winning. A resumed run goes back to
polling every batch whose results are not in, and sends none of its items again.

    {"turn": {"run": "<key>", "taskId": ..., "epoch": ..., "turn": <n>, "message": {...}, "calls": [...], ...}}

`turn` lines (`runs._checkpoints`) hold each finished turn of an episode in progress, so that a
resumed run continues the episode at its last finished turn instead of paying for it again.

and `{"holder": {"pid": N}}` lines, one each time a process takes the journal's lock
(`runs._output_lock`), which readers skip. `shard` is there only in the journal of one shard of a run
(`run --shard I/N`; `taskSetDigest` is then the whole run's), as its report records it.

Each row is written with one `write` on an append-only descriptor, so a SIGKILL leaves at most a
torn last line (discarded when the journal is read back, and cut off before appending); rows are
fsync'ed in the background, so a power cut loses at most the last moment of work. Resuming checks the
header against the run being started, field by field (`RunIdentity.difference`), and refuses a
journal of another run.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any, Optional, Union

from .._model import JsonObject, RunRow
from ..errors._runs import JournalError, JournalExistsError, OutputLockedError
from ..stats._identity import RunIdentity
from ..wire._converter import from_wire, to_wire, wire_view
from ._files import RunFiles, write_failed
from ._output_lock import OutputLock, holds_a_run, is_holder_line, lock_output, write_holder

JOURNAL_FORMAT = 1


def journal_path(output: Union[str, Path]) -> Path:
    """Where the journal of a run writing `output` lives: `<output>.journal.jsonl` (`RunFiles.journal`)."""
    return RunFiles.of(output).journal


class Journal:
    """An open journal: `append` writes one finished row; `close` waits for the last fsync and lets
    go of the journal's lock. `rows` counts the rows it holds (kept ones and appended ones)."""

    def __init__(
        self, path: Path, fd: int, lock: OutputLock, rows: int, batches: Optional[list[JsonObject]] = None
    ) -> None:
        self.path = path
        self.rows = rows
        #: The batches the journal held when it was opened (each id's lines merged, in creation order).
        self.batches: list[JsonObject] = batches or []
        self._fd = fd
        self._lock = lock
        self._sync: Optional[asyncio.Future[None]] = None
        self._dirty = False

    @classmethod
    def open(
        cls,
        path: Union[str, Path],
        identity: RunIdentity,
        started_at: str,
        *,
        resume: bool,
        extra: Optional[JsonObject] = None,
    ) -> tuple[Journal, list[RunRow]]:
        """Open `path` for a run of `identity` (started at `started_at`), holding its lock (`OutputLockedError`
        when another process holds it).

        Without `resume` the journal must not hold a run yet (a usage error otherwise: it holds a run
        that would be lost). With `resume`, the rows of a matching journal are returned (the last row
        of a task wins) and new rows are appended; a missing journal starts afresh. A new journal's
        header records `extra` after the identity (a private split's variable: `private_split_header`).
        """
        path = Path(path)
        key = os.path.abspath(path)
        if key in _OPEN:
            raise OutputLockedError(
                f"{path} is already being written by another run of this process (pid {os.getpid()})"
            )
        lock = lock_output(path)
        try:
            journal, kept = cls._open_locked(path, identity, started_at, lock, resume=resume, extra=extra)
        except BaseException:
            lock.release()
            raise
        _OPEN.add(key)
        return journal, kept

    @classmethod
    def _open_locked(
        cls,
        path: Path,
        identity: RunIdentity,
        started_at: str,
        lock: OutputLock,
        *,
        resume: bool,
        extra: Optional[JsonObject],
    ) -> tuple[Journal, list[RunRow]]:
        kept: list[RunRow] = []
        batches: list[JsonObject] = []
        if holds_a_run(path) and not resume:
            raise JournalExistsError(
                f"{path} exists: it holds the rows of an earlier run. Pass --resume to continue that run, "
                "or delete the journal to start over"
            )
        if holds_a_run(path):
            found, rows, good_bytes, batches = read_journal(path)
            check_identity(found, identity, path)
            kept = rows
            with open(path, "r+b") as handle:  # cut a torn last line before appending
                handle.truncate(good_bytes)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            lock.holder_span = (0, 0)
            try:
                os.ftruncate(fd, 0)  # only holder lines: the header goes first
                _write_line(fd, {"journal": JOURNAL_FORMAT, **identity.header(started_at), **(extra or {})})
                write_holder(fd)
            except OSError as exc:
                os.close(fd)
                raise write_failed(path, exc, path, 0) from None
        journal = cls(path, fd, lock, len(kept), batches)
        journal._dirty = True  # the header is fsync'ed with the first rows, off the event loop
        return journal, kept

    def append(self, row: RunRow) -> None:
        try:
            _write_line(self._fd, {"row": to_wire(row)})
        except OSError as exc:
            raise write_failed(self.path, exc, self.path, self.rows) from None
        self.rows += 1
        self._dirty = True
        if self._sync is None or self._sync.done():
            self._sync = asyncio.get_running_loop().run_in_executor(None, self._fsync)

    def append_turn(self, record: object) -> None:
        """Record a finished turn of an episode in progress (`runs._checkpoints`' `TurnRecord`): one
        append, as a row is, so a SIGKILL loses none. It is not fsync'ed on its own but with the next
        row (a write waits while an fsync of the file runs, and a turn lost to a power cut costs one
        model turn again, not a row)."""
        line = turn_line(record)
        try:
            _write_all(self._fd, line)
        except OSError as exc:
            raise write_failed(self.path, exc, self.path, self.rows) from None

    def append_batch(self, record: JsonObject) -> None:
        """Record a batch's id, state and items, synced at once: a batch lost from the journal would
        be submitted (and paid for) twice."""
        _write_line(self._fd, {"batch": record})
        os.fsync(self._fd)

    def _fsync(self) -> None:
        while self._dirty:
            self._dirty = False
            os.fsync(self._fd)

    async def close(self) -> None:
        """Wait for the background fsync, then fsync and close in a worker thread too: a sweep closes
        many journals while other runs still need the loop."""
        try:
            if self._sync is not None:
                await asyncio.shield(self._sync)
            await asyncio.shield(asyncio.get_running_loop().run_in_executor(None, _sync_and_close, self._fd))
        except OSError as exc:
            raise write_failed(self.path, exc, self.path, self.rows) from None
        finally:
            self._lock.release()
            _OPEN.discard(os.path.abspath(self.path))


def _sync_and_close(fd: int) -> None:
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: The journals this process has open: the lock is per process, so two runs of one process on the
#: same journal are told apart here.
_OPEN: set[str] = set()


# Built once: json.dumps with options builds a new encoder for every line (one per row and per turn).
# No check for cycles (a set of the ids of the containers being written, kept per container): a
# row's wire form is a copy (`to_wire`), which cannot hold one, and a cycle in a turn's `wire_view`
# is a RecursionError, after which its copy fails as before.
_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)


def _encode_line(data: Any) -> bytes:
    return (_LINE.encode(data) + "\n").encode()


def turn_line(record: object) -> bytes:
    """The journal line of a turn: `{"turn": to_wire(record)}`, encoded from a `wire_view` of
    `record` (no copy of the tools' results) where the encoder takes it; else the copy decides,
    bytes or error."""
    try:
        return _encode_line({"turn": wire_view(record)})
    except (TypeError, ValueError, RecursionError):
        return _encode_line({"turn": to_wire(record)})


def _write_line(fd: int, data: Any) -> None:
    _write_all(fd, _encode_line(data))


def _write_all(fd: int, line: bytes) -> None:
    written = 0
    while written < len(line):
        written += os.write(fd, line[written:])


def read_journal(path: Path) -> tuple[JsonObject, list[RunRow], int, list[JsonObject]]:
    """The header, the rows (the last one per task and epoch wins, in journal order), the length in
    bytes of the intact part, and the batch records (the last one per batch id). A torn last line
    is left out; any other unreadable line is an error naming it."""
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    # Everything after the last newline is a line the writer had not finished.
    good_bytes = len(raw) - len(lines[-1])
    complete = [(number, line) for number, line in enumerate(lines[:-1], start=1) if not is_holder_line(line)]
    if not complete:
        raise JournalError(f"{path}: the journal has no header line; delete it to start over")
    first, line = complete[0]
    header = _parse(line, path, first)
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_FORMAT:
        raise JournalError(f"{path}: line {first} is not a run journal header (format {JOURNAL_FORMAT})")
    by_task: dict[tuple[str, Optional[int]], RunRow] = {}
    batches: dict[str, JsonObject] = {}
    for number, line in complete[1:]:
        entry = _parse(line, path, number)
        if (
            isinstance(entry, dict)
            and isinstance(entry.get("batch"), dict)
            and isinstance(entry["batch"].get("id"), str)
        ):
            record = entry["batch"]
            batches[record["id"]] = {**batches.get(record["id"], {}), **record}
            continue
        if isinstance(entry, dict) and "turn" in entry:  # an episode's turn: `runs._checkpoints` reads them
            continue
        if not isinstance(entry, dict) or "row" not in entry:
            raise JournalError(f"{path}: line {number} is not a journal row")
        row = from_wire(entry["row"], RunRow, what=f"journal row (line {number})")
        key = (row.task_id, row.epoch)
        by_task.pop(key, None)  # re-inserted at the end: the order rows were journaled in
        by_task[key] = row
    return header, list(by_task.values()), good_bytes, list(batches.values())


def _parse(line: bytes, path: Path, number: int) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        raise JournalError(f"{path}: line {number} is not JSON; the journal is damaged") from None


def check_identity(header: JsonObject, expected: RunIdentity, path: Path) -> None:
    """Refuse a journal (whose header line is `header`) written by a different run, naming the first
    field that differs."""
    differences = RunIdentity.from_header(header).difference(expected.journaled())
    if differences:
        first = differences[0]
        raise JournalError(
            f"{path} was written by a different run: {first.what} is {json.dumps(first.mine)} there, "
            f"{json.dumps(first.theirs)} now"
        )
