"""The one converter between the attrs model and the camelCase JSON wire format.

The CLI, the HTTP API and the MCP server all go through `to_wire`/`from_wire`, so a report written by
any of them is the same document. Keys come out in attribute order. Unknown keys are rejected when
structuring, so a typo in a task file or a submission is an error, not a silently ignored field.
`dumps` writes the JSON text, refusing what is not strict JSON; `benchmark_core._json_values.loads`
reads it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.v import format_exception

from ._errors import BenchmarkError, UsageError
from ._json_values import json_type, loads
from ._model import RunReport, ToolCall

T = TypeVar("T")


def camel(name: str) -> str:
    """snake_case -> camelCase (`confidence_interval95` -> `confidenceInterval95`)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _make_converter() -> cattrs.Converter:
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
        return make_unstructure(cls, conv, **renames(cls))

    def structure_factory(cls: type[Any]) -> Any:
        overrides = renames(cls)
        if cls is ToolCall:
            # OpenAI sends arguments as a JSON-encoded string; a call pasted verbatim is accepted.
            overrides["arguments"] = override(rename="arguments", struct_hook=_structure_arguments)
        return make_structure(cls, conv, _cattrs_forbid_extra_keys=True, **overrides)

    conv.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    conv.register_structure_hook_factory(attrs.has, structure_factory)

    _register_plain_json(conv)

    # A report's benchmark-specific summary sits at the top level, between `usage` and `rows`.
    report_fields = [a for a in attrs.fields(RunReport) if a.name != "summary"]
    report_keys = {camel(a.name) for a in report_fields}

    def unstructure_report(report: RunReport) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in report_fields:
            if a.name == "rows":
                out.update(conv.unstructure(report.summary))
            value = getattr(report, a.name)
            if a.metadata.get("omit_if_default") and value == _default_of(a):
                continue
            out[camel(a.name)] = conv.unstructure(value, a.type)
        return out

    def structure_report(data: Any, _: type[Any]) -> RunReport:
        if not isinstance(data, dict):
            raise ValueError("a run report must be a JSON object")
        known = {k: v for k, v in data.items() if k in report_keys}
        summary = {k: v for k, v in data.items() if k not in report_keys}
        kwargs: dict[str, Any] = {}
        for a in report_fields:
            key = camel(a.name)
            if key in known:
                kwargs[a.name] = conv.structure(known[key], cast(Any, a.type))
            elif a.default is attrs.NOTHING:
                raise ValueError(f"run report is missing required key {key!r}")
        return RunReport(**kwargs, summary=summary)

    conv.register_unstructure_hook(RunReport, unstructure_report)
    conv.register_structure_hook(RunReport, structure_report)
    return conv


def _register_plain_json(conv: cattrs.Converter) -> None:
    """Plain JSON (a verdict's details, a task's metadata) is most of what goes out. The converter's
    own walk dispatches on the type of every value, even where it returns the value unchanged;
    these hooks skip that for str, int, float, bool and None, and convert the rest as it would."""

    def unstructure_object(value: dict[Any, Any]) -> dict[Any, Any]:
        return {
            (key if type(key) in _PLAIN else conv.unstructure(key)): (
                item if type(item) in _PLAIN else conv.unstructure(item)
            )
            for key, item in value.items()
        }

    def unstructure_array(value: list[Any]) -> list[Any]:
        return [item if type(item) in _PLAIN else conv.unstructure(item) for item in value]

    conv.register_unstructure_hook(dict, unstructure_object)
    conv.register_unstructure_hook(list, unstructure_array)
    conv.register_unstructure_hook_func(_is_json_object, unstructure_object)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _is_json_object(tp: Any) -> bool:
    """`JsonObject` (`dict[str, Any]`), the declared type of details, metadata and arguments."""
    return get_origin(tp) is dict and get_args(tp) == (str, Any)


def _default_of(a: attrs.Attribute[Any]) -> Any:
    default: Any = a.default
    return default.factory() if isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]


class _HookError(ValueError):
    """Raised by this module's own structure hooks, whose messages are already readable."""


def _structure_arguments(value: Any, _: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = loads(value)
        except ValueError:
            raise _HookError("arguments is a string that is not a JSON object") from None
    if not isinstance(value, dict):
        raise _HookError("arguments must be an object (or a JSON-encoded object)")
    return value


converter = _make_converter()


def to_wire(value: Any) -> Any:
    """An attrs value (or a container of them) as plain JSON-compatible data with camelCase keys."""
    return converter.unstructure(value)


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
    return json.dumps(data, ensure_ascii=False, indent=indent, allow_nan=False)


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
