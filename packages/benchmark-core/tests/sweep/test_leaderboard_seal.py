"""Which seal an agent run ran in is the report's to say (`RunReport.sandbox`): "bwrap" sealed,
"none" when any row ran unsealed. The markdown's Sandbox line and the leaderboard's "(unsealed)"
mark read it from the report, not from the rows (which the leaderboard reads without their agent
records), and an agent report from before seals counts as unsealed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Optional

import pytest
from benchmark_core import mock_adapter, run
from benchmark_core.agents import AgentCommand
from benchmark_core.example import benchmark as example
from benchmark_core.reports import render_markdown
from benchmark_core.sweep import build_leaderboard, render_leaderboard
from benchmark_core.wire import dumps, from_wire, to_wire


async def python_agent(session: Any) -> Optional[str]:
    return "I cannot refund it."


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="the seal needs bubblewrap (tools/gate.sh)")
async def test_the_report_says_which_sandbox_ran_and_the_leaderboard_marks_unsealed_runs(tmp_path: Path) -> None:
    sealed = await run(example, agent=AgentCommand("sh -c 'cat >/dev/null; echo no refund'", label="sealed"))
    unsealed = await run(example, agent=python_agent)  # a Python callable runs in the runner, unsealed
    model = await run(example, mock_adapter(model="model"), cache=False)
    assert (sealed.sandbox, unsealed.sandbox, model.sandbox) == ("bwrap", "none", None)
    assert to_wire(sealed)["sandbox"] == "bwrap" and "sandbox" not in to_wire(model)
    assert (sealed.unsealed, unsealed.unsealed, model.unsealed) == (False, True, False)
    assert "- Sandbox: bwrap\n" in render_markdown(sealed)
    assert "- Sandbox: none (unsealed)\n" in render_markdown(unsealed)
    assert "Sandbox" not in render_markdown(model)

    # An agent report of 0.2.0: no seal existed, its rows' agent records name none.
    before = to_wire(unsealed)
    del before["sandbox"]
    for row in before["rows"]:
        del row["agent"]["sandbox"]
    old = from_wire(before, type(unsealed), what="run report")
    assert old.sandbox is None and old.unsealed and "- Sandbox: none (unsealed)\n" in render_markdown(old)

    for label, report in (("sealed", sealed), ("unsealed", unsealed), ("model", model)):
        (tmp_path / label).mkdir()
        (tmp_path / label / "report.json").write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "report.json").write_text(json.dumps(before), encoding="utf-8")
    labels = [entry.label for group in build_leaderboard(tmp_path, resamples=200).groups for entry in group.entries]
    assert sorted(labels) == ["model", "old (unsealed)", "sealed", "unsealed (unsealed)"]
    board = render_leaderboard(build_leaderboard(tmp_path, resamples=200))
    assert "| sealed (agent/sealed) |" in board and "| unsealed (unsealed) (agent/python_agent) |" in board
