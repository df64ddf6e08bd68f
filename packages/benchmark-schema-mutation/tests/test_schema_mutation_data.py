"""The authored data: every base schema (the twelve of the committed splits and those only the full
split adds) holds the invariants the generator and the grader rely on, for every kind, every pool
option, and every held-out alternative."""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from benchmark_core import JsonObject, Task, Trace, mulberry32
from benchmark_core.graders import json_schema_match
from benchmark_core.wire import first_difference, to_wire
from benchmark_schema_mutation import (
    ADDED_SCHEMAS,
    ALL_KINDS,
    ALL_SCHEMAS,
    BASE_SCHEMAS,
    EXTENDED,
    HELD_OUT,
    MUTATION_KINDS,
    NO_CALL_REASONS,
    NO_CALLS,
    BaseSchema,
    Migration,
    NoCall,
    grade_call,
    migrate,
)

#: The committed splits' schemas, in the order that fixes their bytes.
PUBLIC_IDS = (
    "issues",
    "payments",
    "calendar",
    "crm",
    "storage",
    "messaging",
    "helpdesk",
    "shipping",
    "invoicing",
    "flags",
    "timeoff",
    "campaigns",
)
#: Seeds per sampled call for held-out migrations: with every pool option covered this draws each of
#: the four alternatives of every kind many times over.
HELD_OUT_SEEDS = range(6)
_IDS = [base.id for base in ALL_SCHEMAS]


def _calls(base: BaseSchema) -> Iterator[JsonObject]:
    """Calls under the previous version that together use every option of every pool."""
    longest = max(len(pool) for pool in base.pools)
    for offset in range(longest):
        arguments: JsonObject = {}
        for position, pool in enumerate(base.pools):
            arguments.update(pool[(offset + position) % len(pool)].arguments)
        yield {key: arguments[key] for key in base.properties if key in arguments}


def _phrases(base: BaseSchema, arguments: JsonObject) -> dict[str, str]:
    phrases = {key: str(value) for key, value in arguments.items()}
    for pool in base.pools:
        for option in pool:
            if all(arguments.get(k) == v and type(arguments.get(k)) is type(v) for k, v in option.arguments.items()):
                phrases.update(option.phrases)
    return phrases


def _migrations(base: BaseSchema) -> Iterator[Migration]:
    for arguments in _calls(base):
        for kind in ALL_KINDS:
            yield migrate(base, kind, arguments, mulberry32(len(arguments)))
        for kind in MUTATION_KINDS:
            for seed in HELD_OUT_SEEDS:
                yield migrate(base, kind, arguments, mulberry32(seed), held_out=True)


def _valid(schema: Any, value: Any) -> bool:
    return json_schema_match(schema, value).passed


def _tool_names(base: BaseSchema) -> set[str]:
    """Every tool name this schema's tasks can show or expect."""
    extended, alternatives, no_call = EXTENDED[base.id], HELD_OUT[base.id], NO_CALLS[base.id]
    names = {base.tool, extended.deprecation.replacement, extended.pagination.tool}
    for split in (base.split, *alternatives.splits):
        names.update(name for _, name, _ in split.tools)
    names.update(endpoint.name for endpoint in no_call.remaining)
    return names


def test_the_committed_splits_keep_their_twelve_schemas_in_order() -> None:
    assert tuple(base.id for base in BASE_SCHEMAS) == PUBLIC_IDS
    assert len(ALL_SCHEMAS) == 36
    assert ALL_SCHEMAS == BASE_SCHEMAS + ADDED_SCHEMAS
    assert not {base.id for base in ADDED_SCHEMAS} & set(PUBLIC_IDS)


def test_ids_titles_and_tool_names_belong_to_one_schema_each() -> None:
    assert len(set(_IDS)) == len(_IDS)
    assert all(re.fullmatch(r"[a-z][a-z0-9]*", base.id) for base in ALL_SCHEMAS)
    assert len({base.title for base in ALL_SCHEMAS}) == len(ALL_SCHEMAS)
    owners: dict[str, str] = {}
    for base in ALL_SCHEMAS:
        for name in _tool_names(base):
            assert owners.setdefault(name, base.id) == base.id, (name, owners[name], base.id)
    # Every table covers exactly the catalogue.
    assert set(EXTENDED) == set(HELD_OUT) == set(NO_CALLS) == set(_IDS)


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_pools_can_draw_distinct_requests_and_set_every_required_field(base: BaseSchema) -> None:
    assert all(len(pool) >= 2 for pool in base.pools), "every pool offers other values"
    fields = {name for _, name, _, _ in string.Formatter().parse(base.template) if name}
    pooled = {key for pool in base.pools for option in pool for key in option.arguments}
    assert pooled <= set(base.properties)
    # The request says every argument the expected call holds: through its own placeholder, or through
    # an authored phrase that says it together with another one ("$25.50" sets amount and currency).
    assert fields <= pooled, fields - pooled
    for pool in base.pools:
        for option in pool:
            unsaid = set(option.arguments) - fields
            assert not unsaid or set(option.phrases) & fields, (unsaid, option)
    calls = list(_calls(base))
    for arguments in calls:
        assert set(base.required) <= set(arguments), arguments
        assert _valid({"type": "object", "properties": base.properties}, arguments), arguments
        assert fields <= set(_phrases(base, arguments))
        base.template.format(**_phrases(base, arguments))
    requests = {base.template.format(**_phrases(base, arguments)) for arguments in calls}
    assert len(requests) >= 2
    # The mutated fields themselves take other values from one request to the next.
    for field in (base.rename.field, base.enum_change.field, base.split.field, base.type_change.field):
        assert len({repr(arguments[field]) for arguments in calls}) >= 2, field
    assert {value for value, _, _ in base.split.tools} == {arguments[base.split.field] for arguments in calls}


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_every_migration_is_valid_and_differs_from_the_stale_call(base: BaseSchema) -> None:
    seen: Counter[str] = Counter()
    for migration in _migrations(base):
        where = (base.id, migration.kind, migration.description)
        seen[migration.kind] += 1
        (previous,) = migration.previous_tools
        assert _valid(previous.parameters, migration.stale["arguments"]), where
        names = [tool.name for tool in migration.tools]
        assert len(names) == len(set(names)), where
        tool = next(t for t in migration.tools if t.name == migration.expected["name"])
        assert _valid(tool.parameters, migration.expected["arguments"]), where
        assert first_difference(migration.expected, migration.stale, "") is not None, where
        mutated = {element.get("field") for element in migration.elements}
        free = [k for k, v in migration.stale["arguments"].items() if isinstance(v, str) and k not in mutated]
        assert free, f"{where}: no untouched string argument left to slip on"
        for element in migration.elements:
            _check_element(element, migration, where)
    assert set(seen) == set(ALL_KINDS)


#: The stale signals an exact stale call raises, per kind (as the grader tests prove on the public split).
STALE_SIGNALS_OF = {
    "renamedField": ["oldFieldName"],
    "newRequired": ["missingNewRequired"],
    "enumChange": ["oldEnumValue"],
    "splitEndpoint": ["oldUnsplitTool", "oldFieldName"],
    "typeChange": ["oldUnit"],
    "deprecation": ["deprecatedTool"],
    "scopeChange": ["missingScope"],
}


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_the_grader_tells_the_current_call_from_the_stale_one(base: BaseSchema) -> None:
    """Graded as the task files are (the grader reads only the task): the expected call matches, and
    the stale call is reported as stale with exactly the signals of its kind."""
    for migration in _migrations(base):
        task = Task(
            id=f"data-{base.id}",
            kind="single",
            prompt="",
            expected=migration.expected,
            tools=migration.tools,
            metadata={
                "mutationKind": migration.kind,
                "staleCall": migration.stale,
                "previousTools": to_wire(migration.previous_tools),
                "mutatedElements": migration.elements,
            },
        )
        where = (base.id, migration.kind, migration.description)
        assert grade_call(task, Trace(answer=json.dumps(migration.expected))).passed, where
        stale = grade_call(task, Trace(answer=json.dumps(migration.stale)))
        assert stale.details["outcome"] == "staleSchemaUsed", where
        signals = [signal["signal"] for signal in stale.details["staleSignals"]]
        if migration.kind == "paginationChange":
            assert signals and set(signals) == {"oldPaginationField"}, where
        else:
            assert signals == STALE_SIGNALS_OF[migration.kind], where


def _check_element(element: JsonObject, migration: Migration, where: Any) -> None:
    for tool in migration.tools:
        properties = tool.parameters["properties"]
        signal, field = element["signal"], element.get("field")
        if signal in ("oldFieldName", "oldPaginationField"):
            assert field not in properties, where
        if signal in ("missingNewRequired", "missingScope"):
            assert field in tool.parameters["required"] and field not in migration.stale["arguments"], where
        if signal == "oldUnsplitTool":
            assert tool.name != element["tool"], where
        if signal == "oldEnumValue":
            old, new = element["oldValues"], element["newValues"]
            assert properties[field]["enum"] == new and not set(old) & set(new), where
            assert len(old) >= 2 and len(set(new)) == len(new), where
            assert migration.stale["arguments"][field] in old and migration.expected["arguments"][field] in new
        if signal == "oldUnit":
            assert element["currentSchema"] != element["previousSchema"], where
            assert element["staleValue"] == migration.stale["arguments"][field], where


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_the_extended_kinds_draw_other_values(base: BaseSchema) -> None:
    extended = EXTENDED[base.id]
    assert extended.deprecation.replacement != base.tool
    pagination = extended.pagination
    assert len({value for value, _ in pagination.choices}) >= 2
    assert all(_valid(pagination.schema, value) for value, _ in pagination.choices)
    assert "{page}" in pagination.template and "{" + pagination.field + "}" in pagination.template
    scope = extended.scope
    assert scope.field not in base.properties and scope.source in base.properties
    derived = {repr(scope.derive(arguments[scope.source])) for arguments in _calls(base)}
    assert len(derived) >= 2, "the scope follows the request, not a constant"


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_held_out_alternatives_are_four_per_kind_and_never_the_public_one(base: BaseSchema) -> None:
    alternatives = HELD_OUT[base.id]
    for group in ("renames", "new_requireds", "enum_changes", "splits", "type_changes"):
        assert len(getattr(alternatives, group)) >= 4, group
    assert base.rename not in alternatives.renames and base.split not in alternatives.splits
    assert base.enum_change not in alternatives.enum_changes
    public_required = (base.new_required.field, base.new_required.schema)
    assert public_required not in [(spec.field, spec.schema) for spec in alternatives.new_requireds]
    public_type = (base.type_change.field, base.type_change.schema)
    assert public_type not in [(spec.field, spec.schema) for spec in alternatives.type_changes]
    for rename in (base.rename, *alternatives.renames):
        assert rename.field in base.properties and not set(rename.new_names) & set(base.properties), rename
    for spec in (base.new_required, *alternatives.new_requireds):
        assert spec.field not in base.properties and len(spec.choices) >= 2, spec.field
        assert all(_valid(spec.schema, value) for value, _ in spec.choices), spec.field
        assert len({sentence for _, sentence in spec.choices}) == len(spec.choices), spec.field
    for change in (base.enum_change, *alternatives.enum_changes):
        assert [old for old, _ in change.mapping] == base.properties[change.field]["enum"], change


@pytest.mark.parametrize("base", ALL_SCHEMAS, ids=_IDS)
def test_the_no_call_request_cannot_become_a_call(base: BaseSchema) -> None:
    no_call = NO_CALLS[base.id]
    assert no_call.reason_kind in NO_CALL_REASONS and no_call.explanation and no_call.notice
    requests = [base.template.format(**_phrases(base, arguments)) for arguments in _calls(base)]
    assert len(set(requests)) >= 2
    extended = EXTENDED[base.id]
    if no_call.reason_kind == "removed":
        assert base.tool in no_call.notice and re.search(r"no (replacement|successor)", no_call.notice)
        current = f"{int(base.version.split('.')[0]) + 1}.0.0"  # the version every migration moves to
        assert re.findall(r"\d+\.\d+\.\d+", no_call.notice) in ([], [current]), no_call.notice
        names = {endpoint.name for endpoint in no_call.remaining}
        successors = {base.tool, extended.deprecation.replacement} | {name for _, name, _ in base.split.tools}
        assert not names & successors, "a remaining tool must not do what the request asks"
        for endpoint in no_call.remaining:
            assert set(endpoint.required) <= set(endpoint.properties), endpoint.name
    elif no_call.reason_kind == "missingRequired":
        assert no_call.field not in base.properties and "no default" in no_call.schema["description"].lower()
        assert no_call.field not in {base.new_required.field, extended.scope.field}
        assert not any(no_call.field in request or no_call.field in no_call.sentence for request in requests)
    else:
        assert no_call.scope in no_call.notice and no_call.scope not in no_call.sentence
        assert all(granted in no_call.sentence for granted in no_call.granted)


def test_no_call_reasons_are_spread_over_the_catalogue() -> None:
    reasons = Counter(no_call.reason_kind for no_call in NO_CALLS.values())
    assert set(reasons) == set(NO_CALL_REASONS)
    assert max(reasons.values()) - min(reasons.values()) <= len(NO_CALLS) // 6


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"reason_kind": "removed"}, "removed NoCall is incomplete"),
        ({"reason_kind": "missingRequired", "field": "po"}, "missingRequired NoCall is incomplete"),
        (
            {"reason_kind": "missingScope", "scope": "a:write", "granted": ("a:write",), "sentence": "s"},
            "missingScope NoCall is incomplete",
        ),
    ],
)
def test_an_incomplete_no_call_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NoCall(notice="n", explanation="e", **fields)
