"""Proof that agents no one here wrote are graded exactly as the built-in runner grades the mock.

    python tools/agents_proof.py [--python /path/to/venv-with-the-frameworks/bin/python] \
        [--mcp1-python /path/to/venv-with-smolagents-and-mcp1/bin/python]

For each framework (the OpenAI Agents SDK over stdio, pydantic-ai and smolagents over streamable
HTTP) and each benchmark (rollback-recovery's public split, the core example's episode), the
benchmark's `fake-model` command serves an OpenAI-compatible model on 127.0.0.1 that plays the
offline mock's policies (`testing.mock_chat`), `run --agent` runs the framework's example agent
(examples/agents/) once per episode, and the rows' task ids, scores, passes and details
(report_incident verdicts included) must equal the mock runner's. smolagents' MCP client needs
mcp<2, the runner mcp>=2: it runs on `--mcp1-python`, a venv of its own, as a user would run it.
The same venv's MCP 1.x client (tools/mcp1_client_agent.py) then plays the example's episode
through both the stdio bridge and the streamable HTTP endpoint. Prints one line per run with its
wall time, the processes it started and the model requests the fake served; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from benchmark_core import load_benchmark, run
from benchmark_core.adapters.mock import mock_adapter
from benchmark_core.wire import to_wire

ROOT = Path(__file__).resolve().parent.parent
AGENTS = {
    "openai-agents": "openai_agents_stdio.py",
    "pydantic-ai": "pydantic_ai_http.py",
    "smolagents": "smolagents_http.py",
}
#: The frameworks whose MCP client needs mcp<2, run on --mcp1-python.
MCP1_FRAMEWORKS = {"smolagents"}
BENCHMARKS = {"benchmark-rollback-recovery": "benchmark_rollback_recovery", "benchmark-core-example": "benchmark_core"}
KEY = "sk-proof"


def verdicts(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["taskId"], r["score"], r["passed"], r["details"]) for r in rows]


class FakeModel:
    """The `fake-model` command of a benchmark, as a user starts it; `stop()` answers how many
    requests it served."""

    def __init__(self, module: str) -> None:
        argv = [sys.executable, "-m", module, "fake-model", "--json", "--api-key", KEY]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.base_url = str(json.loads(self.process.stdout.readline())["baseUrl"])

    def stop(self) -> int:
        self.process.terminate()
        _, stderr = self.process.communicate(timeout=30)
        served = [line for line in stderr.splitlines() if line.endswith(" requests served")]
        return int(served[-1].split()[0]) if served else -1


def run_agent(benchmark_id: str, command: str, label: str, output: Path, sandbox: str, env: dict[str, str]) -> Any:
    argv = [sys.executable, "-m", BENCHMARKS[benchmark_id], "run", "--agent", command, "--model", label]
    argv += ["--agent-env", "OPENAI_BASE_URL", "--agent-env", "OPENAI_API_KEY", "--agent-env", "OPENAI_MODEL"]
    argv += ["--output", str(output), "--concurrency", "4", "--agent-sandbox", sandbox]
    return subprocess.run(argv, env={**os.environ, **env}, capture_output=True, text=True, timeout=1800)


async def prove(python: str, framework: str, benchmark_id: str, folder: Path, sandbox: str = "bwrap") -> bool:
    bench = load_benchmark(benchmark_id)
    expected = [r for r in to_wire(await run(bench, mock_adapter(), seed=1))["rows"] if r.get("episode")]
    output = folder / f"{framework}-{benchmark_id}.json"
    fake = await asyncio.to_thread(FakeModel, BENCHMARKS[benchmark_id])
    try:
        env = {"OPENAI_BASE_URL": fake.base_url, "OPENAI_API_KEY": KEY, "OPENAI_MODEL": "mock"}
        command = f"{python} {ROOT / 'examples' / 'agents' / AGENTS[framework]}"
        started = time.perf_counter()
        done = await asyncio.to_thread(run_agent, benchmark_id, command, framework, output, sandbox, env)
        wall = time.perf_counter() - started
    finally:
        requests = await asyncio.to_thread(fake.stop)
    rows = json.loads(output.read_text())["rows"] if output.exists() else []
    sealed = all(r["agent"]["sandbox"] == sandbox for r in rows)
    same = done.returncode == 0 and verdicts(rows) == verdicts(expected) and sealed
    # Per episode: the agent, and for stdio the bridge it starts (the runner and server are one process).
    processes = 1 + len(rows) * (2 if framework == "openai-agents" else 1)
    passed = sum(1 for r in rows if r["passed"])
    print(
        f"{framework:14} {benchmark_id:28} {len(rows):3} episodes  {passed:3} passed  "
        f"{'same as mock' if same else 'DIFFERENT'}  wall {wall:6.1f} s  processes {processes}  "
        f"model requests {requests}  sandbox {sandbox}",
        flush=True,
    )
    if not same:
        print(done.stderr[-3000:], file=sys.stderr)
        for got, want in zip(verdicts(rows), verdicts(expected)):
            if got != want:
                print(f"  got  {got}\n  want {want}", file=sys.stderr)
                break
    return same


async def prove_mcp1_client(python: str, folder: Path, sandbox: str = "bwrap") -> bool:
    """The MCP 1.x client agent on the example's episode, sealed: its row must pass with the three
    calls it made across the stdio bridge and the HTTP endpoint."""
    output = folder / "mcp1-client.json"
    command = f"{python} {ROOT / 'tools' / 'mcp1_client_agent.py'}"
    started = time.perf_counter()
    done = await asyncio.to_thread(run_agent, "benchmark-core-example", command, "mcp1-client", output, sandbox, {})
    wall = time.perf_counter() - started
    rows = json.loads(output.read_text())["rows"] if output.exists() else []
    answer = str(rows[0]["trace"]["answer"]) if len(rows) == 1 else ""
    ok = (
        done.returncode == 0
        and len(rows) == 1
        and rows[0]["passed"]
        and rows[0]["agent"]["toolCalls"] == 3
        and rows[0]["agent"]["sandbox"] == sandbox
        and " through mcp 1." in answer
    )
    print(
        f"{'mcp 1.x client':14} {'benchmark-core-example':28} stdio bridge + streamable HTTP  "
        f"{'right results' if ok else 'WRONG'}  wall {wall:6.1f} s  ({answer.strip() or 'no answer'})  "
        f"sandbox {sandbox}",
        flush=True,
    )
    if not ok:
        print(done.stderr[-3000:], json.dumps([r.get("error") for r in rows]), file=sys.stderr)
    return ok


def parse(argv: Optional[list[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="Python of a venv with openai-agents and pydantic-ai (default: this one).",
    )
    parser.add_argument(
        "--mcp1-python",
        default=None,
        help="Python of a venv with smolagents[mcp,openai] and mcp<2, for smolagents and the MCP 1.x client check.",
    )
    parser.add_argument("--framework", choices=sorted(AGENTS), action="append")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), action="append")
    parser.add_argument("--sandbox", choices=["bwrap", "none"], default="bwrap", help="The agents' seal.")
    args = parser.parse_args(argv)
    if args.mcp1_python is None and set(args.framework or AGENTS) & MCP1_FRAMEWORKS:
        parser.error("smolagents needs --mcp1-python (its MCP client needs mcp<2); or leave it out with --framework")
    return args


async def main() -> int:
    args = parse()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        for framework in args.framework or sorted(AGENTS):
            python = args.mcp1_python if framework in MCP1_FRAMEWORKS else args.python
            for benchmark_id in args.benchmark or sorted(BENCHMARKS):
                ok = await prove(python, framework, benchmark_id, Path(folder), args.sandbox) and ok
        if args.mcp1_python is not None:
            ok = await prove_mcp1_client(args.mcp1_python, Path(folder), args.sandbox) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
