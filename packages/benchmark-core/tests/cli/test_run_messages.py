"""What `run` tells a user who tripped: an errored row's reason readable in the terminal (whole and
wrapped between words, or its start and end when long: an agent's traceback names the error last)
and in the markdown report's Errors section, for model runs and agent runs, `--help` not marking `--model` required when
`--agent` makes it unnecessary, `--resume` naming `--retry-errored`, and `--resume` with no journal
saying that the run starts over."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

from benchmark_core import RunRow
from benchmark_core.cli.progress import error_breakdown
from benchmark_core.testing import FakeOpenAI, FakeResponse


def _cli(cwd: Path, *args: str, env: Optional[dict[str, str]] = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "benchmark_core", "run", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _errored(task_id: str, error: str, code: str = "AGENT_FAILED") -> RunRow:
    return RunRow(
        task_id=task_id, score=0.0, passed=False, reason="", attempts=1, latency_ms=1, error=error, error_code=code
    )


def _unwrapped(breakdown: str) -> str:
    """The example reason of a one-code breakdown, its wrapped lines joined again."""
    first, *more = breakdown.split("\n")[1:]
    return " ".join([first.split("e.g. ", 1)[1], *(line.strip() for line in more)])


def test_a_long_reason_keeps_its_start_and_end_in_the_breakdown_cut_between_words() -> None:
    tail = "openai.AuthenticationError: Error code: 401 - Incorrect API key provided"
    reason = "agent exited with status 1; stderr ends: Traceback (most recent call last):\n" + "  frame\n" * 200 + tail
    text = error_breakdown([_errored("t1", reason)])
    assert "AGENT_FAILED  e.g. agent exited with status 1" in text
    shown = _unwrapped(text)
    assert shown.endswith(tail) and all(len(line) <= 100 for line in text.split("\n"))
    assert " … " in shown and set(shown.replace(" … ", " ").split()) <= set(reason.split())


def test_a_reason_that_fits_is_shown_whole_wrapped_between_words() -> None:
    reason = (
        "agent exited with status 1; stderr ends: smolagents.utils.AgentGenerationError: Error in generating model "
        "output: | Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-wrong.', 'code': "
        "'invalid_api_key'}}"
    )
    text = error_breakdown([_errored("t1", reason), _errored("t2", "timed out after 30 s", "TIMEOUT")])
    assert _unwrapped(text.split("\n      1  TIMEOUT")[0]) == reason  # codes as frequent ordered by name
    assert "smolagents.utils.AgentGenerationError:" in text.split()  # never cut inside a word


def _markdown_errors(markdown: str) -> list[str]:
    return markdown.split("\n## Errors\n\n", 1)[1].split("\n\n", 1)[0].strip("\n").split("\n")


def test_a_model_run_lists_its_errored_rows_in_the_markdown_the_same_each_time(tmp_path: Path) -> None:
    def answer(request: Any) -> FakeResponse:
        if request.prompt.startswith("What is 1"):
            return FakeResponse.error(422, "content filter: the prompt was flagged by the moderation policy")
        return FakeResponse.text("no idea")

    texts = []
    with FakeOpenAI(handler=answer).in_thread() as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test-not-a-real-key"}
        for attempt in ("a", "b"):
            argv = [
                "--model",
                "m",
                "--provider",
                "openai",
                "--retries",
                "0",
                "--no-cache",
                "--markdown",
                f"{attempt}.md",
            ]
            done = _cli(tmp_path, *argv, env=env)
            assert done.returncode == 2, done.stderr
            texts.append((tmp_path / f"{attempt}.md").read_text())
    shown = " ".join(done.stderr.split())
    assert (
        "ADAPTER_ERROR e.g. openai: HTTP 422: content filter: the prompt was flagged by the moderation policy" in shown
    )
    errors = _markdown_errors(texts[0])
    assert errors[:2] == ["| Task | Code | Message |", "| --- | --- | --- |"] and len(errors) > 2
    for line in errors[2:]:
        assert line.endswith(
            " | ADAPTER_ERROR | openai: HTTP 422: content filter: the prompt was flagged by the moderation policy |"
        )
    assert errors == _markdown_errors(texts[1])


def test_an_agent_run_lists_its_errored_rows_in_the_markdown(tmp_path: Path) -> None:
    agent, out = tmp_path / "agent", tmp_path / "out"
    agent.mkdir()
    script = agent / "wrong_key.py"
    last = "smolagents.utils.AgentGenerationError: Error code: 401 - Incorrect API key provided: sk-wrong"
    script.write_text(
        "import sys\n"
        "print('Traceback (most recent call last):', file=sys.stderr)\n"
        f"print({last!r}, file=sys.stderr)\n"
        "sys.exit(1)\n"
    )
    argv = ["--agent", f"{sys.executable} {script}", "--agent-sandbox", "none", "--markdown", str(out / "r.md")]
    done = _cli(tmp_path, *argv)
    assert done.returncode == 2, done.stderr
    message = f"agent exited with status 1; stderr ends: Traceback (most recent call last): \\| {last}"
    assert _markdown_errors((out / "r.md").read_text())[2:] == [f"| order-refund-01 | AGENT_FAILED | {message} |"]
    assert last in " ".join(done.stderr.split())


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


def test_a_run_with_errored_rows_says_how_to_send_them_again_and_so_does_a_plain_resume(tmp_path: Path) -> None:
    flaky = tmp_path / "agent" / "flaky.py"
    flaky.parent.mkdir()
    # Fails until the marker file exists: the retried row then passes through the suggested command.
    marker = tmp_path / "agent" / "fixed"
    flaky.write_text(
        f"import pathlib, sys\nsys.stdin.read()\nif not pathlib.Path({str(marker)!r}).exists():\n"
        "    sys.exit('openai.AuthenticationError: 401')\nprint('I cannot refund it.')\n"
    )
    argv = ["--agent", f"{sys.executable} {flaky}", "--agent-sandbox", "none", "--output", "out/r.json"]
    suggested = " send them again with: benchmark-core run " + " ".join(
        ["--agent", f"'{sys.executable} {flaky}'", "--agent-sandbox", "none", "--output", "out/r.json"]
    )
    first = _cli(tmp_path, *argv)
    assert (
        first.returncode == 2 and f"error: 1 of 1 tasks errored;{suggested} --resume --retry-errored\n" in first.stderr
    )
    kept = _cli(tmp_path, *argv, "--resume")
    assert kept.returncode == 2 and f"error: 1 of 1 tasks errored;{suggested} --resume --retry-errored\n" in kept.stderr
    marker.touch()
    retried = _cli(tmp_path, *argv, "--resume", "--retry-errored")
    assert retried.returncode == 0, retried.stderr
