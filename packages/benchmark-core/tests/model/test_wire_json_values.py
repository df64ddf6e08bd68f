"""JSON values inside the model (answers, metadata, schemas, details) are copied by the converter's
own walk: the same output cattrs gives by dispatching every value, and a copy, never the object."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import cattrs
from benchmark_core import Task, TaskScore, ToolSpec
from benchmark_core.wire import from_wire, to_wire
from hypothesis import given, settings
from hypothesis import strategies as st


class _Text(str):
    pass


_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=5),
        st.text(max_size=3).map(_Text),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3)), inner, max_size=3),
        st.dictionaries(st.text(max_size=4), inner, max_size=2).map(OrderedDict),
    ),
    max_leaves=25,
)
_PLAIN = cattrs.Converter()


@settings(max_examples=300)
@given(value=_values)
def test_json_values_unstructure_as_cattrs_dispatching_each_value(value: Any) -> None:
    assert to_wire(value) == _PLAIN.unstructure(value)
    task = Task(id="t", kind="single", prompt="p", expected=value, metadata={"value": value})
    wire = to_wire(task)
    assert wire["expected"] == _PLAIN.unstructure(value)
    assert wire["metadata"] == {"value": _PLAIN.unstructure(value)}
    verdict = to_wire(TaskScore(score=1.0, passed=True, reason="", details={"nested": [value]}))
    assert verdict["details"] == {"nested": [_PLAIN.unstructure(value)]}


def test_model_values_inside_json_values_are_unstructured_too() -> None:
    spec = ToolSpec(name="lookup_order")
    task = Task(id="t", kind="single", prompt="p", expected={"tools": [spec]}, metadata={"spec": spec})
    wire = to_wire(task)
    assert wire["expected"] == {
        "tools": [{"name": "lookup_order", "description": "", "parameters": to_wire(spec)["parameters"]}]
    }
    assert wire["metadata"]["spec"] == to_wire(spec)


def test_the_wire_form_is_a_copy() -> None:
    data = {
        "id": "t",
        "kind": "single",
        "prompt": "p",
        "expected": {"a": [1, {"b": 2}]},
        "tools": [{"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}}],
        "metadata": {"deep": {"list": [1, 2]}},
    }
    task = from_wire(data, Task)
    wire = to_wire(task)
    assert wire == data
    wire["expected"]["a"][1]["b"] = 3
    wire["metadata"]["deep"]["list"].append(3)
    wire["tools"][0]["parameters"]["properties"]["x"] = {}
    assert task.expected == {"a": [1, {"b": 2}]}
    assert task.metadata == {"deep": {"list": [1, 2]}}
    assert task.tools[0].parameters == {"type": "object", "properties": {}}
