"""The one converter between the attrs model and the camelCase JSON wire format.

The CLI, the HTTP API and the MCP server all go through `to_wire`/`from_wire`, so a report written by
any of them is the same document. Keys come out in attribute order. Unknown keys are rejected when
structuring, so a typo in a task file or a submission is an error, not a silently ignored field.
`dumps` writes the JSON text, refusing what is not strict JSON; `benchmark_core._util.json_values.loads`
reads it.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.v import format_exception

from .._model.tasks import JsonObject
from .._util.indented_json import indented_json
from .._util.json_values import json_type, loads
from ..errors._base import BenchmarkError, UsageError

T = TypeVar("T")


def camel(name: str) -> str:
    """snake_case -> camelCase (`confidence_interval95` -> `confidenceInterval95`)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _make_converter(*, copy_values: bool = True) -> cattrs.Converter:
    """The converter; with `copy_values=False`, one whose wire forms share the JSON values (dicts
    and lists typed `Any` or `JsonObject`) of what they convert instead of copying them (`wire_view`)."""
    conv = cattrs.Converter(forbid_extra_keys=True)

    # cattrs takes per-attribute overrides as keyword arguments; mypy cannot see their names.
    make_unstructure: Any = make_dict_unstructure_fn
    make_structure: Any = make_dict_structure_fn

    def renames(cls: type[Any]) -> dict[str, Any]:
        return {
            a.name: override(rename=camel(a.name), omit_if_default=a.metadata.get("omit_if_default", False))
            for a in attrs.fields(cls)
        }

    def unstructure_factory(cls: type[Any]) -> Any:
        if _flattened_field(cls) is not None:
            return _flattened_unstructure(conv, cls)
        return make_unstructure(cls, conv, **renames(cls))

    def structure_factory(cls: type[Any]) -> Any:
        if _flattened_field(cls) is not None:
            return _flattened_structure(conv, cls)
        overrides = renames(cls)
        for a in attrs.fields(cls):
            if a.metadata.get("may_be_json_string"):
                # OpenAI sends arguments as a JSON-encoded string; a call pasted verbatim is accepted.
                hook = functools.partial(_structure_json_object, camel(a.name))
                overrides[a.name] = override(rename=camel(a.name), struct_hook=hook)
        return make_structure(cls, conv, _cattrs_forbid_extra_keys=True, **overrides)

    conv.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    conv.register_structure_hook_factory(attrs.has, structure_factory)

    def copy_json(value: Any) -> Any:
        # What cattrs would return, a copy with every value unstructured by its own class, without
        # dispatching each string and number: JSON values (answers, metadata, schemas, details) are
        # most of what a task list or a report holds.
        if type(value) is dict:
            return {
                key if type(key) is str else conv.unstructure(key): item if type(item) in _SCALARS else copy_json(item)
                for key, item in value.items()
            }
        if type(value) is list:
            return [item if type(item) in _SCALARS else copy_json(item) for item in value]
        return conv.unstructure(value)

    def share_json(value: Any) -> Any:
        return value

    # Values typed `Any` are unstructured by their runtime class (exactly dict or list here), and
    # `JsonObject` attributes are declared `dict[str, Any]`.
    conv.register_unstructure_hook_func(
        lambda cls: cls is dict or cls is list or cls == JsonObject, copy_json if copy_values else share_json
    )
    return conv


#: The types cattrs unstructures as themselves (exactly these: a subclass goes through its hooks).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _flattened_field(cls: type[Any]) -> attrs.Attribute[Any] | None:
    """The attribute whose mapping sits at the top level of `cls`'s wire form (`FLATTENED`), if any."""
    flattened = [a for a in attrs.fields(cls) if a.metadata.get("flattened")]
    if len(flattened) > 1:
        raise TypeError(f"{cls.__name__} flattens more than one attribute into its wire form")
    return flattened[0] if flattened else None


def _flattened_unstructure(conv: cattrs.Converter, cls: type[Any]) -> Any:
    """A report's summary sits at the top level, where the attribute stands (between `usage` and `rows`)."""
    fields = attrs.fields(attrs.resolve_types(cls))  # each value is unstructured as its declared type

    def unstructure(value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in fields:
            item = getattr(value, a.name)
            if a.metadata.get("flattened"):
                out.update(conv.unstructure(item))
            elif not (a.metadata.get("omit_if_default") and item == _default_of(a)):
                out[camel(a.name)] = conv.unstructure(item, a.type)
        return out

    return unstructure


def _flattened_structure(conv: cattrs.Converter, cls: type[Any]) -> Any:
    """The inverse: keys that name no attribute go back into the flattened mapping."""
    flattened = _flattened_field(cls)
    assert flattened is not None
    fields = [a for a in attrs.fields(attrs.resolve_types(cls)) if a.name != flattened.name]
    keys = {camel(a.name) for a in fields}
    noun = _WORDS.sub(" ", cls.__name__).lower()  # RunReport -> "run report"

    def structure(data: Any, _: type[Any]) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"a {noun} must be a JSON object")
        kwargs: dict[str, Any] = {}
        for a in fields:
            key = camel(a.name)
            if key in data:
                kwargs[a.name] = conv.structure(data[key], cast(Any, a.type))
            elif a.default is attrs.NOTHING:
                raise ValueError(f"{noun} is missing required key {key!r}")
        kwargs[flattened.name] = {k: v for k, v in data.items() if k not in keys}
        return cls(**kwargs)

    return structure


# Where a class name's words meet: "RunReport" -> "Run Report".
_WORDS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _default_of(a: attrs.Attribute[Any]) -> Any:
    default: Any = a.default
    return default.factory() if isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]


class _HookError(ValueError):
    """Raised by this module's own structure hooks, whose messages are already readable."""


def _structure_json_object(name: str, value: Any, _: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = loads(value)
        except ValueError:
            raise _HookError(f"{name} is a string that is not a JSON object") from None
    if not isinstance(value, dict):
        raise _HookError(f"{name} must be an object (or a JSON-encoded object)")
    return value


converter = _make_converter()
_sharing_converter = _make_converter(copy_values=False)


def to_wire(value: Any) -> Any:
    """An attrs value (or a container of them) as plain JSON-compatible data with camelCase keys."""
    return converter.unstructure(value)


def wire_view(value: Any) -> Any:
    """`to_wire(value)` for encoding at once, without copying: the JSON values (dicts and lists) it
    holds are `value`'s own, unconverted, so it is never to be kept or changed.

    Copying is most of `to_wire`'s time for a turn checkpoint (a tool's result is a tree of dicts).
    Wherever the encoder accepts the view, it writes what it writes for `to_wire(value)`: the copy
    differs only where a value is not plain JSON (an attrs instance, a set, a tuple key), which the
    encoder refuses (`TypeError`), or where the two encode alike (a tuple as a list, an enum or a
    `str`/`int` subclass as its value). So encode the view, and on `TypeError`, `ValueError` or
    `RecursionError` (a cycle) encode `to_wire(value)`, which then decides (`runs._journal`). One
    difference is left: a value nested between about 500 and 1,000 levels deep, too deep for the
    copy's recursion (two frames a level), is encoded from the view (one level of the C encoder's).
    """
    return _sharing_converter.unstructure(value)


def from_wire(data: Any, cls: type[T], *, what: str | None = None) -> T:
    """Structure wire data into `cls`, raising `UsageError` with a readable message on bad input."""
    if attrs.has(cls) and not isinstance(data, dict):
        kind = json_type(data)
        raise UsageError(f"invalid {what or cls.__name__}: expected a JSON object, got {_WITH_ARTICLE.get(kind, kind)}")
    try:
        return converter.structure(data, cls)
    except BenchmarkError:
        raise
    except Exception as exc:  # cattrs raises exception groups and plain errors alike
        raise UsageError(f"invalid {what or cls.__name__}: {_describe_structure_error(exc)}") from None


def _describe_structure_error(exc: BaseException) -> str:
    """One line naming each failing path (in wire spelling), from cattrs' nested exception groups."""
    if isinstance(exc, (cattrs.ClassValidationError, cattrs.IterableValidationError)):
        messages = cattrs.transform_error(exc, path="$", format_exception=_format_exception)
        return "; ".join(_WIRE_PATH.sub(lambda m: camel(m.group(0)), message) for message in messages)
    return str(exc) or type(exc).__name__


# Attribute names inside a `@ $.a_b[0].c_d` path; cattrs reports paths in Python spelling.
_WIRE_PATH = re.compile(r"(?<=[.])[a-z0-9]+(?:_[a-z0-9]+)+")


def _format_exception(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, _HookError):
        return str(exc)
    if get_origin(type_) is Literal:
        return "must be one of " + ", ".join(json.dumps(choice) for choice in get_args(type_))
    if isinstance(exc, AttributeError) and ("keys" in str(exc) or "items" in str(exc)):
        return "expected an object"
    if isinstance(exc, ForbiddenExtraKeysError):
        return "unknown key(s) " + ", ".join(sorted(exc.extra_fields))
    return format_exception(exc, type_)


def dumps(value: Any, *, indent: int | None = None) -> str:
    """Serialise an attrs value or plain data as JSON (UTF-8 text, stable key order)."""
    data = to_wire(value)
    if indent is None:
        return _COMPACT.encode(data)
    return indented_json(data, indent)


def check_json(value: Any) -> None:
    """Return None when `to_wire(value)` is strict JSON, else raise what `json.dumps(to_wire(value),
    allow_nan=False)` raises (`TypeError` or `ValueError`, with its message).

    Graders' details and tasks built in code are checked on every grade and load, so the check is one
    pass of the C encoder over `value` itself, converting only what is not plain JSON (attrs
    instances, enums, ...) with `to_wire`, instead of a converter walk over the whole value followed
    by an encoding. Whatever that pass accepts, the full form accepts too (the converter leaves plain
    JSON as it is and converts the rest the same way); when it refuses, the full form decides, so
    the verdict and the message are the full form's.
    """
    try:
        _CHECKER.encode(value)
    except (TypeError, ValueError):
        json.dumps(to_wire(value), allow_nan=False)


def _wire_or_refuse(value: Any) -> Any:
    converted = to_wire(value)
    if type(converted) is type(value):  # the converter left it alone: the encoder cannot write it
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
    return converted


# Built once: json.dumps with options builds a new encoder on every call.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_CHECKER = json.JSONEncoder(allow_nan=False, default=_wire_or_refuse)


_WITH_ARTICLE = {
    "boolean": "a boolean",
    "integer": "a number",
    "number": "a number",
    "non-finite number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}
