"""Indented JSON text, byte for byte what `json.dumps(value, ensure_ascii=False, indent=indent,
allow_nan=False)` writes, 2.5 to 3.5 times faster (the two benchmarks' task lists).

Python (before 3.13) writes indented JSON with its pure-Python encoder, a chain of generators, and
every `--json` document and saved report is indented: `list --json` spent more time there than in
reading its task file. This writer walks plain JSON data (dicts with string keys, lists, strings,
ints, finite floats, booleans and None, of exactly those types) in one recursive pass and leaves the
escaping of strings to the C function the standard encoder uses. Anything else (a tuple, a subclass,
a non-string key, NaN, an object to refuse, a cycle, nesting past the recursion limit) hands the whole
value to `json.dumps`, which then writes the same text or raises its own error.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from math import isfinite
from typing import Any


class _NotPlain(Exception):
    """A value the standard encoder should handle (or refuse) itself."""


def indented_json(value: Any, indent: int = 2) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)`: the same text, or the same error."""
    parts: list[str] = []
    try:
        _write(value, "\n", " " * indent, parts.append)
    except (_NotPlain, RecursionError, ValueError):
        return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    return "".join(parts)


def _write(value: Any, newline: str, step: str, write: Any) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            write("{}")
            return
        inner = newline + step
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            # Leaves are written here, without a call for each: most values are strings and numbers.
            leaf = encode_basestring(item) if type(item) is str else _leaf(item)
            if leaf is None:
                write(separator + encode_basestring(key) + ": ")
                _write(item, inner, step, write)
            else:
                write(separator + encode_basestring(key) + ": " + leaf)
            separator = "," + inner
        write(newline + "}")
    elif kind is list:
        if not value:
            write("[]")
            return
        inner = newline + step
        separator = "[" + inner
        for item in value:
            leaf = encode_basestring(item) if type(item) is str else _leaf(item)
            if leaf is None:
                write(separator)
                _write(item, inner, step, write)
            else:
                write(separator + leaf)
            separator = "," + inner
        write(newline + "]")
    else:
        leaf = _leaf(value)
        if leaf is None:
            raise _NotPlain
        write(leaf)


def _leaf(value: Any) -> str | None:
    """The text of a plain scalar, or None for a container or anything the standard encoder decides."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int or (kind is float and isfinite(value)):
        return repr(value)
    return None
