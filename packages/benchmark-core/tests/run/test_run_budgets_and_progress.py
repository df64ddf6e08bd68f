"""A budget breach is still graded through the runner and the CLI, and `run` draws its progress bar
on stderr only when stderr is a terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import mock_adapter
from benchmark_core.example import benchmark

EPISODE_ID = "order-refund-01"


def test_a_budget_breach_is_graded_and_says_why() -> None:
    report = benchmark.run(mock_adapter(policies=benchmark.mock_policies), task_ids=[EPISODE_ID], max_turns=2)
    row = report.rows[0]
    assert row.error is None and report.totals.failed == 0
    assert row.episode is not None and row.episode.aborted == "budget"
    # Graded by replaying the two lookups that were made: nothing was refunded.
    assert row.score == 0.0 and row.details["refunded"] == 0.0
    assert row.reason == "refunded $0.00 of $35.00 (episode aborted: max_turns (2) reached)"


def test_budget_options_reach_the_episode(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["run", "--model", "offline", "--provider", "mock", "--task", EPISODE_ID, "--max-tool-calls", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args, "--output", str(out), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(out.read_text(encoding="utf-8"))["rows"][0]
    assert row["episode"]["aborted"] == "budget"
    assert row["episode"]["abortDetail"] == "max_tool_calls (1) reached"
    assert len(row["episode"]["toolLog"]) == 1 and row["score"] == 0.0


def _run_with_stderr(stderr_is_terminal: bool) -> tuple[str, str]:
    command = [sys.executable, "-m", "benchmark_core", "run", "--model", "offline", "--provider", "mock"]
    if not stderr_is_terminal:
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        return done.stdout, done.stderr
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=terminal, text=True, check=True)
        os.close(terminal)
        terminal = -1
        chunks = []
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
        return done.stdout, b"".join(chunks).decode("utf-8")
    finally:
        os.close(controller)
        if terminal != -1:
            os.close(terminal)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_progress_line_is_drawn_on_a_terminal_only() -> None:
    stdout, stderr = _run_with_stderr(stderr_is_terminal=True)
    final = stderr.rsplit("\r\x1b[K", 1)[-1]
    # done/total, rate, elapsed, ETA, errored rows, tokens so far (the mock reports no dollars)
    assert re.fullmatch(
        r"21/21 \| [0-9.]+ tasks/s \| elapsed 00:0\d \| ETA 00:00 \| 0 errored \| 523 tokens\r?\n", final
    ), final
    assert "21/21" not in stdout and "- Score: 52.4%" in stdout
    stdout, stderr = _run_with_stderr(stderr_is_terminal=False)
    assert "21/21" not in stderr and "tasks/s" not in stderr
    assert "- Score: 52.4%" in stdout


def test_the_progress_line_shows_dollars_and_errors() -> None:
    from benchmark_core import RunRow
    from benchmark_core.cli.progress import ProgressLine
    from benchmark_core.reports import Usage

    line = ProgressLine()
    line.update(
        1,
        4,
        RunRow(task_id="a", score=1.0, passed=True, reason="", attempts=1, latency_ms=5, usage=Usage(100, 20, 0.25)),
    )
    line.update(
        2,
        4,
        RunRow(
            task_id="b",
            score=0.0,
            passed=False,
            reason="",
            attempts=3,
            latency_ms=5,
            usage=Usage(50, 0, 0.05),
            error="HTTP 500",
        ),
    )
    text = line.render(2, 4, elapsed=10.0)
    assert text == "2/4 | 0.2 tasks/s | elapsed 00:10 | ETA 00:10 | 1 errored | 170 tokens | $0.3000"
    line.close()
