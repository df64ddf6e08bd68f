"""A run row's light record: what the leaderboard reads of a row (its score, verdict, error, usage,
latency, groups and details), never its transcript (trace, episode, agent record), built into a
`RunRow` without the converter.

`ROW_FIELDS` names each wire key of a row and the kind of value it must hold. Two readers
interpret it: msgspec's (`_light`, where the `analysis` extra installs it) and `light_rows` here,
for plain JSON values. Both accept only what the converter would structure to the same value (a
string for a string, an integer for an integer, a number for a float, ...), so a row either
reads the same through all three or is refused here and read whole by the converter, whose result
or message stays the one of the whole file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Optional

import attrs

from .._model import RunRow, Usage
from .._model.reports import ServedCount
from ..wire._converter import camel

__all__ = ["ROW_FIELDS", "SERVED_FIELDS", "TRANSCRIPT_KEYS", "USAGE_FIELDS", "LightField", "light_rows"]

#: A row's transcript (its trace, episode and agent record): most of a report's bytes, never read by
#: the leaderboard (the report itself says which sandbox ran), and most of the time spent
#: structuring a report.
TRANSCRIPT_KEYS = frozenset({"trace", "episode", "agent"})

# The kinds of value: "str", "int", "float", "bool" (each as JSON has it; "float" takes any number),
# "?" before one of them also takes null; "groups" (an object of strings), "object" (any object),
# "usage" (a `Usage`), "served" (a list of `ServedCount`), "transcript" (any value, left unread).
ROW_KINDS = {
    "task_id": "str",
    "epoch": "?int",
    "score": "float",
    "passed": "bool",
    "reason": "str",
    "attempts": "int",
    "latency_ms": "int",
    "usage": "usage",
    "error": "?str",
    "groups": "groups",
    "details": "object",
    "trace": "transcript",
    "episode": "transcript",
    "error_code": "?str",
    "cache_hits": "int",
    "cached_cost_usd": "?float",
    "served_by": "served",
    "truncated": "int",
    "agent": "transcript",
}
USAGE_KINDS = {
    "prompt_tokens": "int",
    "completion_tokens": "int",
    "cost_usd": "?float",
    "reasoning_tokens": "?int",
    "cached_tokens": "?int",
    "cache_write_tokens": "?int",
    "cache_saved_usd": "?float",
}
SERVED_KINDS = {"model": "?str", "provider": "?str", "requests": "int"}


@attrs.frozen
class LightField:
    """One attribute of a record: its name, its wire key, its kind, and its default (attrs'; NOTHING
    when a row must have it)."""

    name: str
    key: str
    kind: str
    default: Any

    @property
    def required(self) -> bool:
        return self.default is attrs.NOTHING


def _fields(cls: type[Any], kinds: dict[str, str]) -> tuple[LightField, ...]:
    names = [field.name for field in attrs.fields(cls)]
    if names != list(kinds):  # a new attribute needs its kind here, or every report is read whole
        raise TypeError(f"the light record of {cls.__name__} does not name its attributes {names}")
    return tuple(
        LightField(field.name, camel(field.name), kinds[field.name], field.default) for field in attrs.fields(cls)
    )


ROW_FIELDS = _fields(RunRow, ROW_KINDS)
USAGE_FIELDS = _fields(Usage, USAGE_KINDS)
SERVED_FIELDS = _fields(ServedCount, SERVED_KINDS)


class _Refused(Exception):
    """A value the light record does not take: the row is read whole instead."""


def _plain(kind: str) -> Callable[[Any], Any]:
    expected: tuple[type[Any], ...] = {"str": (str,), "int": (int,), "float": (int, float), "bool": (bool,)}[kind]
    as_float = kind == "float"

    def check(value: Any) -> Any:
        # `type(...) in`, not isinstance: a boolean is no number here, as it is none in msgspec.
        if type(value) not in expected:
            raise _Refused
        return float(value) if as_float else value

    return check


def _optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


def _groups(value: Any) -> Any:
    if type(value) is not dict or any(type(label) is not str for label in value.values()):
        raise _Refused
    return value


def _object(value: Any) -> Any:
    if type(value) is not dict:
        raise _Refused
    return value


def _record(cls: type[Any], fields: Sequence[LightField]) -> Callable[[Any], Any]:
    """A reader of `cls`'s wire objects: its keys only, the required ones present, each value of its
    kind; a transcript is left out (the attribute keeps its default)."""
    checks = [
        (field.name, field.key, _CHECKS[field.kind], field.required) for field in fields if field.kind != "transcript"
    ]
    keys = frozenset(field.key for field in fields)

    def read(value: Any) -> Any:
        if type(value) is not dict or not keys.issuperset(value):
            raise _Refused
        values: dict[str, Any] = {}
        for name, key, check, required in checks:
            if key in value:
                values[name] = check(value[key])
            elif required:
                raise _Refused
        return cls(**values)

    return read


def _served(value: Any) -> Any:
    if type(value) is not list:
        raise _Refused
    return [_served_count(item) for item in value]


_CHECKS: dict[str, Callable[[Any], Any]] = {
    **{kind: _plain(kind) for kind in ("str", "int", "float", "bool")},
    **{f"?{kind}": _optional(_plain(kind)) for kind in ("str", "int", "float")},
    "groups": _groups,
    "object": _object,
    "served": _served,
}
_served_count = _record(ServedCount, SERVED_FIELDS)
_CHECKS["usage"] = _record(Usage, USAGE_FIELDS)


_row = _record(RunRow, ROW_FIELDS)


def light_rows(rows: Any) -> Optional[list[RunRow]]:
    """`rows` (a report's rows as plain JSON values) read as light records, or None when one of
    them is not one (the converter then reads them whole)."""
    if type(rows) is not list:
        return None
    try:
        return [_row(row) for row in rows]
    except _Refused:
        return None
