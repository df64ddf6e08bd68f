"""Reading a journal while its run writes it (issue 26 §3), with the real journal and lock: the
start-up rewrite (holder line, then the header first), rows as they come, a torn last line left for
the next read, the lock seen as held and then as let go, and never taken by the reader."""

from __future__ import annotations

import os
from pathlib import Path

from benchmark_core import RunRow
from benchmark_core.runs._journal import Journal
from benchmark_core.runs._output_lock import lock_output
from benchmark_core.stats._identity import RunIdentity
from benchmark_core.view._live import JournalTail

HEADER = {"benchmark": "tiny", "version": "1", "taskSetDigest": "sha256:x", "model": "m", "provider": "mock",
          "mode": "prompt", "seed": 1, "options": {}, "startedAt": "2026-12-01T00:00:00Z"}  # fmt: skip


def _row(task_id: str, passed: bool, error: str | None = None) -> RunRow:
    return RunRow(
        task_id=task_id, score=float(passed), passed=passed, reason="r", attempts=1, latency_ms=1, error=error
    )


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def _model(tail: JournalTail) -> object:
    return (tail.header or {}).get("model")


async def test_a_journal_read_while_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "report.json.journal.jsonl"
    lock = lock_output(path)  # what `run --output` takes first: a holder line alone
    tail = JournalTail(path)
    assert tail.read() and _model(tail) is None
    journal, _ = Journal.open(
        path, RunIdentity.from_header(HEADER), str(HEADER["startedAt"]), resume=False
    )  # truncates, then the header first
    assert tail.read() and _model(tail) == "m"
    journal.append(_row("a", True))
    journal.append(_row("b", False))
    journal.append(_row("c", False, error="boom"))
    assert tail.read()
    live = tail.live_run("k", "j", "o", total=5)
    assert (live.rows, live.passed, live.errored, live.total, live.running) == (3, 1, 1, 5, True)
    assert live.eta_seconds is not None
    # A line the writer has not finished waits for the next read.
    _append(path, b'{"row": {"taskId": "d", "pass')
    assert tail.read() and len(tail.statuses) == 3
    _append(path, b'ed": true}}\n')
    assert tail.read() and tail.statuses[("d", None)] == "p"
    await journal.close()
    lock.release()
    assert tail.live_run("k", "j", "o", total=None).running is False
    # Stopped: no time left is estimated, however many rows are still to run.
    assert tail.live_run("k", "j", "o", total=5).eta_seconds is None
    # The reader never took the lock: another process's run could take it at once.
    other = lock_output(path)
    other.release()


def test_a_replaced_journal_is_read_from_its_start(tmp_path: Path) -> None:
    path = tmp_path / "r.journal.jsonl"
    path.write_text('{"journal": 1, "model": "old"}\n{"row": {"taskId": "a", "passed": true}}\n')
    tail = JournalTail(path)
    assert tail.read() and len(tail.statuses) == 1
    fresh = tmp_path / "fresh"
    fresh.write_text('{"journal": 1, "model": "new"}\n')
    os.replace(fresh, path)
    assert tail.read() and tail.header == {"journal": 1, "model": "new"} and tail.statuses == {}
    path.unlink()
    assert tail.read() is False
