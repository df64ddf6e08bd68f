"""The response cache: provider answers on disk, keyed by a digest of the exact request.

A rerun of the same command (same endpoint, model, messages, tools, generation settings and sample
index) is answered from disk and costs nothing. Entries are written by `write_atomic`, as reports are
(whole or not at all, with the umask's mode), and checked when read: an entry that is truncated, not
JSON, or stored under another key is ignored and overwritten by the next answer, never trusted. API
keys are not part of the key and never stored.

Entries are never expired on their own: a rerun meant to be reproducible must not quietly become a
paid one. `cache_info`, `prune_cache` and `clear_cache` (the CLI's `cache info|prune|clear`) show
and remove entries when asked; an entry's age is the time it was written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional, Union

from attrs import frozen

from .._model import JsonObject
from .._util.atomic import temporary_glob, write_atomic

#: Where `run` caches responses unless told otherwise (`BENCHMARK_CORE_CACHE` overrides it).
CACHE_ENV = "BENCHMARK_CORE_CACHE"


def default_cache_dir() -> Path:
    """`$BENCHMARK_CORE_CACHE`, else `$XDG_CACHE_HOME/benchmark-core/responses`, else
    `~/.cache/benchmark-core/responses`."""
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "benchmark-core" / "responses"


def request_key(endpoint: str, body: JsonObject, sampling_index: int) -> str:
    """The digest of a canonical request: endpoint, body (model, messages, tools, settings), sample."""
    canonical = json.dumps(
        {"endpoint": endpoint, "body": body, "sample": sampling_index},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class ResponseCache:
    """A directory of cached responses, one JSON file per request digest."""

    def __init__(self, directory: Union[str, Path]) -> None:
        self.directory = Path(directory)

    @classmethod
    def for_run(cls, provider: str, setting: Union[bool, str]) -> Optional[ResponseCache]:
        """A run's cache from its `cache` option (True: the default folder, a path: that folder):
        none for the mock, whose answers cost nothing, nor when switched off."""
        if setting is False or provider == "mock":
            return None
        return cls(default_cache_dir() if setting is True else Path(setting))

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.directory)!r})"

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Optional[JsonObject]:
        """The stored response for `key`, or None when there is none or it cannot be trusted."""
        try:
            entry: Any = json.loads(self._path(key).read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("response"), dict):
            return None
        response: JsonObject = entry["response"]
        return response

    def put(self, key: str, response: JsonObject) -> None:
        """Store `response`; a cache that cannot be written costs the saving, not the run."""
        path = self._path(key)
        try:
            write_atomic(path, json.dumps({"key": key, "response": response}, ensure_ascii=False))
        except OSError:
            return


@frozen
class CacheInfo:
    """What a cache folder holds: its entries, their bytes, and when the oldest was written."""

    folder: str
    entries: int
    bytes: int
    oldest: Optional[str] = None


@frozen
class CacheRemoval:
    """What `prune_cache` or `clear_cache` removed, and what is left."""

    folder: str
    removed: int
    freed_bytes: int
    remaining: int


def cache_info(directory: Union[str, Path]) -> CacheInfo:
    """Entries, bytes and the oldest entry's time (UTC, ISO 8601) of the cache at `directory`."""
    entries = list(_entries(Path(directory)))
    oldest = min((mtime for _, _, mtime in entries), default=None)
    return CacheInfo(
        folder=str(directory),
        entries=len(entries),
        bytes=sum(size for _, size, _ in entries),
        oldest=_iso(oldest) if oldest is not None else None,
    )


def prune_cache(directory: Union[str, Path], older_than: float, *, now: Optional[float] = None) -> CacheRemoval:
    """Remove the entries written more than `older_than` seconds ago (and temporary files as old,
    left by a process that died while writing). Nothing ever calls this on its own: the cache only
    shrinks when asked to."""
    limit = (time.time() if now is None else now) - older_than
    return _remove(Path(directory), lambda mtime: mtime < limit)


def clear_cache(directory: Union[str, Path]) -> CacheRemoval:
    """Remove every entry (and temporary file) of the cache at `directory`."""
    return _remove(Path(directory), lambda mtime: True)


def _entries(directory: Path, *, temporary: bool = False) -> Iterator[tuple[Path, int, float]]:
    """(path, bytes, modification time) of each entry, or of each temporary file with `temporary`."""
    pattern = temporary_glob("*.json") if temporary else "[!.]*.json"
    for path in sorted(directory.glob(f"??/{pattern}")):
        try:
            stat = path.stat()
        except OSError:
            continue  # removed meanwhile
        yield path, stat.st_size, stat.st_mtime


def _remove(directory: Path, doomed: Callable[[float], bool]) -> CacheRemoval:
    removed = freed = remaining = 0
    for temporary in (False, True):
        for path, size, mtime in _entries(directory, temporary=temporary):
            if not doomed(mtime):
                remaining += not temporary
                continue
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            removed += not temporary
            freed += size
    for folder in directory.glob("??"):
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty
    return CacheRemoval(folder=str(directory), removed=removed, freed_bytes=freed, remaining=remaining)


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
