"""What `run` tells a user who tripped: an errored row's reason readable in the terminal (its end
kept, where an agent's traceback names the error), `--help` not marking `--model` required when
`--agent` makes it unnecessary, `--resume` naming `--retry-errored`, and `--resume` with no journal
saying that the run starts over."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmark_core import RunRow
from benchmark_core.cli.progress import error_breakdown


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "benchmark_core", "run", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_long_reason_keeps_its_end_in_the_breakdown() -> None:
    tail = "openai.AuthenticationError: Error code: 401 - Incorrect API key provided"
    reason = "agent exited with status 1; stderr: Traceback (most recent call last):\n" + "  frame\n" * 200 + tail
    row = RunRow(
        task_id="t1",
        score=0.0,
        passed=False,
        reason="",
        attempts=1,
        latency_ms=1,
        error=reason,
        error_code="AGENT_FAILED",
    )
    text = error_breakdown([row])
    assert "AGENT_FAILED  e.g. agent exited with status 1" in text
    assert text.endswith(tail) and "\n" not in text.split("e.g. ", 1)[1]


def test_help_says_when_model_is_required_and_resume_names_retry_errored(tmp_path: Path) -> None:
    shown = _cli(tmp_path, "--help")
    assert shown.returncode == 0
    help_text = " ".join(shown.stdout.split())
    assert "[required]" not in help_text
    assert "Required, unless with --agent." in help_text
    assert "add --retry-errored to send them again" in help_text
    missing = _cli(tmp_path, "--provider", "mock")
    assert missing.returncode == 1 and "Missing option '--model'" in missing.stderr


def test_resume_without_a_journal_says_that_the_run_starts_over(tmp_path: Path) -> None:
    done = _cli(tmp_path, "--provider", "mock", "--model", "mock", "--output", "r.json", "--resume")
    assert done.returncode == 0, done.stderr
    assert "no journal at r.json.journal.jsonl to resume: the run starts from its first task" in done.stderr
