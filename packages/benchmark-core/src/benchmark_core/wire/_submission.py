"""What a submission may be, checked before any grading, the same way on every surface.

A submission is the wire form of `Trace`: `{answer?, toolCalls?, toolLog?, finalState?}`. Graders,
simulators and the converter all assume that shape and walk its values recursively, so a hostile
submission must be refused first, never met halfway through a replay. `check_submission` refuses,
naming the JSON path of the first problem in document order (the schema part is checked by the
house's one validator, `benchmark_core._util.json_schema`):

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

from collections.abc import Iterable
from typing import Any, NoReturn, Optional

import attrs

from .._model import Trace
from .._util.json_schema import first_violation
from .._util.json_values import path_step
from ..errors._base import UsageError
from ..errors._tasks import InvalidSubmissionError
from ._converter import camel, from_wire
from ._schema import JsonSchema, wire_schema

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
    calls, structured = data.get("toolCalls"), trace.tool_calls
    if not isinstance(calls, list) or structured is None:
        return
    for index, call in enumerate(calls):
        if isinstance(call.get("arguments"), str):
            where = f"{path}{path_step('toolCalls')}{path_step(index)}{path_step('arguments')}"
            problem, _ = _too_deep(structured[index].arguments, where, depth=_ARGUMENTS_LEVEL)
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
    container met was plain JSON (no attrs instance). `depth` is the level of `data` itself; an
    attrs instance is an object with camelCase keys, as on the wire.

    The walk goes level by level and keeps only the containers of the next level, without their
    paths: that is all it takes to know that a submission is shallow enough, which almost every
    one is. Only a submission that is too deep is walked again in document order, to name the
    first container that is."""
    plain = True
    level, level_depth = [data], depth
    while level:
        below: list[Any] = []
        for value in level:
            # `_children` without the keys, inline: this loop runs for every container
            if isinstance(value, dict):
                children: Iterable[Any] = value.values()
            elif isinstance(value, (list, tuple)):
                children = value
            elif attrs.has(type(value)):
                plain = False
                children = [getattr(value, a.name) for a in attrs.fields(type(value))]
            else:
                continue
            if level_depth > MAX_NESTING:
                return (_first_too_deep(data, root, depth), f"nested more than {MAX_NESTING} levels deep"), plain
            below.extend([child for child in children if type(child) not in _SCALAR_TYPES])
        level = below
        level_depth += 1
    return None, plain


def _children(value: Any) -> Optional[Iterable[tuple[Any, Any]]]:
    """(key or index, child) of an array or object, None for anything else."""
    if isinstance(value, dict):
        return value.items()
    if isinstance(value, (list, tuple)):
        return enumerate(value)
    if attrs.has(type(value)):
        return [(camel(a.name), getattr(value, a.name)) for a in attrs.fields(type(value))]
    return None


def _first_too_deep(data: Any, root: str, depth: int) -> str:
    """The path of the first container in document order nested deeper than MAX_NESTING (there is
    one), walked depth first with a stack."""
    # A frame is (index of the parent frame, key in the parent) for each container met.
    frames: list[tuple[int, Any]] = []
    stack: list[tuple[Any, int, int, Any]] = [(data, depth, -1, None)]
    while stack:
        value, level, parent, key = stack.pop()
        children = _children(value)
        if children is None:
            continue
        frames.append((parent, key))
        if level > MAX_NESTING:
            return _path(root, frames)
        me = len(frames) - 1
        pushed = [(child, level + 1, me, step) for step, child in children if type(child) not in _SCALAR_TYPES]
        pushed.reverse()
        stack.extend(pushed)
    raise AssertionError("no container is nested too deep")


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


#: Values that are never containers: the depth walks skip them.
_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
#: The level of a tool call's arguments: the submission, its `toolCalls`, the call, the arguments.
_ARGUMENTS_LEVEL = 4
_SCHEMA = submission_schema()
