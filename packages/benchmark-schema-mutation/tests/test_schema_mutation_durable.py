"""Durable drift episodes: a run of the full split's drift episodes through the real
OpenAI-compatible adapter, killed by SIGKILL in the middle of long episodes and resumed, sends
again at most the requests in flight at the kill and writes the uninterrupted report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmark_core.testing import FakeOpenAI, mock_handler, sigkill_and_resume, stable_report
from benchmark_core.wire import to_wire
from benchmark_schema_mutation import benchmark


def test_sigkill_mid_drift_episode_then_resume_resends_at_most_the_requests_in_flight(tmp_path: Path) -> None:
    drift = [t for t in benchmark.tasks("full") if t.kind == "episode"][:12]
    tasks = tmp_path / "drift.jsonl"
    tasks.write_text("".join(json.dumps(to_wire(t)) + "\n" for t in drift), encoding="utf-8")
    concurrency = 3
    handler = mock_handler(benchmark, delay=0.02, stretch=6, tasks=drift)  # episodes of 7 and 13 turns
    command = [sys.executable, "-m", "benchmark_schema_mutation", "run", "--model", "m", "--provider", "openai"]
    command += ["--concurrency", str(concurrency), "--no-cache", "--tasks", str(tasks)]
    with FakeOpenAI(handler=handler, record=False).in_thread() as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test"}
        outcome = sigkill_and_resume(command, env, server, tmp_path, kill_at=0.5)
    assert outcome.uninterrupted_requests == 6 * 7 + 6 * 13
    assert 0 <= outcome.resent <= concurrency
    assert "last finished turn" in outcome.resume_stderr
    assert stable_report(outcome.resumed) == stable_report(outcome.uninterrupted)
    turns = [
        sum(1 for m in row["episode"]["transcript"] if m["role"] == "assistant") for row in outcome.resumed["rows"]
    ]
    assert sorted(set(turns)) == [7, 13]
