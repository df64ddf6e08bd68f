"""Rewrite docs/writing-a-benchmark.md's blocks from what `benchmark-core new` writes, so a template
change is one command:

    python tools/sync_guide.py            # rewrite the guide's file blocks and command outputs
    python tools/sync_guide.py --check    # exit 1, naming each stale block, when the guide has drifted

The guide's own `benchmark-core new ...` command (its first console block) is run in a scratch
folder; every block titled `NAME/...` becomes the file `new` wrote there, and the output shown after
each `$ benchmark-core ...` or `$ NAME ...` command becomes that command's real output (the package's
command run from its sources, a one-file benchmark such as `idea.py` from its own block). Prose is
never touched: a file `new` writes that the guide has no block for (or a block for a file it does not
write) is an error to fix by hand, where the file belongs in the walk-through. Other commands (`pip`,
`pytest`, `python -m NAME.generator`) are left as written. tests/authoring/test_guide.py checks the
same agreement in the gate, independently of this tool.

Exit codes: 0 in sync (or rewritten), 1 drift found with --check, 2 the guide's commands failed.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "writing-a-benchmark.md"
#: A fenced block: its fence, language, optional title and body (the body ends with a newline).
BLOCK = re.compile(r'^(`{3,})(\w+)(?: title="([^"]+)")?\n(.*?)^\1$', re.MULTILINE | re.DOTALL)
#: Files `new` writes that the guide does not show: generated data, an empty marker, an ignore list.
NOT_SHOWN = frozenset({".gitignore", "py.typed", "tasks.jsonl", "PROVENANCE.md"})
_PROMPT = re.compile(r"^\$ ", re.MULTILINE)
_STEP_TIMEOUT = 300.0


class SyncError(Exception):
    """The guide cannot be synced: a command failed, or blocks and files do not pair up."""


def sync(text: str) -> tuple[str, list[str]]:
    """The guide `text` with its blocks rewritten, and one line per block that changed."""
    blocks = list(BLOCK.finditer(text))
    with tempfile.TemporaryDirectory(prefix="sync-guide-") as scratch:
        work = Path(scratch)
        for match in blocks:
            title = match.group(3)
            if title and "/" not in title:  # a one-file benchmark, run from the scratch folder
                (work / title).write_text(match.group(4), encoding="utf-8")
        name, outputs = _run_commands(_commands(blocks), work)
        files = {
            path.relative_to(work).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted((work / name).rglob("*"))
            if path.is_file() and path.name not in NOT_SHOWN
        }
    shown = {m.group(3) for m in blocks if m.group(3) and m.group(3).startswith(f"{name}/")}
    if sorted(shown) != sorted(files):
        missing = ", ".join(sorted(set(files) - shown)) or "none"
        extra = ", ".join(sorted(shown - set(files))) or "none"
        raise SyncError(
            f"the guide's file blocks and what `new` writes differ: no block for {missing}; "
            f"blocks for files `new` does not write: {extra}"
        )
    pieces: list[str] = []
    changed: list[str] = []
    position = 0
    for match in blocks:
        pieces.append(text[position : match.start()])
        block, what = _rewrite(match, files, outputs)
        if block != match.group(0):
            changed.append(what)
        pieces.append(block)
        position = match.end()
    pieces.append(text[position:])
    return "".join(pieces), changed


def _commands(blocks: Sequence[re.Match[str]]) -> list[str]:
    return [command for match in blocks if match.group(2) == "console" for command, _ in _split(match.group(4))[1]]


def _split(body: str) -> tuple[str, list[tuple[str, str]]]:
    """A console block's text before its first prompt, and each `$ command` with its output."""
    head, *parts = _PROMPT.split(body)
    return head, [(part.partition("\n")[0], part.partition("\n")[2]) for part in parts]


def _run_commands(commands: Sequence[str], work: Path) -> tuple[str, dict[str, str]]:
    """Run the guide's `benchmark-core` and package commands, in order; the package name, and each
    command's output."""
    news = [command for command in commands if command.startswith("benchmark-core new ")]
    if len(news) != 1:
        raise SyncError(f"the guide should show `benchmark-core new NAME ...` once, not {len(news)} times")
    name = shlex.split(news[0])[2]
    module = name.replace("-", "_")
    env = {**os.environ, "BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    outputs: dict[str, str] = {}
    for command in commands:
        program, *arguments = shlex.split(command)
        if program == "benchmark-core":
            outputs[command] = _output([sys.executable, "-m", "benchmark_core", *arguments], work, env)
        elif program == name:  # the package's command, on the sources `new` just wrote
            package_env = {**env, "PYTHONPATH": str(work / name / "src")}
            outputs[command] = _output([sys.executable, "-m", module, *arguments], work, package_env)
    return name, outputs


def _output(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=_STEP_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise SyncError(f"{' '.join(argv[1:])} took over {_STEP_TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        raise SyncError(f"{' '.join(argv[1:])} failed with exit code {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def _rewrite(match: re.Match[str], files: dict[str, str], outputs: dict[str, str]) -> tuple[str, str]:
    """The block as it should read, and how to name it in a report."""
    fence, language, title, body = match.groups()
    if title in files:
        content = files[title]
        if not content.endswith("\n"):
            raise SyncError(f"{title} does not end with a newline; the block could not show it exactly")
        longest = max((len(run) for run in re.findall(r"^(`{3,})", content, re.MULTILINE)), default=2)
        fence = "`" * max(3, longest + 1)
        return f'{fence}{language} title="{title}"\n{content}{fence}', f"block {title}"
    if language != "console":
        return match.group(0), ""
    head, steps = _split(body)
    rewritten = "".join(f"$ {command}\n{outputs.get(command, output)}" for command, output in steps)
    what = "output of " + ", ".join(f"`{c}`" for c, o in steps if outputs.get(c, o) != o)
    return f"{fence}{language}\n{head}{rewritten}{fence}", what


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/sync_guide.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if the guide has drifted")
    parser.add_argument("--guide", type=Path, default=GUIDE, help=f"default: {GUIDE}")
    args = parser.parse_args(argv)
    text = args.guide.read_text(encoding="utf-8")
    try:
        synced, changed = sync(text)
    except SyncError as error:
        print(f"error: {args.guide}: {error}", file=sys.stderr)
        return 2
    if not changed:
        print(f"{args.guide}: in sync")
        return 0
    if args.check:
        for what in changed:
            print(f"{args.guide}: {what} is stale", file=sys.stderr)
        diff = difflib.unified_diff(text.splitlines(True), synced.splitlines(True), "guide", "synced", n=1)
        sys.stderr.writelines(list(diff)[:200])
        print(f"{args.guide}: {len(changed)} block(s) stale; run python tools/sync_guide.py", file=sys.stderr)
        return 1
    args.guide.write_text(synced, encoding="utf-8")
    print(f"{args.guide}: rewrote {len(changed)} block(s): " + "; ".join(changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
