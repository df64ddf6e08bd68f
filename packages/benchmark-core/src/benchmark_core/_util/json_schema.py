"""The one JSON Schema validator of the house: graders, submissions and environment tools all use it.

Supported keywords: `type` (null, boolean, integer, number, string, array, object, or a list of
them; `integer` accepts 2.0, booleans are never numbers), `enum` (JSON equality), `anyOf`,
`required`, `properties`, `additionalProperties` (a boolean or a schema), `minProperties`, `items`
(a schema for every element, or a list of schemas by position), `minLength`, `pattern`
(`re.search` semantics, as JSON Schema's unanchored patterns), `minimum` and `maximum` (inclusive),
and `contentMediaType: application/json` with `contentSchema`'s `type` on strings (a JSON-encoded
value). Boolean schemas (`true`, `false`) are accepted anywhere a schema is. Every other keyword
(`$ref`, `oneOf`, `format`, ...) is ignored, so a schema that relies on one accepts more than the
full specification would.

`validate` returns the violations in document order (an object's keys in the value's own order,
required properties first), each a path into the value and a message:

    $.items[2].price: 12 is above maximum 10
    $.toolLog[0].name: expected a string, got an integer 5
    $.items[1]: missing required property "sku"
    arguments.extra: unknown property (allowed: path, version)

A malformed schema raises `SchemaError` naming the path inside the schema. Paths are built only
for violations, so a valid value costs no string work. The walk is recursive: callers hold values
to a nesting limit first (`benchmark_core.wire._submission`) or catch `RecursionError` (the graders).
"""

from __future__ import annotations

import contextlib
import math
import re
from typing import Any, Optional, Union

from attrs import frozen

from .json_values import is_number, json_equal, json_type, loads, path_step, show
from .text import shorten

__all__ = ["SchemaError", "Violation", "first_violation", "validate"]

TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
_ALLOWED_SHOWN = 120

# A path is built lazily as a chain of (parent, step) pairs; None is the root.
_Where = Optional[tuple[Any, Any]]


class SchemaError(ValueError):
    """The schema itself is malformed at `path` (a path into the schema, not into the value)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@frozen
class Violation:
    """One way a value breaks a schema: where (a path into the value) and how."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def validate(value: Any, schema: Any, *, root: str = "$", limit: int = 50) -> list[Violation]:
    """The violations of `schema` by `value`, at most `limit` of them, in document order; an
    empty list when the value is valid. `root` names the value in paths ("$", "arguments")."""
    walk = _Walk(root, limit)
    with contextlib.suppress(_Full):
        walk.check(value, schema, None, None)
    return walk.violations


def first_violation(value: Any, schema: Any, *, root: str = "$") -> Optional[Violation]:
    """The first violation in document order, or None; stops walking at the first one."""
    found = validate(value, schema, root=root, limit=1)
    return found[0] if found else None


class _Full(Exception):
    """The violation limit is reached: stop walking."""


def _render(root: str, where: _Where) -> str:
    steps: list[str] = []
    while where is not None:
        where, step = where
        steps.append(path_step(step))
    return root + "".join(reversed(steps))


def _article(kind: str) -> str:
    if kind == "null":
        return kind
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _got(value: Any) -> str:
    kind = json_type(value)
    if kind in ("array", "object"):
        return _article(kind)
    return f"{_article(kind)} {show(value)}"


def _has_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, (list, tuple))
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if not is_number(value):
        return False
    if name == "integer":
        return isinstance(value, int) or (math.isfinite(value) and float(value).is_integer())
    return isinstance(value, int) or math.isfinite(value)


class _Walk:
    def __init__(self, root: str, limit: int) -> None:
        self.root = root
        self.limit = limit
        self.violations: list[Violation] = []

    def fail(self, where: _Where, message: str) -> None:
        self.violations.append(Violation(_render(self.root, where), message))
        if len(self.violations) >= self.limit:
            raise _Full

    def check(self, value: Any, schema: Any, where: _Where, spath: _Where) -> None:
        if schema is True:
            return
        if schema is False:
            self.fail(where, "no value is allowed here")
            return
        if not isinstance(schema, dict):
            raise SchemaError(_render("$", spath), "a schema must be an object or a boolean")
        if "anyOf" in schema and not self._any_of(value, schema["anyOf"], where, (spath, "anyOf")):
            return
        if "type" in schema:
            types = _declared_types(schema["type"], spath)
            if not (_has_type(value, types[0]) or any(_has_type(value, t) for t in types[1:])):
                self.fail(where, f"expected {' or '.join(map(_article, types))}, got {_got(value)}")
                return
        if "enum" in schema:
            self._enum(value, schema["enum"], where, spath)
        if isinstance(value, dict):
            self._object(value, schema, where, spath)
        elif isinstance(value, (list, tuple)):
            self._array(value, schema, where, spath)
        elif isinstance(value, str):
            self._string(value, schema, where, spath)
        elif is_number(value):
            self._number(value, schema, where, spath)

    def _any_of(self, value: Any, options: Any, where: _Where, spath: _Where) -> bool:
        """True when the walk should go on with the rest of the schema. The value is judged by the
        options whose `type` it has (the model's unions have one option per JSON type), so the
        violation named is the one of the option that was meant."""
        if not isinstance(options, list) or not options:
            raise SchemaError(_render("$", spath), "must be a non-empty array")
        fitting = [
            (index, option)
            for index, option in enumerate(options)
            if not isinstance(option, dict)
            or "type" not in option
            or any(_has_type(value, t) for t in _declared_types(option["type"], (spath, index)))
        ]
        for _, option in fitting:
            if not validate(value, option, root=self.root, limit=1):
                return True
        if len(fitting) == 1:
            index, option = fitting[0]
            self.check(value, option, where, (spath, index))
            return False
        if not fitting:
            named = [_article(t) for option in options for t in _declared_types(option["type"], spath)]
            self.fail(where, f"expected {' or '.join(named)}, got {_got(value)}")
            return False
        self.fail(where, f"{show(value)} matches none of the anyOf schemas")
        return False

    def _enum(self, value: Any, options: Any, where: _Where, spath: _Where) -> None:
        if not isinstance(options, list):
            raise SchemaError(_render("$", (spath, "enum")), "must be an array")
        # a string equals only the same string, which `in` finds at C speed
        found = value in options if isinstance(value, str) else any(json_equal(option, value) for option in options)
        if not found:
            self.fail(where, f"{show(value)} is not one of {show(options)}")

    def _object(self, value: dict[Any, Any], schema: dict[str, Any], where: _Where, spath: _Where) -> None:
        required = schema.get("required", ())
        if not isinstance(required, (list, tuple)):
            raise SchemaError(_render("$", (spath, "required")), "must be an array of strings")
        for name in required:
            if not isinstance(name, str):
                raise SchemaError(_render("$", (spath, "required")), "must be an array of strings")
            if name not in value:
                self.fail(where, f"missing required property {show(name)}")
        least = schema.get("minProperties")
        if least is not None:
            if not isinstance(least, int) or isinstance(least, bool) or least < 0:
                raise SchemaError(_render("$", (spath, "minProperties")), "must be a non-negative integer")
            if len(value) < least:
                self.fail(where, f"expected at least {least} propert{'y' if least == 1 else 'ies'}, got {len(value)}")
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            raise SchemaError(_render("$", (spath, "properties")), "must be an object")
        additional = schema.get("additionalProperties", True)
        for name, item in value.items():
            here = (where, name)
            if not isinstance(name, str):
                self.fail(here, "object keys must be strings")
            elif name in properties:
                self.check(item, properties[name], here, ((spath, "properties"), name))
            elif additional is False:
                allowed = ", ".join(properties)
                self.fail(here, f"unknown property ({shorten(allowed, _ALLOWED_SHOWN) or 'none are allowed'})")
            elif additional is not True:
                self.check(item, additional, here, (spath, "additionalProperties"))

    def _array(
        self, value: Union[list[Any], tuple[Any, ...]], schema: dict[str, Any], where: _Where, spath: _Where
    ) -> None:
        if "items" not in schema:
            return
        items = schema["items"]
        if isinstance(items, list):  # the positional ("tuple") form: one schema per index
            for index, (item, subschema) in enumerate(zip(value, items)):
                self.check(item, subschema, (where, index), ((spath, "items"), index))
            return
        for index, item in enumerate(value):
            self.check(item, items, (where, index), (spath, "items"))

    def _string(self, value: str, schema: dict[str, Any], where: _Where, spath: _Where) -> None:
        if "minLength" in schema:
            least = schema["minLength"]
            if not isinstance(least, int) or isinstance(least, bool) or least < 0:
                raise SchemaError(_render("$", (spath, "minLength")), "must be a non-negative integer")
            if len(value) < least:
                self.fail(where, f"{show(value)} is shorter than minLength {least}")
        # a JSON-encoded value is judged by what it decodes to before its text is matched
        if schema.get("contentMediaType") == "application/json" and not self._encoded(
            value, schema.get("contentSchema", {}), where
        ):
            return
        if "pattern" in schema:
            source = schema["pattern"]
            if not isinstance(source, str):
                raise SchemaError(_render("$", (spath, "pattern")), "must be a string")
            if _compiled(source, spath).search(value) is None:
                self.fail(where, f"{show(value)} does not match pattern /{_one_line(source)}/")

    def _encoded(self, text: str, schema: Any, where: _Where) -> bool:
        """Whether a JSON-encoded value (a tool call's arguments as OpenAI sends them) decodes to the
        type `contentSchema` names; the decoded value's nesting is the caller's to check."""
        wanted = schema.get("type") if isinstance(schema, dict) else None
        try:
            decoded = loads(text)
        except ValueError:
            self.fail(where, f"expected a JSON-encoded {wanted or 'value'}, got a string that is not JSON")
            return False
        if isinstance(wanted, str) and not _has_type(decoded, wanted):
            self.fail(where, f"expected a JSON-encoded {wanted}, got a JSON-encoded {json_type(decoded)}")
            return False
        return True

    def _number(self, value: Union[int, float], schema: dict[str, Any], where: _Where, spath: _Where) -> None:
        for keyword, word in (("minimum", "below"), ("maximum", "above")):
            if keyword not in schema:
                continue
            bound = schema[keyword]
            if not is_number(bound) or (isinstance(bound, float) and not math.isfinite(bound)):
                raise SchemaError(_render("$", (spath, keyword)), "must be a finite number")
            if isinstance(value, float) and not math.isfinite(value):
                self.fail(where, f"{value!r} is not a finite number")
                return
            if (value < bound) if keyword == "minimum" else (value > bound):
                self.fail(where, f"{show(value)} is {word} {keyword} {show(bound)}")


_TYPE_LISTS: dict[str, tuple[str, ...]] = {name: (name,) for name in TYPES}


def _declared_types(declared: Any, spath: _Where) -> tuple[str, ...]:
    if isinstance(declared, str) and declared in _TYPE_LISTS:
        return _TYPE_LISTS[declared]
    if isinstance(declared, list) and declared and all(isinstance(n, str) and n in TYPES for n in declared):
        return tuple(declared)
    raise SchemaError(_render("$", (spath, "type")), f"must be one of {', '.join(TYPES)} or a non-empty list of them")


_PATTERNS: dict[str, re.Pattern[str]] = {}
_PATTERN_CACHE_SIZE = 512


def _compiled(source: str, spath: _Where) -> re.Pattern[str]:
    found = _PATTERNS.get(source)
    if found is None:
        try:
            found = re.compile(source)
        except Exception as exc:  # re.error, and OverflowError for huge repeat counts
            raise SchemaError(_render("$", (spath, "pattern")), f"invalid regular expression: {exc}") from None
        if len(_PATTERNS) >= _PATTERN_CACHE_SIZE:
            _PATTERNS.clear()
        _PATTERNS[source] = found
    return found


def _one_line(text: str) -> str:
    return shorten(text.replace("\n", "\\n").replace("\r", "\\r"), 80)
