"""Fixtures of the authoring tests: installing a freshly written benchmark package offline, into a
folder of its own, on top of the benchmark-core installed here (in nox: the wheel from dist/)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

#: Installs the package folder into its own target folder; returns the environment to run it with.
Install = Callable[[Path, Path], dict[str, str]]


def _install(package: Path, target: Path) -> dict[str, str]:
    # --no-deps: benchmark-core and the test dependencies are already installed here (in nox, from
    # dist/); --no-build-isolation: hatchling comes from this environment, not from an index.
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--no-build-isolation"]
    done = subprocess.run(
        [*command, "--target", str(target), str(package)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(target), os.environ.get("PYTHONPATH")]))}
    env["PATH"] = os.pathsep.join([str(target / "bin"), str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


@pytest.fixture
def install() -> Install:
    return _install
