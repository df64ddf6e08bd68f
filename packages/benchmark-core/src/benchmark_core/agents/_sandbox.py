"""The seal an agent command runs in (`run --agent-sandbox bwrap`, the default): bubblewrap's
namespaces around the agent, so that it reaches its session's tools and nothing that grades it.

Inside the seal (see docs/sealed-runs.md for the threat model and the tests that try each point):

- new mount, PID, IPC and UTS namespaces (not the network: the agent needs its model's API); the
  runner's processes are not in the agent's `/proc`;
- the system read-only; a private, empty `/tmp`, HOME and working folder (the working folder keeps
  the path of `run`'s, so relative paths in the command resolve, but holds only the files the
  command names, read-only);
- the interpreters (the runner's, for the stdio bridge, and the one the command starts) and the
  runner's import path visible, but every installed benchmark's package folder masked, found
  through the `benchmark_core.benchmarks` entry points (core's bundled `example` too), on every
  folder of the import path; and the run's own files masked: its task file, output folder, journal,
  response cache and sweep file;
- limits: data memory per process (`RLIMIT_DATA`, inherited through bubblewrap) and a process count,
  which the runner enforces by watching the agent's PID namespace (`RLIMIT_NPROC` does not bind a
  process of root's, and counts all of a user's processes otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Optional

from ..errors._usage import ConfigurationError

_NAMESPACES = ("--unshare-pid", "--unshare-ipc", "--unshare-uts")
_INSTALL_HINT = (
    "install it (`apt-get install bubblewrap`) or run the agent unsealed with `--agent-sandbox none` "
    "(its reports then say so)"
)


def bwrap_program() -> str:
    """bubblewrap's path, checked once per process: it exists and can create the seal's namespaces
    here (with a user namespace where the caller may not create the others itself)."""
    return _probe()[0]


@functools.lru_cache(maxsize=1)
def _probe() -> tuple[str, tuple[str, ...]]:
    program = shutil.which("bwrap")
    if program is None:
        raise ConfigurationError(f"agents run sealed by bubblewrap (bwrap), which is not installed: {_INSTALL_HINT}")
    failures = []
    for extra in ((), ("--unshare-user",)):
        argv = [program, "--ro-bind", "/", "/", *extra, *_NAMESPACES, "--proc", "/proc", "--dev", "/dev", "true"]
        probe = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
        if probe.returncode == 0:
            return program, extra
        failures.append(probe.stderr.strip().splitlines()[-1:] or [f"exit status {probe.returncode}"])
    raise ConfigurationError(
        f"bubblewrap ({program}) cannot create namespaces here ({failures[-1][0]}); allow unprivileged user "
        "namespaces, or run the agent in a container (docs/sealed-runs.md) with `--agent-sandbox none`"
    )


def benchmark_package_folders(search: Sequence[str]) -> list[Path]:
    """Every installed benchmark's package folder, on every folder of the import path `search`."""
    return list(_package_folders(tuple(search)))


@functools.lru_cache(maxsize=8)
def _package_folders(search: tuple[str, ...]) -> tuple[Path, ...]:
    # Once per import path and process: reading every distribution's entry points costs more than
    # the rest of an episode's seal (tools/bench_seal.py), and what is installed does not change
    # during a run.
    from importlib.metadata import entry_points

    from .._benchmark.plugins import ENTRY_POINT_GROUP

    packages = sorted({ep.module for ep in entry_points(group=ENTRY_POINT_GROUP)})
    found = []
    for entry in search:
        for module in packages:
            folder = Path(entry or ".").absolute().joinpath(*module.split("."))
            if folder.is_dir() or folder.with_suffix(".py").is_file():
                found.append(folder if folder.is_dir() else folder.with_suffix(".py"))
    return tuple(found)


def sealed_argv(argv: Sequence[str], env: dict[str, str], *, work: Path, hidden: Iterable[Path]) -> list[str]:
    """`argv` wrapped in bubblewrap (see the module docstring); `work` is the agent's own folder
    (its MCP configuration and usage file), writable; `hidden` the run's files. Sets `env`'s HOME
    and TMPDIR to the private ones."""
    home = Path(env.get("HOME") or "/nonexistent-home")
    out = list(_fixed_mounts(tuple(argv), env.get("PATH"), home, Path.cwd(), tuple(sys.path)))
    # The run's files are looked at each time: its journal and output folder appear as it goes. One
    # inside a masked package folder (a split the benchmark ships) is hidden already, and a mount on
    # it would make its folders appear in the empty one.
    masked = _package_folders(tuple(sys.path))
    named = _named_files(argv, Path.cwd())
    shown: list[Path] = []
    for path in (p.absolute() for p in hidden):
        if not any(path.is_relative_to(folder) for folder in masked):
            out += _mask(path)
            shown += [file for file in named if file != path and file.is_relative_to(path)]
    # The files the command names stay readable inside a masked run folder (an agent script beside
    # `--output`): the user named them, the agent did not.
    for file in dict.fromkeys(shown):
        out += ["--ro-bind", str(file), str(file)]
    out += ["--bind", str(work), str(work), "--chdir", str(Path.cwd()), "--", *argv]
    env.update(HOME=str(home), TMPDIR="/tmp")
    return out


@functools.lru_cache(maxsize=32)
def _fixed_mounts(
    argv: tuple[str, ...], path: Optional[str], home: Path, cwd: Path, search: tuple[str, ...]
) -> tuple[str, ...]:
    """The part of the seal that is the same for every episode of a run: computed once."""
    program, extra = _probe()
    private = [Path("/tmp"), home, cwd]
    keep = [*_interpreter_folders(argv, {"PATH": path} if path is not None else {}, search), *_named_files(argv, cwd)]
    out = [program, "--ro-bind", "/", "/", *extra, *_NAMESPACES, "--cap-drop", "ALL", "--die-with-parent"]
    out += ["--new-session", "--proc", "/proc", "--dev", "/dev"]
    # Mounted from the shallowest path down, so that a deeper mount wins: a venv inside the working
    # folder stays visible below its empty tmpfs, and a working folder inside a kept prefix (pytest's
    # tmp folder inside a nox venv) is still hidden.
    mounts = [(folder, "--tmpfs") for folder in private]
    mounts += [(kept, "--ro-bind") for kept in _rebound(keep, private)]
    for mounted, kind in sorted(mounts, key=lambda mount: len(mount[0].parts)):
        out += [kind, str(mounted)] if kind == "--tmpfs" else [kind, str(mounted), str(mounted)]
    for secret in _package_folders(search):
        out += _mask(secret)
    return tuple(out)


def _rebound(keep: Iterable[Path], private: Sequence[Path]) -> list[Path]:
    """The kept paths that need a mount of their own: those a private folder would hide, and of
    those not one already inside another such mount (with no private folder between). The rest are
    visible through the read-only view of `/`; fewer mounts, a faster start."""

    def hider(path: Path) -> Optional[Path]:
        covering = [folder for folder in private if path != folder and path.is_relative_to(folder)]
        return max(covering, key=lambda folder: len(folder.parts)) if covering else None

    needed = sorted(
        {path for path in keep if path not in private and hider(path) is not None}, key=lambda p: len(p.parts)
    )
    chosen: list[Path] = []
    for path in needed:
        inner = hider(path)
        if not any(
            path.is_relative_to(outer) and inner is not None and outer.is_relative_to(inner) for outer in chosen
        ):
            chosen.append(path)
    return chosen


def _mask(path: Path) -> list[str]:
    if path.is_dir():
        return ["--tmpfs", str(path)]
    if path.exists():
        return ["--ro-bind", "/dev/null", str(path)]
    return []


def limits(memory: int) -> Callable[[], None]:
    """What the agent's process sets before it starts (inherited by everything in its seal)."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))

    return apply


def namespace_size(pid: int) -> Optional[int]:
    """How many processes the seal started by `pid` (bubblewrap) holds, or None before its first
    process exists. Every process of the seal's PID namespace descends from that first one (an
    orphan is adopted by the namespace's init), so walking the descendants from the runner's
    `/proc` counts them all, at a cost in the seal's size rather than the machine's."""
    first = _children(pid)
    if not first:
        return None
    count, pending = 0, first
    while pending:
        count += len(pending)
        pending = [child for parent in pending for child in _children(parent)]
    return count


def _children(pid: int) -> list[int]:
    """`pid`'s children, of every one of its threads (a thread's children are listed under it)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.scandir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                found += map(int, Path(f"/proc/{pid}/task/{task.name}/children").read_text().split())
    return found


def _interpreter_folders(argv: Sequence[str], env: dict[str, str], search: Sequence[str]) -> list[Path]:
    """The runner's interpreter and import path `search` (the stdio bridge runs on them) and the
    prefix of the program the command starts (its own venv, say), through symlinks too."""
    folders = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    folders.update(Path(p).absolute() for p in search if p and Path(p).is_dir())
    program = shutil.which(argv[0], path=env.get("PATH"))
    if program is not None:
        for path in (Path(program).absolute(), Path(program).resolve()):
            folders.add(path.parent.parent if path.parent.name == "bin" else path.parent)
    return sorted(f for f in folders if f != Path("/") and f != Path.cwd())


def _named_files(argv: Sequence[str], cwd: Path) -> list[Path]:
    """The files the command names (its script), by the path it names them with."""
    named = []
    for word in argv[1:]:
        path = cwd / word
        if path.is_file():
            named.append(path)
    return named


class ProcessWatch:
    """Kills a seal whose PID namespace holds more than `limit` processes (a fork bomb), polling
    every 50 ms; `exceeded` says whether it did."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.exceeded = False
        self._task: Optional[asyncio.Future[None]] = None

    def start(self, pid: int) -> None:
        self._task = asyncio.ensure_future(self._watch(pid))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _watch(self, pid: int) -> None:
        while True:
            size = namespace_size(pid)
            if size is not None and size > self.limit:
                self.exceeded = True
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)  # bubblewrap; --die-with-parent takes the namespace
                return
            await asyncio.sleep(0.05)


def run_files(benchmark: Any, options: Any, tasks: object, journal: object) -> list[Path]:
    """The files of a run an agent must not read: its task file (the one `tasks` names, or the
    benchmark's own), journal and output folder, and the response caches (the user's, and the one
    the options name)."""
    from ..cache._cache import default_cache_dir

    files = [default_cache_dir(), *([benchmark._tasks_file] if benchmark._tasks_file is not None else [])]
    if isinstance(options.cache, str):
        files.append(Path(options.cache))
    if isinstance(tasks, (str, Path)):
        with contextlib.suppress(Exception):  # a source that does not resolve is refused later, by the run
            files.append(benchmark.task_file(tasks))
    if isinstance(journal, (str, Path)):
        files += [Path(journal), Path(journal).parent]
    return files
