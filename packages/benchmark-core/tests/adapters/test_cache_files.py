"""The response cache's entries are written by `write_atomic`, as reports are: they follow the
process's umask, and a write killed halfway leaves no entry (only a hidden temporary file, which
`cache clear` removes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_core.cache import ResponseCache, cache_info, clear_cache
from benchmark_core.cache._cache import request_key

_PUT = """
import os, signal, sys
from benchmark_core.cache import ResponseCache
from benchmark_core.cache._cache import request_key

folder, killed = sys.argv[1], sys.argv[2] == "kill"
real_write = os.write

def write(fd, data):  # half of the entry reaches the file, then the process dies
    real_write(fd, bytes(data[: len(data) // 2]))
    os.kill(os.getpid(), signal.SIGKILL)

if killed:
    os.write = write
key = request_key("https://example.test/v1/chat/completions", {"model": "m"}, 0)
ResponseCache(folder).put(key, {"choices": [{"message": {"content": "x" * 100000}}]})
"""


def _put(folder: Path, umask: int, how: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", _PUT, str(folder), how],
        preexec_fn=lambda: os.umask(umask),
        capture_output=True,
        timeout=60,
    )


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600)])
def test_entries_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    done = _put(tmp_path, umask, "write")
    assert done.returncode == 0, done.stderr
    (entry,) = tmp_path.glob("??/*.json")
    assert entry.stat().st_mode & 0o777 == mode
    key = request_key("https://example.test/v1/chat/completions", {"model": "m"}, 0)
    assert entry.name == f"{key}.json"
    assert json.loads(entry.read_bytes())["key"] == key
    assert ResponseCache(tmp_path).get(key) == {"choices": [{"message": {"content": "x" * 100000}}]}
    # Nothing but the entry: no temporary file left beside it.
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]


def test_a_killed_write_leaves_no_entry(tmp_path: Path) -> None:
    killed = _put(tmp_path, 0o022, "kill")
    assert killed.returncode == -9, killed.stderr
    key = request_key("https://example.test/v1/chat/completions", {"model": "m"}, 0)
    assert ResponseCache(tmp_path).get(key) is None
    assert cache_info(tmp_path).entries == 0
    (left,) = (p for p in tmp_path.rglob("*") if p.is_file())
    assert left.name.startswith(f".{key}.json.") and left.name.endswith(".tmp")
    assert len(left.read_bytes()) > 0  # half an entry reached the disk, under a name no reader takes
    clear_cache(tmp_path)
    assert not left.exists()
