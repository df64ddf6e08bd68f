"""Reading batch results: OpenAI's output and error files and Anthropic's results lines, each kind
of outcome with whether it may be submitted again, and batch statuses."""

from __future__ import annotations

import json

import pytest
from benchmark_core.adapters._batches import BatchOutcome, BatchStatus, count_of
from benchmark_core.adapters._providers.anthropic_batches import _outcome as anthropic_outcome
from benchmark_core.adapters._providers.openai_batches import _outcome as openai_outcome

ANSWER = {"choices": [{"message": {"role": "assistant", "content": "4"}}]}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            {"custom_id": "t1", "response": {"status_code": 200, "body": ANSWER}, "error": None},
            BatchOutcome("t1", answer=ANSWER),
        ),
        (
            {"custom_id": "t2", "response": None, "error": {"code": "batch_expired", "message": "too late"}},
            BatchOutcome("t2", error="batch_expired: too late", retryable=True),
        ),
        (
            {"custom_id": "t3", "response": {"status_code": 500, "body": {"error": {"message": "boom"}}}},
            BatchOutcome("t3", error="HTTP 500: boom", retryable=True),
        ),
        (
            {"custom_id": "t4", "response": {"status_code": 400, "body": {"error": {"message": "bad field"}}}},
            BatchOutcome("t4", error="HTTP 400: bad field", retryable=False),
        ),
        (
            {"custom_id": "t5", "response": {"status_code": 200}},
            BatchOutcome("t5", error="the result has no response body", retryable=True),
        ),
    ],
)
def test_openai_result_lines(line: dict[str, object], expected: BatchOutcome) -> None:
    assert openai_outcome(json.dumps(line)) == expected


def test_an_unreadable_openai_line_names_no_item() -> None:
    outcome = openai_outcome("{not json")
    assert outcome.custom_id == "" and outcome.answer is None and not outcome.retryable


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"type": "succeeded", "message": {"type": "message"}}, BatchOutcome("a", answer={"type": "message"})),
        ({"type": "expired"}, BatchOutcome("a", error="expired", retryable=True)),
        ({"type": "canceled"}, BatchOutcome("a", error="canceled", retryable=True)),
        (
            {"type": "errored", "error": {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}},
            BatchOutcome("a", error="overloaded_error: busy", retryable=True),
        ),
        (
            {
                "type": "errored",
                "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "no"}},
            },
            BatchOutcome("a", error="invalid_request_error: no", retryable=False),
        ),
    ],
)
def test_anthropic_result_lines(result: dict[str, object], expected: BatchOutcome) -> None:
    assert anthropic_outcome(json.dumps({"custom_id": "a", "result": result})) == expected


def test_status_lines_and_counts() -> None:
    status = BatchStatus("b1", "in_progress", False, total=60, succeeded=10, failed=2)
    assert status.describe() == "batch b1: in_progress, 12/60 done, 2 failed"
    assert BatchStatus("b1", "ended", True, total=3, succeeded=3).describe() == "batch b1: ended, 3/3 done"
    assert [count_of(v) for v in (3, -1, True, "7", None, 2.5)] == [3, 0, 0, 0, 0, 0]
