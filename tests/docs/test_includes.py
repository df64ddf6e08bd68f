"""Snippet includes (pymdownx.snippets) expand: in the source every include is spelled as a line
`--8<-- "path"` or as a block (a `--8<--` line, one path a line, a `--8<--` line) and names a file
that exists, and the built site shows no include marker as text. `ruff format` formats the python
fences of markdown and once rewrote two one-line includes as `--8 < --"..."` (valid Python), which
the site then printed literally instead of the example agents; inside a python fence the block
form is used, which is no Python and so left alone."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("BENCHMARK_CORE_SITE", ROOT / "artifacts" / "site"))
#: Anything that looks like an include marker, however mangled (spaces, a lost dash).
MARKER = re.compile(r"-{1,2}\s*8\s*<\s*-{1,2}")
INCLUDE = re.compile(r'^--8<-- "([^"]+)"$')
BLOCK = "--8<--"


def _pages() -> list[Path]:
    return sorted((ROOT / "docs").rglob("*.md"))


def _expands(target: str) -> bool:
    """Whether `path` or `path:section` names a file (and a section it marks with `[start:section]`)."""
    if (ROOT / target).is_file():
        return True
    path, _, section = target.rpartition(":")
    file = ROOT / path
    return bool(path) and file.is_file() and f"--8<-- [start:{section}]" in file.read_text(encoding="utf-8")


def test_every_include_in_the_docs_is_well_formed_and_names_a_file() -> None:
    bad = []
    for page in _pages():
        in_block = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            text = line.strip()
            if text == BLOCK:
                in_block = not in_block
                continue
            if in_block:
                ok = _expands(text)
            elif MARKER.search(line):
                match = INCLUDE.match(text)
                ok = match is not None and _expands(match.group(1))
            else:
                continue
            if not ok:
                bad.append(f"{page.relative_to(ROOT)}:{number}: {text}")
        if in_block:
            bad.append(f"{page.relative_to(ROOT)}: an include block is never closed")
    assert not bad, "includes that would not expand:\n" + "\n".join(bad)


def test_the_built_site_shows_no_include_marker() -> None:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no site in {SITE}: build it first (`nox -s docs` does, or `mkdocs build --strict`)")
    shown = [
        str(page.relative_to(SITE))
        for page in sorted(SITE.rglob("*.html"))
        if MARKER.search(html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))))
    ]
    assert not shown, f"pages showing an include marker as text: {shown}"
