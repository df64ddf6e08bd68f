"""The mutation kinds: how a base schema migrates, and what the migrated call looks like.

The five kinds of the public and hidden splits (`MUTATION_KINDS`) and the three of the extended
split (`EXTENDED_KINDS`, authored with each base schema in `_schemas/`). `migrate` turns a base schema plus a call
sampled under its previous version into the current tools, the canonical expected call, the stale
call, and the mutated elements: the records the grader needs to tell which parts of an answer came
from the old schema. Everything the grader uses is written into the task, so an alternate task
file is graded without this module.

Mutated elements (`metadata.mutatedElements`), one object each:

- `{"signal": "oldFieldName", "field": F, "replacement": G}`: F was renamed to G (or, without
  `replacement`, F was removed because its value now picks the tool).
- `{"signal": "missingNewRequired", "field": F}`: F is newly required.
- `{"signal": "oldEnumValue", "field": F, "oldValues": [...], "newValues": [...]}`.
- `{"signal": "oldUnsplitTool", "tool": T, "replacements": [...]}`: T was split.
- `{"signal": "oldUnit", "field": F, "staleValue": V, "previousSchema": {...}, "currentSchema": {...},
  "change": "..."}`: F changed type or unit; V is the request's value in the old form.
- `{"signal": "deprecatedTool", "tool": T, "replacement": R}`: T is still listed but deprecated.
- `{"signal": "oldPaginationField", "field": F}`: F addressed pages in the previous version.
- `{"signal": "missingScope", "field": F}`: F is the newly required scope, workspace or region.

A hidden split (`held_out=True`) takes each migration from the authored alternatives
(`Alternatives`) instead of the public one.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen
from benchmark_core import JsonObject, JsonValue, Mulberry32, ToolSpec

from ._schemas.catalogue import EXTENDED, HELD_OUT
from ._schemas.types import (
    OFFSET_TO_PAGE,
    PAGE_TO_CURSOR,
    PAGE_TO_OFFSET,
    BaseSchema,
    Deprecation,
    EnumChange,
    NewRequired,
    Pagination,
    Rename,
    Scope,
    Split,
    TypeChange,
)

RENAMED_FIELD: Final = "renamedField"
NEW_REQUIRED: Final = "newRequired"
ENUM_CHANGE: Final = "enumChange"
SPLIT_ENDPOINT: Final = "splitEndpoint"
TYPE_CHANGE: Final = "typeChange"
DEPRECATION: Final = "deprecation"
PAGINATION_CHANGE: Final = "paginationChange"
SCOPE_CHANGE: Final = "scopeChange"

#: The mutation kinds of the public and hidden splits, in the order each base schema's tasks are
#: generated and reported.
MUTATION_KINDS: tuple[str, ...] = (RENAMED_FIELD, NEW_REQUIRED, ENUM_CHANGE, SPLIT_ENDPOINT, TYPE_CHANGE)
#: The mutation kinds of the extended split.
EXTENDED_KINDS: tuple[str, ...] = (DEPRECATION, PAGINATION_CHANGE, SCOPE_CHANGE)
#: Every kind, in report order.
ALL_KINDS: tuple[str, ...] = MUTATION_KINDS + EXTENDED_KINDS

#: The stale signals the grader can report, in report order.
STALE_SIGNALS: tuple[str, ...] = (
    "oldFieldName",
    "missingNewRequired",
    "oldEnumValue",
    "oldUnsplitTool",
    "oldUnit",
    "deprecatedTool",
    "oldPaginationField",
    "missingScope",
)


@frozen
class Migration:
    """One base schema after one mutation.

    `expected` is the canonical call `{"name", "arguments"}` under the current schema and `stale` the
    call the previous version (`previous_tools`) asked for; `request_suffix` is a sentence the request
    needs for the mutation (the new required field's value), or ""; `request`, when set, replaces
    the base schema's request (a list call asks for other things than the create call).
    """

    kind: str
    schema_version: str
    tools: list[ToolSpec]
    expected: JsonObject
    description: str
    elements: list[JsonObject]
    stale: JsonObject
    previous_tools: list[ToolSpec]
    request_suffix: str = ""
    request: str = ""


def next_major(version: str) -> str:
    """Every mutation here breaks callers, so the current version is the next major one."""
    major = int(version.split(".", 1)[0])
    return f"{major + 1}.0.0"


def previous_tool(base: BaseSchema) -> ToolSpec:
    """The tool as it was before the migration (recorded in the task, never shown in the prompt)."""
    return _tool(base.tool, base.description, base.properties, list(base.required))


def migrate(
    base: BaseSchema, kind: str, arguments: JsonObject, rng: Mulberry32, *, held_out: bool = False
) -> Migration:
    """Apply mutation `kind` to `base`; `arguments` is the call under the previous version.

    `rng` picks among the authored alternatives (which new name, which new field value; with
    `held_out`, first which of the held-out migrations of the kind), so a differently seeded split
    migrates differently.
    """
    version = next_major(base.version)
    alternatives = HELD_OUT[base.id]
    if kind == RENAMED_FIELD:
        rename = rng.choice(alternatives.renames) if held_out else base.rename
        return _rename(base, rename, arguments, rng, version)
    if kind == NEW_REQUIRED:
        new_required = rng.choice(alternatives.new_requireds) if held_out else base.new_required
        return _new_required(base, new_required, arguments, rng, version)
    if kind == ENUM_CHANGE:
        enum_change = rng.choice(alternatives.enum_changes) if held_out else base.enum_change
        return _enum_change(base, enum_change, arguments, version)
    if kind == SPLIT_ENDPOINT:
        split = rng.choice(alternatives.splits) if held_out else base.split
        return _split(base, split, arguments, version)
    if kind == TYPE_CHANGE:
        type_change = rng.choice(alternatives.type_changes) if held_out else base.type_change
        return _type_change(base, type_change, arguments, version)
    if kind == DEPRECATION:
        return _deprecation(base, EXTENDED[base.id].deprecation, arguments, version)
    if kind == PAGINATION_CHANGE:
        return _pagination(base, EXTENDED[base.id].pagination, rng, version)
    if kind == SCOPE_CHANGE:
        return _scope(base, EXTENDED[base.id].scope, arguments, version)
    raise ValueError(f"unknown mutation kind {kind!r}; expected one of {', '.join(ALL_KINDS)}")


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


def _rename(base: BaseSchema, spec: Rename, arguments: JsonObject, rng: Mulberry32, version: str) -> Migration:
    old = spec.field
    new = rng.choice(spec.new_names)
    properties = {(new if key == old else key): schema for key, schema in base.properties.items()}
    required = [new if key == old else key for key in base.required]
    expected_args = {(new if key == old else key): value for key, value in arguments.items()}
    return Migration(
        kind=RENAMED_FIELD,
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, required)],
        expected=_call(base.tool, expected_args),
        description=f"field {old} renamed to {new}",
        elements=[{"signal": "oldFieldName", "field": old, "replacement": new}],
    )


def _new_required(
    base: BaseSchema, spec: NewRequired, arguments: JsonObject, rng: Mulberry32, version: str
) -> Migration:
    value, sentence = rng.choice(spec.choices)
    properties = {**base.properties, spec.field: spec.schema}
    return Migration(
        kind=NEW_REQUIRED,
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, [*base.required, spec.field])],
        expected=_call(base.tool, {**arguments, spec.field: value}),
        description=f"required field {spec.field} added",
        elements=[{"signal": "missingNewRequired", "field": spec.field}],
        request_suffix=sentence,
    )


def _enum_change(base: BaseSchema, spec: EnumChange, arguments: JsonObject, version: str) -> Migration:
    mapping = dict(spec.mapping)
    old_values = [old for old, _ in spec.mapping]
    new_values = [new for _, new in spec.mapping]
    properties = dict(base.properties)
    properties[spec.field] = {**properties[spec.field], "enum": new_values}
    expected_args = {**arguments, spec.field: mapping[arguments[spec.field]]}
    return Migration(
        kind=ENUM_CHANGE,
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, list(base.required))],
        expected=_call(base.tool, expected_args),
        description=f"{spec.field} values {', '.join(old_values)} replaced by {', '.join(new_values)}",
        elements=[{"signal": "oldEnumValue", "field": spec.field, "oldValues": old_values, "newValues": new_values}],
    )


def _split(base: BaseSchema, spec: Split, arguments: JsonObject, version: str) -> Migration:
    properties = {key: schema for key, schema in base.properties.items() if key != spec.field}
    required = [key for key in base.required if key != spec.field]
    tools = [_tool(name, description, properties, required) for _, name, description in spec.tools]
    chosen = {value: name for value, name, _ in spec.tools}[arguments[spec.field]]
    names = [name for _, name, _ in spec.tools]
    return Migration(
        kind=SPLIT_ENDPOINT,
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
        schema_version=version,
        tools=tools,
        expected=_call(chosen, {key: value for key, value in arguments.items() if key != spec.field}),
        description=f"{base.tool} split into {' and '.join(names)} by {spec.field}",
        elements=[
            {"signal": "oldUnsplitTool", "tool": base.tool, "replacements": names},
            {"signal": "oldFieldName", "field": spec.field},
        ],
    )


def _type_change(base: BaseSchema, spec: TypeChange, arguments: JsonObject, version: str) -> Migration:
    properties = dict(base.properties)
    properties[spec.field] = spec.schema
    stale_value: JsonValue = arguments[spec.field]
    return Migration(
        kind=TYPE_CHANGE,
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
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


def _deprecation(base: BaseSchema, spec: Deprecation, arguments: JsonObject, version: str) -> Migration:
    deprecated = _tool(
        base.tool,
        f"Deprecated: use {spec.replacement} instead; this tool will be removed. {base.description}",
        base.properties,
        list(base.required),
    )
    replacement = _tool(spec.replacement, base.description, base.properties, list(base.required))
    return Migration(
        kind=DEPRECATION,
        schema_version=version,
        tools=[deprecated, replacement],
        expected=_call(spec.replacement, arguments),
        description=f"{base.tool} deprecated in favour of {spec.replacement}",
        elements=[{"signal": "deprecatedTool", "tool": base.tool, "replacement": spec.replacement}],
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
    )


_PAGE_FIELDS: dict[str, JsonObject] = {
    "page": {"type": "integer", "minimum": 1, "description": "Page number, from 1."},
    "per_page": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page."},
    "page_size": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page."},
    "offset": {"type": "integer", "minimum": 0, "description": "How many results to skip."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Most results to return."},
    "cursor": {
        "type": "string",
        "description": "The next_cursor of the previous response; leave out for the first page.",
    },
}

#: Per pagination style: the previous and the current page fields.
_PAGE_STYLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    PAGE_TO_CURSOR: (("page", "per_page"), ("cursor", "limit")),
    OFFSET_TO_PAGE: (("offset", "limit"), ("page", "page_size")),
    PAGE_TO_OFFSET: (("page", "per_page"), ("offset", "limit")),
}


def _page_call(style: str, page: int, size: int) -> tuple[str, JsonObject, JsonObject]:
    """How the request says which results to fetch, and the page arguments before and after."""
    offset = (page - 1) * size
    if style == PAGE_TO_CURSOR:
        # A cursor can only be said for the first page: later ones come from a response.
        return f"the first {size}", {"page": 1, "per_page": size}, {"limit": size}
    if style == OFFSET_TO_PAGE:
        return (
            f"results {offset + 1} to {offset + size}",
            {"offset": offset, "limit": size},
            {
                "page": page,
                "page_size": size,
            },
        )
    return f"page {page}, {size} per page", {"page": page, "per_page": size}, {"offset": offset, "limit": size}


def _pagination(base: BaseSchema, spec: Pagination, rng: Mulberry32, version: str) -> Migration:
    value, phrase = rng.choice(spec.choices)
    page, size = rng.choice((2, 3, 4)), rng.choice((10, 20, 25, 50))
    said, old_page, new_page = _page_call(spec.style, page, size)
    old_fields, new_fields = _PAGE_STYLES[spec.style]

    def list_tool(fields: tuple[str, ...]) -> ToolSpec:
        properties = {spec.field: spec.schema, **{name: _PAGE_FIELDS[name] for name in fields}}
        return _tool(spec.tool, spec.description, properties, [spec.field])

    return Migration(
        kind=PAGINATION_CHANGE,
        schema_version=version,
        tools=[list_tool(new_fields)],
        expected=_call(spec.tool, {spec.field: value, **new_page}),
        description=f"{spec.tool} pages by {' and '.join(new_fields)} instead of {' and '.join(old_fields)}",
        elements=[{"signal": "oldPaginationField", "field": name} for name in old_fields if name not in new_fields],
        stale=_call(spec.tool, {spec.field: value, **old_page}),
        previous_tools=[list_tool(old_fields)],
        request=spec.template.format(**{spec.field: phrase, "page": said}),
    )


def _scope(base: BaseSchema, spec: Scope, arguments: JsonObject, version: str) -> Migration:
    properties = {**base.properties, spec.field: spec.schema}
    return Migration(
        kind=SCOPE_CHANGE,
        schema_version=version,
        tools=[_tool(base.tool, base.description, properties, [*base.required, spec.field])],
        expected=_call(base.tool, {**arguments, spec.field: spec.derive(arguments[spec.source])}),
        description=f"required {spec.field} added, implied by {spec.source}",
        elements=[{"signal": "missingScope", "field": spec.field}],
        stale=_call(base.tool, arguments),
        previous_tools=[previous_tool(base)],
    )
