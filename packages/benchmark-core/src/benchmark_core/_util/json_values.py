"""JSON values: strict parsing, type names, equality, the first difference, paths and short renderings.

Every grader, checker and converter in the house reads JSON through these, so that "equal", "a
number" and "valid JSON" mean one thing everywhere:

- `loads` and `decode_prefix` parse strict JSON: `NaN`, `Infinity` and numbers beyond the range of
  a float (`1e999`) are refused, because no surface could write them out again as JSON.
- `json_equal` is JSON value equality: object key order is irrelevant, array order is not,
  `1 == 1.0`, booleans are never numbers (`true != 1`), strings compare exactly.
- `first_difference` names the first path at which two values differ (object keys in sorted order).
- `key_path` and `path_step` spell paths (`$.items[2].price`, `$["odd key"]`); `show` renders a
  value on one short line for reasons and error messages.

All walks are iterative or bounded by the caller, so a deeply nested value cannot exhaust the stack.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any, Optional

from .text import shorten

__all__ = [
    "KEY_LIMIT",
    "SHOW_LIMIT",
    "decode_prefix",
    "first_difference",
    "is_number",
    "json_equal",
    "json_text",
    "json_type",
    "key_path",
    "loads",
    "path_step",
    "show",
]

#: How many characters `show` keeps.
SHOW_LIMIT = 80
#: How many characters of an object key a path shows (a hostile key cannot blow up a message).
KEY_LIMIT = 32

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# -- parsing ---------------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range for a number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def loads(text: str | bytes) -> Any:
    """Parse strict JSON: `NaN`, `Infinity` and numbers beyond the range of a float are refused,
    because no surface could write them out again as JSON (Python's `json` accepts all three).

    Raises `ValueError` with a readable message: `json.JSONDecodeError` for a syntax error, a plain
    `ValueError` for the refused numbers and for nesting too deep to parse.
    """
    try:
        if isinstance(text, (bytes, bytearray)):
            text = text.decode(json.detect_encoding(text), "surrogatepass")  # as json.loads decodes bytes
        elif not isinstance(text, str) or text.startswith("\ufeff"):
            # json.loads' own refusals (a BOM in text, not text at all), with its own messages
            return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
        # The shared decoder: json.loads with options builds a new one on every call.
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def decode_prefix(text: str, start: int = 0) -> tuple[Any, int]:
    """The strict JSON value that starts at `text[start]` and where it ends (text may follow it);
    `ValueError` as `loads` raises it when no value starts there."""
    try:
        return _DECODER.raw_decode(text, start)
    except RecursionError:
        raise ValueError("nested too deeply") from None


# -- types -----------------------------------------------------------------------------------------


def is_number(value: Any) -> bool:
    """An int or a float, never a bool (booleans are not numbers in JSON)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def json_type(value: Any) -> str:
    """The JSON Schema type name of a value (`null`, `boolean`, `integer`, `number`, `string`,
    `array`, `object`); a float NaN or infinity is a `non-finite number`, anything else its Python
    type name. Booleans are never numbers, as in JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number" if math.isfinite(value) else "non-finite number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# -- equality and difference -----------------------------------------------------------------------


def _same_scalar(x: Any, y: Any) -> bool:
    """JSON equality of two values that are not both arrays or both objects."""
    if x is None or y is None:
        return x is None and y is None
    if isinstance(x, bool) or isinstance(y, bool):
        return isinstance(x, bool) and isinstance(y, bool) and x == y
    if is_number(x) or is_number(y):
        return is_number(x) and is_number(y) and bool(x == y)
    if isinstance(x, str) or isinstance(y, str):
        return isinstance(x, str) and isinstance(y, str) and x == y
    return False  # neither is a JSON value


_EXACT_TYPES = (str, int, bool, type(None))


def json_equal(a: Any, b: Any) -> bool:
    """JSON value equality (see the module docstring), iterative so that deep nesting cannot
    exhaust the stack."""
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        kind = type(x)
        if kind is type(y):  # the common case, decided by type alone
            if kind is dict:
                if x.keys() != y.keys():
                    return False
                stack.extend((x[k], y[k]) for k in x)
                continue
            if kind is list:
                if len(x) != len(y):
                    return False
                stack.extend(zip(x, y))
                continue
            if kind in _EXACT_TYPES or kind is float:
                if x != y:
                    return False
                continue
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif not _same_scalar(x, y):
            return False
    return True


def first_difference(expected: Any, got: Any, path: str = "$") -> Optional[str]:
    """None when the two JSON values are equal; else the first differing path and how it differs,
    object keys visited in sorted order: `arguments.kind: expected "enhancement", got "feature"`,
    `$.a: expected 1, got nothing (missing)`, `$.b: unexpected field (got 2)`,
    `$.items: expected 2 items, got 3`. `path` is the root's name ("" for bare key names).

    Equal values (the common case) are recognised without building any path."""
    if json_equal(expected, got):
        return None
    while True:
        if isinstance(expected, dict) and isinstance(got, dict):
            for key in sorted(expected.keys() | got.keys(), key=str):
                if key not in got:
                    return f"{key_path(path, key)}: expected {show(expected[key])}, got nothing (missing)"
                if key not in expected:
                    return f"{key_path(path, key)}: unexpected field (got {show(got[key])})"
                if not json_equal(expected[key], got[key]):
                    expected, got, path = expected[key], got[key], key_path(path, key)
                    break
            continue
        if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
            for index, (want, have) in enumerate(zip(expected, got)):
                if not json_equal(want, have):
                    expected, got, path = want, have, f"{path}[{index}]"
                    break
            else:
                return f"{path}: expected {len(expected)} items, got {len(got)}"
            continue
        return f"{path}: expected {show(expected)}, got {show(got)}"


# -- paths and renderings --------------------------------------------------------------------------


def path_step(key: Any, limit: int = KEY_LIMIT) -> str:
    """One step of a path: `[3]` for an index, `.name` for an identifier key, `["odd key"]`
    otherwise; a key longer than `limit` is shortened to it."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"[{key}]"
    text = str(key)
    if len(text) > limit:
        return f"[{json.dumps(shorten(text, limit), ensure_ascii=False)}]"
    if _IDENTIFIER.fullmatch(text):
        return f".{text}"
    return f"[{json.dumps(text, ensure_ascii=False)}]"


def key_path(path: str, key: Any) -> str:
    """`path` followed by the object key `key`: `$.name`, `$["a b"]`; from an empty path, the key
    alone (`name`, or `"a b"` quoted when it is not an identifier)."""
    step = path_step(str(key))
    if path:
        return path + step
    return step[1:] if step.startswith(".") else step[1:-1]


def json_text(value: Any) -> str:
    """`value` as JSON text (keys in their own order), or its repr when it is not JSON. Never raises."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        try:
            return repr(value)
        except Exception:  # a hostile __repr__
            return f"<{type(value).__name__}>"


def show(value: Any) -> str:
    """A short, single-line rendering of a value for reasons: `json_text`, line breaks escaped,
    cut to `SHOW_LIMIT` characters. Never raises."""
    return shorten(json_text(value).replace("\n", "\\n").replace("\r", "\\r"), SHOW_LIMIT)


def jsonl_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of JSONL text, with their line numbers (from 1).

    Lines end at "\n" only: `str.splitlines` also splits at U+2028 and U+0085, which a JSON string
    may hold unescaped (`dumps` writes them as they are).
    """
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            yield number, line
