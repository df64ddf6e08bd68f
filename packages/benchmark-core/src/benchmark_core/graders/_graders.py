"""Reusable graders: four deterministic ones and one opt-in model judge.

The deterministic graders are pure functions of their arguments and never raise, whatever JSON they
are given: a malformed expected value, pattern, tolerance or schema scores 0 with a reason saying so,
because a grader that raises on a benchmark author's typo would turn every row into an error.

- `exact_match(expected, answer)`: JSON equality. A string answer to a non-string expected value is
  parsed as JSON first (so the answer "42" matches 42). Object key order is irrelevant, array order
  is not, `1 == 1.0`, and booleans are never numbers (`true != 1`). Strings compare exactly,
  whitespace included.
- `regex_match(pattern, answer)`: `re.search` semantics, like JavaScript's `RegExp.test`: the
  pattern may match anywhere in the answer; anchor it (`^...$` or `\\A...\\Z`) for a full match.
  Only string answers can match. Python's `re` has no match timeout, so benchmark authors must not
  ship patterns with catastrophic backtracking.
- `numeric_within(expected, tolerance, answer, *, relative=None, units=(), thousands=False)`:
  `|answer - expected| <= tolerance`, inclusive; with `relative` (a fraction such as 0.01), within
  the larger of `tolerance` and `relative * |expected|`. Numbers and numeric strings (decimal
  literals such as "-1.5e3") are accepted for all three arguments; booleans, NaN and infinities
  never pass. By default an answer is strict: no thousands separators, units or underscores. Two
  opt-ins loosen that for answers only: `units=("m", "metres")` also accepts a number followed by
  one of those units ("5000 m", "5000m"; another unit, "5 km", fails and is named), and
  `thousands=True` accepts commas between groups of three digits ("5,000", "1,234,567.5"; "12,34"
  fails). Numbers compare as the decimal literals they print as (`0.4` is exactly 4/10), so 0.4 is
  within 0.1 of 0.3, as a reader would expect.
- `json_schema_match(schema, answer)`: the subset of JSON Schema that `benchmark_core._util.json_schema`
  validates.
- `judge_with_llm(adapter, prompt)`: an async grader that asks a model for a score; opt-in, because
  it makes a paid model call for every grade.
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Optional, Union

from .._model import CompletionResult, JsonValue, Task, TaskScore, Trace
from .._util.json_schema import SchemaError, validate
from .._util.json_values import SHOW_LIMIT, is_number, json_equal, json_text, loads, show
from .._util.text import shorten
from ..adapters.base import AdapterContext
from ..errors._provider import AdapterError, RequestTimeoutError
from ..hooks._hooks import GradeContext

if TYPE_CHECKING:
    from ..adapters.base import ModelAdapter

__all__ = [
    "DEFAULT_JUDGE_PROMPT",
    "exact_match",
    "json_schema_match",
    "judge_with_llm",
    "numeric_within",
    "regex_match",
]

_MAX_ERRORS = 50

DEFAULT_JUDGE_PROMPT = "Score the candidate answer from 0 to 1. Return only JSON with numeric score and string reason."


def _pass(reason: str, **details: Any) -> TaskScore:
    return TaskScore(score=1.0, passed=True, reason=reason, details=details)


def _fail(reason: str, **details: Any) -> TaskScore:
    return TaskScore(score=0.0, passed=False, reason=reason, details=details)


def _short_line(value: Any) -> str:
    """`str(value)` on one line (line breaks escaped), cut to a length that suits a reason."""
    return shorten(str(value).replace("\n", "\\n").replace("\r", "\\r"), SHOW_LIMIT)


def _parse_json(text: str) -> tuple[bool, Any]:
    """(True, value) for strict JSON text (see `benchmark_core._util.json_values.loads`), else (False, why not)."""
    try:
        return True, loads(text)
    except ValueError as exc:
        return False, str(exc)


# -- exact_match ---------------------------------------------------------------------------------


def exact_match(expected: JsonValue, answer: JsonValue) -> TaskScore:
    """Score 1 when `answer` equals `expected` as a JSON value, else 0 (see the module docstring)."""
    if answer is None and expected is not None:
        return _fail(f"no answer; expected {show(expected)}")
    value = answer
    if isinstance(answer, str) and not isinstance(expected, str):
        ok, parsed = _parse_json(answer)
        if not ok:
            return _fail(f"expected {show(expected)}, got {show(answer)}, which is not JSON")
        value = parsed
    if json_equal(expected, value):
        return _pass(f"exact match: {show(expected)}")
    return _fail(f"expected {show(expected)}, got {show(value)}")


# -- regex_match ---------------------------------------------------------------------------------


def regex_match(pattern: Union[str, re.Pattern[str], JsonValue], answer: JsonValue) -> TaskScore:
    """Score 1 when `pattern` matches somewhere in the string `answer` (`re.search`), else 0.

    A pattern that does not compile scores 0 with the compiler's message instead of raising.
    """
    if isinstance(pattern, re.Pattern):
        compiled: re.Pattern[str] = pattern
    elif isinstance(pattern, str):
        try:
            compiled = re.compile(pattern)
        except Exception as exc:  # re.error, and OverflowError for huge repeat counts
            return _fail(f"invalid regular expression {show(pattern)}: {exc}")
    else:
        return _fail(f"the pattern must be a string, not {show(pattern)}")
    if not isinstance(answer, str):
        return _fail(f"answer must be a string to match /{_short_line(compiled.pattern)}/, got {show(answer)}")
    try:
        found = compiled.search(answer) is not None
    except Exception as exc:  # a bytes pattern against a str answer
        return _fail(f"cannot match /{_short_line(compiled.pattern)}/: {exc}")
    if found:
        return _pass(f"matches /{_short_line(compiled.pattern)}/")
    return _fail(f"{show(answer)} does not match /{_short_line(compiled.pattern)}/")


# -- numeric_within ------------------------------------------------------------------------------

_NUMERIC_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# Subtraction is done at the precision that makes it exact; beyond this many digits it is rounded,
# which can only matter for a difference that agrees with the tolerance in its first 100,000 digits.
_MAX_PRECISION = 100_000


def _to_decimal(value: Any) -> Optional[Decimal]:
    """A finite number or numeric string as the decimal it denotes; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip()
        if _NUMERIC_RE.fullmatch(text):
            return Decimal(text)
    return None


def _num(value: Decimal) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{value:.12g}"


def _exact_context(*values: Decimal) -> decimal.Context:
    top = max(v.adjusted() for v in values)
    bottom = min(int(v.as_tuple().exponent) for v in values)
    digits = min(max(top - bottom + 3, 28), _MAX_PRECISION)
    return decimal.Context(prec=digits, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[])


def numeric_within(
    expected: JsonValue,
    tolerance: JsonValue,
    answer: JsonValue,
    *,
    relative: JsonValue = None,
    units: Sequence[str] = (),
    thousands: bool = False,
) -> TaskScore:
    """Score 1 when `|answer - expected| <= tolerance` (inclusive), or within `relative * |expected|`
    when that is larger, else 0. `units` and `thousands` opt in to answers such as "5,000 m" (see the
    module docstring); the default is strict."""
    exp = _to_decimal(expected)
    if exp is None:
        return _fail(f"expected value {show(expected)} is not a finite number")
    tol = _to_decimal(tolerance)
    if tol is None or tol < 0:
        return _fail(f"tolerance {show(tolerance)} is not a finite non-negative number")
    rel = _to_decimal(relative) if relative is not None else Decimal(0)
    if rel is None or rel < 0:
        return _fail(f"relative tolerance {show(relative)} is not a finite non-negative number")
    allowed = max(tol, _trimmed(_exact_context(exp, tol, rel).multiply(rel, exp.copy_abs())))
    got, why = _answer_decimal(answer, units, thousands)
    if got is None:
        return _fail(f"answer {show(answer)} is {why}; expected {_num(exp)} ± {_num(allowed)}")
    ctx = _exact_context(exp, allowed, got)
    difference = ctx.abs(ctx.subtract(got, exp))
    if ctx.compare(difference, allowed) <= 0:
        return _pass(f"{_num(got)} is within {_num(allowed)} of {_num(exp)}")
    return _fail(f"{_num(got)} is {_num(difference)} away from {_num(exp)}, more than {_num(allowed)}")


def _trimmed(value: Decimal) -> Decimal:
    """`value` without the trailing zeros a product carries (50.00 -> 50, 0.0030 -> 0.003), exactly."""
    whole = value.to_integral_value()
    if value == whole:
        return whole
    return Decimal(format(value, "f").rstrip("0"))


_GROUPED_RE = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+)(\.\d*)?([eE][+-]?\d+)?")
_UNIT_RE = re.compile(r"(.*?\d\.?)\s*([^\d\s.,+-][^\d]*)")


def _answer_decimal(answer: Any, units: Sequence[str], thousands: bool) -> tuple[Optional[Decimal], str]:
    """The answer as a decimal, with the opt-in unit and thousands separators; else None and why."""
    strict = _to_decimal(answer)
    if strict is not None or not isinstance(answer, str) or not (units or thousands):
        return strict, "not a finite number"
    text = answer.strip()
    if units:
        match = _UNIT_RE.fullmatch(text)
        if match is not None:
            if match.group(2).strip() not in units:
                return None, f"in {match.group(2).strip()!r}, not in {' or '.join(map(repr, units))}"
            text = match.group(1)
    if thousands:
        grouped = _GROUPED_RE.fullmatch(text)
        if grouped is not None:
            text = text.replace(",", "")
    number = _to_decimal(text)
    return number, "" if number is not None else "not a number" + (" with a unit" if units else "")


# -- json_schema_match ---------------------------------------------------------------------------


def _accepts_strings(schema: Any) -> bool:
    if not isinstance(schema, dict) or "type" not in schema:
        return True
    declared = schema["type"]
    return declared == "string" or (isinstance(declared, list) and "string" in declared)


def _lists(schema: Mapping[str, Any], text: str) -> bool:
    """Whether the schema names this very string as an allowed value."""
    enum = schema.get("enum")
    return isinstance(enum, list) and text in enum


def json_schema_match(schema: JsonValue, answer: JsonValue) -> TaskScore:
    """Score 1 when `answer` is valid against `schema`, else 0 with the failing paths in the reason.

    The schema is checked by the house's one validator, `benchmark_core._util.json_schema.validate`,
    whose docstring lists the supported keywords (`type`, `enum`, `anyOf`, `required`,
    `properties`, `additionalProperties`, `minProperties`, `items`, `minLength`, `pattern`,
    `minimum`, `maximum`, ...). Every other keyword (`$ref`, `oneOf`, `format`, ...) is ignored, so
    a schema that relies on one accepts more than the full specification would.

    A string answer is parsed as JSON when the top-level schema does not allow strings (so the
    answer '{"a": 1}' is an object); when it has no `type`, it is parsed too unless the string itself
    is one of the schema's `enum` values (so "0" matches `{"enum": ["0"]}`), and when it does not
    parse, the raw string is validated. The reason names the first failing path, e.g.
    `$.items[2].price: 12 is above maximum 10`; `details["errors"]` lists up to 50 of them. A
    malformed schema scores 0 with "invalid schema" and the path inside the schema.
    """
    value = answer
    if isinstance(answer, str) and not _accepts_strings(schema):
        ok, parsed = _parse_json(answer)
        if not ok:
            return _fail(f"$: answer is not valid JSON ({parsed})")
        value = parsed
    elif isinstance(answer, str) and isinstance(schema, dict) and "type" not in schema and not _lists(schema, answer):
        ok, parsed = _parse_json(answer)
        if ok:
            value = parsed
    try:
        violations = validate(value, schema, limit=_MAX_ERRORS)
    except SchemaError as exc:
        return _fail(f"invalid schema at {exc}")
    except RecursionError:
        return _fail("$: the schema or the answer is nested too deeply to check")
    if not violations:
        return _pass("answer matches the schema")
    errors = [str(v) for v in violations]
    rest = len(errors) - 1
    reason = errors[0] if rest == 0 else f"{errors[0]} (and {rest} more error{'s' if rest > 1 else ''})"
    return _fail(reason, errors=errors)


# -- judge_with_llm ------------------------------------------------------------------------------

_FENCE_RE = re.compile(r"\A```[A-Za-z0-9_+-]*[ \t]*\n(.*?)\n?```\Z", re.DOTALL)

JudgeGrader = Callable[[Task, Trace, GradeContext], Awaitable[TaskScore]]


def judge_prompt(prompt: str, task: Task, answer: JsonValue) -> str:
    """The text sent to the judge: instructions, the task, the expected answer (if any), the answer."""
    parts = [prompt.strip(), "", "Task:", task.prompt]
    if task.expected is not None:
        parts += ["", "Expected answer:", _as_text(task.expected)]
    parts += ["", "Candidate answer:", _as_text(answer)]
    return "\n".join(parts)


def _as_text(value: JsonValue) -> str:
    return value if isinstance(value, str) else json_text(value)


def parse_judge_verdict(text: Any, pass_threshold: float = 0.5) -> TaskScore:
    """Turn a judge's reply into a TaskScore; anything but `{"score": 0..1, "reason": "..."}` scores 0."""
    if not isinstance(text, str):
        return _fail(f"judge returned {type(text).__name__}, not text")
    body = text.strip()
    fenced = _FENCE_RE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    ok, verdict = _parse_json(body)
    if not ok:
        return _fail(f"judge did not return JSON: {show(text)}")
    if not isinstance(verdict, dict) or set(verdict) != {"score", "reason"}:
        return _fail(f'judge must return exactly {{"score": number, "reason": string}}, got {show(verdict)}')
    score, reason = verdict["score"], verdict["reason"]
    if not is_number(score) or not 0 <= score <= 1:
        return _fail(f"judge score must be a number from 0 to 1, got {show(score)}")
    if not isinstance(reason, str):
        return _fail(f"judge reason must be a string, got {show(reason)}")
    return TaskScore(score=float(score), passed=score >= pass_threshold, reason=f"judge: {reason}")


def judge_with_llm(
    adapter: ModelAdapter,
    prompt: str = DEFAULT_JUDGE_PROMPT,
    *,
    pass_threshold: float = 0.5,
    timeout: float = 60.0,
    retries: int = 5,
    retry_budget: float = 300.0,
) -> JudgeGrader:
    """An async grader `(task, trace, ctx) -> TaskScore` that asks `adapter` to score the answer.

    The judge sees `prompt`, the task prompt, the task's expected answer (when it has one) and the
    candidate answer, and must reply `{"score": number in [0, 1], "reason": string}`, optionally in a
    Markdown code fence. Any other reply scores 0 with a reason saying what was wrong with it. A trace
    without an answer scores 0 without a model call. `passed` is `score >= pass_threshold`. Opt-in:
    every grade is a paid model call.

    A failed judge request is no verdict on the answer, so it never scores 0. Transient failures
    (429, 5xx, a lost connection, a malformed reply, no answer within `timeout` seconds) are retried
    by the run's rules (`adapters._retry`): exponential backoff with seeded jitter, at least the
    provider's Retry-After, up to `retries` retries within `retry_budget` seconds of the first try.
    A failure that is not transient (a rejected key, an unknown model), or one still failing then,
    raises its `AdapterError` ("judge request failed: ..."), so the run records an errored row.
    """

    async def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
        # Here: the other graders are imported by `list`, which needs no event loop.
        import asyncio

        from ..adapters._retry import GaveUp, RetryPolicy, retrying

        if trace.answer is None:
            return _fail("no answer to judge")
        text = judge_prompt(prompt, task, trace.answer)

        async def ask(attempt: int) -> Any:
            try:
                return await asyncio.wait_for(
                    adapter.complete(text, AdapterContext(task=task, attempt=attempt, seed=ctx.seed)), timeout
                )
            except asyncio.TimeoutError:
                raise RequestTimeoutError(f"judge did not answer within {timeout:g}s", retryable=True) from None

        try:
            result = await retrying(ask, RetryPolicy(retries=retries, budget=retry_budget).sequence(ctx.seed))
        except GaveUp as gave_up:
            raise _judge_failure(gave_up.failure, gave_up.attempts) from gave_up.failure
        if not isinstance(result, CompletionResult):
            return _fail(f"judge adapter returned {type(result).__name__}, not CompletionResult")
        return parse_judge_verdict(result.text, pass_threshold)

    return grade


def _judge_failure(failure: AdapterError, attempts: int) -> AdapterError:
    """The error a judge request that failed for good raises: its message says it was the judge's, and
    core's classes keep their code (RATE_LIMITED, ...); another adapter's own subclass, whose
    constructor core does not know, becomes a plain `AdapterError`."""
    suffix = f" (after {attempts} attempts)" if attempts > 1 else ""
    cls = type(failure) if type(failure).__module__ == AdapterError.__module__ else AdapterError
    return cls(
        f"judge request failed: {failure.message}{suffix}",
        retry_after=failure.retry_after,
        status=failure.status,
        fatal=failure.fatal,
    )
