"""An agent plays only a benchmark's episode tasks, and the leaderboard ranks reports together only
on the same tasks: on core's example (1 episode of 21 tasks) an agent's report is a group of its
own, which says why, and a model's run on the agent's tasks alone joins the agent's group."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from html import escape
from pathlib import Path
from typing import Any, Optional

from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._html_group import render_view_group
from benchmark_core.wire import dumps

EPISODES = [task.id for task in example.tasks() if task.kind == "episode"]


async def cannot_refund(session: Any) -> Optional[str]:
    """A Python agent (unsealed: it runs in the runner's process, and its entry says so)."""
    return "I cannot refund it."


def _leaderboard(folder: Path) -> str:
    command = [sys.executable, "-m", "benchmark_core", "leaderboard", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _groups(markdown: str) -> list[str]:
    return markdown.split("\n## ")[1:]


async def test_an_agent_ranked_apart_says_why_and_a_model_on_its_tasks_joins_it(tmp_path: Path) -> None:
    assert len(EPISODES) == 1 and len(example.tasks()) == 21
    for label, report in (
        ("model", await run(example, mock_adapter(model="strong"), cache=False)),
        ("agent", await run(example, agent=cannot_refund)),
    ):
        (tmp_path / label).mkdir()
        (tmp_path / label / "report.json").write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    whole, alone = _groups(_leaderboard(tmp_path))
    assert whole.startswith("benchmark-core-example 0.2.0 · prompt · 21 tasks") and "Not ranked" not in whole
    assert alone.startswith("benchmark-core-example 0.2.0 · prompt · 1 tasks")
    note = (
        "Not ranked against the models: an agent plays only a benchmark's episode tasks, here 1 of the 21 tasks "
        "the models' runs cover, and reports rank together only on the same tasks. A model's run on these tasks "
        f"alone (run --task {EPISODES[0]}, or task = [...] in the sweep's [[benchmarks]] entry) joins this group."
    )
    assert note in alone
    html = (tmp_path / "index.html").read_text()
    assert '<p class="note apart">Not ranked against the models: an agent plays only' in html
    # The view's group page of the agent says the same.
    agents = next(v for v in ResultsCatalog([tmp_path], resamples=200).groups if v.group.tasks == 1)
    page = render_view_group(agents, [], 0, resamples=200, seed=1)
    assert f'<p class="note apart">{escape(note)}</p>' in page

    # The model run the note names: the real CLI, on the agent's task alone.
    model_on_episodes = tmp_path / "model-episodes" / "report.json"
    argv = ["run", "--provider", "mock", "--model", "strong", "--task", EPISODES[0], "--output", str(model_on_episodes)]
    command = [sys.executable, "-m", "benchmark_core", *argv]
    done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    whole, together = _groups(_leaderboard(tmp_path))
    assert "Not ranked" not in together and "Not ranked" not in whole
    assert "| model-episodes (mock/strong) |" in together and "| agent (unsealed) (agent/cannot_refund) |" in together
    assert "| 1 | 1 | model-episodes (mock/strong) | 100.0% |" in together
