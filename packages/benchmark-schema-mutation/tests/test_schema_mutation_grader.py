"""The failure modes of docs/grading.md (F1-F22), proved on the real tasks."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from benchmark_core import Task, TaskScore, ToolCall, Trace
from benchmark_core.wire import first_difference
from benchmark_schema_mutation import (
    OUTCOMES,
    STALE_SIGNALS,
    benchmark,
    extract_call,
    generate_tasks,
    grade_call,
    score,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GradeText = Callable[[Task, Any], TaskScore]
GradeNative = Callable[[Task, list[dict[str, Any]]], TaskScore]
TasksOfKind = Callable[[str], list[Task]]


def _signals(verdict: TaskScore) -> list[str]:
    return [s["signal"] for s in verdict.details["staleSignals"]]


def _element(task: Task, signal: str) -> dict[str, Any]:
    return next(e for e in task.metadata["mutatedElements"] if e["signal"] == signal)


def _other_argument(call: dict[str, Any], *avoid: str) -> str:
    """A string argument of the call that no mutation touched, to make a second, unrelated slip."""
    return str(next(k for k, v in call["arguments"].items() if isinstance(v, str) and k not in avoid))


def _slip(call: dict[str, Any], *avoid: str) -> dict[str, Any]:
    changed = copy.deepcopy(call)
    key = _other_argument(changed, *avoid)
    changed["arguments"][key] += " (edited)"
    return changed


# -- every canonical answer scores 1 -----------------------------------------------------------------


def test_all_sixty_canonical_answers_score_one_in_prompt_mode(tasks: list[Task], grade_text: GradeText) -> None:
    for task in tasks:
        verdict = grade_text(task, task.expected)
        assert verdict.score == 1.0 and verdict.passed, (task.id, verdict.reason)
        assert verdict.details["outcome"] == "exactMatch"
        assert verdict.details["validAgainstCurrentSchema"] is True
        assert verdict.details["staleSignals"] == []
        assert verdict.details["mutationKind"] == task.metadata["mutationKind"]


def test_all_sixty_canonical_answers_score_one_in_native_mode(tasks: list[Task], grade_native: GradeNative) -> None:
    for task in tasks:
        verdict = grade_native(task, [task.expected])
        assert verdict.passed, (task.id, verdict.reason)
        assert verdict.details["callSource"] == "toolCalls"


def test_score_sdk_accepts_wire_submissions(tasks: list[Task]) -> None:
    task = tasks[0]
    assert score(task.id, {"answer": json.dumps(task.expected)}).passed
    assert score(task.id, {"toolCalls": [dict(task.expected)]}).passed
    assert score(task.id, {"answer": task.expected}).passed  # a JSON answer given directly


# -- F1-F3: nothing, junk, prose, non-calls ------------------------------------------------------------


@pytest.mark.parametrize(
    "trace", [Trace(), Trace(answer=""), Trace(answer="  \n\t"), Trace(answer=None, tool_calls=[])]
)
def test_f1_empty_submissions(tasks: list[Task], trace: Trace) -> None:
    verdict = grade_call(tasks[0], trace)
    assert (verdict.score, verdict.details["outcome"]) == (0.0, "emptyAnswer")
    assert verdict.reason.startswith("emptyAnswer:")
    assert verdict.details["callFound"] is False


@pytest.mark.parametrize(
    "answer",
    [
        "I would open an issue in the repository with the title you gave.",
        "{{{ <<>> ]]] }",
        "null",
        "```json\n```",
        '{"tool": "issues.create", "args": {}}',
        '{"name": 3, "arguments": {}}',
        '{"name": "issues.create", "parameters": {"repo": "acme/widgets"}}',
        '{"name": "issues.create", "arguments": "not json"}',
        '{"name": "issues.create", "arguments": [1, 2]}',
        '{"name": "issues.create", "arguments": {"a": NaN}}',
        42,
    ],
)
def test_f2_f3_f15_no_tool_call(tasks: list[Task], answer: Any) -> None:
    verdict = grade_call(tasks[0], Trace(answer=answer))
    assert (verdict.score, verdict.details["outcome"]) == (0.0, "noToolCall"), verdict.reason
    assert verdict.reason.startswith("noToolCall:")


# -- F4-F8: tolerated presentations -------------------------------------------------------------------


def test_f4_wrapped_calls_are_found(tasks: list[Task], grade_text: GradeText) -> None:
    task = tasks[7]
    call = json.dumps(task.expected)
    for text in (
        f"Sure! Here you go:\n```json\n{call}\n```\nLet me know if you need more.",
        f'{{"tool_call": {call}}}',
        json.dumps({"type": "function", "function": task.expected}),
        f"[{call}]",
        "The {braces} in prose are fine: " + call,
    ):
        assert grade_text(task, text).passed, text


def test_f5_the_last_call_is_graded(tasks: list[Task], grade_text: GradeText, grade_native: GradeNative) -> None:
    task = tasks[2]
    stale = task.metadata["staleCall"]
    draft_then_fix = f"Draft: {json.dumps(stale)}\nCorrected: {json.dumps(task.expected)}"
    assert grade_text(task, draft_then_fix).passed
    fix_then_draft = f"{json.dumps(task.expected)} ... actually {json.dumps(stale)}"
    assert grade_text(task, fix_then_draft).details["outcome"] == "staleSchemaUsed"
    assert grade_native(task, [stale, task.expected]).passed
    assert grade_native(task, [task.expected, stale]).details["outcome"] == "staleSchemaUsed"


def test_f5_a_call_shaped_argument_is_data_not_a_call(tasks: list[Task], grade_text: GradeText) -> None:
    task = tasks[0]
    nested = {"name": task.expected["name"], "arguments": {"inner": task.expected}}
    verdict = grade_text(task, nested)
    assert verdict.details["outcome"] == "mismatch"


def test_f6_arguments_as_a_json_string(tasks: list[Task], grade_text: GradeText) -> None:
    for task in tasks[:10]:
        encoded = {"name": task.expected["name"], "arguments": json.dumps(task.expected["arguments"])}
        assert grade_text(task, encoded).passed, task.id
    task = tasks[0]
    native = grade_call(
        task, Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=task.expected["arguments"])])
    )
    assert native.passed


def test_f7_key_order_does_not_matter(tasks: list[Task], grade_text: GradeText) -> None:
    for task in tasks:
        arguments = dict(reversed(list(task.expected["arguments"].items())))
        text = json.dumps({"arguments": arguments, "name": task.expected["name"], "id": "call_1"})
        assert grade_text(task, text).passed, task.id


def test_f7_keys_are_sorted_recursively(tasks: list[Task], grade_text: GradeText) -> None:
    nested = [t for t in tasks if any(isinstance(v, dict) for v in t.expected["arguments"].values())]
    assert nested, "no task has an object-valued argument"
    for task in nested:
        arguments = {
            key: dict(reversed(list(value.items()))) if isinstance(value, dict) else value
            for key, value in reversed(list(task.expected["arguments"].items()))
        }
        assert json.dumps(arguments) != json.dumps(task.expected["arguments"])
        assert grade_text(task, {"name": task.expected["name"], "arguments": arguments}).passed, task.id
    # The first difference is the first in sorted key order at every level, whatever the input order.
    want = {"b": {"y": 1, "x": 1}, "a": 1}
    assert first_difference(want, {"a": 1, "b": {"x": 2, "y": 2}}, "arguments") == "arguments.b.x: expected 1, got 2"
    assert first_difference(want, {"b": {"y": 2, "x": 1}, "a": 2}, "arguments") == "arguments.a: expected 1, got 2"


def test_f8_json_number_equality(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    checked = 0
    for task in tasks_of_kind("typeChange"):
        field = _element(task, "oldUnit")["field"]
        value = task.expected["arguments"][field]
        if isinstance(value, int):
            for spelled in (f"{value}.0", f"{value:e}"):
                text = json.dumps(task.expected).replace(f'"{field}": {value}', f'"{field}": {spelled}')
                assert text != json.dumps(task.expected)
                assert grade_text(task, text).passed, (task.id, text)
            checked += 1
    assert checked >= 8


# -- F9, F10, F21: strict where it must be --------------------------------------------------------------


def test_f9_strings_and_booleans_never_equal_numbers(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    task = next(t for t in tasks_of_kind("typeChange") if t.metadata["baseSchema"] == "payments")
    cents = task.expected["arguments"]["amount"]
    as_string = copy.deepcopy(task.expected)
    as_string["arguments"]["amount"] = str(cents)
    verdict = grade_text(task, as_string)
    assert verdict.details["outcome"] == "mismatch"
    assert verdict.details["firstDifference"] == f'arguments.amount: expected {cents}, got "{cents}"'
    assert first_difference(1, True, "x") == "x: expected 1, got true"
    assert first_difference({"a": 25}, {"a": 25.0}, "") is None


@pytest.mark.parametrize(
    ("expected", "got"),
    [
        (1, True),
        (True, 1),
        (0, False),
        (False, 0),
        (1.0, True),
        (25, "25"),
        ("25", 25),
        (0, None),
        (None, False),
        ("", None),
        (0, "0.0"),
        ([], {}),
        ({}, []),
        ("true", True),
    ],
)
def test_f9_type_confusion_is_never_equal(expected: Any, got: Any) -> None:
    assert first_difference(expected, got, "x") is not None
    assert first_difference({"a": [expected]}, {"a": [got]}, "") is not None


def test_f9_numbers_compare_by_value_not_by_spelling() -> None:
    for expected, got in ((25, 25.0), (2550, 2.55e3), (0, -0.0), (-3, -3.0), (10**15, 1e15)):
        assert first_difference(expected, got, "x") is None
        assert first_difference(got, expected, "x") is None
    assert first_difference(2**53 + 1, float(2**53 + 1), "x") is not None  # the float is 2**53: not the same number
    assert first_difference(0.1 + 0.2, 0.3, "x") is not None


def test_f10_unrequested_optional_argument(task_by_id: dict[str, Task], grade_text: GradeText) -> None:
    task = task_by_id["sm-issues-renamed-field"]
    extra = copy.deepcopy(task.expected)
    extra["arguments"]["body"] = ""
    verdict = grade_text(task, extra)
    assert verdict.details["outcome"] == "mismatch"
    assert verdict.details["firstDifference"] == 'arguments.body: unexpected field (got "")'
    assert verdict.details["validAgainstCurrentSchema"] is True


def test_f21_array_order_matters(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    task = next(
        t
        for t in tasks_of_kind("typeChange")
        if isinstance(t.expected["arguments"].get(_element(t, "oldUnit")["field"]), list)
        and len(t.expected["arguments"][_element(t, "oldUnit")["field"]]) > 1
    )
    field = _element(task, "oldUnit")["field"]
    reordered = copy.deepcopy(task.expected)
    reordered["arguments"][field].reverse()
    verdict = grade_text(task, reordered)
    assert verdict.details["outcome"] == "mismatch"
    assert verdict.details["firstDifference"].startswith(f"arguments.{field}[0]: expected")


# -- F11-F14: stale, half-adapted, unrelated, valid-but-wrong -------------------------------------------


def test_f11_every_stale_answer_is_stale_schema_used(tasks: list[Task], grade_text: GradeText) -> None:
    for task in tasks:
        verdict = grade_text(task, task.metadata["staleCall"])
        assert verdict.score == 0.0 and not verdict.passed
        assert verdict.details["outcome"] == "staleSchemaUsed", (task.id, verdict.reason)
        assert verdict.details["staleSchemaUsed"] is True
        assert verdict.reason.startswith("staleSchemaUsed:")
        assert _signals(verdict), task.id
        assert verdict.details["firstDifference"] is not None


def test_stale_signals_of_exact_stale_calls_per_kind(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    expected = {
        "renamedField": ["oldFieldName"],
        "newRequired": ["missingNewRequired"],
        "enumChange": ["oldEnumValue"],
        "splitEndpoint": ["oldUnsplitTool", "oldFieldName"],
        "typeChange": ["oldUnit"],
    }
    for kind, signals in expected.items():
        for task in tasks_of_kind(kind):
            assert _signals(grade_text(task, task.metadata["staleCall"])) == signals, task.id


def test_f12_half_adapted_renamed_field(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("renamedField"):
        element = _element(task, "oldFieldName")
        old, new = element["field"], element["replacement"]
        hedged = copy.deepcopy(task.expected)
        hedged["arguments"][old] = hedged["arguments"][new]
        verdict = grade_text(task, hedged)
        assert verdict.details["outcome"] == "mismatch"
        assert verdict.details["staleSignals"] == [{"signal": "oldFieldName", "path": f"arguments.{old}"}]
        assert verdict.details["validAgainstCurrentSchema"] is False
        slipped = grade_text(task, _slip(task.metadata["staleCall"], old))
        assert slipped.details["outcome"] == "mismatch" and _signals(slipped) == ["oldFieldName"]


def test_f12_half_adapted_new_required(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("newRequired"):
        field = _element(task, "missingNewRequired")["field"]
        slipped = grade_text(task, _slip(task.metadata["staleCall"]))
        assert slipped.details["outcome"] == "mismatch" and _signals(slipped) == ["missingNewRequired"]
        as_null = copy.deepcopy(task.expected)
        as_null["arguments"][field] = None
        verdict = grade_text(task, as_null)
        assert verdict.details["outcome"] == "mismatch" and _signals(verdict) == ["missingNewRequired"]


def test_f12_half_adapted_enum_change(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("enumChange"):
        element = _element(task, "oldEnumValue")
        field = element["field"]
        slipped = grade_text(task, _slip(task.metadata["staleCall"], field))
        assert slipped.details["outcome"] == "mismatch"
        old_value = task.metadata["staleCall"]["arguments"][field]
        assert slipped.details["staleSignals"] == [
            {"signal": "oldEnumValue", "path": f"arguments.{field}", "value": old_value}
        ]
        # Another old value (not the stale one) is still an old value.
        other_old = next(v for v in element["oldValues"] if v != old_value)
        wrong_old = copy.deepcopy(task.expected)
        wrong_old["arguments"][field] = other_old
        assert _signals(grade_text(task, wrong_old)) == ["oldEnumValue"]


def test_f12_half_adapted_split_endpoint(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("splitEndpoint"):
        discriminator = _element(task, "oldFieldName")["field"]
        stale = task.metadata["staleCall"]
        new_tool_old_field = copy.deepcopy(task.expected)
        new_tool_old_field["arguments"][discriminator] = stale["arguments"][discriminator]
        verdict = grade_text(task, new_tool_old_field)
        assert verdict.details["outcome"] == "mismatch" and _signals(verdict) == ["oldFieldName"]
        old_tool_new_args = {"name": stale["name"], "arguments": task.expected["arguments"]}
        verdict = grade_text(task, old_tool_new_args)
        assert verdict.details["outcome"] == "mismatch" and _signals(verdict) == ["oldUnsplitTool"]
        assert verdict.details["firstDifference"] == f'name: expected "{task.expected["name"]}", got "{stale["name"]}"'
        assert verdict.details["validAgainstCurrentSchema"] is False


def test_f12_half_adapted_type_change(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("typeChange"):
        field = _element(task, "oldUnit")["field"]
        slipped = grade_text(task, _slip(task.metadata["staleCall"], field))
        assert slipped.details["outcome"] == "mismatch" and _signals(slipped) == ["oldUnit"], task.id


def test_f12_old_type_with_another_value_is_an_old_unit(task_by_id: dict[str, Task], grade_text: GradeText) -> None:
    task = task_by_id["sm-issues-type-change"]
    spaced = copy.deepcopy(task.expected)
    spaced["arguments"]["labels"] = "one, two"  # a string, as the old schema wanted; not the stale value
    assert _signals(grade_text(task, spaced)) == ["oldUnit"]
    task = task_by_id["sm-payments-type-change"]
    dollars = copy.deepcopy(task.expected)
    dollars["arguments"]["amount"] = 3.5  # a fractional amount is dollars, never cents
    assert _signals(grade_text(task, dollars)) == ["oldUnit"]


def test_f13_another_tasks_answer(tasks: list[Task], grade_text: GradeText) -> None:
    for position, task in enumerate(tasks):
        other = tasks[(position + 5) % len(tasks)]  # the same mutation kind on the next base schema
        verdict = grade_text(task, other.expected)
        assert verdict.score == 0.0
        assert verdict.details["outcome"] == "mismatch", (task.id, verdict.reason)
        assert verdict.details["firstDifference"].startswith("name: expected")
        assert verdict.details["staleSignals"] == []
        assert verdict.details["validAgainstCurrentSchema"] is False


def test_f13_another_task_of_the_same_schema(task_by_id: dict[str, Task], grade_text: GradeText) -> None:
    task = task_by_id["sm-crm-new-required"]
    other = task_by_id["sm-crm-enum-change"]
    verdict = grade_text(task, other.expected)
    assert verdict.details["outcome"] == "mismatch"
    assert verdict.details["firstDifference"] is not None


def test_f14_valid_but_wrong_is_reported_not_scored(tasks_of_kind: TasksOfKind, grade_text: GradeText) -> None:
    for task in tasks_of_kind("enumChange"):
        field = _element(task, "oldEnumValue")["field"]
        wrong = copy.deepcopy(task.expected)
        current = task.expected["arguments"][field]
        wrong["arguments"][field] = next(v for v in _element(task, "oldEnumValue")["newValues"] if v != current)
        verdict = grade_text(task, wrong)
        assert verdict.details["outcome"] == "mismatch"
        assert verdict.details["validAgainstCurrentSchema"] is True
        assert verdict.details["schemaError"] is None
        assert verdict.details["firstDifference"] == (
            f'arguments.{field}: expected "{current}", got "{wrong["arguments"][field]}"'
        )
        assert verdict.reason == (
            f"mismatch: {verdict.details['firstDifference']}; the call is valid against the current schema"
        )


def test_the_first_differing_path_reads_as_in_the_issue() -> None:
    """The issue's own kind of example: a bug report answered with the old enum value `bug`."""
    task = next(t for t in generate_tasks() if t.id == "sm-issues-enum-change")
    assert task.expected["arguments"]["kind"] == "defect" and "bug report" in task.metadata["request"]
    issue_path = 'arguments.kind: expected "defect", got "bug"'
    stale = grade_call(task, Trace(answer=json.dumps(task.metadata["staleCall"])))
    assert stale.details["outcome"] == "staleSchemaUsed"
    assert stale.details["firstDifference"] == issue_path
    answer = copy.deepcopy(task.metadata["staleCall"])
    answer["arguments"]["title"] = answer["arguments"]["title"].lower()  # no longer the exact stale call
    verdict = grade_call(task, Trace(answer=json.dumps(answer)))
    assert verdict.reason == (
        f"mismatch: {issue_path}; the call is not valid against the current schema; stale signals: oldEnumValue"
    )


def test_enum_reason_reads_like_the_issue(task_by_id: dict[str, Task], grade_text: GradeText) -> None:
    task = task_by_id["sm-issues-enum-change"]
    old = task.metadata["staleCall"]["arguments"]["kind"]
    new = task.expected["arguments"]["kind"]
    answer = copy.deepcopy(task.expected)
    answer["arguments"]["kind"] = old
    answer["arguments"]["labels"] = "typo"
    verdict = grade_text(task, answer)
    assert verdict.details["firstDifference"] == f'arguments.kind: expected "{new}", got "{old}"'
    assert verdict.details["schemaError"].startswith("arguments.kind:")
    assert verdict.reason.endswith("not valid against the current schema; stale signals: oldEnumValue")


# -- F16-F20 ----------------------------------------------------------------------------------------------


def test_f16_hostile_input_is_bounded(tasks: list[Task]) -> None:
    task = tasks[0]
    for text in ('{"a":[' * 50_000, "{" * 300_000, '{"' * 200_000, "[" * 100_000):
        verdict = grade_call(task, Trace(answer=text))
        assert verdict.details["outcome"] == "noToolCall"
    deep: Any = task.expected["arguments"]
    for _ in range(5_000):
        deep = {"x": deep}
    verdict = grade_call(task, Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=deep)]))
    assert verdict.score == 0.0 and verdict.details["outcome"] == "mismatch"


def test_f16_only_the_tail_of_a_huge_answer_is_searched(tasks: list[Task]) -> None:
    task = tasks[0]
    call = json.dumps(task.expected)
    assert grade_call(task, Trace(answer="x" * 500_000 + call)).passed
    assert grade_call(task, Trace(answer=call + "x" * 500_000)).details["outcome"] == "noToolCall"


def test_f6_native_arguments_given_as_a_json_string(tasks: list[Task]) -> None:
    """Core's adapter decodes OpenAI's string arguments; a ToolCall built by hand may still hold one."""
    task = tasks[5]
    encoded: Any = json.dumps(task.expected["arguments"])
    assert grade_call(task, Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=encoded)])).passed
    no_arguments = Task(id="t", kind="single", prompt="p", expected={"name": "ping", "arguments": {}})
    empty: Any = "{}"
    assert grade_call(no_arguments, Trace(tool_calls=[ToolCall(name="ping", arguments=empty)])).passed
    broken: Any = '{"repo": '
    verdict = grade_call(task, Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=broken)]))
    assert verdict.details["outcome"] == "mismatch" and verdict.details["callSource"] == "toolCalls"


def test_f17_native_mode_falls_back_to_text(tasks: list[Task]) -> None:
    task = tasks[3]
    verdict = grade_call(task, Trace(answer=json.dumps(task.expected), tool_calls=[]))
    assert verdict.passed and verdict.details["callSource"] == "answer"


def test_f19_both_modes_are_declared() -> None:
    assert benchmark.answer_modes == ("prompt", "native")


def test_f20_tasks_without_metadata_are_graded_by_expected(tasks: list[Task]) -> None:
    bare = Task(id="bare", kind="single", prompt="p", expected=tasks[0].expected, tools=tasks[0].tools)
    assert grade_call(bare, Trace(answer=json.dumps(tasks[0].expected))).passed
    stale = grade_call(bare, Trace(answer=json.dumps(tasks[0].metadata["staleCall"])))
    assert stale.details["outcome"] == "mismatch" and stale.details["staleSignals"] == []
    broken = Task(
        id="broken",
        kind="single",
        prompt="p",
        expected="not a call",
        metadata={
            "staleCall": 3,
            "mutatedElements": [1, {"signal": "oldUnit"}, {"signal": "oldFieldName", "field": 2}],
        },
    )
    verdict = grade_call(broken, Trace(answer=json.dumps(tasks[0].expected)))
    assert verdict.details["outcome"] == "mismatch"
    assert verdict.details["firstDifference"] == "expected call is missing from the task"


def test_extract_call_directly() -> None:
    assert extract_call('x {"name": "a.b", "arguments": {}} y {"name": "c", "arguments": {"k": 1}}') == (
        "c",
        {"k": 1},
    )
    assert extract_call("no call here") is None


# -- hypothesis: nothing makes the grader raise -------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
_names = st.sampled_from(["issues.create", "issues.create_team", "payments.create_charge", ""]) | st.text(max_size=10)
_call_like = st.fixed_dictionaries({"name": _names, "arguments": _json})


def _check(verdict: TaskScore) -> None:
    assert verdict.score in (0.0, 1.0)
    assert verdict.passed == (verdict.score == 1.0)
    assert verdict.details["outcome"] in OUTCOMES
    assert verdict.reason.split(":", 1)[0] == verdict.details["outcome"]
    json.dumps(verdict.details)  # details are JSON for the report


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 59), text=st.text(max_size=200), call=_call_like, prefix=st.text(max_size=20))
def test_hypothesis_text_answers_never_raise(
    tasks: list[Task], index: int, text: str, call: dict[str, Any], prefix: str
) -> None:
    task = tasks[index]
    _check(grade_call(task, Trace(answer=text)))
    try:
        encoded = json.dumps(call)
    except ValueError:
        encoded = str(call)
    _check(grade_call(task, Trace(answer=prefix + encoded + text)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 59), answer=_json, calls=st.lists(_call_like, max_size=3))
def test_hypothesis_json_answers_and_tool_calls_never_raise(
    tasks: list[Task], index: int, answer: Any, calls: list[dict[str, Any]]
) -> None:
    task = tasks[index]
    _check(grade_call(task, Trace(answer=answer)))
    tool_calls = [ToolCall(name=c["name"], arguments=c["arguments"]) for c in calls]
    _check(grade_call(task, Trace(answer=answer, tool_calls=tool_calls)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 59), data=st.data())
def test_hypothesis_mutated_expected_calls_never_raise(tasks: list[Task], index: int, data: st.DataObject) -> None:
    task = tasks[index]
    call = copy.deepcopy(task.expected)
    key = data.draw(st.sampled_from(sorted(call["arguments"])))
    call["arguments"][key] = data.draw(_json)
    verdict = grade_call(task, Trace(answer=json.dumps(call)))
    _check(verdict)
    if verdict.passed:
        assert first_difference(task.expected["arguments"][key], call["arguments"][key], "") is None


_metadata = st.dictionaries(
    st.sampled_from(["mutationKind", "schemaVersion", "previousVersion", "mutation", "staleCall", "previousTools"]),
    _json,
    max_size=4,
)
_elements = st.lists(
    st.fixed_dictionaries(
        {"signal": st.sampled_from(STALE_SIGNALS)},
        optional={
            "field": st.text(max_size=6) | _json,
            "tool": _names,
            "oldValues": _json,
            "staleValue": _json,
            "previousSchema": _json,
            "currentSchema": _json,
        },
    )
    | _json,
    max_size=4,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 59), metadata=_metadata, elements=_elements, expected=_json | _call_like, data=st.data())
def test_hypothesis_odd_task_files_never_make_the_grader_raise(
    tasks: list[Task], index: int, metadata: dict[str, Any], elements: Any, expected: Any, data: st.DataObject
) -> None:
    """An alternate task file is graded by what it records; whatever it records, grading returns a verdict."""
    task = tasks[index]
    odd = Task(
        id="odd",
        kind="single",
        prompt="p",
        expected=data.draw(st.sampled_from([expected, task.expected])),
        tools=task.tools,
        metadata={**metadata, "mutatedElements": elements},
    )
    call = data.draw(st.sampled_from([task.expected, task.metadata["staleCall"], expected]))
    _check(grade_call(odd, Trace(answer=json.dumps(call))))
    if isinstance(call, dict) and isinstance(call.get("name"), str) and isinstance(call.get("arguments"), dict):
        _check(grade_call(odd, Trace(tool_calls=[ToolCall(name=call["name"], arguments=call["arguments"])])))


def test_f18_old_tool_in_provider_spelling_is_still_stale(tasks_of_kind: TasksOfKind) -> None:
    # Native mode offers only the new tools; a model that calls the memorised one anyway must spell it
    # the way the provider allows (`issues_create`), and the grader reads it as the old tool.
    for task in tasks_of_kind("splitEndpoint"):
        stale = task.metadata["staleCall"]
        safe_name = stale["name"].replace(".", "_")
        verdict = score(task.id, Trace(tool_calls=[ToolCall(name=safe_name, arguments=stale["arguments"])]))
        assert verdict.details["staleSchemaUsed"] is True, task.id
        assert "oldUnsplitTool" in _signals(verdict), task.id


def test_f22_several_distinct_calls_are_counted_and_an_earlier_match_is_reported(
    tasks: list[Task], grade_text: GradeText, grade_native: GradeNative
) -> None:
    task = tasks[2]
    stale, expected = task.metadata["staleCall"], task.expected
    # The right call, then "previously: <old call>": the last call is graded, as before.
    answer = f"{json.dumps(expected)}\nPreviously this was: {json.dumps(stale)}"
    verdict = grade_text(task, answer)
    assert verdict.details["outcome"] == "staleSchemaUsed" and verdict.score == 0.0
    assert (verdict.details["distinctCalls"], verdict.details["anotherCallMatched"]) == (2, True)
    assert "an earlier one of the 2 distinct calls matched, but the last call is graded" in verdict.reason
    native = grade_native(task, [expected, stale])
    assert (native.details["distinctCalls"], native.details["anotherCallMatched"]) == (2, True)
    # The same call twice (keys reordered, 25 written 25.0) is one distinct call.
    reordered = {"arguments": dict(reversed(list(expected["arguments"].items()))), "name": expected["name"]}
    once = grade_text(task, f"{json.dumps(expected)} again: {json.dumps(reordered)}")
    assert once.passed and (once.details["distinctCalls"], once.details["anotherCallMatched"]) == (1, False)
    fixed = grade_text(task, f"{json.dumps(stale)} -> {json.dumps(expected)}")
    assert fixed.passed and (fixed.details["distinctCalls"], fixed.details["anotherCallMatched"]) == (2, False)
    assert "(the last of 2 distinct calls)" in fixed.reason
    neither = grade_text(task, f"{json.dumps(stale)} or {json.dumps({'name': 'x', 'arguments': {}})}")
    assert (neither.details["distinctCalls"], neither.details["anotherCallMatched"]) == (2, False)
    single = grade_text(task, expected)
    assert (single.details["distinctCalls"], single.details["anotherCallMatched"]) == (1, False)
    assert grade_text(task, "").details["distinctCalls"] == 0


def test_stale_signals_of_the_extended_kinds() -> None:
    tasks = benchmark.tasks("tasks-extended")
    seen: set[str] = set()
    for task in tasks:
        verdict = grade_call(task, Trace(answer=json.dumps(task.metadata["staleCall"])))
        assert verdict.details["outcome"] == "staleSchemaUsed", task.id
        signals = _signals(verdict)
        kind = task.metadata["mutationKind"]
        expected = {"deprecation": {"deprecatedTool"}, "paginationChange": {"oldPaginationField"}}
        assert set(signals) == expected.get(kind, {"missingScope"}), task.id
        seen.update(signals)
        assert grade_call(task, Trace(answer=json.dumps(task.expected))).passed, task.id
    assert seen == {"deprecatedTool", "oldPaginationField", "missingScope"} and seen <= set(STALE_SIGNALS)
    # A call to the deprecated tool is still valid against the current schema: only the name is stale.
    deprecation = next(t for t in tasks if t.metadata["mutationKind"] == "deprecation")
    verdict = grade_call(deprecation, Trace(answer=json.dumps(deprecation.metadata["staleCall"])))
    assert verdict.details["validAgainstCurrentSchema"] is True
    assert verdict.details["firstDifference"].startswith("name: expected")
