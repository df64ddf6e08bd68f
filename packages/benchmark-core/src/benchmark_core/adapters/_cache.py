"""The response cache: provider answers on disk, keyed by a digest of the exact request.

A rerun of the same command (same endpoint, model, messages, tools, generation settings and sample
index) is answered from disk and costs nothing. Entries are written atomically (a temporary file, then
a rename) and checked when read: an entry that is truncated, not JSON, or stored under another key is
ignored and overwritten by the next answer, never trusted. API keys are not part of the key and never
stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional, Union

from .._model import JsonObject

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
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"key": key, "response": response}, handle, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            return
