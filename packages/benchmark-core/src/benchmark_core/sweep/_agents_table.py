"""`[[agents]]` in a sweep file: agent commands beside `[[models]]`, each run with `run --agent`'s
machinery (`AgentRun`) on every benchmark of the sweep that has episodes, so that their reports sit
in the same results folder and rank in the same leaderboard as the models'.

    [[agents]]
    label = "pydantic-ai"                       # its folder, and its name in reports
    command = "python examples/agents/pydantic_ai_http.py"
    env = ["OPENAI_API_KEY", "OPENAI_BASE_URL"] # variables passed to the agent, by name
    timeout = 600                               # seconds per agent process (optional)
    sandbox = "bwrap"                           # sealed (the default), or "none" (reports mark it)

A cell holds the agent as a `SweepModel` of provider `agent` whose `agent` is the `AgentCommand`.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ..agents._command import AgentCommand
from ..agents._defaults import DEFAULT_TIMEOUT, SANDBOXES
from ._sweep_file import KeyPath, SweepFile

AGENT_KEYS = ("label", "command", "env", "timeout", "sandbox")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def has_episodes(benchmark: Any, tasks: Optional[str]) -> bool:
    """Whether `benchmark` (with the task source `tasks`) has episode tasks for an agent to play."""
    return benchmark.environment is not None and any(t.kind == "episode" for t in benchmark.tasks(tasks))


def agent_tables(source: SweepFile, data: dict[str, Any], taken: set[str]) -> list[tuple[str, AgentCommand]]:
    """Each `[[agents]]` entry's label and command, checked (empty when there is none); `taken`
    holds the models' labels, which name folders too."""
    tables = data.get("agents", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise source.error(("agents",), "must be [[agents]] tables")
    agents = []
    for index, table in enumerate(tables):
        at: KeyPath = ("agents", index)
        for key in table:
            if key not in AGENT_KEYS:
                raise source.error((*at, key), f"unknown key; expected one of {', '.join(AGENT_KEYS)}")
        for required in ("label", "command"):
            if not isinstance(table.get(required), str) or not table[required].strip():
                raise source.error((*at, required), "must be a non-empty string (every agent needs label and command)")
        names = table.get("env", [])
        if not isinstance(names, list) or not all(isinstance(n, str) and _ENV_NAME.match(n) for n in names):
            raise source.error((*at, "env"), "must be a list of environment variable names (never their values)")
        timeout = table.get("timeout", DEFAULT_TIMEOUT)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise source.error((*at, "timeout"), f"must be a positive number of seconds, not {timeout!r}")
        sandbox = table.get("sandbox", "bwrap")
        if sandbox not in SANDBOXES:
            raise source.error((*at, "sandbox"), f"must be one of {', '.join(map(repr, SANDBOXES))}, not {sandbox!r}")
        try:
            command = AgentCommand(
                table["command"], label=table["label"], env=tuple(names), timeout=float(timeout), sandbox=sandbox
            )
        except Exception as exc:  # ConfigurationError: a command shlex cannot split
            raise source.error((*at, "command"), str(exc)) from None
        if table["label"] in taken:
            raise source.error((*at, "label"), f"{table['label']!r} is used by a model; labels name folders")
        taken.add(table["label"])
        agents.append((table["label"], command))
    return agents
