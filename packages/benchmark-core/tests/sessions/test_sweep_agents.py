"""A sweep with `[[agents]]` beside `[[models]]`: the agent plays the episodes of the benchmarks that
have them (and is left out of those that have none), and one leaderboard ranks agents and models of
a benchmark group together."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from benchmark_core.errors._usage import ConfigurationError
from benchmark_core.sweep import plan_sweep, run_sweep, write_leaderboard

AGENT = Path(__file__).with_name("mock_mcp_agent.py")


def test_agents_and_models_in_one_sweep_rank_together(tmp_path: Path) -> None:
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(
        f"""results = "results"

[[models]]
label = "mock"
provider = "mock"
model = "offline"

[[agents]]
label = "mcp-agent"
command = "{sys.executable} {AGENT} benchmark-rollback-recovery http"
timeout = 120
sandbox = "none"

[[benchmarks]]
id = "benchmark-rollback-recovery"
task = ["{'", "'.join(_first_ids(4))}"]

[[benchmarks]]
id = "benchmark-schema-mutation"
""",
        encoding="utf-8",
    )
    plan = plan_sweep(sweep)
    assert [cell.name for cell in plan.cells] == [
        "benchmark-rollback-recovery/mock",
        "benchmark-rollback-recovery/mcp-agent",
        "benchmark-schema-mutation/mock",  # no episodes there: no agent cell
    ]
    outcome = run_sweep(sweep)
    assert outcome.completed
    results = tmp_path / "results"
    agent = json.loads((results / "benchmark-rollback-recovery" / "mcp-agent" / "report.json").read_text())
    mock = json.loads((results / "benchmark-rollback-recovery" / "mock" / "report.json").read_text())
    assert agent["provider"] == "agent"
    assert [(r["score"], r["passed"]) for r in agent["rows"]] == [(r["score"], r["passed"]) for r in mock["rows"]]
    markdown, _ = write_leaderboard(results)
    board = markdown.read_text(encoding="utf-8")
    section = board.split("## benchmark-rollback-recovery", 1)[1].split("\n## ", 1)[0]
    assert "mcp-agent" in section and "mock" in section


def test_an_agent_entry_is_checked_with_its_line(tmp_path: Path) -> None:
    sweep = tmp_path / "sweep.toml"
    entry = '[[agents]]\nlabel = "a"\ncommand = "x"\nenv = ["NOT A NAME"]\n'
    sweep.write_text(entry + '\n[[benchmarks]]\nid = "benchmark-core-example"\n')
    with pytest.raises(ConfigurationError, match=r"sweep.toml:4: agents\[0\]\.env: must be a list"):
        plan_sweep(sweep)


def _first_ids(count: int) -> list[str]:
    from benchmark_core import load_benchmark

    return [task.id for task in load_benchmark("benchmark-rollback-recovery").tasks()[:count]]
