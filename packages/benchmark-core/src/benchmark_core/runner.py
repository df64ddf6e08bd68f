"""The runner: every task through an adapter with bounded concurrency, retries and timeouts, then
graded, totalled and given a bootstrap interval. Rows come back in task order, one per task."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional, TypeVar, Union

import attrs
from attrs import frozen

from .adapters.base import AdapterContext, ModelAdapter
from .adapters.mock import MockAdapter
from .definition import Benchmark, validate_tasks
from .episode import EpisodeError, EpisodeLimits, run_episode
from .errors import AdapterError, ConfigurationError, TaskNotFoundError, describe_error
from .groups import group_means
from .model import (
    ChatMessage,
    ChatRequest,
    ChatResult,
    CompletionResult,
    Episode,
    RunReport,
    RunRow,
    Task,
    Totals,
    Trace,
    Usage,
)
from .stats import bootstrap_ci

R = TypeVar("R")
ProgressCallback = Callable[[int, int, RunRow], None]
TaskSource = Union[str, Path, Sequence[Task], None]


@frozen
class RunOptions:
    """Options of `run`. `timeout` is seconds per model request; `retries` extra attempts per
    request after a retryable failure (timeouts, 429, 5xx); `mode` is the answer mode of single
    tasks (default: the benchmark's first)."""

    concurrency: int = 4
    seed: int = 1
    timeout: float = 60.0
    retries: int = 2
    mode: Optional[str] = None
    limits: EpisodeLimits = EpisodeLimits()
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    #: A provider's Retry-After is honoured up to this many seconds, so one answer cannot stall a run.
    max_retry_after: float = 120.0

    def validate(self, benchmark: Benchmark) -> str:
        """The answer mode to run `benchmark` in; `ConfigurationError` for any option out of range."""
        if self.concurrency < 1:
            raise ConfigurationError("concurrency must be at least 1")
        if not self.timeout > 0:
            raise ConfigurationError("timeout must be positive")
        if self.retries < 0:
            raise ConfigurationError("retries must be zero or more")
        if self.limits.max_turns < 1 or self.limits.max_tool_calls < 0:
            raise ConfigurationError("max turns must be at least 1 and max tool calls zero or more")
        if self.limits.max_dollars is not None and self.limits.max_dollars < 0:
            raise ConfigurationError("max dollars must be zero or more")
        mode = self.mode or benchmark.answer_modes[0]
        if mode not in benchmark.answer_modes:
            raise ConfigurationError(
                f"benchmark {benchmark.id!r} supports answer modes {', '.join(benchmark.answer_modes)}, not {mode!r}"
            )
        return mode


class _Exhausted(Exception):
    """A request failed for good (non-retryable, or out of retries)."""


async def run(
    benchmark: Benchmark,
    adapter: ModelAdapter,
    *,
    concurrency: int = 4,
    seed: int = 1,
    timeout: float = 60.0,
    retries: int = 2,
    tasks: TaskSource = None,
    task_ids: Optional[Sequence[str]] = None,
    mode: Optional[str] = None,
    limits: EpisodeLimits = EpisodeLimits(),
    progress: Optional[ProgressCallback] = None,
    options: Optional[RunOptions] = None,
) -> RunReport:
    """Run `benchmark` against `adapter` and return the report.

    `tasks` selects an alternate task list or JSONL file; `task_ids` a subset, in benchmark order.
    Pass either the keyword options or a `RunOptions` as `options`. Nothing a model or grader does
    makes the run fail: each task yields one row, failed requests and grader errors as zero-score
    rows with their error.
    """
    opts = options or RunOptions(
        concurrency=concurrency, seed=seed, timeout=timeout, retries=retries, mode=mode, limits=limits
    )
    answer_mode = opts.validate(benchmark)
    if isinstance(adapter, MockAdapter):
        adapter = adapter.for_benchmark(benchmark.mock_policies)
    if tasks is None or isinstance(tasks, (str, Path)):
        task_list = await benchmark.load_tasks(tasks)
    else:
        task_list = list(validate_tasks(list(tasks), has_environment=benchmark.environment is not None))
    if task_ids is not None:
        wanted = set(task_ids)
        unknown = wanted - {t.id for t in task_list}
        if unknown:
            raise TaskNotFoundError(f"unknown task id(s): {', '.join(sorted(unknown))}")
        task_list = [t for t in task_list if t.id in wanted]
    if answer_mode == "native" and any(t.kind == "single" and not t.tools for t in task_list):
        raise ConfigurationError("native answer mode needs tools on every single task")

    started = utc_now()
    semaphore = asyncio.Semaphore(opts.concurrency)
    rows: list[Optional[RunRow]] = [None] * len(task_list)
    done = 0

    async def one(index: int, task: Task) -> None:
        nonlocal done
        async with semaphore:
            row = await _run_task(benchmark, adapter, task, index, answer_mode, opts)
        rows[index] = row
        done += 1
        if progress is not None:
            progress(done, len(task_list), row)

    try:
        await asyncio.gather(*(one(i, t) for i, t in enumerate(task_list)))
    finally:
        await adapter.aclose()

    return build_report(
        benchmark,
        adapter,
        task_list,
        [r for r in rows if r is not None],
        mode=answer_mode,
        seed=opts.seed,
        started_at=started,
    )


def build_report(
    benchmark: Benchmark,
    adapter: ModelAdapter,
    tasks: Sequence[Task],
    rows: Sequence[RunRow],
    *,
    mode: str,
    seed: int,
    started_at: str,
) -> RunReport:
    """The report of `rows` (put in task order, labelled with their groups): totals, mean, interval,
    usage, group means and the benchmark's summary. `run` returns it for every task; a caller whose
    run was interrupted can build one from the rows its progress callback saw, so finished work is
    never lost."""
    order = {task.id: position for position, task in enumerate(tasks)}
    labels = {task.id: benchmark.task_groups(task) for task in tasks}
    final_rows = [
        attrs.evolve(row, groups=labels.get(row.task_id, row.groups))
        for row in sorted(rows, key=lambda row: order.get(row.task_id, len(order)))
    ]
    scores = [r.score for r in final_rows]
    usage = Usage()
    for r in final_rows:
        usage = usage + r.usage
    return RunReport(
        benchmark=benchmark.id,
        version=benchmark.version,
        model=adapter.model,
        provider=adapter.provider,
        mode=mode,
        seed=seed,
        started_at=started_at,
        finished_at=utc_now(),
        mean=sum(scores) / len(scores) if scores else 0.0,
        confidence_interval95=bootstrap_ci(scores, seed=seed),
        totals=Totals(
            tasks=len(final_rows),
            passed=sum(1 for r in final_rows if r.passed),
            failed=sum(1 for r in final_rows if r.error is not None),
        ),
        usage=usage,
        groups=group_means(final_rows),
        summary=benchmark.summarize(tasks, final_rows) if benchmark.summarize else {},
        rows=final_rows,
    )


async def _run_task(
    benchmark: Benchmark, adapter: ModelAdapter, task: Task, index: int, mode: str, opts: RunOptions
) -> RunRow:
    requests = _Requests(adapter, task, index, opts)
    started = time.perf_counter()
    try:
        trace, episode = await _answer(benchmark, task, mode, opts, requests)
    except EpisodeError as exc:
        partial = exc.episode
        trace = Trace(tool_log=partial.tool_log, final_state=partial.final_state)
        return _error_row(task, _failure(exc.cause), requests, started, trace=trace, episode=partial)
    except Exception as exc:  # an adapter or environment bug must cost one row, not the run
        return _error_row(task, _failure(exc), requests, started)
    latency_ms = _elapsed_ms(started)
    try:
        verdict = await benchmark.grade(task, trace, benchmark.grade_context(opts.seed))
    except Exception as exc:
        message = f"grader error: {describe_error(exc)}"
        return _error_row(task, message, requests, started, reason=message, trace=trace, episode=episode)
    reason = verdict.reason
    if episode is not None and episode.aborted:
        reason = f"{reason} (episode aborted: {episode.abort_detail})"
    return RunRow(
        task_id=task.id,
        score=float(verdict.score),
        passed=verdict.passed,
        reason=reason,
        attempts=requests.attempts,
        latency_ms=latency_ms,
        usage=requests.usage,
        error=None,
        details=verdict.details,
        trace=trace,
        episode=episode,
    )


async def _answer(
    benchmark: Benchmark, task: Task, mode: str, opts: RunOptions, requests: _Requests
) -> tuple[Trace, Optional[Episode]]:
    """The model's submission for `task`, and the episode it played, if the task is one."""
    if task.kind == "episode":
        assert benchmark.environment is not None  # validate_tasks refuses episodes without one
        outcome = await run_episode(
            task, requests.adapter, benchmark.environment(), opts.limits, seed=opts.seed, chat=requests.chat
        )
        episode = outcome.episode
        return Trace(answer=outcome.answer, tool_log=episode.tool_log, final_state=episode.final_state), episode
    if mode == "native":
        result = await requests.chat(
            ChatRequest(messages=[ChatMessage(role="user", content=task.prompt)], tools=task.tools)
        )
        return Trace(answer=result.message.content, tool_calls=list(result.message.tool_calls or [])), None
    return Trace(answer=await requests.complete(task.prompt)), None


class _Requests:
    """The model requests of one task: each under the timeout and retried with backoff, every
    attempt counted and the usage of every answer totalled, so an error row can still report both.

    Whatever an adapter returns is checked, because a third-party adapter's bug must cost one row,
    not the report (which could not be totalled or written as JSON).
    """

    def __init__(self, adapter: ModelAdapter, task: Task, index: int, opts: RunOptions) -> None:
        self.adapter = adapter
        self.attempts = 0
        self.usage = Usage()
        self._task = task
        self._index = index
        self._opts = opts
        # Seeded per task, so a run's backoff delays do not depend on the order tasks finish in.
        self._jitter = random.Random(opts.seed * 1_000_003 + index)

    async def chat(self, request: ChatRequest) -> ChatResult:
        result = await self._send(lambda ctx: self.adapter.chat(request, ctx))
        if not isinstance(result, ChatResult) or not isinstance(result.message, ChatMessage):
            raise _Exhausted(f"adapter returned {type(result).__name__} from chat, not ChatResult")
        self._count(result.usage)
        return result

    async def complete(self, prompt: str) -> str:
        result = await self._send(lambda ctx: self.adapter.complete(prompt, ctx))
        if not isinstance(result, CompletionResult):
            raise _Exhausted(f"adapter returned {type(result).__name__} from complete, not CompletionResult")
        if not isinstance(result.text, str):
            raise _Exhausted(f"adapter returned a completion whose text is {type(result.text).__name__}, not str")
        self._count(result.usage)
        return result.text

    async def _send(self, make: Callable[[AdapterContext], Awaitable[R]]) -> R:
        """One request under the timeout, retried with exponential backoff and jitter."""
        opts = self._opts
        for attempt in range(1, opts.retries + 2):
            self.attempts += 1
            ctx = AdapterContext(task=self._task, task_index=self._index, attempt=attempt, seed=opts.seed)
            retry_after: Optional[float] = None
            try:
                return await asyncio.wait_for(make(ctx), opts.timeout)
            except asyncio.TimeoutError:
                message = f"request timed out after {opts.timeout:g}s"
            except AdapterError as exc:
                if not exc.retryable:
                    raise _Exhausted(exc.message) from None
                message, retry_after = exc.message, exc.retry_after
            if attempt > opts.retries:
                suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
                raise _Exhausted(message + suffix)
            delay = min(opts.backoff_max, opts.backoff_base * 2 ** (attempt - 1)) * (0.5 + self._jitter.random())
            await asyncio.sleep(max(delay, min(retry_after or 0.0, opts.max_retry_after)))
        raise AssertionError("unreachable")

    def _count(self, usage: Usage) -> None:
        """Add an answer's usage, refused unless it can be totalled and written as JSON."""
        if not isinstance(usage, Usage):
            raise _Exhausted(f"adapter reported usage as {type(usage).__name__}, not Usage")
        tokens_ok = all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0
            for n in (usage.prompt_tokens, usage.completion_tokens)
        )
        cost = usage.cost_usd
        cost_ok = cost is None or (
            isinstance(cost, (int, float)) and not isinstance(cost, bool) and 0 <= cost < math.inf
        )
        if not (tokens_ok and cost_ok):
            raise _Exhausted(f"adapter reported invalid usage {usage!r}")
        self.usage = self.usage + usage


def _failure(exc: Exception) -> str:
    # _Exhausted already carries the message a user should read.
    return str(exc) if isinstance(exc, _Exhausted) else describe_error(exc)


def _error_row(
    task: Task,
    message: str,
    requests: _Requests,
    started: float,
    *,
    reason: Optional[str] = None,
    trace: Optional[Trace] = None,
    episode: Optional[Episode] = None,
) -> RunRow:
    """A zero-score row that keeps what is known: the error, the attempts and usage spent, and the
    trace and episode when the model answered but grading failed."""
    return RunRow(
        task_id=task.id,
        score=0.0,
        passed=False,
        reason=reason if reason is not None else f"error: {message}",
        attempts=requests.attempts,
        latency_ms=_elapsed_ms(started),
        usage=requests.usage,
        error=message,
        trace=trace if trace is not None else Trace(),
        episode=episode,
    )


def _elapsed_ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def utc_now() -> str:
    """An ISO 8601 UTC timestamp with milliseconds, as reports carry them."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
