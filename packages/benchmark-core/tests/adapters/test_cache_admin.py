"""Cache housekeeping (issue 19): `cache info`, `cache prune --older-than`, `cache clear` on the CLI
(and `cache_info`, `prune_cache`, `clear_cache` in the SDK), filled by real runs against a fake
server; and the default cache never expires on its own."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from benchmark_core import run
from benchmark_core.cache import cache_info, clear_cache, prune_cache
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.testing import FakeOpenAI, mock_handler
from click.testing import CliRunner

DAY = 86400.0


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("??/*.json") if not p.name.startswith("."))


def _fill(folder: Path) -> int:
    """Run the example's single tasks through a fake server with the cache in `folder`; the number
    of requests sent."""
    server = FakeOpenAI(handler=mock_handler(example), record=False)
    ids = [t.id for t in example.tasks() if t.kind == "single"][:8]
    with server.in_thread():
        from benchmark_core import openai_compat_adapter

        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
        import asyncio

        asyncio.run(run(example, adapter, task_ids=ids, cache=str(folder)))
    return server.received


def _age(paths: list[Path], days: float) -> None:
    stamp = time.time() - days * DAY
    for path in paths:
        os.utime(path, (stamp, stamp))


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(create_cli(example, "benchmark-core"), list(args))
    return result.exit_code, result.output


def test_info_prune_and_clear_on_the_cli(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    sent = _fill(folder)
    entries = _entries(folder)
    assert sent == len(entries) == 8
    total = sum(p.stat().st_size for p in entries)
    old, recent = entries[:3], entries[3:]
    old_bytes = sum(p.stat().st_size for p in old)
    _age(old, 40)
    _age(recent[:1], 10)

    code, out = _cli("cache", "info", "--cache", str(folder), "--json")
    assert code == 0
    info = json.loads(out)
    assert (info["folder"], info["entries"], info["bytes"]) == (str(folder), 8, total)
    oldest = min(p.stat().st_mtime for p in entries)
    assert info["oldest"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(oldest)))

    code, out = _cli("cache", "prune", "--older-than", "30d", "--cache", str(folder))
    assert code == 0
    assert out == f"removed 3 entries older than 30d from {folder}: {_size(old_bytes)} freed, 5 left\n"
    assert _entries(folder) == recent

    code, out = _cli("cache", "info", "--cache", str(folder))
    assert code == 0 and "entries: 5\n" in out and f"folder:  {folder}\n" in out

    code, out = _cli("cache", "clear", "--cache", str(folder), "--json")
    assert code == 0
    assert json.loads(out) == {
        "folder": str(folder),
        "removed": 5,
        "freedBytes": total - old_bytes,
        "remaining": 0,
    }
    assert _entries(folder) == [] and list(folder.iterdir()) == []


def test_bad_ages_are_usage_errors(tmp_path: Path) -> None:
    for age in ("30", "thirty days", "3y", ""):
        code, out = _cli("cache", "prune", "--older-than", age, "--cache", str(tmp_path))
        assert code == 1 and "give a number and a unit" in out


def test_the_default_cache_never_expires_on_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries a year old still answer a rerun: the cache only shrinks when asked."""
    folder = tmp_path / "default-cache"
    monkeypatch.setenv("BENCHMARK_CORE_CACHE", str(folder))
    server = FakeOpenAI(handler=mock_handler(example), record=False)
    ids = [t.id for t in example.tasks() if t.kind == "single"][:5]
    with server.in_thread():
        import asyncio

        from benchmark_core import openai_compat_adapter

        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
        asyncio.run(run(example, adapter, task_ids=ids))
        assert server.received == 5
        _age(_entries(folder), 365)
        again = asyncio.run(run(example, adapter, task_ids=ids))
        assert server.received == 5
    assert again.cache is not None and again.cache.hits == 5


def test_the_sdk_functions(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    _fill(folder)
    _age(_entries(folder)[:2], 3)
    assert cache_info(folder).entries == 8
    assert prune_cache(folder, 2 * DAY).removed == 2
    assert prune_cache(folder, 2 * DAY).removed == 0
    removal = clear_cache(folder)
    assert (removal.removed, removal.remaining) == (6, 0)
    assert cache_info(folder) == cache_info(folder) and cache_info(folder).oldest is None
    assert cache_info(tmp_path / "missing").entries == 0


def _size(count: int) -> str:
    return f"{count} B" if count < 1000 else f"{count / 1000:.1f} kB"
