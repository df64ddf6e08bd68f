"""A disk that fills up (issue 19): a run whose journal or report cannot be written says which file
failed and how many rows are safe in the journal, gives the command that continues the run, and
exits 2 without a traceback; the continued run then gives the report an uninterrupted one does.

The write fails for real: the run is a subprocess whose file size limit (RLIMIT_FSIZE) is set below
what the journal, or the report, needs, so the kernel refuses the write (EFBIG, Python ignores
SIGXFSZ) exactly as a full filesystem refuses one (ENOSPC): a partial write, then an OSError.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.runs import journal_path
from benchmark_core.testing import stable_report
from benchmark_core.wire import dumps

resource = pytest.importorskip("resource", reason="RLIMIT_FSIZE needs the POSIX resource module")

RUN = ["run", "--model", "m", "--provider", "mock", "--concurrency", "1"]


def _run(cwd: Path, *args: str, fsize: Optional[int] = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args],
        cwd=cwd,
        env=env,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _continue_command(stderr: str) -> list[str]:
    marker = "continue with: "
    assert marker in stderr, stderr
    command = shlex.split(stderr.split(marker, 1)[1].strip().splitlines()[0])
    assert command[0] == "benchmark-core" and command[-1] == "--resume"
    return command[1:]


def _rows(journal: Path) -> int:
    lines = journal.read_bytes().split(b"\n")
    return sum(1 for line in lines if line.startswith(b'{"row"') and line.endswith(b"}"))


async def _sizes(tmp_path: Path) -> tuple[int, int]:
    """The journal's and the report's sizes for this run (the journal's lines are compact JSON, the
    report is indented, so it is the larger)."""
    journal = tmp_path / "measure.journal.jsonl"
    report = await run(example, mock_adapter(model="m"), concurrency=1, journal=journal)
    return journal.stat().st_size, len((dumps(report, indent=2) + "\n").encode())


def test_a_journal_that_cannot_be_written(tmp_path: Path) -> None:
    done = _run(tmp_path, *RUN, "--output", "full.json")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out" / "report.json"
    failed = _run(tmp_path, *RUN, "--output", "out/report.json", fsize=4096)
    assert failed.returncode == 2, failed.stderr
    assert "Traceback" not in failed.stderr
    journal = journal_path(out)
    safe = _rows(journal)
    assert 0 < safe < len(example.tasks())
    assert f"error: cannot write out/report.json.journal.jsonl: File too large; {safe} finished rows are safe in" in (
        failed.stderr
    )
    assert not out.exists()
    resumed = _run(tmp_path, *_continue_command(failed.stderr))
    assert resumed.returncode == 0, resumed.stderr
    final, baseline = (json.loads(p.read_text(encoding="utf-8")) for p in (out, tmp_path / "full.json"))
    assert stable_report(final) == stable_report(baseline)


async def test_a_report_that_cannot_be_written(tmp_path: Path) -> None:
    journal_size, report_size = await _sizes(tmp_path)
    if report_size < journal_size + 4096:
        pytest.skip(f"the report ({report_size} B) is not enough larger than the journal ({journal_size} B)")
    out = tmp_path / "report.json"
    failed = _run(tmp_path, *RUN, "--output", "report.json", fsize=(journal_size + report_size) // 2)
    assert failed.returncode == 2, failed.stderr
    assert "Traceback" not in failed.stderr
    rows = len(example.tasks())
    assert f"error: cannot write report.json: File too large; {rows} finished rows are safe in" in failed.stderr
    assert not out.exists() and not list(tmp_path.glob(".report.json.*"))  # no half-written report
    assert _rows(journal_path(out)) == rows
    resumed = _run(tmp_path, *_continue_command(failed.stderr))
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["complete"] and len(report["rows"]) == rows
    assert not journal_path(out).exists()
