"""Failures while running that are not a provider's (exit 2, HTTP 5xx): a benchmark's grader or
plugin, a server that cannot listen, an agent command that failed."""

from __future__ import annotations

from typing import Optional

from ._base import BenchmarkError


class GraderError(BenchmarkError):
    """A benchmark's grader broke its contract (see `Benchmark.grade`): a bug in the benchmark, so
    a failure while running (exit 2, HTTP 500), not the caller's mistake."""

    code = "GRADER_ERROR"
    http_meaning = "the benchmark's grader failed (a bug in the benchmark)."


class PluginLoadError(BenchmarkError):
    """An installed benchmark plugin failed to load; names the distribution and entry point."""

    code = "PLUGIN_LOAD_ERROR"


class ListenError(BenchmarkError):
    """`serve` cannot listen on the address asked for (port taken, no such interface, ...)."""

    code = "LISTEN_FAILED"


class AgentFailedError(BenchmarkError):
    """An agent command (`run --agent`) crashed, timed out or exited non-zero: its row is errored,
    with the exit status (None: killed at its timeout) and the tail of its stderr."""

    code = "AGENT_FAILED"

    def __init__(self, message: str, exit_status: Optional[int], stderr_tail: str, wall_ms: int) -> None:
        last = stderr_tail.strip().splitlines()[-3:]
        super().__init__(f"{message}; stderr ends: {' | '.join(last)}" if last else message)
        self.exit_status = exit_status
        self.stderr_tail = stderr_tail
        self.wall_ms = wall_ms
