"""An agent command, run once per episode against the episode's session (`run --agent 'CMD ...'`).

The command is started in a process group of its own, in the runner's working folder (so relative
paths in it mean what they mean where `run` was started), with:

- the task's prompt on stdin, and the episode's system text in `BENCHMARK_SYSTEM`;
- `BENCHMARK_MCP_CONFIG`: the path of an MCP configuration file in the `mcpServers` format that
  Claude Desktop, Claude Code and Cursor read, naming one stdio server (`python -m
  benchmark_core.servers._mcp_bridge`, which relays the session's tools from its streamable HTTP endpoint);
- `BENCHMARK_MCP_URL` and `BENCHMARK_MCP_TOKEN`: the session's streamable HTTP endpoint and the
  bearer token that reaches it (and nothing else);
- `BENCHMARK_USAGE_FILE`: where the agent may write a small JSON object with what it spent,
  `{"promptTokens": int, "completionTokens": int, "costUsd": float}` (any of them), which the row
  records as its usage;
- `BENCHMARK_TASK_ID`, and of the runner's own environment only `PATH`, `HOME`, the locale and
  temporary-folder variables and the variables `env` names (an API key the agent needs, say).

The agent's final answer is its stdout (surrounding whitespace removed). A wall-clock `timeout`
kills the whole process group; an agent that crashes, times out or exits non-zero is an
`AgentFailedError` carrying its exit status and the tail of its stderr, which the runner records as
an errored row (with the calls it made): never a crashed run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from attrs import frozen

from .._model import JsonObject, Usage
from ..errors._base import UsageError
from ..errors._failures import AgentFailedError
from ..errors._usage import ConfigurationError
from ..wire._converter import from_wire
from ._defaults import DEFAULT_MEMORY, DEFAULT_PROCESSES, DEFAULT_TIMEOUT, SANDBOXES
from ._sandbox import ProcessWatch, limits, sealed_argv

#: Variables of the runner's environment every agent gets (besides those it names).
BASE_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "TERM")
#: How much of an agent's stderr an errored row keeps (its end, where the error usually is).
STDERR_TAIL = 2000
#: Seconds to read what a killed agent's pipes still hold.
_AFTER_KILL = 5.0


@frozen
class AgentCommand:
    """An agent command: what to run (a shell-like string, split with `shlex`, never run by a
    shell), the label reports name it by, the variables of the runner's environment it may see,
    and its wall-clock timeout in seconds."""

    command: str
    label: str = ""
    env: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    #: "bwrap" (sealed: see `_sandbox`) or "none" (the runner's filesystem and processes in view).
    sandbox: str = "bwrap"
    #: Sealed only: each agent process's data-memory limit (bytes), and the processes alive at once.
    memory: int = DEFAULT_MEMORY
    processes: int = DEFAULT_PROCESSES

    def __attrs_post_init__(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise ConfigurationError(f"agent command {self.command!r} cannot be split: {exc}") from None
        if not argv:
            raise ConfigurationError("the agent command is empty")
        if not self.timeout > 0:
            raise ConfigurationError(f"the agent timeout must be positive, not {self.timeout!r}")
        if self.sandbox not in SANDBOXES:
            raise ConfigurationError(f"the agent sandbox is one of {', '.join(SANDBOXES)}, not {self.sandbox!r}")
        if self.memory <= 0 or self.processes <= 0:
            raise ConfigurationError("the agent's memory and process limits must be positive")

    @property
    def name(self) -> str:
        """The label, or one made from the command: its program's file name and arguments."""
        if self.label:
            return self.label
        argv = shlex.split(self.command)
        return " ".join([Path(argv[0]).name, *argv[1:]])[:80]


@frozen
class AgentProcessResult:
    """What one agent process left: its answer (stdout), exit status, wall time, stderr's tail and
    the usage it reported."""

    answer: str
    exit_status: Optional[int]
    wall_ms: int
    stderr_tail: str
    usage: Usage


def mcp_config(benchmark_id: str, url: str, token: str) -> JsonObject:
    """The `mcpServers` file: one stdio server relaying the session's tools (stdio is what every
    client of that format starts)."""
    return {
        "mcpServers": {
            benchmark_id: {
                "command": sys.executable,
                "args": ["-m", "benchmark_core.servers._mcp_bridge"],
                "env": {"BENCHMARK_MCP_URL": url, "BENCHMARK_MCP_TOKEN": token},
            }
        }
    }


async def run_agent_command(
    agent: AgentCommand,
    *,
    benchmark_id: str,
    task_id: str,
    prompt: str,
    system: str,
    url: str,
    token: str,
    hidden: Sequence[Path] = (),
) -> AgentProcessResult:
    """Run `agent` once against the session at `url` (see the module docstring); sealed, `hidden`
    names the run's own files, which the seal masks."""
    with tempfile.TemporaryDirectory(prefix="benchmark-agent-") as folder:
        work = Path(folder)
        config, usage_file = work / "mcp.json", work / "usage.json"
        config.write_text(json.dumps(mcp_config(benchmark_id, url, token), indent=2), encoding="utf-8")
        env = {name: os.environ[name] for name in (*BASE_ENV, *agent.env) if name in os.environ}
        env.update(
            BENCHMARK_SYSTEM=system,
            BENCHMARK_MCP_CONFIG=str(config),
            BENCHMARK_MCP_URL=url,
            BENCHMARK_MCP_TOKEN=token,
            BENCHMARK_USAGE_FILE=str(usage_file),
            BENCHMARK_TASK_ID=task_id,
        )
        argv, watch = shlex.split(agent.command), None
        if agent.sandbox == "bwrap":
            argv, watch = sealed_argv(argv, env, work=work, hidden=hidden), ProcessWatch(agent.processes)
        started = time.perf_counter()
        stdout, stderr, status = await _communicate(argv, env, prompt, agent.timeout, watch, agent.memory)
        wall_ms = round((time.perf_counter() - started) * 1000)
        tail = stderr.decode("utf-8", "replace")[-STDERR_TAIL:]
        if watch is not None and watch.exceeded:
            raise AgentFailedError(f"agent ran over {agent.processes} processes and was killed", status, tail, wall_ms)
        if status is None:
            raise AgentFailedError(f"agent timed out after {agent.timeout:g} s and was killed", None, tail, wall_ms)
        if status != 0:
            raise AgentFailedError(f"agent exited with status {status}", status, tail, wall_ms)
        return AgentProcessResult(
            answer=stdout.decode("utf-8", "replace").strip(),
            exit_status=status,
            wall_ms=wall_ms,
            stderr_tail=tail,
            usage=_reported_usage(usage_file),
        )


async def _communicate(
    argv: Sequence[str],
    env: dict[str, str],
    prompt: str,
    timeout: float,
    watch: Optional[ProcessWatch] = None,
    memory: Optional[int] = None,
) -> tuple[bytes, bytes, Optional[int]]:
    """stdout, stderr and exit status (None: killed at the timeout). The process group is killed
    whenever this ends early (the timeout, or the run being cancelled). A sealed agent gets its
    memory limit and its process `watch`."""
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,
            preexec_fn=limits(memory) if watch is not None and memory is not None else None,
        )
    except OSError as exc:
        raise AgentFailedError(f"agent command cannot start: {exc.strerror or exc}", None, "", 0) from None
    if watch is not None:
        watch.start(process.pid)
    # Read into buffers that outlive a timeout: `communicate` cancelled at the deadline drops what
    # it had read, and the tail of a killed agent's stderr is what says why it hung.
    stdout, stderr = bytearray(), bytearray()
    try:
        await asyncio.wait_for(_exchange(process, prompt.encode(), stdout, stderr), timeout)
        return bytes(stdout), bytes(stderr), process.returncode
    except asyncio.TimeoutError:
        _kill_group(process.pid)
        with contextlib.suppress(asyncio.TimeoutError):  # a pipe held open past the group's kill
            await asyncio.wait_for(_exchange(process, None, stdout, stderr), _AFTER_KILL)
        return bytes(stdout), bytes(stderr), None
    finally:
        if watch is not None:
            watch.stop()
        if process.returncode is None:
            _kill_group(process.pid)
            with contextlib.suppress(Exception):
                await asyncio.shield(process.wait())
        else:
            _kill_group(process.pid)  # what the agent left running in its group goes too


async def _exchange(
    process: asyncio.subprocess.Process, prompt: Optional[bytes], stdout: bytearray, stderr: bytearray
) -> None:
    """Feed the prompt (unless None), read both pipes to their end into the buffers, then wait for
    the exit; cancelled, the buffers keep every byte read so far."""
    assert process.stdout is not None and process.stderr is not None
    await asyncio.gather(_feed(process, prompt), _drain(process.stdout, stdout), _drain(process.stderr, stderr))
    await process.wait()


async def _feed(process: asyncio.subprocess.Process, prompt: Optional[bytes]) -> None:
    if prompt is None or process.stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # an agent that reads no stdin
        process.stdin.write(prompt)
        await process.stdin.drain()
    process.stdin.close()


async def _drain(stream: asyncio.StreamReader, into: bytearray) -> None:
    while chunk := await stream.read(1 << 16):
        into += chunk


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _reported_usage(path: Path) -> Usage:
    """The usage the agent wrote, or none; a file that is not a usage object counts as none."""
    if not path.is_file():
        return Usage()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return from_wire(data, Usage, what="agent usage file")
    except (ValueError, UsageError):
        return Usage()
