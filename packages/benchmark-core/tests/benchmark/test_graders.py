"""The reusable graders: exact, regex, numeric, JSON Schema subset, and the opt-in model judge."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from decimal import Decimal, localcontext
from typing import Any

import pytest
from benchmark_core import (
    AdapterContext,
    Benchmark,
    GradeContext,
    Task,
    TaskScore,
    Trace,
    mock_adapter,
    openai_compat_adapter,
)
from benchmark_core.chat import ChatRequest, ChatResult, CompletionResult
from benchmark_core.errors import AdapterError, BadRequestError, GraderError, RateLimitedError, RequestTimeoutError
from benchmark_core.graders._graders import (
    DEFAULT_JUDGE_PROMPT,
    exact_match,
    json_schema_match,
    judge_with_llm,
    numeric_within,
    regex_match,
)
from benchmark_core.reports import Usage
from benchmark_core.testing import FakeOpenAI, FakeResponse
from hypothesis import given, settings
from hypothesis import strategies as st

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
finite_floats = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


def assert_verdict(result: Any) -> None:
    assert isinstance(result, TaskScore)
    assert result.score in (0.0, 1.0)
    assert result.passed is (result.score == 1.0)
    assert isinstance(result.reason, str)
    assert result.reason


# -- exact_match ---------------------------------------------------------------------------------


@given(json_values)
def test_exact_match_is_reflexive(value: Any) -> None:
    assert exact_match(value, value).passed


@given(json_values)
def test_exact_match_parses_a_json_text_answer_for_non_string_expected(value: Any) -> None:
    if isinstance(value, str):
        return
    assert exact_match(value, json.dumps(value)).passed


@given(json_values, json_values | st.text())
def test_exact_match_never_raises(expected: Any, answer: Any) -> None:
    assert_verdict(exact_match(expected, answer))


@pytest.mark.parametrize(
    ("expected", "answer", "passed"),
    [
        (42, "42", True),
        (42, " 42\n", True),
        (42, 42.0, True),
        (1.0, "1", True),
        (1, True, False),
        (True, 1, False),
        (False, "0", False),
        (True, "true", True),
        (None, "null", True),
        ({"a": 1, "b": [1, 2]}, '{"b": [1, 2.0], "a": 1}', True),
        ({"a": 1}, '{"a": 1, "b": 2}', False),
        ([1, 2], "[2, 1]", False),
        ("blue", "blue", True),
        ("blue", " blue", False),
        ("blue", '"blue"', False),
        ("42", 42, False),
        (42, "forty-two", False),
        (1, "NaN", False),
        (1, "Infinity", False),
        ({"a": None}, {}, False),
    ],
)
def test_exact_match_cases(expected: Any, answer: Any, passed: bool) -> None:
    assert exact_match(expected, answer).passed is passed


def test_exact_match_reasons_show_both_values() -> None:
    assert exact_match(42, "41").reason == "expected 42, got 41"
    assert exact_match(42, "x").reason == 'expected 42, got "x", which is not JSON'
    assert exact_match(42, None).reason == "no answer; expected 42"


def test_exact_match_survives_deep_nesting() -> None:
    deep: Any = 0
    for _ in range(50_000):
        deep = [deep]
    assert exact_match(deep, deep).passed
    assert not exact_match(deep, "[" * 50_000).passed


# -- regex_match ---------------------------------------------------------------------------------


def test_regex_match_searches_anywhere_in_the_answer() -> None:
    assert regex_match(r"\d+", "the answer is 42.").passed
    assert not regex_match(r"^\d+$", "the answer is 42.").passed
    assert regex_match(r"^\d+$", "42").passed
    assert regex_match(re.compile(r"(?i)blue"), "BLUE").passed


def test_regex_match_rejects_non_string_answers() -> None:
    result = regex_match(r"\d", 4)
    assert not result.passed
    assert "must be a string" in result.reason
    assert not regex_match(r".*", None).passed


@pytest.mark.parametrize("pattern", ["(", "[a-", "a{99999999999}", "(?P<x>a)(?P<x>b)", 5, None, ["a"]])
def test_regex_match_scores_bad_patterns_zero_instead_of_raising(pattern: Any) -> None:
    result = regex_match(pattern, "a")
    assert result.score == 0.0
    assert "regular expression" in result.reason or "pattern must be a string" in result.reason


@given(st.text(max_size=12), json_values)
def test_regex_match_never_raises(pattern: str, answer: Any) -> None:
    assert_verdict(regex_match(pattern, answer))


@given(st.text(max_size=30))
def test_regex_match_of_an_escaped_answer_passes(answer: str) -> None:
    assert regex_match(re.escape(answer), answer).passed


# -- numeric_within ------------------------------------------------------------------------------


@given(st.integers(), st.integers(min_value=0))
def test_numeric_within_integer_boundaries_are_inclusive(expected: int, tolerance: int) -> None:
    assert numeric_within(expected, tolerance, expected + tolerance).passed
    assert numeric_within(expected, tolerance, expected - tolerance).passed
    assert numeric_within(expected, tolerance, str(expected + tolerance)).passed
    assert not numeric_within(expected, tolerance, expected + tolerance + 1).passed
    assert not numeric_within(expected, tolerance, expected - tolerance - 1).passed


@given(finite_floats, st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_numeric_within_float_boundaries_are_inclusive(expected: float, tolerance: float) -> None:
    with localcontext() as ctx:
        ctx.prec = 1000
        exp, tol = Decimal(repr(expected)), Decimal(repr(tolerance))
        upper, lower = exp + tol, exp - tol
        step = Decimal(1).scaleb(min(exp.as_tuple().exponent, tol.as_tuple().exponent, -20) - 5)  # type: ignore[operator]
        above, below = upper + step, lower - step
    assert numeric_within(expected, tolerance, str(upper)).passed
    assert numeric_within(expected, tolerance, str(lower)).passed
    assert not numeric_within(expected, tolerance, str(above)).passed
    assert not numeric_within(expected, tolerance, str(below)).passed


@given(json_values | st.text(), json_values | st.text(), json_values | st.text())
def test_numeric_within_never_raises(expected: Any, tolerance: Any, answer: Any) -> None:
    assert_verdict(numeric_within(expected, tolerance, answer))


@pytest.mark.parametrize(
    ("expected", "tolerance", "answer", "passed"),
    [
        (0.3, 0.1, 0.4, True),
        (0.3, 0.1, 0.2, True),
        (0.3, 0.1, "0.4000001", False),
        (42, 0, "42", True),
        (42, 0, " 42.0 ", True),
        ("42", "0.5", "41.5", True),
        (1000, 0, "1e3", True),
        (1000, 0, "1,000", False),
        (1000, 0, "1_000", False),
        (1000, 0, "$1000", False),
        (1, 1, True, False),
        (1, 1, "nan", False),
        (1, 1, float("nan"), False),
        (1, 1e308, float("inf"), False),
        (1, 1, "Infinity", False),
        (1, 1, None, False),
        (1, 1, [1], False),
        (float("inf"), 1, 1, False),
        (1, float("inf"), 1, False),
        (1, -1, 1, False),
        (1, True, 1, False),
        (10**400, 1, 10**400 + 1, True),
        (10**400, 1, 10**400 + 2, False),
        (1, 0, "1e999999999999", False),
    ],
)
def test_numeric_within_cases(expected: Any, tolerance: Any, answer: Any, passed: bool) -> None:
    assert numeric_within(expected, tolerance, answer).passed is passed


def test_numeric_within_reasons() -> None:
    assert numeric_within(42, 0.5, "41.5").reason == "41.5 is within 0.5 of 42"
    assert numeric_within(42, 0.5, 43).reason == "43 is 1 away from 42, more than 0.5"
    assert numeric_within(42, -1, 42).reason == "tolerance -1 is not a finite non-negative number"
    assert numeric_within(42, 1, "lots").reason == 'answer "lots" is not a finite number; expected 42 ± 1'


@pytest.mark.parametrize(
    ("expected", "tolerance", "relative", "answer", "passed"),
    [
        (5000, 0, 0.01, 4950, True),  # 1% of 5000 is 50, inclusive
        (5000, 0, 0.01, "5050", True),
        (5000, 0, 0.01, 4949.99, False),
        (5000, 100, 0.01, 4900, True),  # the larger of the two wins
        (-5000, 0, 0.01, -4950, True),  # relative to |expected|
        (0, 0, 0.5, 0.0001, False),  # nothing is relatively close to zero: use an absolute tolerance
        (0.3, 0, "0.01", "0.303", True),
        (1, 0, -0.1, 1, False),
        (1, 0, "lots", 1, False),
        (1, 0, True, 1, False),
        (10**40, 0, "0.1", 10**40 + 10**39, True),  # exact at any size
        (10**40, 0, "0.1", 10**40 + 10**39 + 1, False),
    ],
)
def test_numeric_within_relative_tolerance(
    expected: Any, tolerance: Any, relative: Any, answer: Any, passed: bool
) -> None:
    assert numeric_within(expected, tolerance, answer, relative=relative).passed is passed


def test_numeric_within_relative_reasons() -> None:
    assert numeric_within(5000, 0, "4990", relative=0.01).reason == "4990 is within 50 of 5000"
    assert numeric_within(5000, 0, 4940, relative=0.01).reason == "4940 is 60 away from 5000, more than 50"
    assert numeric_within(5000, 0, 1, relative=-1).reason == "relative tolerance -1 is not a finite non-negative number"


@pytest.mark.parametrize(
    ("answer", "units", "thousands", "passed"),
    [
        ("5000 m", (), False, False),  # the default stays strict
        ("5,000", (), False, False),
        ("5000 m", ("m",), False, True),
        ("5000m", ("m",), False, True),
        ("  5000   metres ", ("m", "metres"), False, True),
        ("5000", ("m",), False, True),  # the unit may be left out
        ("5 km", ("m",), False, False),
        ("5000 m", ("km",), False, False),
        ("m", ("m",), False, False),
        ("5000 m m", ("m",), False, False),
        ("5,000", (), True, True),
        ("1,234,567.5", (), True, True),
        ("-5,000", (), True, True),
        ("50,00", (), True, False),  # commas only between groups of three digits
        ("5,0000", (), True, False),
        (",5000", (), True, False),
        ("5,000 m", ("m",), True, True),
        ("5,000 m", ("m",), False, False),  # each opt-in on its own
        ("5,000", ("m",), False, False),
    ],
)
def test_numeric_within_opt_in_units_and_thousands(
    answer: str, units: tuple[str, ...], thousands: bool, passed: bool
) -> None:
    expected = -5000 if answer.strip().startswith("-") else 1234567.5 if answer.startswith("1,234") else 5000
    assert numeric_within(expected, 0, answer, units=units, thousands=thousands).passed is passed


def test_numeric_within_names_the_unit_it_refused() -> None:
    verdict = numeric_within(5000, 0, "5 km", units=("m", "metres"))
    assert verdict.reason == "answer \"5 km\" is in 'km', not in 'm' or 'metres'; expected 5000 ± 0"
    assert numeric_within(5000, 0, "about 5000", units=("m",)).reason.startswith('answer "about 5000" is not a number')


@given(json_values | st.text(), st.text(max_size=12), st.booleans())
def test_numeric_within_opt_ins_never_raise(answer: Any, unit: str, thousands: bool) -> None:
    assert_verdict(numeric_within(1000, 1, answer, relative=0.1, units=(unit,), thousands=thousands))


# -- json_schema_match ---------------------------------------------------------------------------

ORDER_SCHEMA = {
    "type": "object",
    "required": ["id", "items"],
    "properties": {
        "id": {"type": "string", "pattern": "^ord-[0-9]+$"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["sku", "price"],
                "properties": {"sku": {"type": "string"}, "price": {"type": "number", "minimum": 0, "maximum": 10}},
                "additionalProperties": False,
            },
        },
        "status": {"enum": ["open", "closed"]},
    },
}


def test_json_schema_match_accepts_a_valid_document() -> None:
    answer = {"id": "ord-1", "items": [{"sku": "a", "price": 0}, {"sku": "b", "price": 10}], "status": "open"}
    result = json_schema_match(ORDER_SCHEMA, answer)
    assert result.passed, result.reason
    assert json_schema_match(ORDER_SCHEMA, json.dumps(answer)).passed


def test_json_schema_match_names_the_failing_path() -> None:
    answer = {"id": "ord-1", "items": [{"sku": "a", "price": 1}, {"sku": "b", "price": 2}, {"sku": "c", "price": 12}]}
    result = json_schema_match(ORDER_SCHEMA, answer)
    assert not result.passed
    assert result.reason == "$.items[2].price: 12 is above maximum 10"
    assert result.details == {"errors": ["$.items[2].price: 12 is above maximum 10"]}


def test_json_schema_match_lists_every_error_in_document_order() -> None:
    answer = {"id": "order-1", "items": [{"sku": 3, "price": -1, "note": "x"}, {"price": 1}], "status": "lost"}
    result = json_schema_match(ORDER_SCHEMA, answer)
    assert result.details["errors"] == [
        '$.id: "order-1" does not match pattern /^ord-[0-9]+$/',
        "$.items[0].sku: expected a string, got an integer 3",
        "$.items[0].price: -1 is below minimum 0",
        "$.items[0].note: unknown property (sku, price)",
        '$.items[1]: missing required property "sku"',
        '$.status: "lost" is not one of ["open", "closed"]',
    ]
    assert result.reason == '$.id: "order-1" does not match pattern /^ord-[0-9]+$/ (and 5 more errors)'


@pytest.mark.parametrize(
    ("schema", "answer", "passed"),
    [
        ({"type": "integer"}, 2, True),
        ({"type": "integer"}, 2.0, True),
        ({"type": "integer"}, 2.5, False),
        ({"type": "integer"}, True, False),
        ({"type": "number"}, False, False),
        ({"type": "boolean"}, True, True),
        ({"type": "boolean"}, 1, False),
        ({"type": "null"}, None, True),
        ({"type": "null"}, "null", True),
        ({"type": ["string", "null"]}, None, True),
        ({"type": ["string", "null"]}, "x", True),
        ({"type": ["string", "null"]}, 1, False),
        ({"type": "string"}, "42", True),
        ({"type": "array", "items": {"type": "integer"}}, "[1, 2, 3]", True),
        ({"type": "array", "items": {"type": "integer"}}, [1, "2"], False),
        ({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}, ["a", 1, None], True),
        ({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}, [1, "a"], False),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1, "b": 2}, True),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1, "b": "2"}, False),
        ({"minimum": 5}, 5, True),
        ({"maximum": 5}, 5.0, True),
        ({"minimum": 5}, "not a number", True),
        ({"pattern": "b"}, "abc", True),
        ({"pattern": "^b"}, "abc", False),
        ({"type": "string", "minLength": 10}, "a", False),
        ({"type": "string", "maxLength": 0, "format": "email"}, "a", True),
        ({"type": "object", "minProperties": 1}, {}, False),
        ({"$ref": "#/definitions/x", "oneOf": [False]}, 1, True),
        (True, {"anything": [1]}, True),
        (False, None, False),
        ({"properties": {"a": False}}, {"a": 1}, False),
        ({"properties": {"a": False}}, {"b": 1}, True),
        ({"enum": [1, {"a": [True]}]}, {"a": [True]}, True),
        ({"enum": [1]}, True, False),
        ({"enum": [1]}, 1.0, True),
    ],
)
def test_json_schema_match_keywords(schema: Any, answer: Any, passed: bool) -> None:
    result = json_schema_match(schema, answer)
    assert result.passed is passed, result.reason


def test_json_schema_match_string_answers() -> None:
    assert json_schema_match({"type": "object"}, '{"a": 1}').passed
    not_json = json_schema_match({"type": "object"}, "{a: 1}")
    assert not not_json.passed
    assert not_json.reason.startswith("$: answer is not valid JSON")
    assert json_schema_match({"pattern": "^hello"}, "hello world").passed
    assert json_schema_match({"required": ["a"]}, '{"a": 1}').passed


def test_json_schema_match_quotes_keys_that_are_not_identifiers() -> None:
    result = json_schema_match({"additionalProperties": False}, {"a b": 1, 'q"': 2})
    assert result.details["errors"] == [
        '$["a b"]: unknown property (none are allowed)',
        '$["q\\""]: unknown property (none are allowed)',
    ]


@pytest.mark.parametrize(
    ("schema", "where"),
    [
        ({"type": "integr"}, "$.type"),
        ({"type": []}, "$.type"),
        ({"properties": {"a": {"type": 5}}}, "$.properties.a.type"),
        ({"properties": {"a": {"pattern": "("}}}, "$.properties.a.pattern"),
        ({"required": "a"}, "$.required"),
        ({"properties": []}, "$.properties"),
        ({"enum": "a"}, "$.enum"),
        ({"items": {"maximum": "10"}}, "$.items.maximum"),
        ({"additionalProperties": 3}, "$.additionalProperties"),
        ([], "$"),
    ],
)
def test_json_schema_match_reports_malformed_schemas(schema: Any, where: str) -> None:
    answer = {"a": "x"} if not (isinstance(schema, dict) and "items" in schema) else [12]
    result = json_schema_match(schema, answer)
    assert result.score == 0.0
    assert result.reason.startswith(f"invalid schema at {where}: "), result.reason


@given(json_values, json_values)
def test_json_schema_match_never_raises_on_any_schema(schema: Any, answer: Any) -> None:
    assert_verdict(json_schema_match(schema, answer))


schema_keywords = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["null", "boolean", "integer", "number", "string", "array", "object"])
        | st.lists(st.sampled_from(["null", "integer", "string", "object"]), min_size=1, max_size=3),
        "enum": st.lists(json_scalars, max_size=3),
        "required": st.lists(st.text(max_size=3), max_size=3),
        "pattern": st.sampled_from(["a", "^[0-9]+$", "x|y", ""]),
        "minimum": st.integers(-5, 5),
        "maximum": st.integers(-5, 5),
    },
)
schemas = st.recursive(
    schema_keywords | st.booleans(),
    lambda children: st.builds(
        lambda base, props, items, extra: {**base, "properties": props, "items": items, "additionalProperties": extra},
        schema_keywords,
        st.dictionaries(st.text(max_size=3), children, max_size=3),
        children,
        children,
    ),
    max_leaves=8,
)


@settings(max_examples=300)
@given(schemas, json_values | st.text())
def test_json_schema_match_never_raises_on_well_formed_schemas(schema: Any, answer: Any) -> None:
    result = json_schema_match(schema, answer)
    assert_verdict(result)
    if not result.passed and not result.reason.startswith("$: answer is not valid JSON"):
        assert result.reason.startswith("$"), result.reason


@given(json_values)
def test_json_schema_match_enum_of_a_value_accepts_it(value: Any) -> None:
    assert json_schema_match({"enum": [value]}, value).passed


@pytest.mark.parametrize("text", ["0", "true", "null", '"quoted"', "[1]"])
def test_a_string_that_is_also_json_text_matches_an_enum_naming_the_string(text: str) -> None:
    # Found by the property test above: "0" was read as the number 0, which {"enum": ["0"]} refuses.
    assert json_schema_match({"enum": [text]}, text).passed
    assert json_schema_match({"enum": [json.loads(text)]}, text).passed  # still read as JSON otherwise
    assert not json_schema_match({"enum": ["other"]}, text).passed


identifiers = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
steps = st.lists(st.one_of(identifiers, st.integers(0, 3)), max_size=6)


@given(steps, st.integers(-100, 100), st.integers(1, 50))
def test_json_schema_match_reports_the_path_of_a_deep_violation(path: list[Any], bound: int, excess: int) -> None:
    schema: Any = {"type": "number", "maximum": bound}
    bad: Any = bound + excess
    good: Any = bound
    for step in reversed(path):
        if isinstance(step, int):
            schema = {"type": "array", "items": schema}
            bad, good = [good] * step + [bad], [good] * (step + 1)
        else:
            schema = {"type": "object", "properties": {step: schema}, "required": [step]}
            bad, good = {step: bad}, {step: good}
    where = "$" + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in path)
    assert json_schema_match(schema, good).passed
    result = json_schema_match(schema, bad)
    assert result.reason == f"{where}: {bound + excess} is above maximum {bound}"


# -- judge_with_llm ------------------------------------------------------------------------------


class ScriptedJudge:
    """A judge adapter that answers from a function of the prompt and records what it was asked."""

    def __init__(self, reply: Callable[[str], str]) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    @property
    def provider(self) -> str:
        return "scripted"

    @property
    def model(self) -> str:
        return "judge-1"

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        self.prompts.append(prompt)
        return CompletionResult(text=self.reply(prompt), usage=Usage(prompt_tokens=10, completion_tokens=5))

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        raise AdapterError("a judge only completes")

    async def aclose(self) -> None:
        return None


def _raise(error: Exception) -> Callable[[str], str]:
    def reply(prompt: str) -> str:
        raise error

    return reply


TASK = Task(id="capital", kind="single", prompt="What is the capital of France?", expected="Paris")


async def judge(reply: Callable[[str], str], answer: Any = "Paris, of course.", task: Task = TASK) -> TaskScore:
    grader = judge_with_llm(ScriptedJudge(reply))
    return await grader(task, Trace(answer=answer), GradeContext(seed=3))


def test_default_judge_prompt() -> None:
    assert DEFAULT_JUDGE_PROMPT == (
        "Score the candidate answer from 0 to 1. Return only JSON with numeric score and string reason."
    )


async def test_judge_sends_the_instructions_task_expected_and_answer() -> None:
    adapter = ScriptedJudge(lambda _: '{"score": 0.8, "reason": "right city, chatty"}')
    result = await judge_with_llm(adapter)(TASK, Trace(answer="Paris, of course."), GradeContext())
    assert result == TaskScore(score=0.8, passed=True, reason="judge: right city, chatty")
    assert adapter.prompts == [
        f"{DEFAULT_JUDGE_PROMPT}\n\nTask:\nWhat is the capital of France?\n\nExpected answer:\nParis\n\n"
        "Candidate answer:\nParis, of course."
    ]


async def test_judge_omits_a_missing_expected_answer_and_uses_a_custom_prompt() -> None:
    adapter = ScriptedJudge(lambda _: '{"score": 0, "reason": "no"}')
    task = Task(id="poem", kind="single", prompt="Write a haiku.")
    result = await judge_with_llm(adapter, "Be strict.")(task, Trace(answer={"lines": 3}), GradeContext())
    assert result.score == 0.0
    assert not result.passed
    assert adapter.prompts == ['Be strict.\n\nTask:\nWrite a haiku.\n\nCandidate answer:\n{"lines": 3}']


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n{"score": 1, "reason": "ok"}\n```',
        '```\n{"score": 1, "reason": "ok"}\n```',
        '  {"score": 1.0, "reason": "ok"}\n',
    ],
)
async def test_judge_tolerates_a_code_fence(reply: str) -> None:
    result = await judge(lambda _: reply)
    assert result == TaskScore(score=1.0, passed=True, reason="judge: ok")


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("The answer is right.", "judge did not return JSON"),
        ('{"score": 1.5, "reason": "x"}', "judge score must be a number from 0 to 1"),
        ('{"score": -0.1, "reason": "x"}', "judge score must be a number from 0 to 1"),
        ('{"score": true, "reason": "x"}', "judge score must be a number from 0 to 1"),
        ('{"score": "1", "reason": "x"}', "judge score must be a number from 0 to 1"),
        ('{"score": NaN, "reason": "x"}', "judge did not return JSON"),
        ('{"score": 1, "reason": 2}', "judge reason must be a string"),
        ('{"score": 1}', 'judge must return exactly {"score": number, "reason": string}'),
        ('{"score": 1, "reason": "x", "confidence": 1}', 'judge must return exactly {"score": number'),
        ("[1, 2]", 'judge must return exactly {"score": number'),
        ("", "judge did not return JSON"),
    ],
)
async def test_judge_scores_zero_on_anything_else(reply: str, reason: str) -> None:
    result = await judge(lambda _: reply)
    assert result.score == 0.0
    assert not result.passed
    assert result.reason.startswith(reason), result.reason


async def test_a_judge_request_that_cannot_succeed_raises_and_is_not_retried() -> None:
    adapter = ScriptedJudge(_raise(AdapterError("HTTP 401 from provider", status=401)))
    with pytest.raises(AdapterError, match=r"^judge request failed: HTTP 401 from provider$") as raised:
        await judge_with_llm(adapter)(TASK, Trace(answer="Paris"), GradeContext())
    assert raised.value.status == 401 and raised.value.code == AdapterError.code
    assert len(adapter.prompts) == 1


async def test_judge_does_not_call_the_model_without_an_answer() -> None:
    adapter = ScriptedJudge(lambda _: '{"score": 1, "reason": "ok"}')
    result = await judge_with_llm(adapter)(TASK, Trace(), GradeContext())
    assert result.reason == "no answer to judge"
    assert adapter.prompts == []


async def test_judge_gives_up_after_its_timeout() -> None:
    never = asyncio.Event()

    class SilentJudge(ScriptedJudge):
        async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
            await never.wait()
            raise AssertionError("unreachable")

    grader = judge_with_llm(SilentJudge(lambda _: ""), timeout=0.05, retries=1, retry_budget=30.0)
    with pytest.raises(RequestTimeoutError) as raised:
        await grader(TASK, Trace(answer="Paris"), GradeContext())
    assert raised.value.message == "judge request failed: judge did not answer within 0.05s (after 2 attempts)"


async def test_judge_pass_threshold() -> None:
    adapter = ScriptedJudge(lambda _: '{"score": 0.6, "reason": "partly"}')
    strict = await judge_with_llm(adapter, pass_threshold=0.7)(TASK, Trace(answer="Lyon"), GradeContext())
    lenient = await judge_with_llm(adapter)(TASK, Trace(answer="Lyon"), GradeContext())
    assert (strict.score, strict.passed, lenient.passed) == (0.6, False, True)


async def test_judge_works_as_a_benchmark_grader(make_benchmark: Callable[..., Benchmark]) -> None:
    adapter = ScriptedJudge(lambda prompt: '{"score": 1, "reason": "same"}' if "Say 2." in prompt else "??")
    benchmark = make_benchmark(grade=judge_with_llm(adapter))
    good = await benchmark.score_async("t2", {"answer": "2"})
    bad = await benchmark.score_async("t3", {"answer": "3"})
    assert (good.score, good.reason) == (1.0, "judge: same")
    assert (bad.score, bad.reason) == (0.0, 'judge did not return JSON: "??"')


async def test_judge_through_the_openai_compatible_adapter() -> None:
    replies = [FakeResponse.text('{"score": 0.9, "reason": "right city"}'), FakeResponse.error(400, "bad model")]
    async with FakeOpenAI(replies) as server:
        adapter = openai_compat_adapter(server.base_url, "judge-model", api_key="sk-judge-secret")
        grader = judge_with_llm(adapter)
        good = await grader(TASK, Trace(answer="Paris"), GradeContext())
        with pytest.raises(BadRequestError) as failed:
            await grader(TASK, Trace(answer="Paris"), GradeContext())
        await adapter.aclose()
        sent = server.requests[0].body["messages"][0]["content"]
    assert good == TaskScore(score=0.9, passed=True, reason="judge: right city")
    assert failed.value.message.startswith("judge request failed: ") and "bad model" in failed.value.message
    assert "sk-judge-secret" not in failed.value.message
    assert len(server.requests) == 2  # a 400 is not retried
    assert sent.startswith(DEFAULT_JUDGE_PROMPT)
    assert "Candidate answer:\nParis" in sent


async def test_the_judge_waits_out_a_429s_retry_after_and_scores_the_real_verdict() -> None:
    verdict = FakeResponse.text('{"score": 0.75, "reason": "close"}')
    async with FakeOpenAI([FakeResponse.error(429, "slow down", retry_after="1"), verdict]) as server:
        adapter = openai_compat_adapter(server.base_url, "judge-model", api_key="sk-judge")
        started = time.monotonic()
        result = await judge_with_llm(adapter)(TASK, Trace(answer="Paris"), GradeContext(seed=5))
        waited = time.monotonic() - started
        await adapter.aclose()
    assert result == TaskScore(score=0.75, passed=True, reason="judge: close")
    assert len(server.requests) == 2
    assert waited >= 0.99  # the provider's Retry-After, not the shorter first backoff (0.25-0.75 s)


async def test_the_judge_retries_a_503_and_scores_the_real_verdict() -> None:
    verdict = FakeResponse.text('{"score": 0.2, "reason": "wrong city"}')
    async with FakeOpenAI([FakeResponse.error(503, "overloaded"), verdict]) as server:
        adapter = openai_compat_adapter(server.base_url, "judge-model", api_key="sk-judge")
        result = await judge_with_llm(adapter)(TASK, Trace(answer="Lyon"), GradeContext())
        await adapter.aclose()
    assert result == TaskScore(score=0.2, passed=False, reason="judge: wrong city")
    assert len(server.requests) == 2


async def test_a_judge_that_never_recovers_errors_the_row_instead_of_scoring_zero(
    make_benchmark: Callable[..., Benchmark],
) -> None:
    async with FakeOpenAI(default=FakeResponse.error(429, "slow down", retry_after="0")) as server:
        adapter = openai_compat_adapter(server.base_url, "judge-model", api_key="sk-judge")
        grader = judge_with_llm(adapter, retries=2)
        with pytest.raises(RateLimitedError) as raised:
            await grader(TASK, Trace(answer="Paris"), GradeContext())
        benchmark = make_benchmark(grade=grader)
        report = await benchmark.run_async(mock_adapter(), task_ids=("t2",))
        await adapter.aclose()
    assert raised.value.message.startswith("judge request failed: ")
    assert raised.value.message.endswith("(after 3 attempts)") and "slow down" in raised.value.message
    assert len(server.requests) == 3 + 3
    (row,) = report.rows
    assert row.error_code == GraderError.code and row.score == 0.0
    assert row.error is not None and "judge request failed" in row.error and "(after 3 attempts)" in row.error
