"""JSON Schemas (2020-12) of the wire documents, derived from the attrs model.

The HTTP API's OpenAPI document and the MCP tools' output schemas are built from these, so they
cannot drift from what `benchmark_core.wire._converter` actually emits and accepts.
"""

from __future__ import annotations

import inspect
import types
import typing
from typing import Any, Literal, Union

import attrs

from ._converter import camel

JsonSchema = dict[str, Any]


def wire_schema(cls: type[Any], *, incoming: bool = False) -> JsonSchema:
    """The schema of `cls`'s wire form.

    Outgoing documents (what the surfaces emit) carry every key, so every key is required, except
    those left out while they hold their default (`OMIT_IF_DEFAULT`). Incoming ones (submissions,
    task files) may leave out keys whose attribute has a default.
    Unknown keys are refused, as the converter refuses them, except on a class that flattens a
    mapping into its wire form (`FLATTENED`: a run report, whose benchmark-specific summary fields
    sit at its top level).
    """
    if not attrs.has(cls):
        raise TypeError(f"{cls!r} is not an attrs class")
    hints = typing.get_type_hints(cls)
    properties: JsonSchema = {}
    required: list[str] = []
    flattened = False
    for field in attrs.fields(cls):
        if field.metadata.get("flattened"):
            flattened = True
            continue
        key = camel(field.name)
        if incoming and field.metadata.get("may_be_json_string"):
            properties[key] = _incoming_arguments()
        else:
            properties[key] = _type_schema(hints[field.name], incoming)
        optional = incoming or field.metadata.get("omit_if_default", False)
        if not optional or field.default is attrs.NOTHING:
            required.append(key)
    schema: JsonSchema = {"type": "object"}
    summary = _summary(cls)
    if summary:
        schema["description"] = summary
    schema.update(properties=properties, required=required, additionalProperties=flattened)
    return schema


def _incoming_arguments() -> JsonSchema:
    """The converter also accepts a tool call's arguments as a JSON-encoded object, as OpenAI sends them."""
    return {
        "anyOf": [
            {"type": "object"},
            {
                "type": "string",
                # JSON Schema cannot say "decodes to an object"; the pattern states what it can
                "pattern": r"^\s*\{[\s\S]*\}\s*$",
                "contentMediaType": "application/json",
                "contentSchema": {"type": "object"},
                "description": "A JSON-encoded object, as OpenAI-compatible providers send arguments.",
            },
        ]
    }


def _summary(cls: type[Any]) -> str:
    # attrs gives undocumented classes a generated docstring ("Task(id, kind, ...)"); skip those.
    doc = cls.__dict__.get("__doc__") or ""
    if not doc or doc.startswith(f"{cls.__name__}("):
        return ""
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


def _type_schema(tp: Any, incoming: bool) -> JsonSchema:
    if tp is Any:
        return {}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if attrs.has(tp):
        return wire_schema(tp, incoming=incoming)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Literal:
        schema: JsonSchema = {"enum": list(args)}
        if all(isinstance(a, str) for a in args):
            schema = {"type": "string", **schema}
        return schema
    if origin is list:
        return {"type": "array", "items": _type_schema(args[0], incoming)}
    if origin is dict:
        values = _type_schema(args[1], incoming)
        return {"type": "object", "additionalProperties": values} if values else {"type": "object"}
    if origin is Union or origin is types.UnionType:
        options = [_type_schema(a, incoming) for a in args if a is not type(None)]
        if type(None) in args:
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    raise TypeError(f"no wire schema for type {tp!r}")
