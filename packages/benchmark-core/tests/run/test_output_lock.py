"""One process per output (issue 19): a run holds an exclusive flock on its journal for its whole
life; a second process on the same output, with or without --resume, exits 1 at once naming the
holder's pid and sends nothing; a killed holder's lock goes with it.

Each process talks to its own fake server, so what a refused process sent is counted apart from
what the holder sends meanwhile.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmark_core import mock_adapter, run
from benchmark_core.errors import OutputLockedError, TaskNotFoundError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import journal_path
from benchmark_core.testing import FakeOpenAI, mock_handler

fcntl = pytest.importorskip("fcntl", reason="flock is POSIX: on Windows runs are not locked (docs/durable-runs.md)")
KEY = "sk-test-lock-0123456789"


def _cli(base_url: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": KEY}
    command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", "openai", "--no-cache"]
    return subprocess.Popen([*command, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def slow_and_idle() -> Iterator[tuple[FakeOpenAI, FakeOpenAI]]:
    """A slow server for the holder (the example's mock answers, 200 ms each) and one for the second
    process, which must receive nothing while the holder lives."""
    slow = FakeOpenAI(handler=mock_handler(example, delay=0.2), record=False)
    idle = FakeOpenAI(handler=mock_handler(example), record=False)
    with slow.in_thread(), idle.in_thread():
        yield slow, idle


def _wait_for(server: FakeOpenAI, count: int, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while server.received < count and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert child.poll() is None, f"the holder ended early: {child.communicate()}"


@pytest.mark.parametrize("resume", [False, True])
def test_a_second_process_on_the_same_output_is_refused_and_sends_nothing(
    slow_and_idle: tuple[FakeOpenAI, FakeOpenAI], tmp_path: Path, resume: bool
) -> None:
    slow, idle = slow_and_idle
    out = tmp_path / "report.json"
    holder = _cli(slow.base_url, "--concurrency", "1", "--output", str(out))
    try:
        _wait_for(slow, 2, holder)
        second = _cli(idle.base_url, "--output", str(out), *(["--resume"] if resume else []))
        _, stderr = second.communicate(timeout=60)
        assert second.returncode == 1, stderr
        assert f"another process (pid {holder.pid})" in stderr
        assert "nothing was sent" in stderr and "Traceback" not in stderr
        assert idle.received == 0
        assert holder.poll() is None  # the holder goes on
        # The lock is an flock on the journal itself.
        with open(journal_path(out), "rb") as handle, pytest.raises(BlockingIOError):
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        holder.kill()
        holder.wait(timeout=30)


def test_a_killed_holder_leaves_the_output_free(slow_and_idle: tuple[FakeOpenAI, FakeOpenAI], tmp_path: Path) -> None:
    slow, idle = slow_and_idle
    out = tmp_path / "report.json"
    holder = _cli(slow.base_url, "--concurrency", "1", "--output", str(out))
    _wait_for(slow, 3, holder)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    entries = [json.loads(line) for line in journal_path(out).read_text(encoding="utf-8").splitlines()[1:]]
    journaled = {e["row"]["taskId"] for e in entries if "row" in e}
    assert journaled
    resumed = _cli(idle.base_url, "--output", str(out), "--resume")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["complete"] and len(report["rows"]) == len(example.tasks())
    sent_again = set(idle.handler.requests_per_task)  # type: ignore[union-attr]
    assert sent_again and not sent_again & journaled  # only the tasks the journal lacked
    assert not journal_path(out).exists()


async def test_two_runs_of_one_process_on_one_journal(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    slow = FakeOpenAI(handler=mock_handler(example, delay=0.2), record=False)
    async with slow:
        import asyncio

        from benchmark_core import openai_compat_adapter

        journaled = asyncio.Event()
        adapter = openai_compat_adapter(slow.base_url, "m", KEY)
        first = asyncio.ensure_future(
            run(example, adapter, journal=journal, cache=False, concurrency=1, progress=lambda *_: journaled.set())
        )
        await journaled.wait()
        with pytest.raises(OutputLockedError, match=f"this process \\(pid {os.getpid()}\\)"):
            await run(example, mock_adapter(), journal=journal, resume=True)
        report = await first
    assert report.complete


async def test_a_refused_run_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    with pytest.raises(TaskNotFoundError):
        await run(example, mock_adapter(), journal=journal, task_ids=["no-such-task"])
    assert not journal.exists()  # a run that never started leaves no journal behind
    await run(example, mock_adapter(), journal=journal)
    before = journal.read_bytes()
    from benchmark_core.errors import JournalExistsError

    with pytest.raises(JournalExistsError):
        await run(example, mock_adapter(), journal=journal)
    assert journal.read_bytes() == before
    again = await run(example, mock_adapter(), journal=journal, resume=True)
    assert again.complete
    lines = [json.loads(line) for line in journal.read_bytes().splitlines()]
    assert lines[0]["journal"] == 1 and lines[1] == {"holder": {"pid": os.getpid()}}
