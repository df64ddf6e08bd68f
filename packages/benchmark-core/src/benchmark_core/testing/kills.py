"""Kill a run with SIGKILL in the middle, resume it, and count what the fake server was sent: the
check that a resumed run pays again for at most the requests that were in flight at the kill, and
writes the report an uninterrupted run writes.

    with FakeOpenAI(handler=mock_handler(benchmark, stretch=4, delay=0.02)).in_thread() as server:
        outcome = sigkill_and_resume(command, env, server, tmp_path, kill_at=0.5)
    assert outcome.resent <= concurrency
    assert stable_report(outcome.resumed) == stable_report(outcome.uninterrupted)

`command` is a `run` (or `sweep`) command line without its output flag; `output_flag` is the flag
naming where it writes (`--output` for `run`), passed the file or folder under `tmp`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

from attrs import frozen

from .._util.json_values import loads
from ._loopback import LoopbackServer


@frozen
class KillAndResume:
    """What the three runs sent (`uninterrupted`, `before_kill`, `after_resume` requests), their
    reports, and the resumed run's stderr (where it says what it resumed)."""

    uninterrupted_requests: int
    before_kill: int
    after_resume: int
    uninterrupted: Any
    resumed: Any
    resume_stderr: str

    @property
    def resent(self) -> int:
        """The requests the killed-and-resumed run sent beyond the uninterrupted run's."""
        return self.before_kill + self.after_resume - self.uninterrupted_requests


def sigkill_and_resume(
    command: list[str],
    env: dict[str, str],
    server: LoopbackServer,
    tmp: Path,
    *,
    kill_at: float,
    output_flag: str = "--output",
    report: Callable[[Path], Any] = lambda path: loads(path.read_text(encoding="utf-8")),
    name: str = "report.json",
    timeout: float = 600,
) -> KillAndResume:
    """Run `command` once to its end; then again, killed by SIGKILL once the server received the
    fraction `kill_at` of the requests the uninterrupted run sent; then resumed (`--resume`) to its
    end. `report` reads what a run wrote at its output."""
    whole, killed = tmp / "uninterrupted" / name, tmp / "killed" / name
    whole.parent.mkdir(parents=True, exist_ok=True)
    killed.parent.mkdir(parents=True, exist_ok=True)
    start = server.received
    _finish(_start([*command, output_flag, str(whole)], env), timeout)
    uninterrupted = server.received - start
    kill_after = max(1, round(uninterrupted * kill_at))
    start = server.received
    child = _start([*command, output_flag, str(killed)], env)
    deadline = time.monotonic() + timeout
    while server.received < start + kill_after and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    if child.poll() is not None:
        raise AssertionError(f"the run ended before request {kill_after}: {child.communicate()}")
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=60)
    before = server.received - start
    start = server.received
    stderr = _finish(_start([*command, output_flag, str(killed), "--resume"], env), timeout)
    return KillAndResume(
        uninterrupted_requests=uninterrupted,
        before_kill=before,
        after_resume=server.received - start,
        uninterrupted=report(whole),
        resumed=report(killed),
        resume_stderr=stderr,
    )


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _finish(child: subprocess.Popen[str], timeout: Optional[float]) -> str:
    _, stderr = child.communicate(timeout=timeout)
    if child.returncode != 0:
        raise AssertionError(f"exit {child.returncode}: {stderr}")
    return stderr
