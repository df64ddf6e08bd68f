"""Pacing from rate-limit headers: reading OpenAI's and Anthropic's headers, the pacer's decisions on a
clock the test moves, and a run against the fake's token bucket with and without the headers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timezone

import attrs
import pytest
from benchmark_core import Benchmark, RunOptions, Task, openai_compat_adapter
from benchmark_core.adapters import Budget, Pacer, RateLimits, parse_duration, parse_rate_limits, parse_reset_time
from benchmark_core.adapters.base import AdapterContext
from benchmark_core.errors import AdapterError
from benchmark_core.runs import Run
from benchmark_core.testing import FakeOpenAI, FakeResponse
from benchmark_core.testing.buckets import go_duration

BenchmarkFactory = Callable[..., Benchmark]

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1s", 1.0),
        ("6m0s", 360.0),
        ("20ms", 0.02),
        ("1h2m3.5s", 3723.5),
        ("0s", 0.0),
        ("2.5", 2.5),
        ("150us", 0.00015),
        ("7.66s", 7.66),
    ],
)
def test_openai_durations_are_read(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", [None, "", "soon", "1x", "s", "1s2", "-1", "1s 2s"])
def test_unreadable_durations_are_none(text: str | None) -> None:
    assert parse_duration(text) is None


def test_the_fake_writes_durations_the_parser_reads() -> None:
    for seconds in (0.0123, 0.5, 1.25, 61.5, 3723.0):
        assert parse_duration(go_duration(seconds)) == pytest.approx(seconds, abs=0.001)
    assert go_duration(360) == "6m0s"
    assert go_duration(0.02) == "20ms"


def test_rfc3339_resets_are_seconds_from_now() -> None:
    assert parse_reset_time("2026-01-01T12:00:30Z", NOW) == 30.0
    assert parse_reset_time("2026-01-01T13:00:01+01:00", NOW) == 1.0
    assert parse_reset_time("2026-01-01T11:00:00Z", NOW) == 0.0
    assert parse_reset_time("tomorrow", NOW) is None
    assert parse_reset_time(None, NOW) is None


def test_openai_headers_any_case() -> None:
    headers = {
        "X-RateLimit-Limit-Requests": "10000",
        "x-ratelimit-remaining-requests": "9999",
        "x-ratelimit-reset-requests": "6ms",
        "x-ratelimit-limit-tokens": "2000000",
        "x-ratelimit-remaining-tokens": "1999100",
        "x-ratelimit-reset-tokens": "27ms",
    }
    assert parse_rate_limits(headers) == RateLimits(
        requests=Budget(remaining=9999, limit=10000, reset=0.006),
        tokens=Budget(remaining=1999100, limit=2000000, reset=0.027),
    )


def test_anthropic_headers() -> None:
    headers = {
        "anthropic-ratelimit-requests-limit": "50",
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": "2026-01-01T12:00:02Z",
        "anthropic-ratelimit-tokens-remaining": "40000",
        "retry-after": "2",
    }
    limits = parse_rate_limits(headers, NOW)
    assert limits.requests == Budget(remaining=0, limit=50, reset=2.0)
    assert limits.tokens == Budget(remaining=40000, limit=None, reset=None)
    assert limits.retry_after == 2.0


def test_retry_after_ms_wins_over_retry_after_and_nothing_is_empty() -> None:
    assert parse_rate_limits({"retry-after-ms": "250", "Retry-After": "1"}).retry_after == 0.25
    assert parse_rate_limits({"retry-after-ms": "bad", "Retry-After": "3"}).retry_after == 3.0
    assert parse_rate_limits({"x-ratelimit-remaining-requests": "many"}).empty
    assert parse_rate_limits({"content-type": "application/json"}).empty


@pytest.mark.parametrize("families", [("openai",), ("anthropic",), ("openai", "anthropic")])
def test_each_family_is_read_whatever_else_the_answer_sends(families: tuple[str, ...]) -> None:
    # Answers without a `remaining` or retry-after header are read as empty without a closer look;
    # each header that makes an answer non-empty must still be seen, in any case.
    signals = {
        "openai": ("X-RateLimit-Remaining-Requests", "x-ratelimit-remaining-tokens"),
        "anthropic": ("Anthropic-Ratelimit-Requests-Remaining", "anthropic-ratelimit-tokens-remaining"),
    }
    for name in [name for family in families for name in signals[family]] + ["Retry-After-Ms", "retry-after"]:
        headers = {"content-type": "application/json", name: "5"}
        assert not parse_rate_limits(headers, NOW, families).empty, name
    limit_and_reset_only = {"x-ratelimit-limit-requests": "60", "x-ratelimit-reset-requests": "1s"}
    assert parse_rate_limits(limit_and_reset_only, NOW, families) == RateLimits()


def openai_budget(remaining: float, limit: float, rate: float) -> RateLimits:
    """What a bucket of `limit` refilled at `rate` per second says when it holds `remaining`."""
    return RateLimits(requests=Budget(remaining=remaining, limit=limit, reset=(limit - remaining) / rate))


def test_without_headers_claims_never_wait() -> None:
    pacer = Pacer(clock=Clock())
    assert [pacer.claim() for _ in range(3)] == [(1, 0.0), (2, 0.0), (3, 0.0)]
    pacer.observe(1, parse_rate_limits({}))
    assert pacer.claim() == (4, 0.0)
    assert not pacer.active


def test_claims_spread_over_the_refill_once_the_bucket_runs_low() -> None:
    clock = Clock()
    pacer = Pacer(reserve=1.0, margin=0.0, clock=clock)
    slot, _ = pacer.claim()
    pacer.observe(slot, openai_budget(remaining=4, limit=10, rate=10))
    # 4 left, 1 kept back: three claims go now, then one every 1/10 s.
    waits = [pacer.claim()[1] for _ in range(6)]
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert waits[3:] == pytest.approx([0.1, 0.2, 0.3])
    clock.now += 1.0  # a second of refill covers those and more
    assert pacer.claim()[1] == 0.0


def test_requests_claimed_after_the_answered_one_count_against_the_budget() -> None:
    clock = Clock()
    pacer = Pacer(reserve=1.0, margin=0.0, clock=clock)
    first, _ = pacer.claim()
    for _ in range(3):  # sent after the first, not yet counted by the provider when it answered it
        pacer.claim()
    pacer.observe(first, openai_budget(remaining=5, limit=10, rate=10))
    assert pacer.claim()[1] == 0.0  # 5 - 3 - 1 = 1 left: at the reserve
    assert pacer.claim()[1] == pytest.approx(0.1)


def test_an_overtaken_answer_is_ignored() -> None:
    pacer = Pacer(reserve=1.0, margin=0.0, clock=Clock())
    first, _ = pacer.claim()
    second, _ = pacer.claim()
    pacer.observe(second, openai_budget(remaining=50, limit=100, rate=100))
    pacer.observe(first, openai_budget(remaining=0, limit=100, rate=100))  # older: stale
    assert pacer.claim()[1] == 0.0


def test_the_margin_keeps_back_what_the_bucket_refills_in_that_time() -> None:
    pacer = Pacer(reserve=1.0, margin=0.05, clock=Clock())
    slot, _ = pacer.claim()
    pacer.observe(slot, openai_budget(remaining=6, limit=100, rate=100))
    # 5 requests' worth (50 ms at 100/s) stay back: one claim goes, the next waits 10 ms.
    assert pacer.claim()[1] == 0.0
    assert pacer.claim()[1] == pytest.approx(0.01)


def test_a_reset_without_a_limit_waits_for_the_reset() -> None:
    clock = Clock()
    pacer = Pacer(reserve=1.0, margin=0.0, clock=clock)
    slot, _ = pacer.claim()
    pacer.observe(slot, RateLimits(requests=Budget(remaining=0, reset=2.0)))
    assert pacer.claim()[1] == pytest.approx(2.0)
    clock.now += 2.5
    pacer.observe(2, RateLimits(requests=Budget(remaining=30, reset=0.0)))
    assert pacer.claim()[1] == 0.0


def test_the_token_bucket_paces_by_the_mean_tokens_of_a_request() -> None:
    pacer = Pacer(reserve=1.0, margin=0.0, clock=Clock())
    slot, _ = pacer.claim()
    # 1,000 tokens a second; 2,500 left; each request has used 1,000 tokens.
    limits = RateLimits(tokens=Budget(remaining=2500, limit=10000, reset=7.5))
    pacer.observe(slot, limits, used_tokens=1000)
    assert pacer.claim()[1] == 0.0  # 2,500 - 1,000 = 1,500 >= 1,000 kept back
    assert pacer.claim()[1] == pytest.approx(0.5)  # 500 left: 500 more at 1,000/s


def test_the_probe_holds_every_other_claim_until_the_first_answer() -> None:
    async def main() -> list[str]:
        pacer = Pacer(probe=True)
        events: list[str] = []
        slot, _ = pacer.claim()
        assert pacer.probing

        async def second() -> None:
            await pacer.probe_answered()
            events.append("second claims")

        waiter = asyncio.ensure_future(second())
        await asyncio.sleep(0.01)
        events.append("first answered")
        pacer.finished(slot)
        await waiter
        return [*events, f"probing: {pacer.probing}"]

    assert asyncio.run(main()) == ["first answered", "second claims", "probing: False"]


async def test_the_adapter_reads_retry_after_ms_and_feeds_the_pacer() -> None:
    headers = {"retry-after-ms": "1500", "Retry-After": "2", "x-ratelimit-remaining-requests": "0"}
    async with FakeOpenAI([attrs.evolve(FakeResponse.error(429, "slow down"), headers=headers)]) as server:
        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
        pacer = Pacer()
        ctx = AdapterContext(task=Task(id="t", kind="single", prompt="p"), pacer=pacer, pace_slot=pacer.claim()[0])
        with pytest.raises(AdapterError) as caught:
            await adapter.complete("hi", ctx)
        await adapter.aclose()
    assert caught.value.retry_after == 1.5
    assert pacer.active


def many_tasks(count: int) -> list[Task]:
    return [Task(id=f"t{i}", kind="single", prompt=f"q{i}", expected="4") for i in range(count)]


@pytest.mark.parametrize("headers", [True, False])
def test_a_burst_against_a_small_bucket(make_benchmark: BenchmarkFactory, headers: bool) -> None:
    """Ten requests at once against a bucket of 3 refilled at 10/s: with the headers the probe and the
    pacer keep them within the bucket; without, the first round overruns it and 429s follow."""

    async def main() -> tuple[int, int, bool]:
        fake = FakeOpenAI(default=FakeResponse.text("4"), rate_limit=10, burst=3, ratelimit_headers=headers)
        async with fake as server:
            adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
            run = Run(make_benchmark(many_tasks(10)), adapter, _options(concurrency=10))
            report = await run.execute()
            return server.rate_limited, report.totals.failed, run.pacer.active

    limited, failed, active = asyncio.run(main())
    assert failed == 0
    assert active == headers
    if headers:
        assert limited <= 1
    else:
        assert limited >= 3


def _options(concurrency: int) -> RunOptions:
    return RunOptions(cache=False, concurrency=concurrency, backoff_base=0.05)


async def test_waiting_slots_are_re_planned_when_an_answer_shows_more_left() -> None:
    """Slots planned from a low level sleep in `wait`; an answer that shows the bucket fuller
    wakes them at once instead of on the old plan (minutes away here), in claim order."""
    clock = Clock()
    pacer = Pacer(reserve=1.0, margin=0.0, clock=clock)
    first, _ = pacer.claim()
    pacer.observe(first, openai_budget(remaining=1, limit=100, rate=0.01))  # 1 left, refilled slowly
    claims = [pacer.claim() for _ in range(3)]
    assert all(wait > 60 for _, wait in claims)
    sent: list[int] = []

    async def send(slot: int, wait: float) -> None:
        await pacer.wait(slot, wait)
        sent.append(slot)

    tasks = [asyncio.create_task(send(slot, wait)) for slot, wait in claims]
    await asyncio.sleep(0)
    assert sent == []
    # The answer to the last claim: 50 left after it, nothing claimed since.
    pacer.observe(claims[-1][0], openai_budget(remaining=50, limit=100, rate=10))
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=5)
    assert sent == [slot for slot, _ in claims]


async def test_an_answer_showing_less_left_does_not_postpone_waiting_slots() -> None:
    clock = Clock()
    pacer = Pacer(reserve=1.0, margin=0.0, clock=clock)
    first, _ = pacer.claim()
    pacer.observe(first, openai_budget(remaining=2, limit=10, rate=10))
    assert pacer.claim()[1] == 0.0  # 1 left: at the reserve
    slot, wait = pacer.claim()
    assert wait == pytest.approx(0.1)
    task = asyncio.create_task(pacer.wait(slot, wait))
    await asyncio.sleep(0)
    pacer.observe(first + 1, openai_budget(remaining=0, limit=10, rate=0.001))
    await asyncio.wait_for(task, timeout=5)  # still on its 0.1 s plan
