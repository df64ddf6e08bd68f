"""Adversarial agents under the default seal of `run --agent` (bubblewrap): each tries one way to
reach what grades it, through the real CLI, and must find nothing and pass nothing. The importer
run unsealed finds the package, which proves the agents look where the answers are."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

AGENT = Path(__file__).with_name("peeking_agent.py")
PACKAGES = ["benchmark_core.example", "benchmark_rollback_recovery", "benchmark_schema_mutation"]

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="the seal needs bubblewrap (tools/gate.sh)")


@pytest.fixture
def request_cleanup() -> Iterator[Callable[[Path], None]]:
    """Folders to remove after the test (those made outside pytest's own tmp folder)."""
    made: list[Path] = []
    yield made.append
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def package_folder(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent


async def peek(
    tmp_path: Path, mode: str, *extra: str, peek: str = "", agent: Path = AGENT
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the peeking agent (`agent`, a copy of it) once on the example's episode; its row and what
    it answered."""
    work, out, cache = tmp_path / "work", tmp_path / "out", tmp_path / "cache"
    for folder in (work, out, cache):
        folder.mkdir(exist_ok=True)
    if agent != AGENT:
        shutil.copy(AGENT, agent)
    (work / "secret.txt").write_text("the runner's working folder")
    (cache / "entry.json").write_text("{}")
    shutil.copy(package_folder("benchmark_core.example") / "data/tasks.jsonl", tmp_path)
    env = {**os.environ, "BENCHMARK_CORE_CACHE": str(cache), "PEEK": peek}
    argv = [sys.executable, "-m", "benchmark_core", "run", "--agent", f"{sys.executable} {agent} {mode}"]
    argv += ["--agent-env", "PEEK", "--tasks", str(tmp_path / "tasks.jsonl"), "--output", str(out / "report.json")]
    argv += ["--markdown", str(out / "report.md")]
    done = await asyncio.to_thread(
        subprocess.run, [*argv, *extra], cwd=work, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
    [row] = json.loads((out / "report.json").read_text())["rows"]
    answer = row["trace"].get("answer")
    return row, json.loads(answer) if isinstance(answer, str) and answer.startswith("{") else {}


def secrets(tmp_path: Path) -> str:
    folders = [str(package_folder(name)) for name in PACKAGES]
    files = ["tasks.jsonl", "out", "out/report.journal.jsonl", "cache", "cache/entry.json", "work/secret.txt"]
    return ":".join([*folders, *(str(tmp_path / f) for f in files), "secret.txt"])


async def test_the_run_server_answers_no_route_but_the_session_tools(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "http")
    assert found["http"]["answered"] == [] and found["http"]["tools"] > 0  # the stdio bridge works sealed
    assert row["passed"] is False and row["agent"]["sandbox"] == "bwrap"
    assert "- Sandbox: bwrap\n" in (tmp_path / "out" / "report.md").read_text()
    assert json.loads((tmp_path / "out" / "report.json").read_text())["sandbox"] == "bwrap"


async def test_no_benchmark_package_imports_sealed_and_each_does_unsealed(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "import", peek=":".join(PACKAGES))
    assert found == {"import": []} and row["passed"] is False
    unsealed, found = await peek(tmp_path, "import", "--agent-sandbox", "none", peek=":".join(PACKAGES))
    assert len(found["import"]) == len(PACKAGES) and unsealed["agent"]["sandbox"] == "none"
    assert "- Sandbox: none (unsealed)" in (tmp_path / "out" / "report.md").read_text()
    assert json.loads((tmp_path / "out" / "report.json").read_text())["sandbox"] == "none"
    board = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "benchmark_core", "leaderboard", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "(unsealed)" in board.stdout, board.stderr


async def test_no_benchmark_mcp_server_starts_sealed_and_each_does_unsealed(tmp_path: Path) -> None:
    """An agent starting a benchmark's own MCP server, full tools asked for, gets no answer key."""
    modules = ":".join(PACKAGES[1:])  # the two benchmarks' `python -m <package> mcp`
    row, found = await peek(tmp_path, "mcp", peek=modules)
    assert found == {"mcp": []} and row["passed"] is False
    _, found = await peek(tmp_path, "mcp", "--agent-sandbox", "none", peek=modules)
    assert found == {"mcp": PACKAGES[1:]}


async def test_no_run_file_package_data_or_cache_is_readable(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "read", peek=secrets(tmp_path))
    assert found == {"read": []} and row["passed"] is False
    _, unsealed = await peek(tmp_path, "read", "--agent-sandbox", "none", peek=secrets(tmp_path))
    assert len(unsealed["read"]) >= 8  # the same reader finds them all unsealed


async def test_an_agent_script_beside_the_output_runs_and_still_reads_no_run_file(tmp_path: Path) -> None:
    # The output folder is masked; the script the command names inside it stays readable, alone:
    # listing the folder shows the script and nothing of the run (no journal).
    row, found = await peek(tmp_path, "read", peek=secrets(tmp_path), agent=tmp_path / "out" / "agent.py")
    assert found == {"read": [f"{tmp_path / 'out'}: ['agent.py']"]}
    assert row.get("error") is None and row["agent"]["sandbox"] == "bwrap"


async def test_the_runner_processes_are_not_in_the_agents_proc(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "proc")
    assert found == {"proc": []} and row["passed"] is False


async def test_a_fork_bomb_is_killed_and_its_row_errs(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "forkbomb", "--agent-processes", "64")
    assert found == {} and row["errorCode"] == "AGENT_FAILED" and "over 64 processes" in row["error"]


async def test_a_memory_hog_is_stopped_and_its_row_errs(tmp_path: Path) -> None:
    row, found = await peek(tmp_path, "memhog", "--agent-memory", "1")
    assert found == {} and row["errorCode"] == "AGENT_FAILED" and "MemoryError" in row["error"]


async def test_without_bubblewrap_an_agent_run_refuses_before_it_starts(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # a PATH without bwrap
    argv = [sys.executable, "-m", "benchmark_core", "run", "--agent", "true", "--output", str(tmp_path / "r.json")]
    done = await asyncio.to_thread(subprocess.run, argv, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr and not (tmp_path / "r.json").exists()
    assert "apt-get install bubblewrap" in done.stderr and "--agent-sandbox none" in done.stderr


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
async def test_a_sweep_file_and_its_task_file_outside_the_working_folder_are_masked(
    tmp_path: Path, sandbox: str, request_cleanup: Callable[[Path], None]
) -> None:
    """The sweep file and the task file it names live outside the folder `sweep` runs in, and
    outside `/tmp` (the seal's own empty `/tmp` would hide them whatever the masks): sealed, the
    agent reads neither; unsealed, both, which proves it looks in the right place."""
    outside = Path(tempfile.mkdtemp(dir="/var/tmp"))
    request_cleanup(outside)
    work, sweeps, tasks = tmp_path / "work", outside / "sweeps", outside / "tasks"
    for folder in (work, sweeps, tasks):
        folder.mkdir()
    shutil.copy(package_folder("benchmark_core.example") / "data/tasks.jsonl", tasks / "mine.jsonl")
    sweep = sweeps / "sweep.toml"
    sweep.write_text(
        f'results = "{tmp_path / "results"}"\n\n[[agents]]\nlabel = "peek"\n'
        f'command = "{sys.executable} {AGENT} read"\nenv = ["PEEK"]\nsandbox = "{sandbox}"\n\n'
        f'[[benchmarks]]\nid = "benchmark-core-example"\ntasks = "../tasks/mine.jsonl"\n',
        encoding="utf-8",
    )
    env = {**os.environ, "BENCHMARK_CORE_CACHE": str(tmp_path / "cache"), "PEEK": f"{sweep}:{tasks / 'mine.jsonl'}"}
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "benchmark_core", "sweep", str(sweep)],
        cwd=work, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
    [row] = json.loads((tmp_path / "results/benchmark-core-example/peek/report.json").read_text())["rows"]
    found = json.loads(row["trace"]["answer"])["read"]
    assert found == ([] if sandbox == "bwrap" else [str(sweep), str(tasks / "mine.jsonl")])
