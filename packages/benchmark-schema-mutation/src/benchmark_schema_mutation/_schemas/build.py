"""The helpers the authored data is written with: pools, property schemas, value conversions for
type changes, derivations for scope changes, and ready-made held-out migrations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from benchmark_core import JsonObject, JsonValue

from .types import BaseSchema, Option, Pool, Split, TypeChange

DATE = r"^\d{4}-\d{2}-\d{2}$"
LOCAL_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"


# -- pools -----------------------------------------------------------------------------------------


def said(field: str, choices: Sequence[tuple[JsonValue, str]]) -> Pool:
    """A pool setting one field, each value with its own phrase."""
    return tuple(Option(arguments={field: value}, phrases={field: phrase}) for value, phrase in choices)


def verbatim(field: str, values: Sequence[str]) -> Pool:
    """A pool setting one string field that the request quotes as it is."""
    return said(field, [(value, value) for value in values])


def together(choices: Sequence[tuple[JsonObject, dict[str, str]]]) -> Pool:
    """A pool whose options set several related fields at once (a title and the kind it fits)."""
    return tuple(Option(arguments=dict(arguments), phrases=dict(phrases)) for arguments, phrases in choices)


def quoted(*values: str) -> tuple[tuple[str, str], ...]:
    """Pagination choices the request says as they are."""
    return tuple((value, value) for value in values)


# -- property schemas ------------------------------------------------------------------------------


def string(description: str, **extra: Any) -> JsonObject:
    return {"type": "string", "description": description, **extra}


def enum(values: Sequence[str], description: str) -> JsonObject:
    return {"type": "string", "enum": list(values), "description": description}


def integer(description: str, minimum: int = 0) -> JsonObject:
    return {"type": "integer", "minimum": minimum, "description": description}


def boolean(description: str) -> JsonObject:
    return {"type": "boolean", "description": description}


_DATE_OBJECT: JsonObject = {
    "type": "object",
    "properties": {
        "year": {"type": "integer"},
        "month": {"type": "integer", "minimum": 1, "maximum": 12},
        "day": {"type": "integer", "minimum": 1, "maximum": 31},
    },
    "required": ["year", "month", "day"],
    "additionalProperties": False,
}


def date_object(description: str) -> JsonObject:
    """A date as separate year, month and day numbers (the shape `date_parts` converts to)."""
    return {**_DATE_OBJECT, "description": description}


def datetime_object(description: str) -> JsonObject:
    """A local time as separate date and time strings (the shape `datetime_parts` converts to)."""
    return {
        "type": "object",
        "properties": {
            "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            "time": {"type": "string", "pattern": r"^\d{2}:\d{2}$"},
        },
        "required": ["date", "time"],
        "additionalProperties": False,
        "description": description,
    }


# -- conversions for type changes ------------------------------------------------------------------


def scaled(factor: int) -> Callable[[JsonValue], JsonValue]:
    """Exact decimal scaling into a smaller whole unit (dollars -> cents); the result is an int."""

    def convert(value: JsonValue) -> JsonValue:
        scaled_value = Decimal(repr(value)) * factor
        if scaled_value != scaled_value.to_integral_value():
            raise ValueError(f"{value!r} x {factor} is not a whole number")
        return int(scaled_value)

    return convert


def comma_list(value: JsonValue) -> JsonValue:
    return str(value).split(",")


def date_parts(value: JsonValue) -> JsonValue:
    year, month, day = (int(part) for part in str(value).split("-"))
    return {"year": year, "month": month, "day": day}


def one_item_list(value: JsonValue) -> JsonValue:
    return [value]


def owner_and_name(value: JsonValue) -> JsonValue:
    owner, name = str(value).split("/", 1)
    return {"owner": owner, "name": name}


def datetime_parts(value: JsonValue) -> JsonValue:
    date, time = str(value).split("T")
    return {"date": date, "time": time}


def money_parts(value: JsonValue) -> JsonValue:
    """Major units as whole units and nanos (billionths), the shape of google.type.Money."""
    amount = Decimal(repr(value))
    units = int(amount)
    return {"units": units, "nanos": int((amount - units) * 1_000_000_000)}


def decimal_string(value: JsonValue) -> JsonValue:
    return f"{Decimal(repr(value)):.2f}"


def as_text(value: JsonValue) -> JsonValue:
    """A number written as a decimal string, as it is (12 -> "12")."""
    return str(value)


def suffixed(unit: str) -> Callable[[JsonValue], JsonValue]:
    """A number written with its unit, the way Elasticsearch writes times (30 -> "30s")."""

    def convert(value: JsonValue) -> JsonValue:
        return f"{value}{unit}"

    return convert


def percent_to_fraction(value: JsonValue) -> JsonValue:
    return float(Decimal(repr(value)) / 100)


def wrapped(key: str) -> Callable[[JsonValue], JsonValue]:
    """A plain value moved into an object under `key` (`"x"` -> `{"text": "x"}`)."""

    def convert(value: JsonValue) -> JsonValue:
        return {key: value}

    return convert


def listed_as(key: str) -> Callable[[JsonValue], JsonValue]:
    """A plain value becomes a one-item list of objects holding it under `key` (`"a"` -> `[{"email": "a"}]`)."""

    def convert(value: JsonValue) -> JsonValue:
        return [{key: value}]

    return convert


def with_unit(unit: str) -> Callable[[JsonValue], JsonValue]:
    """A bare number becomes `{"value": n, "unit": unit}`."""

    def convert(value: JsonValue) -> JsonValue:
        return {"value": value, "unit": unit}

    return convert


# -- derivations for scope changes -----------------------------------------------------------------


def mapped(mapping: Mapping[str, str]) -> Callable[[JsonValue], JsonValue]:
    def derive(value: JsonValue) -> JsonValue:
        return mapping[str(value)]

    return derive


def owner(value: JsonValue) -> JsonValue:
    return str(value).split("/", 1)[0]


def domain(value: JsonValue) -> JsonValue:
    return str(value).rsplit("@", 1)[1]


# -- ready-made held-out migrations ----------------------------------------------------------------


def split_as(base: BaseSchema, field: str, names: Mapping[str, str]) -> Split:
    """The tool split by `field`, one tool per value, named as given."""
    return Split(
        field,
        tuple((value, name, f"{base.description} Use it when {field} is {value}.") for value, name in names.items()),
    )


def _description(base: BaseSchema, field: str) -> str:
    return str(base.properties[field].get("description", ""))


def multi_select(base: BaseSchema, field: str) -> TypeChange:
    """A single-choice enum becomes a list of choices (the request's one value is a one-item list)."""
    values = base.properties[field]["enum"]
    return TypeChange(
        field,
        {
            "type": "array",
            "items": {"type": "string", "enum": values},
            "description": f"{_description(base, field)} Now a list of one or more values.",
        },
        one_item_list,
        "one enum value -> array of values",
    )


def wrap_text(base: BaseSchema, field: str, key: str) -> TypeChange:
    """A string becomes an object holding it under `key`."""
    return TypeChange(
        field,
        {
            "type": "object",
            "properties": {key: {"type": "string"}},
            "required": [key],
            "additionalProperties": False,
            "description": f"{_description(base, field)} Now an object with the text under {key}.",
        },
        wrapped(key),
        f"string -> object {{{key}}}",
    )


def unit_object(base: BaseSchema, field: str, unit: str) -> TypeChange:
    """A bare number becomes `{"value": n, "unit": unit}`, in the unit the field always had."""
    return TypeChange(
        field,
        {
            "type": "object",
            "properties": {"value": {"type": "number", "minimum": 0}, "unit": {"type": "string", "enum": [unit]}},
            "required": ["value", "unit"],
            "additionalProperties": False,
            "description": f"{_description(base, field)} Now an object: the number as value, and unit {unit}.",
        },
        with_unit(unit),
        f"number -> object {{value, unit: {unit}}}",
    )


def scaled_to(field: str, factor: int, description: str, change: str) -> TypeChange:
    """A number becomes a whole number in a smaller unit (`factor` of them per old unit)."""
    return TypeChange(field, integer(description), scaled(factor), change)
