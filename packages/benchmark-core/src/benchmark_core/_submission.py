"""What a submission may be, checked before any grading, the same way on every surface.

A submission is the wire form of `Trace`: `{answer?, toolCalls?, toolLog?, finalState?}`. Graders,
simulators and the converter all assume that shape and walk its values recursively, so a hostile
submission must be refused first, never met halfway through a replay. `check_submission` refuses,
naming the JSON path of the first problem in document order (the schema part is checked by the
house's one validator, `benchmark_core._json_schema`):

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

from typing import Any, Optional

import attrs

from ._errors import InvalidSubmissionError, UsageError
from ._json_schema import first_violation
from ._json_values import path_step
from ._model import Trace
from ._wire import camel, from_wire
from ._wire_schema import JsonSchema, wire_schema

#: The deepest nesting of arrays and objects a submission may have, the submission object being level 1.
MAX_NESTING = 64


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
    # JSON-encoded arguments (`toolCalls[].arguments`, the only strings structuring decodes) are
    # objects now, and their nesting counts from where they sit: check again only when there were
    # some, since otherwise the trace holds exactly the data checked above.
    if _has_encoded_arguments(data):
        check_submission(trace, path=path, what=what)
    return trace


def _has_encoded_arguments(data: dict[str, Any]) -> bool:
    calls = data.get("toolCalls")
    return isinstance(calls, list) and any(isinstance(call.get("arguments"), str) for call in calls)


def check_submission(data: Any, *, path: str = "$", what: str = "submission") -> None:
    """Raise `InvalidSubmissionError` naming the path of the first problem, or return None."""
    problem = _too_deep(data, path)
    if problem is None:
        violation = first_violation(_plain(data), _SCHEMA, root=path)
        problem = None if violation is None else (violation.path, violation.message)
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
        stack.extend((child, depth + 1, me, path_step(key)) for key, child in reversed(children))
    return None


def _path(frames: list[tuple[int, str]], index: int) -> str:
    steps: list[str] = []
    while index >= 0:
        index, step = frames[index]
        steps.append(step)
    return "".join(reversed(steps))


def _plain(value: Any) -> Any:
    """`value` with attrs instances read as objects with camelCase keys, as on the wire, for the
    validator (only called on values already known to nest at most MAX_NESTING levels)."""
    if attrs.has(type(value)):
        return {camel(a.name): _plain(getattr(value, a.name)) for a in attrs.fields(type(value))}
    if isinstance(value, dict):
        return {key: _plain(child) for key, child in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(child) for child in value]
    return value


_SCHEMA = submission_schema()
