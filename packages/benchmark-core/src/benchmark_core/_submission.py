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

from typing import Any, NoReturn, Optional

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
    _check_decoded_arguments(data, trace, path, what)
    return trace


def _check_decoded_arguments(data: dict[str, Any], trace: Trace, path: str, what: str) -> None:
    """JSON-encoded arguments (`toolCalls[].arguments`, the only strings structuring decodes) are
    objects now, and their nesting counts from where they sit: level 4, inside the submission, its
    `toolCalls` and the call. The rest of the trace holds exactly the data checked already, and the
    structure hook made each of them an object, so their depth is all there is left to check."""
    calls = data.get("toolCalls")
    if not isinstance(calls, list):
        return
    for index, call in enumerate(calls):
        if isinstance(call.get("arguments"), str):
            where = f"{path}{path_step('toolCalls')}{path_step(index)}{path_step('arguments')}"
            problem, _ = _too_deep(trace.tool_calls[index].arguments, where, depth=_ARGUMENTS_LEVEL)
            if problem is not None:
                _refuse(problem, what)


def check_submission(data: Any, *, path: str = "$", what: str = "submission") -> None:
    """Raise `InvalidSubmissionError` naming the path of the first problem, or return None."""
    problem, plain = _too_deep(data, path)
    if problem is None:
        # Wire data (what every remote surface sends) is validated as it is; only a value holding
        # attrs instances is copied into its wire shape first.
        violation = first_violation(data if plain else _plain(data), _SCHEMA, root=path)
        problem = None if violation is None else (violation.path, violation.message)
    if problem is not None:
        _refuse(problem, what)


def _refuse(problem: tuple[str, str], what: str) -> NoReturn:
    where, message = problem
    raise InvalidSubmissionError(f"invalid {what} at {where}: {message}", path=where)


def _too_deep(data: Any, root: str, depth: int = 1) -> tuple[Optional[tuple[str, str]], bool]:
    """The first container (in document order) nested deeper than MAX_NESTING, found iteratively
    (this is what stands between a hostile submission and a RecursionError), and whether every
    container met was plain JSON (no attrs instance). `depth` is the level of `data` itself.

    An attrs instance is an object with camelCase keys, as on the wire. Only containers go on the
    stack, and paths are built only for the offender."""
    plain = True
    # A frame is (index of the parent frame, key in the parent) for each container met.
    frames: list[tuple[int, Any]] = []
    stack: list[tuple[Any, int, int, Any]] = [(data, depth, -1, None)]
    while stack:
        value, level, parent, key = stack.pop()
        if isinstance(value, dict):
            children: Any = value.items()
        elif isinstance(value, (list, tuple)):
            children = enumerate(value)
        elif attrs.has(type(value)):
            plain = False
            children = [(camel(a.name), getattr(value, a.name)) for a in attrs.fields(type(value))]
        else:
            continue
        frames.append((parent, key))
        if level > MAX_NESTING:
            return (_path(root, frames), f"nested more than {MAX_NESTING} levels deep"), plain
        me = len(frames) - 1
        below = level + 1
        pushed = [(child, below, me, step) for step, child in children if not isinstance(child, _SCALARS)]
        pushed.reverse()
        stack.extend(pushed)
    return None, plain


def _path(root: str, frames: list[tuple[int, Any]]) -> str:
    """The path of the last frame, from the root."""
    steps: list[str] = []
    index = len(frames) - 1
    while index > 0:
        index, key = frames[index]
        steps.append(path_step(key))
    return root + "".join(reversed(steps))


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


#: Values that are never containers: the depth walk does not stack them.
_SCALARS = (str, int, float, type(None))
#: The level of a tool call's arguments: the submission, its `toolCalls`, the call, the arguments.
_ARGUMENTS_LEVEL = 4
_SCHEMA = submission_schema()
