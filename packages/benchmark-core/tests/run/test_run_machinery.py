"""What the runner's hot path stands on: run-wide deadlines from one timer, the limiter's fast path,
and the collector's threshold while runs are in progress."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Iterator

import pytest
from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.runs._collector import RUN_THRESHOLD, fewer_collections
from benchmark_core.runs._deadlines import Deadlines
from benchmark_core.runs._limiter import AdaptiveLimiter


async def _answer_after(delay: float, value: str) -> str:
    await asyncio.sleep(delay)
    return value


def test_requests_past_the_deadline_time_out_and_the_others_answer() -> None:
    async def main() -> list[object]:
        deadlines = Deadlines(0.05)

        async def one(delay: float, value: str) -> object:
            try:
                return await deadlines.within(_answer_after(delay, value))
            except asyncio.TimeoutError:
                return "timeout"

        # Interleaved: a slow request behind a quick one, a quick one behind a slow one.
        results = await asyncio.gather(one(0.0, "a"), one(1.0, "b"), one(0.01, "c"), one(1.0, "d"), one(0.0, "e"))
        deadlines.close()
        return list(results)

    assert asyncio.run(main()) == ["a", "timeout", "c", "timeout", "e"]


def test_a_timeout_leaves_the_task_usable_and_uncancelled() -> None:
    async def main() -> str:
        deadlines = Deadlines(0.01)
        with pytest.raises(asyncio.TimeoutError):
            await deadlines.within(_answer_after(1.0, "late"))
        # The same task goes on to its next request, which the earlier cancellation must not hit.
        answer = await deadlines.within(_answer_after(0.0, "next"))
        task = asyncio.current_task()
        assert task is not None
        if sys.version_info >= (3, 11):  # the timeout's cancellation was taken back
            assert task.cancelling() == 0
        deadlines.close()
        return answer

    assert asyncio.run(main()) == "next"


def test_a_cancellation_from_elsewhere_is_not_a_timeout() -> None:
    async def main() -> None:
        deadlines = Deadlines(10.0)
        job = asyncio.ensure_future(deadlines.within(_answer_after(1.0, "never")))
        await asyncio.sleep(0)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        deadlines.close()

    asyncio.run(main())


def test_an_awaitable_that_swallows_the_cancellation_still_answers() -> None:
    async def stubborn() -> str:
        try:
            await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            return "kept"
        return "slept"

    async def main() -> str:
        deadlines = Deadlines(0.01)
        answer = await deadlines.within(stubborn())
        deadlines.close()
        return answer

    assert asyncio.run(main()) == "kept"


def test_the_limiter_fast_path_takes_free_slots_only() -> None:
    limiter = AdaptiveLimiter(2)
    assert limiter.try_acquire() == 1
    assert limiter.try_acquire() == 2
    assert limiter.try_acquire() == 0  # full: the caller awaits acquire()
    limiter.release()
    assert limiter.try_acquire() == 3
    assert limiter.in_flight == 2


@pytest.fixture
def default_thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


def test_runs_raise_the_young_threshold_and_restore_it(default_thresholds: tuple[int, int, int]) -> None:
    with fewer_collections():
        assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)
        with fewer_collections():  # a second run at the same time
            assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (RUN_THRESHOLD, 10, 10)  # the first is still running
    assert gc.get_threshold() == default_thresholds


def test_thresholds_someone_else_set_are_left_alone(default_thresholds: tuple[int, int, int]) -> None:
    with fewer_collections():
        gc.set_threshold(5000, 20, 20)
    assert gc.get_threshold() == (5000, 20, 20)
    gc.set_threshold(0, 10, 10)  # automatic collection switched off: not switched back on
    with fewer_collections():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)


def test_a_run_restores_the_thresholds(default_thresholds: tuple[int, int, int]) -> None:
    report = asyncio.run(run(example, mock_adapter(), concurrency=4))
    assert report.complete
    assert gc.get_threshold() == default_thresholds


async def test_a_model_run_and_an_agent_run_refuse_an_unknown_option_alike() -> None:
    from benchmark_core.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"^unknown run option\(s\): bogus, colour$"):
        await run(example, mock_adapter(), bogus=1, colour="red")
    with pytest.raises(ConfigurationError, match=r"^unknown run option\(s\): bogus$"):
        await run(example, agent="true", bogus=1)
    report = await run(example, mock_adapter(policies=example.mock_policies), task_ids=["arith-01"])
    assert [row.task_id for row in report.rows] == ["arith-01"]  # any sequence of ids, kept as a tuple
