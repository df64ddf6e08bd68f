"""Write each lazy package's static view of its public names from its one table, `_EXPORTS`:

    python tools/sync_exports.py            # rewrite the generated block of every such `__init__.py`
    python tools/sync_exports.py --check    # exit 1, naming each stale file, when a block has drifted

A package that loads its names on first use (`lazy_attributes`) lists them once, in `_EXPORTS`
(source module -> names). Type checkers, IDEs and the API docs cannot run that table, so the
`__init__.py` ends with a block generated from it, between the two marker lines: the same names
imported under `if TYPE_CHECKING:`, and `__all__`. The written files are then passed through
`ruff check --select I --fix` and `ruff format`, so the block is what the linters accept.
packages/benchmark-core/tests/test_exported_members.py checks the same agreement without ruff.

Exit codes: 0 in sync (or rewritten), 1 drift found with --check.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read."
END = "# End of the generated block."


def generated_packages() -> list[tuple[str, Path]]:
    """Every package of the repository whose `__init__.py` holds the generated block."""
    found = []
    for init in sorted(ROOT.glob("packages/*/src/**/__init__.py")):
        if BEGIN in init.read_text(encoding="utf-8"):
            src = next(parent for parent in init.parents if parent.name == "src")
            found.append((".".join(init.parent.relative_to(src).parts), init))
    return found


def _import_lines(module: str, names: Iterable[str]) -> list[str]:
    return [f"    from {module} import {', '.join(names)}"]


def block(package: str, exports: Mapping[str, Iterable[str]]) -> str:
    """The generated block for `package`: its exports imported for type checkers, and `__all__`."""
    lines = [BEGIN, "if TYPE_CHECKING:"]
    for source, names in exports.items():
        lines += _import_lines(source, names)
    names = sorted({name for group in exports.values() for name in group} | _own(package))
    lines.append("__all__ = [")
    lines += [f'    "{name}",' for name in names]
    lines += ["]", END]
    return "\n".join(lines) + "\n"


def _own(package: str) -> set[str]:
    """Names a package defines eagerly and exports besides its table (only `__version__` so far)."""
    module = importlib.import_module(package)
    return {"__version__"} if hasattr(module, "__version__") else set()


def render(package: str, text: str) -> str:
    """`text` (the package's `__init__.py`) with its generated block rewritten from its table."""
    module = importlib.import_module(package)
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END + "\n")
    return head + block(package, module._EXPORTS) + tail


def formatted(init: Path, text: str) -> str:
    """`text` as ruff sorts and formats it for `init` (in a scratch copy beside it, so that ruff reads
    the repository's settings)."""
    ruff = shutil.which("ruff")
    if ruff is None:
        sys.exit("sync_exports: ruff is not installed (pip install ruff): the block would not be formatted")
    scratch = init.with_name("_sync_exports_scratch.py")
    try:
        scratch.write_text(text, encoding="utf-8")
        subprocess.run([ruff, "check", "--quiet", "--select", "I", "--fix", str(scratch)], check=True)
        subprocess.run([ruff, "format", "--quiet", str(scratch)], check=True)
        return scratch.read_text(encoding="utf-8")
    finally:
        scratch.unlink(missing_ok=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/sync_exports.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only name the stale files (exit 1 if any)")
    args = parser.parse_args(argv)
    stale = []
    for package, init in generated_packages():
        text = init.read_text(encoding="utf-8")
        new = formatted(init, render(package, text))
        if new != text:
            stale.append(init)
            if not args.check:
                init.write_text(new, encoding="utf-8")
    for init in stale:
        print(f"{'stale' if args.check else 'rewrote'}: {init.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
