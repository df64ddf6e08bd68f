"""The indented JSON writer behind every `--json` document and saved report: the same bytes as
`json.dumps(value, ensure_ascii=False, indent=..., allow_nan=False)`, or the same error."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import pytest
from benchmark_core._util.indented_json import indented_json
from hypothesis import given, settings
from hypothesis import strategies as st


class _Text(str):
    pass


class _Number(int):
    pass


def _stdlib(value: Any, indent: int) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)


def _outcome(write: Any, value: Any, indent: int) -> tuple[str, str]:
    try:
        return "text", write(value, indent)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)


_keys = st.one_of(
    st.text(max_size=6),
    st.text(max_size=6).map(_Text),
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
)
_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-3, 3).map(_Number),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
    st.text(max_size=4).map(_Text),
    st.just(frozenset()),
)
_values = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_keys, inner, max_size=4),
        st.dictionaries(st.text(max_size=4), inner, max_size=3).map(OrderedDict),
    ),
    max_leaves=30,
)
_plain = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=40,
)


@settings(max_examples=400)
@given(value=_values, indent=st.integers(0, 4))
def test_any_value_gives_the_standard_text_or_the_standard_error(value: Any, indent: int) -> None:
    assert _outcome(indented_json, value, indent) == _outcome(_stdlib, value, indent)


@settings(max_examples=300)
@given(value=_plain)
def test_plain_json_data_gives_the_standard_text(value: Any) -> None:
    assert indented_json(value) == _stdlib(value, 2)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [], "b": {}, "c": [{}], "d": ""},
        ["\u2028 line separator", 'quote " and \\ and \n', "é ✓ 😀", "\x00\x1f"],
        [10**300, -(10**18), 1e300, -0.0, 5e-324, 0.1 + 0.2],
        {"nan": float("nan")},
        {"inf": [float("-inf")]},
        {3: "int key", True: "bool key", None: "null key", 2.5: "float key"},
        {("tuple", "key"): 1},
        {"set": {1, 2}},
        (1, [2, (3,)]),
    ],
)
def test_edge_cases_match_the_standard_encoder(value: Any) -> None:
    assert _outcome(indented_json, value, 2) == _outcome(_stdlib, value, 2)


def test_a_cycle_is_refused_as_the_standard_encoder_refuses_it() -> None:
    looped: list[Any] = [1]
    looped.append({"again": looped})
    with pytest.raises(ValueError, match="Circular reference detected"):
        indented_json(looped)


def test_an_integer_past_the_digit_limit_gives_the_standard_outcome() -> None:
    # Python 3.11 refuses to write ints of more than 4300 digits (ValueError); 3.10 writes them.
    value = {"n": 10**5000}
    assert _outcome(indented_json, value, 2) == _outcome(_stdlib, value, 2)
