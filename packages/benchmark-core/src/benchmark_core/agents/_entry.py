"""`benchmark_core.run`: a run of a model (`adapter`, the runner's `run`) or of an agent (`agent`,
an `AgentRun`). Here rather than in the runner, which `agent_run` builds on."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from .._model import RunReport
from ..adapters.base import ModelAdapter
from ..errors._usage import ConfigurationError
from ..runs._options import RunOptions, with_overrides
from ..runs._runner import ProgressCallback
from ..runs._runner import run as run_model
from ..runs._selection import TaskSource

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ._agent_run import Agent


async def run(
    benchmark: Benchmark,
    adapter: Optional[ModelAdapter] = None,
    options: Optional[RunOptions] = None,
    *,
    agent: Optional[Agent] = None,
    tasks: TaskSource = None,
    journal: Optional[Union[str, Path]] = None,
    resume: bool = False,
    retry_errored: bool = False,
    progress: Optional[ProgressCallback] = None,
    **overrides: Any,
) -> RunReport:
    """Run `benchmark` against a model (`adapter`: see `benchmark_core.runs._runner.run`, whose
    keywords all apply) or an agent, and return the report.

    `agent` is a command line, an `AgentCommand`, or an async callable given each episode's
    `EpisodeSession` that returns the agent's answer: it plays every episode task, with the same
    options, journal and resume as a model run (see `benchmark_core.agents._agent_run`).
    """
    if (adapter is None) == (agent is None):
        raise ConfigurationError("give run() exactly one of an adapter (a model) or an agent")
    common: dict[str, Any] = {
        "tasks": tasks,
        "journal": journal,
        "resume": resume,
        "retry_errored": retry_errored,
        "progress": progress,
    }
    if adapter is not None:
        return await run_model(benchmark, adapter, options, **common, **overrides)
    from ._agent_run import AgentRun

    assert agent is not None
    return await AgentRun(benchmark, agent, with_overrides(options, overrides), **common).execute()
