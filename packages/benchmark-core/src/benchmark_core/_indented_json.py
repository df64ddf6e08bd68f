"""Indented JSON text, byte for byte what `json.dumps(value, ensure_ascii=False, indent=indent,
allow_nan=False)` writes, in a third of the time.

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
            if type(item) is str:  # most leaves are strings: no call for them
                write(separator + encode_basestring(key) + ": " + encode_basestring(item))
            else:
                write(separator + encode_basestring(key) + ": ")
                _write(item, inner, step, write)
            separator = "," + inner
        write(newline + "}")
    elif kind is list:
        if not value:
            write("[]")
            return
        inner = newline + step
        separator = "[" + inner
        for item in value:
            if type(item) is str:
                write(separator + encode_basestring(item))
            else:
                write(separator)
                _write(item, inner, step, write)
            separator = "," + inner
        write(newline + "]")
    elif kind is str:
        write(encode_basestring(value))
    elif value is None:
        write("null")
    elif value is True:
        write("true")
    elif value is False:
        write("false")
    elif kind is int or (kind is float and isfinite(value)):
        write(repr(value))
    else:
        raise _NotPlain
