"""`run --agent`: a real agent process per episode, reaching its session over streamable HTTP or
through the stdio bridge the `mcpServers` file names; its rows equal the mock runner's, failures
are errored rows, and the journal resumes as a model run's does."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import load_benchmark, run
from benchmark_core.adapters.mock import mock_adapter
from benchmark_core.errors._sessions import NotAnEpisodeError
from benchmark_core.testing.sessions import mock_agent
from benchmark_core.wire import to_wire

AGENT = Path(__file__).with_name("mock_mcp_agent.py")


async def cli(*args: str, module: str = "benchmark_rollback_recovery") -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", module, "run", *args], capture_output=True, text=True, timeout=300
    )


def verdicts(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["taskId"], r["score"], r["passed"], r["details"]) for r in rows]


@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_an_agent_command_scores_as_the_mock_runner(tmp_path: Path, transport: str) -> None:
    # A few tasks here, each agent a process of its own; the nox session `agents` runs them all.
    bench = load_benchmark("benchmark-rollback-recovery")
    chosen = [task.id for task in bench.tasks()[:5]]
    output = tmp_path / "agent.json"
    command = f"{sys.executable} {AGENT} benchmark-rollback-recovery {transport}"
    picks = [arg for task_id in chosen for arg in ("--task", task_id)]
    # The mock's agent reads the answer key (the shipped scripts) by design, so only unsealed.
    done = await cli(
        "--agent", command, "--agent-sandbox", "none", "--model", "mock-mcp", "--output", str(output),
        "--concurrency", "2", *picks,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(output.read_text())
    assert (report["model"], report["provider"]) == ("mock-mcp", "agent")
    mock = to_wire(await run(bench, mock_adapter(), seed=1))
    assert verdicts(report["rows"]) == verdicts([row for row in mock["rows"] if row["taskId"] in chosen])
    first = report["rows"][0]
    assert first["agent"]["label"] == "mock-mcp" and first["agent"]["exitStatus"] == 0
    assert first["agent"]["sandbox"] == "none"
    assert first["agent"]["toolCalls"] == len(first["trace"]["toolLog"]) > 0
    assert first["usage"]["promptTokens"] == 10


async def test_a_crashing_agent_is_an_errored_row_and_resume_retries_it(tmp_path: Path) -> None:
    output = tmp_path / "agent.json"
    bench = load_benchmark("benchmark-core-example")
    episode = next(t for t in bench.tasks() if t.kind == "episode")
    crashing = f"{sys.executable} {AGENT} benchmark-core-example http {episode.id}"
    done = await cli("--agent", crashing, "--agent-sandbox", "none", "--output", str(output), module="benchmark_core")
    assert done.returncode == 2
    [row] = json.loads(output.read_text())["rows"]
    assert row["errorCode"] == "AGENT_FAILED" and "exited with status 3" in row["error"]
    assert "simulated crash" in row["error"] and row["agent"]["exitStatus"] == 3
    fixed = f"{sys.executable} {AGENT} benchmark-core-example http"
    resumed = await cli(
        "--agent", fixed, "--model", row["agent"]["label"], "--output", str(output), "--resume", "--retry-errored",
        "--agent-sandbox", "none",
        module="benchmark_core",
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    [again] = json.loads(output.read_text())["rows"]
    assert again["passed"] is True and again["agent"]["exitStatus"] == 0


async def test_a_hanging_agent_is_killed_with_its_process_group(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    pidfile = tmp_path / "child.pid"
    script.write_text(
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    output = tmp_path / "hang-report.json"
    command = f"{sys.executable} {script}"
    # Unsealed, so that it can leave its child's pid where the test reads it.
    done = await cli(
        "--agent", command, "--agent-sandbox", "none", "--agent-timeout", "1", "--output", str(output),
        module="benchmark_core",
    )  # fmt: skip
    assert done.returncode == 2
    [row] = json.loads(output.read_text())["rows"]
    assert "timed out after 1 s" in row["error"] and row["agent"]["exitStatus"] is None
    child = int(pidfile.read_text())
    await asyncio.sleep(0.2)
    assert not Path(f"/proc/{child}").exists() or "zombie" in Path(f"/proc/{child}/status").read_text().lower()


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="the seal needs bubblewrap (tools/gate.sh)")
async def test_a_timed_out_agent_keeps_its_stderr_tail_as_a_crashed_one_does(tmp_path: Path) -> None:
    agent, out = tmp_path / "agent", tmp_path / "out"
    agent.mkdir()
    script = agent / "stalls.py"
    # It says where it is waiting, then waits past the timeout: what it wrote is why it was killed.
    script.write_text(
        "import sys, time\n"
        "print('calling the model at https://api.example.invalid/v1', file=sys.stderr, flush=True)\n"
        "time.sleep(60)\n"
    )
    done = await cli(
        "--agent", f"{sys.executable} {script}", "--agent-timeout", "1", "--output", str(out / "r.json"),
        module="benchmark_core",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    [row] = json.loads((out / "r.json").read_text())["rows"]
    assert row["agent"]["exitStatus"] is None and row["agent"]["sandbox"] == "bwrap"
    assert row["agent"]["stderrTail"] == "calling the model at https://api.example.invalid/v1\n"
    assert row["error"] == (
        "agent timed out after 1 s and was killed; stderr ends: calling the model at https://api.example.invalid/v1"
    )


async def test_task_lists_without_episodes_refuse_agents(tmp_path: Path, make_benchmark: Any) -> None:
    done = await cli("--agent", "true", module="benchmark_schema_mutation")  # its public split: single tasks
    assert done.returncode == 1
    assert "no episode" in done.stderr and "Traceback" not in done.stderr
    with pytest.raises(NotAnEpisodeError, match="has no environment"):
        await run(make_benchmark(), agent="true")
    mixed = await cli("--agent", "true", "--provider", "mock", module="benchmark_core")
    assert mixed.returncode == 1 and "leave --provider out" in mixed.stderr


async def test_a_python_agent_gets_the_session() -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    played = await run(bench, agent=mock_agent(bench.tasks()), seed=2, epochs=2)
    mock = await run(bench, mock_adapter(), seed=2, epochs=2)
    assert [(r.task_id, r.epoch, r.score, r.passed) for r in played.rows] != []
    same = [(r.task_id, r.epoch, r.score, r.passed, r.details) for r in mock.rows if r.epoch == 1]
    assert [(r.task_id, r.epoch, r.score, r.passed, r.details) for r in played.rows if r.epoch == 1] == same
