"""A report's JSON decoded without its rows' transcripts, by msgspec (the `analysis` extra).

The leaderboard reads no transcript, and a row's trace and episode are most of a report's bytes. So
the document is decoded as its top-level keys over undecoded values (`msgspec.Raw`), and its rows
as records whose `trace`, `episode` and `agent` stay undecoded too: msgspec steps over those bytes without
building a Python object for them. Each row record must hold only a run row's keys, as `from_wire`
requires; a document that is not so shaped (rows that are not a list of objects, a key no run row
has) is returned as None, and the caller reads it whole, so its result or message stays the one of
the whole file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import attrs

from .._model import RunRow
from ..wire._converter import camel

__all__ = ["TRANSCRIPT_KEYS", "light_document"]

#: A row's transcript (its trace, episode and agent record): most of a report's bytes, never read by
#: the leaderboard (the report itself says which sandbox ran), and most of the time spent
#: structuring a report.
TRANSCRIPT_KEYS = frozenset({"trace", "episode", "agent"})


def light_document(path: Path) -> Optional[Any]:
    """The report at `path` with its rows' transcripts left out; None without msgspec, for a file
    msgspec cannot read (bad JSON, a byte-order mark, NaN, a number out of range) or one not shaped
    as a run report's rows (read it whole instead)."""
    decode = _decoder()
    if decode is None:
        return None
    try:
        return decode(path.read_bytes())
    except (OSError, ValueError):  # msgspec's DecodeError and ValidationError are ValueErrors
        return None


@functools.lru_cache(maxsize=1)
def _decoder() -> Optional[Callable[[bytes], Any]]:
    try:
        import msgspec
    except ImportError:
        return None
    keys = [camel(field.name) for field in attrs.fields(RunRow)]
    fields = [(key, msgspec.Raw if key in TRANSCRIPT_KEYS else Any, msgspec.UNSET) for key in keys]
    # defstruct rather than a class statement: this module's annotations are strings (PEP 563).
    row = msgspec.defstruct("LightRow", fields, forbid_unknown_fields=True)
    top = msgspec.json.Decoder(dict[str, msgspec.Raw])
    rows = msgspec.json.Decoder(list[row])  # type: ignore[valid-type]
    value = msgspec.json.Decoder()
    unset = msgspec.UNSET
    kept = [key for key in keys if key not in TRANSCRIPT_KEYS]

    def decode(data: bytes) -> Any:
        document = {
            key: rows.decode(raw) if key == "rows" else value.decode(raw) for key, raw in top.decode(data).items()
        }
        if "rows" in document:
            document["rows"] = [
                {key: item for key in kept if (item := getattr(record, key)) is not unset}
                for record in document["rows"]
            ]
        return document

    return decode
