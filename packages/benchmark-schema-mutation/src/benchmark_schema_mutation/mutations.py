"""The five mutation kinds: how a base schema migrates, and what the migrated call looks like.

`migrate` turns a base schema plus a call sampled under its previous version into the current
tools, the canonical expected call, and the mutated elements: the records the grader needs to tell
which parts of an answer came from the old schema. Everything the grader uses is written into the
task, so an alternate task file is graded without this module.

Mutated elements (`metadata.mutatedElements`), one object each:

- `{"signal": "oldFieldName", "field": F, "replacement": G}`: F was renamed to G (or, without
  `replacement`, F was removed because its value now picks the tool).
- `{"signal": "missingNewRequired", "field": F}`: F is newly required.
- `{"signal": "oldEnumValue", "field": F, "oldValues": [...], "newValues": [...]}`.
- `{"signal": "oldUnsplitTool", "tool": T, "replacements": [...]}`: T was split.
- `{"signal": "oldUnit", "field": F, "staleValue": V, "previousSchema": {...}, "currentSchema": {...},
  "change": "..."}`: F changed type or unit; V is the request's value in the old form.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen
from benchmark_core import JsonObject, JsonValue, Mulberry32, ToolSpec

from .schemas import BaseSchema

RENAMED_FIELD: Final = "renamedField"
NEW_REQUIRED: Final = "newRequired"
ENUM_CHANGE: Final = "enumChange"
SPLIT_ENDPOINT: Final = "splitEndpoint"
TYPE_CHANGE: Final = "typeChange"

#: The mutation kinds, in the order each base schema's tasks are generated and reported.
MUTATION_KINDS: tuple[str, ...] = (RENAMED_FIELD, NEW_REQUIRED, ENUM_CHANGE, SPLIT_ENDPOINT, TYPE_CHANGE)

#: The stale signals the grader can report, in report order.
STALE_SIGNALS: tuple[str, ...] = ("oldFieldName", "missingNewRequired", "oldEnumValue", "oldUnsplitTool", "oldUnit")


@frozen
class Migration:
    """One base schema after one mutation.

    `expected` is the canonical call `{"name", "arguments"}` under the current schema; `request_suffix`
    is a sentence the request needs for the mutation (the new required field's value), or "".
    """

    kind: str
    schema_version: str
    tools: list[ToolSpec]
    expected: JsonObject
    description: str
    elements: list[JsonObject]
    request_suffix: str = ""


def next_major(version: str) -> str:
    """Every mutation here breaks callers, so the current version is the next major one."""
    major = int(version.split(".", 1)[0])
    return f"{major + 1}.0.0"


def previous_tool(base: BaseSchema) -> ToolSpec:
    """The tool as it was before the migration (recorded in the task, never shown in the prompt)."""
    return _tool(base.tool, base.description, base.properties, list(base.required))


def migrate(base: BaseSchema, kind: str, arguments: JsonObject, rng: Mulberry32) -> Migration:
    """Apply mutation `kind` to `base`; `arguments` is the call under the previous version.

    `rng` picks among the authored alternatives (which new name, which new field value), so a
    differently seeded split migrates differently.
    """
    version = next_major(base.version)
    if kind == RENAMED_FIELD:
        return _rename(base, arguments, rng, version)
    if kind == NEW_REQUIRED:
        return _new_required(base, arguments, rng, version)
    if kind == ENUM_CHANGE:
        return _enum_change(base, arguments, version)
    if kind == SPLIT_ENDPOINT:
        return _split(base, arguments, version)
    if kind == TYPE_CHANGE:
        return _type_change(base, arguments, version)
    raise ValueError(f"unknown mutation kind {kind!r}; expected one of {', '.join(MUTATION_KINDS)}")


def _tool(name: str, description: str, properties: JsonObject, required: list[str]) -> ToolSpec:
    """A tool taking named arguments. Unknown fields are refused, so that a call using a field the
    migration renamed or removed is also invalid against the current schema."""
    return ToolSpec(
        name=name,
        description=description,
        parameters={"type": "object", "properties": properties, "required": required, "additionalProperties": False},
    )


def _call(name: str, arguments: JsonObject) -> JsonObject:
    return {"name": name, "arguments": arguments}


def _rename(base: BaseSchema, arguments: JsonObject, rng: Mulberry32, version: str) -> Migration:
    old = base.rename.field
    new = rng.choice(base.rename.new_names)
    properties = {(new if key == old else key): schema for key, schema in base.properties.items()}
    required = [new if key == old else key for key in base.required]
    expected_args = {(new if key == old else key): value for key, value in arguments.items()}
    return Migration(
        kind=RENAMED_FIELD,
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, required)],
        expected=_call(base.tool, expected_args),
        description=f"field {old} renamed to {new}",
        elements=[{"signal": "oldFieldName", "field": old, "replacement": new}],
    )


def _new_required(base: BaseSchema, arguments: JsonObject, rng: Mulberry32, version: str) -> Migration:
    spec = base.new_required
    value, sentence = rng.choice(spec.choices)
    properties = {**base.properties, spec.field: spec.schema}
    return Migration(
        kind=NEW_REQUIRED,
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, [*base.required, spec.field])],
        expected=_call(base.tool, {**arguments, spec.field: value}),
        description=f"required field {spec.field} added",
        elements=[{"signal": "missingNewRequired", "field": spec.field}],
        request_suffix=sentence,
    )


def _enum_change(base: BaseSchema, arguments: JsonObject, version: str) -> Migration:
    spec = base.enum_change
    mapping = dict(spec.mapping)
    old_values = [old for old, _ in spec.mapping]
    new_values = [new for _, new in spec.mapping]
    properties = dict(base.properties)
    properties[spec.field] = {**properties[spec.field], "enum": new_values}
    expected_args = {**arguments, spec.field: mapping[arguments[spec.field]]}
    return Migration(
        kind=ENUM_CHANGE,
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, list(base.required))],
        expected=_call(base.tool, expected_args),
        description=f"{spec.field} values {', '.join(old_values)} replaced by {', '.join(new_values)}",
        elements=[{"signal": "oldEnumValue", "field": spec.field, "oldValues": old_values, "newValues": new_values}],
    )


def _split(base: BaseSchema, arguments: JsonObject, version: str) -> Migration:
    spec = base.split
    properties = {key: schema for key, schema in base.properties.items() if key != spec.field}
    required = [key for key in base.required if key != spec.field]
    tools = [_tool(name, description, properties, required) for _, name, description in spec.tools]
    chosen = {value: name for value, name, _ in spec.tools}[arguments[spec.field]]
    names = [name for _, name, _ in spec.tools]
    return Migration(
        kind=SPLIT_ENDPOINT,
        schema_version=version,
        tools=tools,
        expected=_call(chosen, {key: value for key, value in arguments.items() if key != spec.field}),
        description=f"{base.tool} split into {' and '.join(names)} by {spec.field}",
        elements=[
            {"signal": "oldUnsplitTool", "tool": base.tool, "replacements": names},
            {"signal": "oldFieldName", "field": spec.field},
        ],
    )


def _type_change(base: BaseSchema, arguments: JsonObject, version: str) -> Migration:
    spec = base.type_change
    properties = dict(base.properties)
    properties[spec.field] = spec.schema
    stale_value: JsonValue = arguments[spec.field]
    return Migration(
        kind=TYPE_CHANGE,
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, list(base.required))],
        expected=_call(base.tool, {**arguments, spec.field: spec.convert(stale_value)}),
        description=f"{spec.field} changed: {spec.change}",
        elements=[
            {
                "signal": "oldUnit",
                "field": spec.field,
                "staleValue": stale_value,
                "previousSchema": base.properties[spec.field],
                "currentSchema": spec.schema,
                "change": spec.change,
            }
        ],
    )
