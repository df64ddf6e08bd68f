"""The one retry policy: direct requests and batch calls wait and give up by the same rules."""

from __future__ import annotations

import types
from typing import Any

import pytest
from benchmark_core import RunOptions
from benchmark_core.adapters._retry import RetryPolicy
from benchmark_core.errors import AdapterError
from benchmark_core.runs._batch import _provider_call
from benchmark_core.runs._requests import Fatal, retry_policy

TRANSIENT = AdapterError("HTTP 429", retryable=True, status=429)


def test_the_backoff_doubles_with_seeded_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(backoff_base=1.0, backoff_max=8.0, max_retry_after=5.0)
    sequence = policy.sequence(7)
    delays = [sequence.delay(TRANSIENT, n) for n in range(1, 6)]
    again = policy.sequence(7)
    assert delays == [again.delay(TRANSIENT, n) for n in range(1, 6)]  # seeded: the same waits
    for n, delay in enumerate(delays, start=1):
        assert delay is not None and 0.5 * min(8.0, 2 ** (n - 1)) <= delay < 1.5 * min(8.0, 2 ** (n - 1))
    slow = AdapterError("HTTP 429", retryable=True, status=429, retry_after=4.5)
    assert (policy.sequence(1).delay(slow, 1) or 0) >= 4.5
    endless = AdapterError("HTTP 429", retryable=True, status=429, retry_after=1e6)
    assert policy.sequence(1).delay(endless, 1) == pytest.approx(5.0)  # capped at max_retry_after


def test_retries_and_the_budget_end_a_sequence() -> None:
    sequence = RetryPolicy(retries=2, backoff_base=0.001).sequence(1)
    assert sequence.delay(TRANSIENT, 2) is not None and sequence.delay(TRANSIENT, 3) is None
    assert RetryPolicy(budget=0.5, backoff_base=1.0).sequence(1).delay(TRANSIENT, 1) is None


def test_a_runs_options_give_the_policy() -> None:
    options = RunOptions(retries=3, retry_budget=9.0)
    assert retry_policy(options) == RetryPolicy(retries=3, budget=9.0)


def _run_with(**options: Any) -> Any:
    return types.SimpleNamespace(options=RunOptions(backoff_base=0.001, backoff_max=0.002, **options))


async def test_batch_calls_retry_by_the_same_policy_and_give_up_at_retries() -> None:
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise TRANSIENT
        return "batch_1"

    assert await _provider_call(_run_with(), flaky) == "batch_1" and calls == 3
    calls = 0
    with pytest.raises(Fatal):
        await _provider_call(_run_with(retries=1), flaky)
    assert calls == 2  # the first try and one retry: --retries counts batch calls too


async def test_a_batch_create_that_timed_out_is_not_sent_again() -> None:
    calls = 0

    async def lost() -> str:
        nonlocal calls
        calls += 1
        raise AdapterError("request timed out", retryable=True)

    with pytest.raises(Fatal):
        await _provider_call(_run_with(), lost, idempotent=False)
    assert calls == 1
