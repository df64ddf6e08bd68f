"""The release workflow, read as GitHub reads it: it runs on version tags only, builds and checks
through the same `nox -s release_check` as a maintainer's machine (with the pushed tag), and
publishes what that job checked through PyPI trusted publishing, with the OIDC permission on the
publishing job alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "release.yml"


def _workflow() -> dict[str, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # YAML 1.1 reads the bare key `on` as true.
    loaded["on"] = loaded.pop(True)
    return loaded


def _steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def test_it_runs_on_version_tags_only() -> None:
    assert _workflow()["on"] == {"push": {"tags": ["v*"]}}


def test_the_build_job_runs_the_local_release_check_with_the_tag() -> None:
    build = _workflow()["jobs"]["build"]
    runs = [step["run"] for step in _steps(build) if "run" in step]
    assert 'nox -s release_check -- --tag "${GITHUB_REF_NAME}"' in runs
    uploads = [step for step in _steps(build) if step.get("uses", "").startswith("actions/upload-artifact@")]
    assert [step["with"]["path"] for step in uploads] == ["dist/"]


def test_publishing_uses_trusted_publishing_on_what_was_checked() -> None:
    workflow = _workflow()
    assert workflow["permissions"] == {"contents": "read"}
    publish = workflow["jobs"]["publish"]
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    uses = [step.get("uses", "") for step in _steps(publish)]
    assert uses[0].startswith("actions/download-artifact@")
    assert uses[-1] == "pypa/gh-action-pypi-publish@release/v1"
    # No stored token: trusted publishing needs none, and a password would bypass it.
    assert all("password" not in step.get("with", {}) for step in _steps(publish))
