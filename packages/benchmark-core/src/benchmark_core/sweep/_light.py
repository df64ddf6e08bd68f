"""A report's JSON decoded by msgspec (the `analysis` extra), its rows as light records
(`_light_rows`): no transcript is built.

The leaderboard reads no transcript, and a row's trace and episode are most of a report's bytes. So
the document is decoded as its top-level keys over undecoded values (`msgspec.Raw`), and its rows
as msgspec structs of `ROW_FIELDS`, typed as the converter would structure them, whose `trace`,
`episode` and `agent` stay undecoded (msgspec steps over those bytes without building a Python
object for them); each struct then becomes a `RunRow`. A file msgspec cannot read, or whose rows
are not light records (a key no run row has, a value of another type), is returned as None, and
the caller reads it whole, so its result or message stays the one of the whole file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import attrs

from .._model import RunRow, Usage
from .._model.reports import ServedCount
from ._light_rows import ROW_FIELDS, SERVED_FIELDS, USAGE_FIELDS, LightField

__all__ = ["light_document"]


def light_document(path: Path) -> Optional[dict[str, Any]]:
    """The report at `path`, its top-level values decoded and its `rows` (when it has them) as
    `RunRow`s without transcripts; None without msgspec, for a file msgspec cannot read (bad JSON, a
    byte-order mark, NaN, a number out of range) or rows that are not light records."""
    decode = _decoder()
    if decode is None:
        return None
    try:
        return decode(path.read_bytes())
    except (OSError, ValueError):  # msgspec's DecodeError and ValidationError are ValueErrors
        return None


@functools.lru_cache(maxsize=1)
def _decoder() -> Optional[Callable[[bytes], dict[str, Any]]]:
    try:
        import msgspec
    except ImportError:
        return None
    served, build_served = _struct(msgspec, "LightServedCount", ServedCount, SERVED_FIELDS, {})
    usage, build_usage = _struct(msgspec, "LightUsage", Usage, USAGE_FIELDS, {})
    nested = {"usage": (usage, build_usage), "served": (list[served], lambda items: [build_served(i) for i in items])}  # type: ignore[valid-type]
    row, build_row = _struct(msgspec, "LightRow", RunRow, ROW_FIELDS, nested)
    top = msgspec.json.Decoder(dict[str, msgspec.Raw])
    rows = msgspec.json.Decoder(list[row])  # type: ignore[valid-type]
    value = msgspec.json.Decoder()

    def decode(data: bytes) -> dict[str, Any]:
        raws = top.decode(data)
        document = {key: value.decode(raw) for key, raw in raws.items() if key != "rows"}
        if "rows" in raws:
            document["rows"] = [build_row(record) for record in rows.decode(raws["rows"])]
        return document

    return decode


#: msgspec's type for each plain kind of `_light_rows`.
_PLAIN: dict[str, Any] = {"str": str, "int": int, "float": float, "bool": bool}


def _struct(
    msgspec: Any,
    name: str,
    cls: type[Any],
    fields: Sequence[LightField],
    nested: dict[str, tuple[Any, Callable[[Any], Any]]],
) -> tuple[Any, Callable[[Any], Any]]:
    """A msgspec struct for `fields` (each typed by its kind, with the attribute's default when
    absent) and the function that builds a `cls` from one of its values."""

    def typed(kind: str) -> Any:
        if kind.startswith("?"):
            return Optional[_PLAIN[kind[1:]]]
        if kind in _PLAIN:
            return _PLAIN[kind]
        return {"groups": dict[str, str], "object": dict[str, Any], "transcript": msgspec.Raw}.get(kind) or nested[
            kind
        ][0]

    def default(field: LightField) -> Any:
        if field.kind == "transcript":
            return None  # never read: `build` leaves it out, and the attribute keeps its default
        if field.kind in nested:  # a record of its own (or a list of them): an empty one
            return msgspec.field(default_factory=nested[field.kind][0])
        if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            return msgspec.field(default_factory=field.default.factory)
        return field.default

    specs = [
        (field.name, typed(field.kind)) if field.required else (field.name, typed(field.kind), default(field))
        for field in fields
    ]
    # defstruct rather than a class statement: this module's annotations are strings (PEP 563).
    struct = msgspec.defstruct(
        name, specs, rename={f.name: f.key for f in fields}, forbid_unknown_fields=True, kw_only=True
    )
    transcripts = [field.name for field in fields if field.kind == "transcript"]
    inner = [(field.name, nested[field.kind][1]) for field in fields if field.kind in nested]
    values_of = msgspec.structs.asdict

    def build(record: Any) -> Any:
        values = values_of(record)
        for attribute in transcripts:
            del values[attribute]
        for attribute, make in inner:
            values[attribute] = make(values[attribute])
        return cls(**values)

    return struct, build
