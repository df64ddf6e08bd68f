"""What a submission may be, checked before any grading, the same way on every surface.

A submission is the wire form of `Trace`: `{answer?, toolCalls?, toolLog?, finalState?}`. Graders,
simulators and the converter all assume that shape and walk its values recursively, so a hostile
submission must be refused first, never met halfway through a replay. `check_submission` refuses,
naming the JSON path of the first problem in document order:

- nesting of arrays and objects deeper than `MAX_NESTING` levels, counted from the submission
  object itself (level 1), because a few hundred levels exhaust Python's stack in any recursive
  walk;
- anything the published schema (`submission_schema`, the `Trace` schema of the OpenAPI document)
  does not allow: `toolLog` and `toolCalls` that are not arrays, a tool name that is not a string,
  arguments that are not an object (or, in `toolCalls`, a JSON-encoded object, which the schema
  states with `contentMediaType` and `contentSchema`), unknown keys.

The depth walk is iterative, and the schema walk only starts once the depth is known to be small,
so no input can exhaust the stack here. A `Trace` built in Python is checked the same way as its
wire form (attrs instances read as objects with camelCase keys).
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

import attrs

from .errors import InvalidSubmissionError, UsageError
from .model import Trace
from .text import shorten
from .wire import camel, from_wire, json_type, loads
from .wire_schema import JsonSchema, wire_schema

#: The deepest nesting of arrays and objects a submission may have, the submission object being level 1.
MAX_NESTING = 64

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY_SHOWN = 32


def submission_schema() -> JsonSchema:
    """The JSON Schema of a submission, as enforced by `check_submission` (except the nesting limit,
    which JSON Schema cannot express and the description states)."""
    schema = wire_schema(Trace, incoming=True)
    schema["description"] = (
        f"{schema.get('description', '')} Arrays and objects may nest at most {MAX_NESTING} levels deep, "
        "the submission object being level 1; deeper submissions are refused with INVALID_SUBMISSION."
    ).strip()
    return schema


def parse_submission(data: Any, *, path: str = "$", what: str = "submission") -> Trace:
    """A checked submission as a `Trace`; anything else is `InvalidSubmissionError` (HTTP 422).

    `path` is where the submission sits in the caller's document (`$.submission` in a score
    request), so that the error names the path the caller sent; `what` leads the message.
    """
    check_submission(data, path=path, what=what)
    try:
        trace = from_wire(data, Trace, what=what)
    except UsageError as exc:
        raise InvalidSubmissionError(exc.message, path=path) from None
    # JSON-encoded arguments are decoded now, and their nesting counts from where they sit.
    check_submission(trace, path=path, what=what)
    return trace


def check_submission(data: Any, *, path: str = "$", what: str = "submission") -> None:
    """Raise `InvalidSubmissionError` naming the path of the first problem, or return None."""
    problem = _too_deep(data, path) or _schema_problem(data, _SCHEMA, path)
    if problem is not None:
        where, message = problem
        raise InvalidSubmissionError(f"invalid {what} at {where}: {message}", path=where)


def _children(value: Any) -> Optional[list[tuple[Any, Any]]]:
    """(key or index, child) of an array or object, None for a scalar. An attrs instance is an
    object with camelCase keys, as on the wire."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, (list, tuple)):
        return list(enumerate(value))
    if attrs.has(type(value)):
        return [(camel(a.name), getattr(value, a.name)) for a in attrs.fields(type(value))]
    return None


def _step(key: Any) -> str:
    """One path step: `[3]` for an index, `.name` for a plain key, `["odd key"]` otherwise (long
    keys shortened, so that a hostile key cannot blow up the message)."""
    if isinstance(key, int):
        return f"[{key}]"
    text = str(key)
    if _IDENTIFIER.fullmatch(text) and len(text) <= _KEY_SHOWN:
        return f".{text}"
    return f"[{json.dumps(shorten(text, _KEY_SHOWN), ensure_ascii=False)}]"


def _too_deep(data: Any, root: str) -> Optional[tuple[str, str]]:
    """The first container (in document order) nested deeper than MAX_NESTING, found iteratively
    (this is what stands between a hostile submission and a RecursionError)."""
    # A frame is (index of the parent frame, path step from the parent); paths are built only for
    # the offender.
    frames: list[tuple[int, str]] = []
    stack: list[tuple[Any, int, int, str]] = [(data, 1, -1, root)]
    while stack:
        value, depth, parent, step = stack.pop()
        children = _children(value)
        if children is None:
            continue
        frames.append((parent, step))
        if depth > MAX_NESTING:
            return _path(frames, len(frames) - 1), f"nested more than {MAX_NESTING} levels deep"
        me = len(frames) - 1
        stack.extend((child, depth + 1, me, _step(key)) for key, child in reversed(children))
    return None


def _path(frames: list[tuple[int, str]], index: int) -> str:
    steps: list[str] = []
    while index >= 0:
        index, step = frames[index]
        steps.append(step)
    return "".join(reversed(steps))


def _kind(value: Any) -> str:
    return "object" if attrs.has(type(value)) else json_type(value)


def _article(kind: str) -> str:
    if kind == "null":
        return kind
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _type_fits(actual: str, wanted: Optional[str]) -> bool:
    return wanted is None or actual == wanted or (wanted == "number" and actual == "integer")


def _schema_problem(value: Any, schema: JsonSchema, path: str) -> Optional[tuple[str, str]]:
    """The first way `value` breaks `schema` (the keywords `wire_schema` emits), recursively: only
    called on values already known to nest at most MAX_NESTING levels."""
    actual = _kind(value)
    if "anyOf" in schema:
        # wire_schema's unions have one option per JSON type: judge the value by the one of its type
        options = schema["anyOf"]
        for option in options:
            if _type_fits(actual, option.get("type")):
                return _schema_problem(value, option, path)
        wanted = " or ".join(_article(option["type"]) for option in options)
        return path, f"expected {wanted}, got {_article(actual)}"
    kind: Optional[str] = schema.get("type")
    if kind is not None and not _type_fits(actual, kind):
        return path, f"expected {_article(kind)}, got {_article(actual)}"
    if "enum" in schema and not any(value == c and _kind(c) == actual for c in schema["enum"]):
        return path, "must be one of " + ", ".join(json.dumps(choice) for choice in schema["enum"])
    if kind == "string" and schema.get("contentMediaType") == "application/json":
        return _encoded_problem(value, schema.get("contentSchema", {}), path)
    if kind == "array":
        for index, item in enumerate(value):
            problem = _schema_problem(item, schema.get("items", {}), f"{path}[{index}]")
            if problem is not None:
                return problem
    if kind == "object":
        return _object_problem(value, schema, path)
    return None


def _encoded_problem(text: str, schema: JsonSchema, path: str) -> Optional[tuple[str, str]]:
    """A JSON-encoded value (a tool call's arguments as OpenAI sends them) must decode to the type
    `contentSchema` names. Its nesting is checked on the structured trace, where its depth is known."""
    wanted = schema.get("type")
    try:
        decoded = loads(text)
    except ValueError:
        return path, f"expected a JSON-encoded {wanted or 'value'}, got a string that is not JSON"
    if wanted is not None and not _type_fits(_kind(decoded), wanted):
        return path, f"expected a JSON-encoded {wanted}, got a JSON-encoded {_kind(decoded)}"
    return None


def _object_problem(value: Any, schema: JsonSchema, path: str) -> Optional[tuple[str, str]]:
    children = _children(value) or []
    properties: JsonSchema = schema.get("properties", {})
    names = {key for key, _ in children}
    for name in schema.get("required", []):
        if name not in names:
            return path, f"missing required key {json.dumps(name)}"
    extra = schema.get("additionalProperties", True)
    for key, child in children:
        where = path + _step(key)
        if not isinstance(key, str):
            return where, "object keys must be strings"
        if key in properties:
            problem = _schema_problem(child, properties[key], where)
        elif extra is False:
            problem = where, f"unknown key; expected one of {', '.join(properties)}"
        elif isinstance(extra, dict):
            problem = _schema_problem(child, extra, where)
        else:
            problem = None
        if problem is not None:
            return problem
    return None


_SCHEMA = submission_schema()
