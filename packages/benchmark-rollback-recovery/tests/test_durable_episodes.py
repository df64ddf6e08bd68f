"""Durable runs with episodes: a rollback-recovery run through the real OpenAI-compatible adapter,
stopped by SIGTERM mid-run and resumed, gives the report of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmark_core.runs import journal_path
from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report
from benchmark_rollback_recovery import benchmark


def _run(base_url: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": "sk-test"}
    command = [sys.executable, "-m", "benchmark_rollback_recovery", "run", "--model", "m", "--provider", "openai"]
    return subprocess.Popen(
        [*command, "--concurrency", "3", "--no-cache", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigterm_mid_run_then_resume_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    handler = mock_handler(benchmark, delay=0.02)
    with FakeOpenAI(handler=handler, record=False).in_thread() as server:
        whole = tmp_path / "whole.json"
        child = _run(server.base_url, "--output", str(whole))
        _, stderr = child.communicate(timeout=300)
        assert child.returncode == 0, stderr
        out = tmp_path / "report.json"
        child = _run(server.base_url, "--output", str(out))
        start = server.received
        deadline = time.monotonic() + 120
        while server.received < start + 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=120)
        assert child.returncode == 143, stderr
        partial = json.loads(out.read_text(encoding="utf-8"))
        assert partial["complete"] is False and 0 < len(partial["rows"]) < 48
        kept = {row["taskId"] for row in partial["rows"]}
        before = dict(handler.requests_per_task)
        child = _run(server.base_url, "--output", str(out), "--resume")
        _, stderr = child.communicate(timeout=300)
        assert child.returncode == 0, stderr
    assert all(handler.requests_per_task[t] == before.get(t, 0) for t in kept)
    assert not journal_path(out).exists()
    final = json.loads(out.read_text(encoding="utf-8"))
    assert stable_report(final) == stable_report(json.loads(whole.read_text(encoding="utf-8")))
