"""What the agents' seal (bubblewrap, `run --agent-sandbox bwrap`) costs, against unsealed agents.

    python tools/bench_seal.py [--starts 50] [--episodes 48]

1. Start cost: a run of the example's one episode by an agent that exits at once (`python -c
   pass`), sealed and unsealed, the median of `--starts` runs each; the difference is the seal's.
2. A whole run: the rollback-recovery episodes, each played by the seal tests' agent in its `http`
   mode (it lists the session's tools through the stdio bridge and probes the run's server), sealed
   and unsealed, wall time. The frameworks' own runs (`nox -s agents`) are not timed here: their
   venv is not installed on every machine this runs on.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmark_core import load_benchmark, run
from benchmark_core.agents import AgentCommand

ROOT = Path(__file__).resolve().parent.parent
AGENT = ROOT / "packages" / "benchmark-core" / "tests" / "sessions" / "peeking_agent.py"


async def start_ms(sandbox: str, starts: int) -> float:
    """The median wall time of a run of the example's one episode by an agent that exits at once:
    the same run either way, so the difference is the seal's start."""
    bench = load_benchmark("benchmark-core-example")
    agent = AgentCommand(f"{sys.executable} -c pass", sandbox=sandbox)
    times = []
    for _ in range(starts):
        begun = time.perf_counter()
        await run(bench, agent=agent)
        times.append((time.perf_counter() - begun) * 1000)
    return statistics.median(times)


def run_wall(sandbox: str, folder: Path) -> tuple[float, int]:
    output = folder / f"{sandbox}.json"
    argv = [sys.executable, "-m", "benchmark_rollback_recovery", "run", "--agent", f"{sys.executable} {AGENT} http"]
    argv += ["--agent-sandbox", sandbox, "--output", str(output), "--concurrency", "4"]
    begun = time.perf_counter()
    subprocess.run(argv, capture_output=True, text=True, timeout=1800, check=False)
    wall = time.perf_counter() - begun
    return wall, len(json.loads(output.read_text())["rows"])


async def main() -> None:
    starts = int(sys.argv[sys.argv.index("--starts") + 1]) if "--starts" in sys.argv else 50
    sealed, unsealed = await start_ms("bwrap", starts), await start_ms("none", starts)
    print(f"one-episode run, median of {starts}: sealed {sealed:.1f} ms  unsealed {unsealed:.1f} ms  "
          f"seal cost {sealed - unsealed:.1f} ms per episode")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        walls = {sandbox: run_wall(sandbox, Path(folder)) for sandbox in ("none", "bwrap")}
    (bare, episodes), (sealed_wall, _) = walls["none"], walls["bwrap"]
    print(f"{episodes} episodes, concurrency 4: sealed {sealed_wall:.1f} s  unsealed {bare:.1f} s  "
          f"ratio {sealed_wall / bare:.3f}")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
