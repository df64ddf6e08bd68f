"""Every Python snippet in docs/ runs, and every sweep file shown there is read by the sweep loader,
so a page cannot drift from the code.

- A fenced ```python block runs as its own script in a scratch folder (the installed packages'
  console scripts on PATH), and must exit 0.
- A fenced ```toml block is a sweep file unless its title names another file (`pyproject.toml`):
  `plan_sweep` must accept it, with the providers' key variables set to a dummy (only whether a key
  is set is checked; nothing is sent).
- Blocks titled with a path inside a package (`title="letter-bench/..."`) are the files
  `benchmark-core new` writes: tests/authoring/test_guide.py checks each against what `new` writes.
- A block that cannot run offline (a cluster, a paid key) carries the marker
  `<!-- docs-test: skip: WHY -->` on the line before its fence. Those few are listed in SKIPPED, so
  a new skip is a visible change to this file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core.sweep import plan_sweep

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(python|toml)([^\n]*)\n(.*?)^```", re.S | re.M)
SKIP_MARKER = re.compile(r"<!-- docs-test: skip: ([^>]+?) -->\s*$")
#: The blocks marked to skip, as PAGE:LINE of their fence.
SKIPPED = {"distributed.md:168"}  # run_on_ray: a Ray cluster and an OpenAI key
#: Key variables the sweep files shown name (set to a dummy: plan_sweep checks only that they are set).
KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "LOCAL_API_KEY")


def _blocks(language: str) -> list[tuple[str, str, str]]:
    """(PAGE:LINE, title, body) of every fenced block in `language` outside a package's files."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            kind, info, body = match.groups()
            title = re.search(r'title="([^"]*)"', info)
            name = title.group(1) if title else ""
            # A block that includes a repository file (`--8<--`) shows code the gate runs where its
            # dependencies are installed (the example agents: the nox `agents` session).
            if kind != language or "/" in name or body.startswith("--8<--"):
                continue
            line = text.count("\n", 0, match.start()) + 1
            where = f"{page.relative_to(DOCS).as_posix()}:{line}"
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            if SKIP_MARKER.search(before):
                assert where in SKIPPED, f"{where} is marked to skip; list it in SKIPPED"
                continue
            found.append((where, name, body))
    return found


PYTHON = [pytest.param(body, id=where) for where, _, body in _blocks("python")]
SWEEPS = [pytest.param(body, id=where) for where, name, body in _blocks("toml") if not name.endswith("pyproject.toml")]


def test_the_pages_have_snippets_and_every_skip_is_marked() -> None:
    assert len(PYTHON) >= 5 and len(SWEEPS) >= 3
    marked = {
        f"{page.relative_to(DOCS).as_posix()}:{number + 2}"
        for page in DOCS.rglob("*.md")
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines())
        if SKIP_MARKER.search(line)
    }
    assert marked == SKIPPED


@pytest.mark.parametrize("body", PYTHON)
def test_python_snippet_runs(body: str, tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(body, encoding="utf-8")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("body", SWEEPS)
def test_sweep_file_is_read_by_the_loader(body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in KEY_VARIABLES:
        monkeypatch.setenv(name, "not-a-key")
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(body, encoding="utf-8")
    plan = plan_sweep(sweep)
    assert plan.cells, "a sweep file shown in the docs plans at least one cell"
