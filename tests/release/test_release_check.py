"""tools/release_check.py, the release's version rules: on a copy of this repository's version files
(each rule broken once), on built files written here in the wheel and sdist formats, and as the
command the build session and the release workflow run."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "release_check.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release_check = _load()
VERSION: str = release_check.source_versions(ROOT)["benchmark-core"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The files the rules read, copied from this repository."""
    for dist, module in release_check.DISTRIBUTIONS.items():
        package = Path("packages") / dist
        for name in (package / "pyproject.toml", package / "src" / module / "__about__.py"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "CHANGELOG.md", tmp_path / "CHANGELOG.md")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _metadata(name: str, version: str, requires: list[str]) -> str:
    lines = ["Metadata-Version: 2.4", f"Name: {name}", f"Version: {version}"]
    return "\n".join(lines + [f"Requires-Dist: {r}" for r in requires]) + "\n\nThe description.\n"


def _write_dist(folder: Path, version: str, core_pin: str) -> None:
    """One wheel and one sdist per distribution, holding the metadata files the checks read."""
    folder.mkdir()
    for name, module in release_check.DISTRIBUTIONS.items():
        requires = [] if name == "benchmark-core" else [core_pin]
        metadata = _metadata(name, version, requires).encode("utf-8")
        with zipfile.ZipFile(folder / f"{module}-{version}-py3-none-any.whl", "w") as wheel:
            wheel.writestr(f"{module}-{version}.dist-info/METADATA", metadata)
        with tarfile.open(folder / f"{module}-{version}.tar.gz", "w:gz") as sdist:
            info = tarfile.TarInfo(f"{module}-{version}/PKG-INFO")
            info.size = len(metadata)
            sdist.addfile(info, io.BytesIO(metadata))


def test_this_repository_passes() -> None:
    assert release_check.check(ROOT, None, f"v{VERSION}") == []


def test_a_distribution_at_another_version_fails(repo: Path) -> None:
    about = repo / "packages/benchmark-rollback-recovery/src/benchmark_rollback_recovery/__about__.py"
    _edit(about, VERSION, "9.9.9")
    assert release_check.check(repo, None, None) == [
        f"benchmark-rollback-recovery is 9.9.9, benchmark-core is {VERSION}"
    ]


def test_a_pin_that_is_not_exact_fails(repo: Path) -> None:
    pyproject = repo / "packages/benchmark-schema-mutation/pyproject.toml"
    _edit(pyproject, f'"benchmark-core=={VERSION}"', f'"benchmark-core>={VERSION}"')
    assert release_check.check(repo, None, None) == [
        f"benchmark-schema-mutation: pyproject.toml requires benchmark-core>={VERSION}, not benchmark-core=={VERSION}"
    ]


def test_an_extra_without_its_pin_fails(repo: Path) -> None:
    pyproject = repo / "packages/benchmark-rollback-recovery/pyproject.toml"
    _edit(pyproject, f'"benchmark-core[inspect]=={VERSION}"', '"inspect_ai>=0.3"')
    problems = release_check.check(repo, None, None)
    assert problems == [
        f"benchmark-rollback-recovery: pyproject.toml must require benchmark-core=={VERSION} "
        f"and benchmark-core[inspect]=={VERSION}"
    ]


def test_a_version_without_a_changelog_section_fails(repo: Path) -> None:
    _edit(repo / "CHANGELOG.md", f"## [{VERSION}]", "## [next]")
    assert release_check.check(repo, None, None) == [f"CHANGELOG.md has no '## [{VERSION}]' section"]


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        ("v9.9.9", f"tag v9.9.9 does not match the distributions' version {VERSION}"),
        (VERSION, f"tag {VERSION!r} is not a version tag (vX.Y.Z)"),
        (f"v{VERSION}-final", f"tag 'v{VERSION}-final' is not a version tag (vX.Y.Z)"),
    ],
)
def test_a_tag_must_name_the_version(repo: Path, tag: str, problem: str) -> None:
    assert release_check.check(repo, None, tag) == [problem]


def test_built_files_at_the_version_pass(repo: Path) -> None:
    _write_dist(repo / "dist", VERSION, f"benchmark-core=={VERSION}")
    assert release_check.check(repo, repo / "dist", None) == []


def test_built_files_are_checked_by_name_metadata_and_pin(repo: Path) -> None:
    dist = repo / "dist"
    _write_dist(dist, VERSION, "benchmark-core>=0.1")
    (dist / "benchmark_core-0.1.0-py3-none-any.whl").write_bytes(b"")
    (dist / f"benchmark_schema_mutation-{VERSION}.tar.gz").unlink()
    assert release_check.check(repo, dist, None) == [
        f"benchmark_schema_mutation-{VERSION}-py3-none-any.whl: does not require benchmark-core=={VERSION}",
        f"{dist}: no benchmark_schema_mutation-{VERSION}.tar.gz",
        f"benchmark_rollback_recovery-{VERSION}-py3-none-any.whl: does not require benchmark-core=={VERSION}",
        f"{dist}: unexpected file benchmark_core-0.1.0-py3-none-any.whl",
    ]


def test_metadata_that_names_another_version_fails(repo: Path) -> None:
    dist = repo / "dist"
    _write_dist(dist, VERSION, f"benchmark-core=={VERSION}")
    wheel = dist / f"benchmark_core-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as rewritten:
        rewritten.writestr(f"benchmark_core-{VERSION}.dist-info/METADATA", _metadata("benchmark-core", "0.0.1", []))
    assert release_check.check(repo, dist, None) == [f"{wheel.name}: metadata says benchmark-core 0.0.1"]


def test_the_command_exits_1_with_every_failure_and_0_when_all_pass(repo: Path) -> None:
    _edit(repo / "CHANGELOG.md", f"## [{VERSION}]", "## [next]")
    failed = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(repo), "--tag", "v0.0.0"], capture_output=True, text=True
    )
    assert failed.returncode == 1
    assert failed.stderr.splitlines() == [
        f"release check failed: CHANGELOG.md has no '## [{VERSION}]' section",
        f"release check failed: tag v0.0.0 does not match the distributions' version {VERSION}",
    ]
    assert "FAILED  tag: v0.0.0" in failed.stdout
    passed = subprocess.run([sys.executable, str(SCRIPT), "--tag", f"v{VERSION}"], capture_output=True, text=True)
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.splitlines()[-1] == "release check passed"


def test_the_releasing_page_shows_the_real_output() -> None:
    page = (ROOT / "docs" / "releasing.md").read_text(encoding="utf-8")
    command = "python tools/release_check.py --tag v0.1.0"
    shown = page.split(f"$ {command}\n", 1)[1].split("$ echo $?\n", 1)
    ran = subprocess.run([sys.executable, *command.split()[1:]], capture_output=True, text=True, cwd=ROOT)
    assert shown[0] == ran.stdout + ran.stderr
    assert shown[1].splitlines()[0] == str(ran.returncode)
