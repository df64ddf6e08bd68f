"""The house's JSON module, its one validator and the tool registry, on their own."""

from __future__ import annotations

from typing import Any

import pytest
from benchmark_core import JsonObject, JsonValue, Toolbox, ToolRefusal
from benchmark_core._util.json_schema import SchemaError, first_violation, validate
from benchmark_core._util.json_values import decode_prefix, first_difference, json_equal, key_path, loads, show
from benchmark_core.episodes import CONFLICT, INVALID_ARGUMENTS, UNKNOWN_TOOL


@pytest.mark.parametrize("text", ["1e999", "-1e999", "NaN", "Infinity", "[1, -Infinity]"])
def test_strict_parsing_refuses_what_json_cannot_carry(text: str) -> None:
    with pytest.raises(ValueError, match="number"):
        loads(text)
    with pytest.raises(ValueError, match="number"):
        decode_prefix(f"call: {text} and more", 6)


def test_decode_prefix_returns_the_value_and_where_it_ends() -> None:
    assert decode_prefix('say {"a": [1, 2.5]} then', 4) == ({"a": [1, 2.5]}, 19)


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ({"a": 1, "b": [1, 2]}, {"b": [1, 2.0], "a": 1.0}, True),
        ([1, 2], (1, 2), True),
        (True, 1, False),
        ([True], [1], False),
        (0, False, False),
        ("1", 1, False),
        (None, None, True),
        ({"a": None}, {}, False),
        ([1, 2], [2, 1], False),
    ],
)
def test_json_equal(a: Any, b: Any, equal: bool) -> None:
    assert json_equal(a, b) is equal
    assert json_equal(b, a) is equal
    assert (first_difference(a, b) is None) is equal


def test_first_difference_names_the_first_path_in_sorted_key_order() -> None:
    want = {"b": {"y": [1, 2]}, "a b": 1, "c": 3}
    assert first_difference(want, {"b": {"y": [1, 3]}, "a b": 1, "c": 3}) == "$.b.y[1]: expected 2, got 3"
    assert first_difference(want, {"b": {"y": [1, 2]}, "a b": 2, "c": 3}) == '$["a b"]: expected 1, got 2'
    assert first_difference(want, {"b": {"y": [1]}, "a b": 1, "c": 3}) == "$.b.y: expected 2 items, got 1"
    assert first_difference({"a": 1}, {}, "arguments") == "arguments.a: expected 1, got nothing (missing)"
    assert first_difference({}, {"z": 1}, "") == "z: unexpected field (got 1)"


def test_nesting_cannot_exhaust_the_stack() -> None:
    deep: Any = 1
    for _ in range(50_000):
        deep = [deep]
    assert json_equal(deep, deep)


def test_paths_and_renderings() -> None:
    assert key_path("$", "name") == "$.name"
    assert key_path("$", "a b") == '$["a b"]'
    assert key_path("", "a b") == '"a b"'
    assert key_path("$", "k" * 100) == '$["' + "k" * 31 + '…"]'
    assert show({"text": "x" * 200}).endswith("…") and len(show({"text": "x" * 200})) == 80
    assert show(object()).startswith("<object object")


SCHEMA: JsonObject = {
    "type": "object",
    "required": ["id"],
    "properties": {
        "id": {"type": "string", "minLength": 1},
        "tags": {"type": "array", "items": {"enum": ["a", "b"]}},
        "extra": {"type": "object", "minProperties": 1},
        "args": {
            "anyOf": [
                {"type": "object"},
                {"type": "string", "contentMediaType": "application/json", "contentSchema": {"type": "object"}},
            ]
        },
    },
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("value", "violations"),
    [
        ({"id": "x", "tags": ["a"], "extra": {"k": 1}, "args": '{"a": 1}'}, []),
        ({}, ['$: missing required property "id"']),
        ({"id": ""}, ['$.id: "" is shorter than minLength 1']),
        ({"id": 5}, ["$.id: expected a string, got an integer 5"]),
        ({"id": "x", "tags": ["c"]}, ['$.tags[0]: "c" is not one of ["a", "b"]']),
        ({"id": "x", "extra": {}}, ["$.extra: expected at least 1 property, got 0"]),
        ({"id": "x", "args": "[1]"}, ["$.args: expected a JSON-encoded object, got a JSON-encoded array"]),
        ({"id": "x", "args": 3}, ["$.args: expected an object or a string, got an integer 3"]),
        ({"id": "x", "nope": 1}, ["$.nope: unknown property (id, tags, extra, args)"]),
        (
            {"nope": 1, "id": 2},
            ["$.nope: unknown property (id, tags, extra, args)", "$.id: expected a string, got an integer 2"],
        ),
    ],
)
def test_the_one_validator(value: Any, violations: list[str]) -> None:
    assert [str(v) for v in validate(value, SCHEMA)] == violations
    first = first_violation(value, SCHEMA, root="arguments")
    assert (first is None) == (not violations)
    if first is not None:
        assert str(first) == violations[0].replace("$", "arguments", 1)


def test_a_malformed_schema_names_its_own_path() -> None:
    with pytest.raises(SchemaError) as caught:
        validate({"a": 1}, {"properties": {"a": {"type": "integr"}}})
    assert caught.value.path == "$.properties.a.type"


class Counter:
    def __init__(self) -> None:
        self.value = 0


TOOLS: Toolbox[Counter] = Toolbox()


@TOOLS.tool("add", "Add a positive amount.", {"amount": {"type": "integer", "minimum": 1}}, required=["amount"])
def _add(counter: Counter, arguments: JsonObject) -> JsonValue:
    if counter.value + arguments["amount"] > 10:
        raise ToolRefusal(CONFLICT, "the counter stops at 10")
    counter.value += arguments["amount"]
    return {"value": counter.value}


def test_toolbox_dispatches_validates_and_refuses_with_standard_codes() -> None:
    counter = Counter()
    assert [spec.name for spec in TOOLS.specs] == ["add"]
    assert TOOLS.specs[0].parameters == {
        "type": "object",
        "properties": {"amount": {"type": "integer", "minimum": 1}},
        "required": ["amount"],
        "additionalProperties": False,
    }
    assert TOOLS.call(counter, "add", {"amount": 4}).result == {"value": 4}
    unknown = TOOLS.call(counter, "sub", {}).error
    assert unknown is not None and (unknown.code, unknown.message) == (
        UNKNOWN_TOOL,
        "no tool named 'sub'; the tools are: add",
    )
    bad = TOOLS.call(counter, "add", {"amount": True}).error
    assert bad is not None
    assert (bad.code, bad.message) == (
        INVALID_ARGUMENTS,
        "add: arguments.amount: expected an integer, got a boolean true",
    )
    refused = TOOLS.call(counter, "add", {"amount": 7}).error
    assert refused is not None and (refused.code, refused.message) == (CONFLICT, "the counter stops at 10")
    assert counter.value == 4


def test_a_tool_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        TOOLS.tool("add", "again")(_add)
