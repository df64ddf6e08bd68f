"""`benchmark-core new NAME`: a complete benchmark package, ready to install, run and test.

The package is rendered from the templates shipped in `benchmark_core/templates/package` (string
templates, `${name}` style), in the shape every benchmark package of this repository shares
(definition, generator, grader, environment, policies, summary, provenance, cli). Its data is
generated at once by the package's own generator, so `pip install -e ./NAME` needs no prior step, and
the README quotes the output of a real offline run. Everything is built in a hidden folder next to
the target and moved into place only when complete: a failure leaves nothing behind.
"""

from __future__ import annotations

import datetime
import keyword
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Optional

from attrs import frozen

from ..__about__ import __version__
from ..data._validation import BENCHMARK_ID_RE
from ..errors._base import BenchmarkError
from ..errors._usage import ScaffoldError

if TYPE_CHECKING:
    from importlib.abc import Traversable  # importlib.resources.abc from 3.11; only annotations use it

_TEMPLATES = ("templates", "package")
_MODULE_DIR = "_module_"
_SUFFIX = ".tmpl"
#: Names that a package must not take: they would shadow the engine or the standard library.
_RESERVED = {"benchmark_core", "test", "tests"}
_STEP_TIMEOUT = 300.0


@frozen
class ScaffoldResult:
    """What `scaffold_package` created: the package folder, its distribution name (also the
    benchmark id and the command), its import name, its seed, its creation date and its files
    (relative, sorted)."""

    path: Path
    name: str
    module: str
    seed: int
    date: datetime.date
    files: list[str]


def scaffold_package(
    name: str,
    parent: Path = Path("."),
    *,
    seed: Optional[int] = None,
    date: Optional[datetime.date] = None,
) -> ScaffoldResult:
    """Create the package `name` in `parent / name` (which must not exist or be empty).

    `date` is the package's creation date (default: today, UTC): its provenance's `retrieved_at`
    (generated data is "retrieved" when its generator is written) and the default `seed`, as
    YYYYMMDD (the convention of the repository's generators). The files written are a function of
    `name`, `seed` and `date` alone: the same three give the same bytes. Raises `ScaffoldError` for a
    name or folder it cannot use, and `BenchmarkError` when the new package's generator or first run
    fails (nothing is left behind).
    """
    module = check_package_name(name)
    target = parent / name
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target} already exists and is not an empty folder; choose another name or folder")
    if not parent.is_dir():
        raise ScaffoldError(f"{parent} is not a folder")
    day = date or datetime.datetime.now(datetime.timezone.utc).date()
    chosen_seed = seed if seed is not None else int(day.strftime("%Y%m%d"))
    values = {
        "name": name,
        "module": module,
        "title": name.replace("-", " ").title(),
        "env_prefix": module.upper(),
        "core_version": __version__,
        "core_range": compatible_range(__version__),
        "seed": str(chosen_seed),
        "date": day.isoformat(),
    }
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=parent)).resolve()
    work.chmod(0o777 & ~_umask())  # mkdtemp's folder is private (0700); the package is not
    try:
        readme = None
        for relative, template in _templates():
            destination = work / relative.replace(_MODULE_DIR, module)
            if relative == "README.md":
                readme = (destination, template)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(_render(template, values, relative), encoding="utf-8")
        _step(work, [f"{module}.generator"], "generating the data")
        assert readme is not None, "the README template is missing"
        first_run = [module, "run", "--model", "offline", "--provider", "mock"]
        values["mock_run"] = _step(work, first_run, "the first run").rstrip("\n")
        readme[0].write_text(_render(readme[1], values, "README.md"), encoding="utf-8")
        for cache in work.rglob("__pycache__"):
            shutil.rmtree(cache)
        if target.exists():
            target.rmdir()  # empty, checked above
        os.replace(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    return ScaffoldResult(path=target, name=name, module=module, seed=chosen_seed, date=day, files=files)


def compatible_range(version: str) -> str:
    """The benchmark-core versions a new package accepts: the releases that keep the API of
    `version` (`>=0.2,<0.3` while the major version is 0, `>=1.4,<2` from 1.0 on). A third-party
    benchmark pinned exactly would break at every core release; this repository's own benchmarks
    move in lockstep with core and pin it exactly instead."""
    parts = version.split(".")
    major, minor = int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    upper = f"{major}.{minor + 1}" if major == 0 else str(major + 1)
    return f">={major}.{minor},<{upper}"


def check_package_name(name: str) -> str:
    """The import name of a new package called `name`, or `ScaffoldError` saying what is wrong."""
    if not BENCHMARK_ID_RE.match(name):
        raise ScaffoldError(
            f"invalid package name {name!r}: use lowercase letters, digits and '-', starting with a letter "
            "(it is also the benchmark id and the command)"
        )
    module = name.replace("-", "_")
    if not module.isidentifier() or keyword.iskeyword(module):
        raise ScaffoldError(f"invalid package name {name!r}: its import name {module!r} is not a Python identifier")
    if module in _RESERVED or module in sys.stdlib_module_names:
        raise ScaffoldError(f"invalid package name {name!r}: its import name {module!r} would shadow another module")
    return module


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _templates() -> Iterator[tuple[str, str]]:
    root = resources.files("benchmark_core")
    for part in _TEMPLATES:
        root = root / part
    yield from _walk(root, "")


def _walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, str]]:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            if entry.name != "__pycache__":
                yield from _walk(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(_SUFFIX):
            filename = entry.name[: -len(_SUFFIX)]
            # A leading dot would hide the template from tools that skip dotfiles (and from wheels).
            filename = ".gitignore" if filename == "gitignore" else filename
            yield f"{prefix}{filename}", entry.read_text(encoding="utf-8")


def _render(template: str, values: dict[str, str], relative: str) -> str:
    try:
        return Template(template).substitute(values)
    except (KeyError, ValueError) as exc:  # a broken template is a bug in benchmark-core
        raise BenchmarkError(f"template {relative}: {type(exc).__name__}: {exc}") from None


def _step(work: Path, arguments: list[str], what: str) -> str:
    """Run `python -m ARGUMENTS` on the new package's sources (not installed yet); its stdout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(work / "src"), env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-m", *arguments]
    try:
        done = subprocess.run(
            command, cwd=work, env=env, capture_output=True, text=True, timeout=_STEP_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise BenchmarkError(f"{what} ({' '.join(command[1:])}) took over {_STEP_TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        raise BenchmarkError(
            f"{what} ({' '.join(command[1:])}) failed with exit code {done.returncode}: {done.stderr.strip()[-2000:]}"
        )
    return done.stdout
