"""Proof that agents no one here wrote are graded exactly as the built-in runner grades the mock.

    python tools/agents_proof.py [--python /path/to/venv-with-the-frameworks/bin/python]

For each framework (the OpenAI Agents SDK over stdio, pydantic-ai over streamable HTTP) and each
benchmark (rollback-recovery's public split, the core example's episode), a `FakeOpenAI` on
127.0.0.1 plays the offline mock's policies (`testing.mock_chat`), `run --agent` runs the
framework's example agent (examples/agents/) once per episode, and the rows' task ids, scores,
passes and details (report_incident verdicts included) must equal the mock runner's. Prints one
line per run with its wall time and the processes it started; exits 1 on any difference.
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
from typing import Any

from benchmark_core import load_benchmark, run
from benchmark_core.adapters.mock import mock_adapter
from benchmark_core.testing.fake_openai import FakeOpenAI
from benchmark_core.testing.mock_chat import mock_chat_handler
from benchmark_core.wire import to_wire

ROOT = Path(__file__).resolve().parent.parent
AGENTS = {"openai-agents": "openai_agents_stdio.py", "pydantic-ai": "pydantic_ai_http.py"}
BENCHMARKS = {"benchmark-rollback-recovery": "benchmark_rollback_recovery", "benchmark-core-example": "benchmark_core"}


def verdicts(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["taskId"], r["score"], r["passed"], r["details"]) for r in rows]


async def prove(python: str, framework: str, benchmark_id: str, folder: Path, sandbox: str = "bwrap") -> bool:
    bench = load_benchmark(benchmark_id)
    tasks = bench.tasks()
    expected = [r for r in to_wire(await run(bench, mock_adapter(), seed=1))["rows"] if r.get("episode")]
    output = folder / f"{framework}-{benchmark_id}.json"
    async with FakeOpenAI(handler=mock_chat_handler(bench, tasks), api_key="sk-proof") as fake:
        env = {**os.environ, "OPENAI_BASE_URL": fake.base_url, "OPENAI_API_KEY": "sk-proof", "OPENAI_MODEL": "mock"}
        command = f"{python} {ROOT / 'examples' / 'agents' / AGENTS[framework]}"
        argv = [sys.executable, "-m", BENCHMARKS[benchmark_id], "run", "--agent", command, "--model", framework]
        argv += ["--agent-env", "OPENAI_BASE_URL", "--agent-env", "OPENAI_API_KEY", "--agent-env", "OPENAI_MODEL"]
        argv += ["--output", str(output), "--concurrency", "4", "--agent-sandbox", sandbox]
        started = time.perf_counter()
        done = await asyncio.to_thread(subprocess.run, argv, env=env, capture_output=True, text=True, timeout=1800)
        wall = time.perf_counter() - started
        requests = len(fake.requests)
    rows = json.loads(output.read_text())["rows"] if output.exists() else []
    sealed = all(r["agent"]["sandbox"] == sandbox for r in rows)
    same = done.returncode == 0 and verdicts(rows) == verdicts(expected) and sealed
    # Per episode: the agent, and for stdio the bridge it starts (the runner and server are one process).
    processes = 1 + len(rows) * (2 if framework == "openai-agents" else 1)
    passed = sum(1 for r in rows if r["passed"])
    print(
        f"{framework:14} {benchmark_id:28} {len(rows):3} episodes  {passed:3} passed  "
        f"{'same as mock' if same else 'DIFFERENT'}  wall {wall:6.1f} s  processes {processes}  "
        f"model requests {requests}  sandbox {sandbox}"
    )
    if not same:
        print(done.stderr[-3000:], file=sys.stderr)
        for got, want in zip(verdicts(rows), verdicts(expected)):
            if got != want:
                print(f"  got  {got}\n  want {want}", file=sys.stderr)
                break
    return same


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="Python of a venv with openai-agents and pydantic-ai (default: this one).",
    )
    parser.add_argument("--framework", choices=sorted(AGENTS), action="append")
    parser.add_argument("--benchmark", choices=sorted(BENCHMARKS), action="append")
    parser.add_argument("--sandbox", choices=["bwrap", "none"], default="bwrap", help="The agents' seal.")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        for framework in args.framework or sorted(AGENTS):
            for benchmark_id in args.benchmark or sorted(BENCHMARKS):
                ok = await prove(args.python, framework, benchmark_id, Path(folder), args.sandbox) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
