"""The README's test command is the one set-up: `.ci/run` and the CI workflow run exactly it; the
script installs what is missing through apt-get (a stand-in `apt-get` on a PATH without Chromium or
Node.js records what it was asked for), refuses a Node.js older than 20, and ends by running nox
with the command's arguments."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "bash tools/gate.sh"


def test_the_readme_gives_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```bash\n{COMMAND}\n```" in readme
    install = (
        "python3 -m venv .venv && . .venv/bin/activate && pip install ./packages/benchmark-core "
        "./packages/benchmark-schema-mutation && benchmark-schema-mutation run --model offline --provider mock"
    )
    assert f"```bash\n{install}\n```" in readme


def test_ci_runs_the_readme_command() -> None:
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci_run[-1] == f"exec {COMMAND}"
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert f"- run: {COMMAND}\n" in workflow


def test_the_script_is_valid_bash_and_ends_in_nox() -> None:
    script = ROOT / "tools" / "gate.sh"
    checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert script.read_text(encoding="utf-8").rstrip().splitlines()[-1] == 'exec .venv/bin/nox "$@"'


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)


def _sandbox(tmp_path: Path) -> Path:
    """A PATH holding Python and the few commands the script calls, and nothing else."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # A real Python, whose `-m venv` (the script's probe for python3-venv) answers $VENV_RC at once.
    _fake(bin_dir, "python3", f'[ "$1 $2" = "-m venv" ] && exit "${{VENV_RC:-0}}"; exec {sys.executable} "$@"')
    for name in ("env", "id", "dirname", "cat", "mktemp", "rm"):
        found = shutil.which(name)
        assert found is not None, name
        (bin_dir / name).symlink_to(found)
    _fake(bin_dir, "sudo", 'exec "$@"')
    return bin_dir


def _gate(bin_dir: Path, tmp_path: Path, venv_rc: int = 0) -> subprocess.CompletedProcess[str]:
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "LOG": str(tmp_path / "apt.log"), "VENV_RC": str(venv_rc)}
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run([bash, str(ROOT / "tools" / "gate.sh")], capture_output=True, text=True, env=env)


def test_what_is_missing_is_installed_with_apt_get(tmp_path: Path) -> None:
    bin_dir = _sandbox(tmp_path)
    # The stand-in answers `update` and fails `install`, so the script stops right after asking.
    _fake(bin_dir, "apt-get", 'echo "$@" >> "$LOG"; [ "$1" = update ] || exit 3')
    done = _gate(bin_dir, tmp_path)
    assert done.returncode == 3, done.stderr
    assert (tmp_path / "apt.log").read_text(encoding="utf-8").splitlines() == [
        "update -qq",
        "install -y -qq --no-install-recommends chromium bubblewrap nodejs npm",
    ]
    assert "installing with apt-get: chromium bubblewrap nodejs npm" in done.stderr


def test_python3_venv_is_installed_when_venv_cannot_work(tmp_path: Path) -> None:
    bin_dir = _sandbox(tmp_path)
    for name in ("chromium", "bwrap", "node", "npm"):
        _fake(bin_dir, name, "echo 20")
    _fake(bin_dir, "apt-get", 'echo "$@" >> "$LOG"; [ "$1" = update ] || exit 3')
    done = _gate(bin_dir, tmp_path, venv_rc=1)
    assert done.returncode == 3, done.stderr
    assert (
        (tmp_path / "apt.log")
        .read_text(encoding="utf-8")
        .splitlines()[-1]
        .endswith("--no-install-recommends python3-venv")
    )


def test_without_apt_get_the_script_names_what_to_install(tmp_path: Path) -> None:
    done = _gate(_sandbox(tmp_path), tmp_path)
    assert done.returncode == 1
    assert "missing: chromium bubblewrap nodejs npm, and there is no apt-get to install them" in done.stderr


def test_a_node_older_than_20_is_refused(tmp_path: Path) -> None:
    bin_dir = _sandbox(tmp_path)
    _fake(bin_dir, "chromium", "exit 0")
    _fake(bin_dir, "bwrap", "exit 0")
    _fake(bin_dir, "npm", "exit 0")
    _fake(bin_dir, "node", '[ "$1" = -p ] && echo 18 || echo v18.19.0')
    done = _gate(bin_dir, tmp_path)
    assert done.returncode == 1
    assert "Node.js v18.19.0 is too old" in done.stderr
    assert not (tmp_path / "apt.log").exists()


def test_the_gate_tests_the_oldest_and_the_newest_supported_python() -> None:
    pyproject = (ROOT / "packages" / "benchmark-core" / "pyproject.toml").read_text(encoding="utf-8")
    versions = sorted(
        (tuple(int(part) for part in v.split(".")) for v in re.findall(r"Python :: (3\.\d+)\"", pyproject)),
    )
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    for version in (versions[0], versions[-1]):
        name = ".".join(map(str, version))
        # The same tests as the `tests` session, on that interpreter, and in the default gate.
        assert f'@nox.session(name="tests-{name}", python="{name}")\ndef tests_{name.replace(".", "")}(' in noxfile
        assert f'    "tests-{name}",\n' in noxfile
        assert f"\n            {name}\n" in workflow
    assert noxfile.count("    _run_tests(session)\n") == 3
