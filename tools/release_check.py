"""The release's version rules, checked in one place (`nox -s build`, `nox -s release_check` and the
release workflow all run this script).

    python tools/release_check.py [--dist DIR] [--tag vX.Y.Z]

- the three distributions share one version (each package's `__about__.py`);
- each benchmark pins exactly that benchmark-core (`benchmark-core==V`, and `benchmark-core[inspect]==V`
  in its `inspect` extra), so the three are installed and published in lockstep;
- CHANGELOG.md has a `## [V]` section;
- with `--dist`: the folder holds one sdist and one wheel of each distribution at that version (the
  file names, the wheels' METADATA and the sdists' PKG-INFO), and each benchmark wheel requires
  `benchmark-core==V`;
- with `--tag`: the tag is `v` followed by that version (a tag that is not `vX.Y.Z` is refused).

Prints one line per check and exits 0 when all pass, 1 with every failure listed otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = "benchmark-core"
#: Each distribution and its import package; the first is the engine the others pin.
DISTRIBUTIONS = {
    CORE: "benchmark_core",
    "benchmark-schema-mutation": "benchmark_schema_mutation",
    "benchmark-rollback-recovery": "benchmark_rollback_recovery",
}
_VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.MULTILINE)
_TAG = re.compile(r"^v(\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?)$")
#: Every quoted requirement on benchmark-core in a pyproject.toml, whatever its operator.
_CORE_REQUIREMENT = re.compile(r'"(benchmark-core(?:\[[^\]]*\])?)\s*((?:[<>=!~;@][^"]*)?)"')


def source_versions(root: Path) -> dict[str, str]:
    """Each distribution's version, as its `__about__.py` gives it."""
    versions = {}
    for dist, module in DISTRIBUTIONS.items():
        about = root / "packages" / dist / "src" / module / "__about__.py"
        found = _VERSION.search(about.read_text(encoding="utf-8"))
        versions[dist] = found.group(1) if found else "(none)"
    return versions


def pin_problems(root: Path, version: str) -> list[str]:
    """What is wrong with the benchmarks' benchmark-core pins (nothing when each pins `==version`)."""
    problems = []
    for dist in list(DISTRIBUTIONS)[1:]:
        pyproject = root / "packages" / dist / "pyproject.toml"
        pins = _CORE_REQUIREMENT.findall(pyproject.read_text(encoding="utf-8"))
        names = {name for name, _ in pins}
        if CORE not in names or f"{CORE}[inspect]" not in names:
            problems.append(f"{dist}: pyproject.toml must require {CORE}=={version} and {CORE}[inspect]=={version}")
        for name, spec in pins:
            if spec.replace(" ", "") != f"=={version}":
                problems.append(f"{dist}: pyproject.toml requires {name}{spec}, not {name}=={version}")
    return problems


def changelog_problems(root: Path, version: str) -> list[str]:
    path = root / "CHANGELOG.md"
    if not path.is_file():
        return ["there is no CHANGELOG.md"]
    text = path.read_text(encoding="utf-8")
    if re.search(rf"^## \[{re.escape(version)}\]", text, re.MULTILINE) is None:
        return [f"CHANGELOG.md has no '## [{version}]' section"]
    return []


def tag_problems(tag: str, version: str) -> list[str]:
    matched = _TAG.match(tag)
    if matched is None:
        return [f"tag {tag!r} is not a version tag (vX.Y.Z)"]
    if matched.group(1) != version:
        return [f"tag {tag} does not match the distributions' version {version}"]
    return []


def _wheel_metadata(path: Path) -> str:
    with zipfile.ZipFile(path) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        return wheel.read(name).decode("utf-8")


def _sdist_metadata(path: Path) -> str:
    with tarfile.open(path) as sdist:
        member = next(m for m in sdist.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO"))
        extracted = sdist.extractfile(member)
        if extracted is None:
            raise ValueError(f"{path.name}: PKG-INFO is not a file")
        return extracted.read().decode("utf-8")


def dist_problems(dist: Path, version: str) -> list[str]:
    """What is wrong with the built files in `dist` (nothing when there are exactly the six expected)."""
    problems = []
    expected = set()
    for name, module in DISTRIBUTIONS.items():
        wheel = dist / f"{module}-{version}-py3-none-any.whl"
        sdist = dist / f"{module}-{version}.tar.gz"
        expected |= {wheel.name, sdist.name}
        for path, read in ((wheel, _wheel_metadata), (sdist, _sdist_metadata)):
            if not path.is_file():
                problems.append(f"{dist}: no {path.name}")
                continue
            metadata = Parser().parsestr(read(path))
            if metadata["Name"] != name or metadata["Version"] != version:
                problems.append(f"{path.name}: metadata says {metadata['Name']} {metadata['Version']}")
            if name != CORE and path is wheel and f"{CORE}=={version}" not in metadata.get_all("Requires-Dist", []):
                problems.append(f"{path.name}: does not require {CORE}=={version}")
    unexpected = sorted(p.name for p in dist.iterdir() if p.name not in expected) if dist.is_dir() else []
    problems += [f"{dist}: unexpected file {name}" for name in unexpected]
    return problems


def check(root: Path, dist: Path | None, tag: str | None) -> list[str]:
    """Every failed rule, in the order the module docstring lists them; prints one line per check."""
    versions = source_versions(root)
    version = versions[CORE]
    checks = [
        (
            "one version: " + ", ".join(f"{name} {v}" for name, v in versions.items()),
            [f"{name} is {v}, {CORE} is {version}" for name, v in versions.items() if v != version],
        ),
        (f"pins: each benchmark requires {CORE}=={version}", pin_problems(root, version)),
        (f"changelog: ## [{version}]", changelog_problems(root, version)),
    ]
    if dist is not None:
        checks.append(
            (f"dist: one sdist and one wheel of each distribution at {version} in {dist}", dist_problems(dist, version))
        )
    if tag is not None:
        checks.append((f"tag: {tag}, for version {version}", tag_problems(tag, version)))
    problems = []
    for label, found in checks:
        print(f"{'FAILED' if found else 'ok':6}  {label}")
        problems += found
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--dist", type=Path, help="a folder of built sdists and wheels to check")
    parser.add_argument("--tag", help="a version tag (vX.Y.Z) that must equal the distributions' version")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    problems = check(args.root, args.dist, args.tag)
    for problem in problems:
        print(f"release check failed: {problem}", file=sys.stderr)
    if not problems:
        print("release check passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
