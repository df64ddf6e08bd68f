"""A run's files (issue 25): one naming of the report, the journal and each shard's files, and one
atomic write whose files follow the umask like any other file the user creates, and which a killed
process never leaves half-written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core import RunOptions, RunTarget
from benchmark_core._util.atomic import write_atomic
from benchmark_core.distributed import ShardSpec
from benchmark_core.runs._files import JOURNAL_SUFFIX, RunFiles
from benchmark_core.runs._shards import Shard


def _cli(cwd: Path, umask: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=lambda: os.umask(umask),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_reports_and_pages_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    run = ["run", "--model", "m", "--provider", "mock", "--output", "out/report.json", "--markdown", "out/report.md"]
    done = _cli(tmp_path, umask, *run)
    assert done.returncode == 0, done.stderr
    written = [tmp_path / "out" / "report.json", tmp_path / "out" / "report.md"]
    compared = _cli(tmp_path, umask, "html", "out/report.json", "out/report.html")
    assert compared.returncode == 0, compared.stderr
    written.append(tmp_path / "out" / "report.html")
    for path in written:
        assert path.stat().st_mode & 0o777 == mode, path
    # Nothing but the files asked for (the journal is gone with a complete run, no temporary left).
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.html", "report.json", "report.md"]


_KILLED = """
import os, signal, sys
from pathlib import Path
from benchmark_core._util import atomic as run_files

point = sys.argv[2]
real_write = os.write

def write(fd, data):
    if point == "write":  # half of the report reaches the file, then the process dies
        real_write(fd, bytes(data[: len(data) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)
    return real_write(fd, data)

def fsync(fd):  # every byte written, not yet renamed
    os.kill(os.getpid(), signal.SIGKILL)

os.write = write
if point == "fsync":
    os.fsync = fsync
run_files.write_atomic(Path(sys.argv[1]), '{"new": "' + "x" * 1_000_000 + '"}\\n')
"""


@pytest.mark.parametrize("point", ["write", "fsync"])
@pytest.mark.parametrize("earlier", [True, False])
def test_a_killed_write_leaves_the_previous_report_or_none(tmp_path: Path, point: str, earlier: bool) -> None:
    report = tmp_path / "report.json"
    if earlier:
        report.write_text('{"old": true}\n', encoding="utf-8")
    killed = subprocess.run([sys.executable, "-c", _KILLED, str(report), point], capture_output=True, timeout=60)
    assert killed.returncode == -9, killed.stderr
    if earlier:
        assert json.loads(report.read_text(encoding="utf-8")) == {"old": True}
    else:
        assert not report.exists()
    # What the killed process left is a hidden temporary file, which no reader of the folder takes
    # for a report (the leaderboard skips dot files; shard globs start with the report's name).
    left = [p.name for p in tmp_path.iterdir() if p != report]
    assert all(name.startswith(".report.json.") and name.endswith(".tmp") for name in left), left
    write_atomic(report, '{"new": true}\n')
    assert json.loads(report.read_text(encoding="utf-8")) == {"new": True}


def test_a_failed_write_removes_its_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "report.json").mkdir()  # renaming a file over a folder fails
    with pytest.raises(IsADirectoryError):
        write_atomic(folder / "report.json", "{}\n")
    assert [p.name for p in folder.iterdir()] == ["report.json"]


def test_one_naming_of_a_runs_files() -> None:
    files = RunFiles(Path("results/bench/model/report.json"))
    assert files.journal == Path("results/bench/model/report.json" + JOURNAL_SUFFIX)
    shard = files.shard(Shard(2, 3))
    assert shard.report.name == "report.shard-2-of-3.json"
    assert shard.journal.name == "report.shard-2-of-3.json.journal.jsonl"
    assert RunFiles.of_journal(shard.journal) == shard
    assert Path(shard.report.name).match(files.shard_reports)
    # Ray's shards in a workdir are named as a sweep's shards are in a cell's folder.
    spec = ShardSpec(
        benchmark="example",
        target=RunTarget(model="m", provider="mock"),
        options=RunOptions(),
        shard=Shard(2, 3),
        workdir="/shared/run-1",
    )
    assert spec.files == RunFiles(Path("/shared/run-1/report.json")).shard(Shard(2, 3))
