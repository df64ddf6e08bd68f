"""The runner: order, retries, timeouts, error rows, totals, concurrency, determinism."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from benchmark_core import AdapterContext, Benchmark, RunOptions, Task, TaskScore, mock_adapter, run
from benchmark_core.chat import ChatRequest, ChatResult, CompletionResult
from benchmark_core.errors import AdapterError, ConfigurationError, TaskNotFoundError
from benchmark_core.reports import Usage
from benchmark_core.wire import dumps

# The `make_benchmark` fixture (conftest.py) builds a Benchmark from keyword overrides.
BenchmarkFactory = Callable[..., Benchmark]

FAST = {"backoff_base": 0.001, "backoff_max": 0.002}


class ScriptedAdapter:
    """Behaves per task id: 'ok', 'flaky' (fails twice, then answers), 'down' (always 503),
    'refused' (non-retryable 400), 'garbage' (returns a wrong type), 'slow' (never answers in time),
    'crash' (raises a plain exception)."""

    provider = "scripted"
    model = "scripted-1"

    def __init__(self, behaviour: dict[str, str], delay: float = 0.0) -> None:
        self.behaviour = behaviour
        self.calls: dict[str, int] = {}
        self.cancelled: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.closed = 0
        self.delay = delay

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult:
        task_id = ctx.task.id
        self.calls[task_id] = self.calls.get(task_id, 0) + 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            mode = self.behaviour.get(task_id, "ok")
            if mode == "flaky" and ctx.attempt < 3:
                raise AdapterError("HTTP 500 from provider", retryable=True, status=500)
            if mode == "down":
                raise AdapterError("HTTP 503 from provider", retryable=True, status=503)
            if mode == "refused":
                raise AdapterError("HTTP 400: bad request", status=400)
            if mode == "garbage":
                return "not a result"  # type: ignore[return-value]
            if mode == "crash":
                raise RuntimeError("adapter bug")
            if mode == "slow":
                try:
                    await asyncio.sleep(30)
                except asyncio.CancelledError:
                    self.cancelled.append(task_id)
                    raise
            return CompletionResult(text=str(ctx.task.expected), usage=Usage(10, 2, 0.01))
        finally:
            self.in_flight -= 1

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult:
        raise AdapterError("no chat here")

    async def aclose(self) -> None:
        self.closed += 1


def _run(bench: Any, adapter: Any, **kwargs: Any) -> Any:
    options = RunOptions(**{**FAST, **kwargs})
    return asyncio.run(run(bench, adapter, options=options))


def test_rows_in_task_order_with_errors_as_zero_rows(make_benchmark: BenchmarkFactory) -> None:
    behaviour = {"t1": "flaky", "t2": "down", "t3": "refused", "t4": "garbage", "t5": "crash"}
    adapter = ScriptedAdapter(behaviour)
    report = _run(make_benchmark(), adapter, retries=2, concurrency=3)
    rows = {r.task_id: r for r in report.rows}
    assert [r.task_id for r in report.rows] == [f"t{i}" for i in range(6)]
    assert rows["t0"].passed and rows["t0"].attempts == 1 and rows["t0"].error is None
    assert rows["t1"].passed and rows["t1"].attempts == 3
    assert rows["t2"].score == 0 and rows["t2"].attempts == 3
    assert rows["t2"].error == "HTTP 503 from provider (after 3 attempts)"
    assert rows["t3"].attempts == 1 and rows["t3"].error == "HTTP 400: bad request"
    assert "not CompletionResult" in (rows["t4"].error or "")
    assert rows["t5"].error == "RuntimeError: adapter bug"
    assert report.totals.tasks == 6
    assert report.totals.passed == 2
    assert report.totals.failed == 4
    assert report.mean == pytest.approx(2 / 6)
    assert report.usage.prompt_tokens == 20 and report.usage.cost_usd == pytest.approx(0.02)
    assert adapter.closed == 1


def test_timeout_cancels_the_request(make_benchmark: BenchmarkFactory) -> None:
    adapter = ScriptedAdapter({"t0": "slow"})
    report = _run(make_benchmark(), adapter, timeout=0.05, retries=1)
    row = report.rows[0]
    assert row.error == "request timed out after 0.05s (after 2 attempts)"
    assert row.attempts == 2
    assert adapter.cancelled == ["t0", "t0"]
    assert all(r.passed for r in report.rows[1:])


def test_concurrency_is_bounded(make_benchmark: BenchmarkFactory) -> None:
    tasks = [Task(id=f"t{i}", kind="single", prompt="p", expected=str(i)) for i in range(20)]
    adapter = ScriptedAdapter({}, delay=0.01)
    report = _run(make_benchmark(tasks), adapter, concurrency=4)
    assert report.totals.passed == 20
    assert adapter.max_in_flight == 4


def test_grader_errors_become_rows(make_benchmark: BenchmarkFactory) -> None:
    def grade(task: Task, trace: Any, ctx: Any) -> TaskScore:
        if task.id == "t2":
            raise ValueError("grader bug")
        return TaskScore(1.0, True, "ok")

    report = _run(make_benchmark(grade=grade), ScriptedAdapter({}))
    row = report.rows[2]
    assert row.error == "grader error: ValueError: grader bug"
    assert row.score == 0.0
    assert report.totals.failed == 1


def test_progress_callback_sees_every_row(make_benchmark: BenchmarkFactory) -> None:
    seen: list[tuple[int, int, str]] = []
    bench = make_benchmark()
    asyncio.run(run(bench, mock_adapter(), progress=lambda done, total, row: seen.append((done, total, row.task_id))))
    assert [d for d, _, _ in seen] == [1, 2, 3, 4, 5, 6]
    assert {t for _, _, t in seen} == {f"t{i}" for i in range(6)}


def test_mock_run_is_deterministic_apart_from_times(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark()

    def normalised() -> str:
        data = json.loads(dumps(bench.run(mock_adapter(seed=3), seed=3)))
        data["startedAt"] = data["finishedAt"] = ""
        for row in data["rows"]:
            row["latencyMs"] = 0
        return json.dumps(data)

    first = normalised()
    assert first == normalised()
    report = json.loads(first)
    assert report["mean"] == 0.5
    assert report["seed"] == 3


def test_task_selection_and_alternate_lists(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark()
    report = bench.run(mock_adapter(), task_ids=["t4", "t1"])
    assert [r.task_id for r in report.rows] == ["t1", "t4"]
    with pytest.raises(TaskNotFoundError, match="nope"):
        bench.run(mock_adapter(), task_ids=["nope"])
    custom = [Task(id="c", kind="single", prompt="p", expected="c")]
    assert bench.run(mock_adapter(), tasks=custom).totals.passed == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"concurrency": 0}, "concurrency"),
        ({"timeout": 0}, "timeout"),
        ({"retries": -1}, "retries"),
        ({"mode": "native"}, "answer modes"),
    ],
)
def test_bad_options(make_benchmark: BenchmarkFactory, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        make_benchmark().run(mock_adapter(), **options)


def test_empty_ci_for_no_rows_is_not_an_error(make_benchmark: BenchmarkFactory) -> None:
    report = make_benchmark().run(mock_adapter(), task_ids=[])
    assert report.totals.tasks == 0
    assert report.mean == 0.0
