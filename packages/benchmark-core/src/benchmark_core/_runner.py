"""The runner: every task through an adapter with bounded, adaptive concurrency, retries and
timeouts, then graded, totalled and given a bootstrap interval. Rows come back in task order, one per
task.

Durability: with a journal, each finished row is appended as it finishes and a resumed run sends
only the tasks the journal lacks, so its report is the one an uninterrupted run would have written.
Faults: transient ones (429, 5xx, timeouts, malformed replies) are retried with backoff until the
task's retry budget is spent; fatal ones (a rejected key, an unknown model) stop the whole run at the
first occurrence (`RunStoppedError`, carrying the partial report), as does `max_errors`.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

import attrs

from ._cache import ResponseCache, default_cache_dir
from ._episode import EpisodeError, run_episode
from ._epochs import epoch_statistics
from ._errors import (
    AdapterError,
    ConfigurationError,
    GraderError,
    InternalError,
    MaxErrorsError,
    RateLimitedError,
    RequestTimeoutError,
    RunStoppedError,
    TaskNotFoundError,
    describe_error,
)
from ._groups import group_means
from ._journal import Journal, task_set_digest
from ._limiter import AdaptiveLimiter
from ._model import (
    CacheStats,
    ChatMessage,
    ChatRequest,
    ChatResult,
    CompletionResult,
    Episode,
    RunReport,
    RunRow,
    ServedBy,
    ServedCount,
    Task,
    Totals,
    Trace,
    Usage,
)
from ._options import RunOptions
from ._rng import epoch_seed
from .adapters.base import AdapterContext, GenerationSettings, ModelAdapter
from .adapters.mock import MockAdapter

if TYPE_CHECKING:
    from ._definition import Benchmark

R = TypeVar("R")
ProgressCallback = Callable[[int, int, RunRow], None]
TaskSource = Union[str, Path, Sequence[Task], None]


class _Exhausted(Exception):
    """A request failed for good (non-retryable, or out of retries or retry budget)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class _Fatal(Exception):
    """A failure that ends the whole run (see `AdapterError.fatal`)."""

    def __init__(self, error: AdapterError) -> None:
        super().__init__(error.message)
        self.error = error


class _MaxErrors(Exception):
    """The run reached its `max_errors`."""


class Run:
    """One run of a benchmark against an adapter. `execute()` runs it; `partial_report(reason)`
    gives the report of the rows finished so far, for a caller that stops it (SIGTERM, Ctrl+C)."""

    def __init__(
        self,
        benchmark: Benchmark,
        adapter: ModelAdapter,
        options: RunOptions,
        *,
        tasks: TaskSource = None,
        journal: Optional[Union[str, Path]] = None,
        resume: bool = False,
        retry_errored: bool = False,
        progress: Optional[ProgressCallback] = None,
    ) -> None:
        self.benchmark = benchmark
        self.options = options
        self.mode = options.mode or benchmark.answer_modes[0]
        if self.mode not in benchmark.answer_modes:
            modes = ", ".join(benchmark.answer_modes)
            raise ConfigurationError(f"benchmark {benchmark.id!r} supports answer modes {modes}, not {self.mode!r}")
        options.validate()
        if isinstance(adapter, MockAdapter):
            adapter = adapter.for_benchmark(benchmark.mock_policies)
        self.adapter = adapter
        self.started_at = utc_now()
        self.tasks: list[Task] = []
        self.rows: dict[tuple[str, Optional[int]], RunRow] = {}
        self._source = tasks
        self._journal_path = Path(journal) if journal is not None else None
        self._resume = resume
        self._retry_errored = retry_errored
        self._progress = progress
        self._stop: Optional[BaseException] = None
        self._cache = _cache_for(adapter, options)
        self._settings = GenerationSettings(
            temperature=options.temperature,
            top_p=options.top_p,
            max_tokens=options.max_tokens,
            seed=options.sampling_seed,
            reasoning_effort=options.reasoning_effort,
            extra_body=dict(options.extra_body or {}),
        )

    def header(self) -> dict[str, Any]:
        """The run's identity, as the journal header records it."""
        return {
            "benchmark": self.benchmark.id,
            "version": self.benchmark.version,
            "taskSetDigest": task_set_digest(self.tasks),
            "model": self.adapter.model,
            "provider": self.adapter.provider,
            "mode": self.mode,
            "seed": self.options.seed,
            "options": self.options.recorded(),
            "startedAt": self.started_at,
        }

    async def execute(self) -> RunReport:
        self.tasks = await self._load_tasks()
        journal: Optional[Journal] = None
        if self._journal_path is not None:
            journal, kept = Journal.open(self._journal_path, self.header(), resume=self._resume)
            wanted = {t.id for t in self.tasks}
            self.rows = {
                row_key(r): r for r in kept if r.task_id in wanted and not (self._retry_errored and r.error is not None)
            }
        epochs: list[Optional[int]] = [None] if self.options.epochs == 1 else list(range(1, self.options.epochs + 1))
        # Epoch by epoch, so that a run stopped early holds whole epochs first.
        pending = [
            (i, t, epoch) for epoch in epochs for i, t in enumerate(self.tasks) if (t.id, epoch) not in self.rows
        ]
        limiter = AdaptiveLimiter(self.options.concurrency)
        total = len(self.tasks) * len(epochs)
        error_limit = self.options.error_limit(total)
        errored = sum(1 for r in self.rows.values() if r.error is not None)

        queue = iter(pending)

        async def worker() -> None:
            # `concurrency` workers share one iterator, so tasks start in order, each exactly once,
            # and the loop holds `concurrency` coroutines rather than one per task.
            for index, task, epoch in queue:
                if self._stop is not None:
                    return
                record(await self._run_task(task, index, epoch, limiter))

        def record(row: RunRow) -> None:
            nonlocal errored
            self.rows[(row.task_id, row.epoch)] = row
            if journal is not None:
                journal.append(row)
            if self._progress is not None:
                self._progress(len(self.rows), total, row)
            errored += row.error is not None
            if error_limit is not None and errored >= error_limit and self._stop is None:
                self._stop = _MaxErrors(
                    f"run stopped after {errored} errored rows (max errors {self.options.max_errors:g})"
                )

        jobs = [asyncio.ensure_future(worker()) for _ in range(min(self.options.concurrency, len(pending)))]
        try:
            await _until_stopped(jobs, lambda: self._stop)
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            await self.adapter.aclose()
            if journal is not None:
                await journal.close()
        if self._stop is not None:
            raise self._stopped_error(self._stop)
        return self.report()

    def _stopped_error(self, stop: BaseException) -> RunStoppedError:
        if isinstance(stop, _Fatal):
            error = stop.error
            return RunStoppedError(f"run stopped: {error.message}", self.partial_report(error.message), cause=error)
        message = str(stop)
        return MaxErrorsError(message, self.partial_report(message.removeprefix("run ")))

    def report(self) -> RunReport:
        return build_report(
            self.benchmark,
            self.adapter,
            self.tasks,
            list(self.rows.values()),
            mode=self.mode,
            seed=self.options.seed,
            started_at=self.started_at,
            options=self.options,
            cache=self._cache is not None,
        )

    def partial_report(self, reason: str) -> RunReport:
        """The report of the rows finished so far, marked incomplete with the reason and the count."""
        total = len(self.tasks) * self.options.epochs
        stopped = f"{reason}; {len(self.rows)} of {total} {'rows' if self.options.epochs > 1 else 'tasks'} finished"
        return attrs.evolve(self.report(), complete=False, stopped=stopped)

    async def _load_tasks(self) -> list[Task]:
        source = self._source
        if source is None or isinstance(source, (str, Path)):
            task_list = await self.benchmark.load_tasks(source)
        else:
            task_list = self.benchmark.checked_tasks(list(source))
        task_ids = self.options.task_ids
        if task_ids is not None:
            wanted = set(task_ids)
            unknown = wanted - {t.id for t in task_list}
            if unknown:
                raise TaskNotFoundError(f"unknown task id(s): {', '.join(sorted(unknown))}")
            task_list = [t for t in task_list if t.id in wanted]
        if self.mode == "native" and any(t.kind == "single" and not t.tools for t in task_list):
            raise ConfigurationError("native answer mode needs tools on every single task")
        return task_list

    async def _run_task(self, task: Task, index: int, epoch: Optional[int], limiter: AdaptiveLimiter) -> RunRow:
        requests = _Requests(self, task, index, epoch, limiter)
        started = time.perf_counter()
        try:
            trace, episode = await self._answer(task, requests)
        except EpisodeError as exc:
            if isinstance(exc.cause, _Fatal):
                raise self._halt(exc.cause) from None
            partial = exc.episode
            trace = Trace(tool_log=partial.tool_log, final_state=partial.final_state)
            return requests.error_row(_failure(exc.cause), _code(exc.cause), started, trace=trace, episode=partial)
        except _Fatal as fatal:
            raise self._halt(fatal) from None
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an adapter or environment bug must cost one row, not the run
            return requests.error_row(_failure(exc), _code(exc), started)
        latency_ms = _elapsed_ms(started)
        benchmark = self.benchmark
        try:
            verdict = await benchmark.grade(
                task, trace, benchmark.grade_context(self.options.seed, self.options.limits)
            )
        except Exception as exc:
            message = f"grader error: {describe_error(exc)}"
            return requests.error_row(message, GraderError.code, started, reason=message, trace=trace, episode=episode)
        reason = verdict.reason
        if episode is not None and episode.aborted:
            reason = f"{reason} (episode aborted: {episode.abort_detail})"
        return requests.row(
            score=float(verdict.score),
            passed=verdict.passed,
            reason=reason,
            latency_ms=latency_ms,
            details=verdict.details,
            trace=trace,
            episode=episode,
        )

    def _halt(self, fatal: _Fatal) -> asyncio.CancelledError:
        """Record the run-ending failure (the first one wins) and end this task's job quietly."""
        if self._stop is None:
            self._stop = fatal
        return asyncio.CancelledError()

    async def _answer(self, task: Task, requests: _Requests) -> tuple[Trace, Optional[Episode]]:
        """The model's submission for `task`, and the episode it played, if the task is one."""
        benchmark = self.benchmark
        if task.kind == "episode":
            assert benchmark.environment is not None  # validate_tasks refuses episodes without one
            outcome = await run_episode(
                task,
                requests.adapter,
                benchmark.environment(),
                self.options.limits,
                seed=requests.seed,
                chat=requests.chat,
            )
            episode = outcome.episode
            return Trace(answer=outcome.answer, tool_log=episode.tool_log, final_state=episode.final_state), episode
        if self.mode == "native":
            result = await requests.chat(ChatRequest(messages=benchmark.native_messages(task), tools=task.tools))
            return Trace(answer=result.message.content, tool_calls=list(result.message.tool_calls or [])), None
        return Trace(answer=await requests.complete(task.prompt)), None


async def _within(awaitable: Awaitable[R], timeout: float) -> R:
    """`asyncio.wait_for` without the task it creates per call (a tenth of the runner's CPU per
    request at high concurrency): a timer cancels this task, and that cancellation becomes
    `asyncio.TimeoutError`; any other cancellation propagates unchanged."""
    task = asyncio.current_task()
    assert task is not None
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = asyncio.get_running_loop().call_later(timeout, expire)
    try:
        result = await awaitable
    except asyncio.CancelledError:
        if not expired:
            raise
        _uncancel(task)
        raise asyncio.TimeoutError from None
    finally:
        timer.cancel()
    if expired:  # the awaitable swallowed our cancellation and returned anyway
        _uncancel(task)
    return result


def _uncancel(task: asyncio.Task[Any]) -> None:
    """Forget a cancellation this module requested and handled (Python 3.11+ counts them)."""
    if sys.version_info >= (3, 11):
        task.uncancel()


async def _until_stopped(jobs: Sequence[asyncio.Future[None]], stopped: Callable[[], Optional[BaseException]]) -> None:
    """Wait for every job, or until the run is stopped (then the caller cancels the rest at once,
    so that no further request starts)."""
    pending = set(jobs)
    while pending and stopped() is None:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for job in done:
            if not job.cancelled() and job.exception() is not None:
                raise job.exception()  # type: ignore[misc]


async def run(
    benchmark: Benchmark,
    adapter: ModelAdapter,
    options: Optional[RunOptions] = None,
    *,
    tasks: TaskSource = None,
    journal: Optional[Union[str, Path]] = None,
    resume: bool = False,
    retry_errored: bool = False,
    progress: Optional[ProgressCallback] = None,
    **overrides: Any,
) -> RunReport:
    """Run `benchmark` against `adapter` and return the report.

    `options` is a `RunOptions`; keyword `overrides` set its fields by name (`concurrency=2, seed=7`).
    `tasks` selects an alternate task list or JSONL file. With `journal` (a path), every finished row
    is appended there; `resume=True` continues the run that journal holds (only missing tasks are
    sent; `retry_errored=True` also re-sends errored rows). Nothing a model or grader does for one
    task makes the run fail: each task yields one row, failed requests and grader errors as zero-score
    rows with their error. A fatal provider error or `max_errors` ends the run early with
    `RunStoppedError`, whose `report` holds the finished rows.
    """
    opts = attrs.evolve(options or RunOptions(), **_normalised(overrides))
    return await Run(
        benchmark,
        adapter,
        opts,
        tasks=tasks,
        journal=journal,
        resume=resume,
        retry_errored=retry_errored,
        progress=progress,
    ).execute()


def _normalised(overrides: dict[str, Any]) -> dict[str, Any]:
    names = set(attrs.fields_dict(RunOptions))
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise ConfigurationError(f"unknown run option(s): {', '.join(unknown)}")
    if overrides.get("task_ids") is not None:
        overrides = {**overrides, "task_ids": tuple(overrides["task_ids"])}
    return overrides


def _cache_for(adapter: ModelAdapter, options: RunOptions) -> Optional[ResponseCache]:
    """The run's response cache: off for the mock (its answers cost nothing) and when switched off."""
    if options.cache is False or adapter.provider == "mock":
        return None
    return ResponseCache(default_cache_dir() if options.cache is True else Path(options.cache))


def build_report(
    benchmark: Benchmark,
    adapter: ModelAdapter,
    tasks: Sequence[Task],
    rows: Sequence[RunRow],
    *,
    mode: str,
    seed: int,
    started_at: str,
    options: Optional[RunOptions] = None,
    cache: bool = False,
) -> RunReport:
    """The report of `rows` (put in task order, labelled with their groups): totals, mean, interval,
    usage, group means, what served the requests, and the benchmark's summary. `complete` says
    whether every task of `tasks` has a row."""
    order = {task.id: position for position, task in enumerate(tasks)}
    labels = {task.id: benchmark.task_groups(task) for task in tasks}
    final_rows = [
        _labelled(row, labels.get(row.task_id, row.groups))
        for row in sorted(rows, key=lambda row: (order.get(row.task_id, len(order)), row.epoch or 0))
    ]
    scores = [r.score for r in final_rows]
    usage = Usage()
    for r in final_rows:
        usage = usage + r.usage
    per_task = epoch_statistics(final_rows, options.epochs if options is not None else None)
    cache_stats: Optional[CacheStats] = None
    if cache:
        saved = [r.cached_cost_usd for r in final_rows if r.cached_cost_usd is not None]
        cache_stats = CacheStats(
            hits=sum(r.cache_hits for r in final_rows), saved_cost_usd=sum(saved) if saved else None
        )
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
        **per_task.fields(),
        confidence_interval95=per_task.interval(seed),
        totals=Totals(
            tasks=len(final_rows),
            passed=sum(1 for r in final_rows if r.passed),
            failed=sum(1 for r in final_rows if r.error is not None),
        ),
        usage=usage,
        groups=group_means(final_rows),
        complete=len(final_rows) == len(tasks) * per_task.epochs,
        generation=options.generation() if options is not None else {},
        served_by=_served_totals(final_rows),
        cache=cache_stats,
        summary=benchmark.summarize(tasks, final_rows) if benchmark.summarize else {},
        rows=final_rows,
    )


def row_key(row: RunRow) -> tuple[str, Optional[int]]:
    """What identifies a row within a run: its task and, in runs of several epochs, its epoch."""
    return (row.task_id, row.epoch)


def _served_totals(rows: Sequence[RunRow]) -> list[ServedCount]:
    counts: Counter[tuple[Optional[str], Optional[str]]] = Counter()
    for row in rows:
        for served in row.served_by:
            counts[(served.model, served.provider)] += served.requests
    return [ServedCount(model=m, provider=p, requests=n) for (m, p), n in sorted(counts.items(), key=_served_order)]


def _served_order(item: tuple[tuple[Optional[str], Optional[str]], int]) -> tuple[str, str]:
    (model, provider), _ = item
    return (model or "", provider or "")


class _Requests:
    """The model requests of one task: each under the timeout, the adaptive limiter and the retry
    policy, every attempt counted and the usage of every answer totalled, so that an error row can
    still report both.

    Whatever an adapter returns is checked, because a third-party adapter's bug must cost one row,
    not the report (which could not be totalled or written as JSON).
    """

    def __init__(self, run: Run, task: Task, index: int, epoch: Optional[int], limiter: AdaptiveLimiter) -> None:
        self.adapter = run.adapter
        self.epoch = epoch
        #: The seed of this epoch: the simulator, the mock and the replay grader use it.
        self.seed = epoch_seed(run.options.seed, epoch)
        self.attempts = 0
        self.usage = Usage()
        self.cache_hits = 0
        self.cached_cost: Optional[float] = None
        self.served: Counter[tuple[Optional[str], Optional[str]]] = Counter()
        self._run = run
        self._task = task
        self._index = index
        self._limiter = limiter
        self._deadline = time.monotonic() + run.options.retry_budget
        # Seeded per task, so a run's backoff delays do not depend on the order tasks finish in.
        self._jitter: Optional[random.Random] = None

    async def chat(self, request: ChatRequest) -> ChatResult:
        result = await self._send(lambda ctx: self.adapter.chat(request, ctx))
        if not isinstance(result, ChatResult) or not isinstance(result.message, ChatMessage):
            raise _Exhausted(f"adapter returned {type(result).__name__} from chat, not ChatResult", AdapterError.code)
        self._count(result.usage, result.served_by, result.cached)
        return result

    async def complete(self, prompt: str) -> str:
        result = await self._send(lambda ctx: self.adapter.complete(prompt, ctx))
        if not isinstance(result, CompletionResult):
            raise _Exhausted(
                f"adapter returned {type(result).__name__} from complete, not CompletionResult", AdapterError.code
            )
        if not isinstance(result.text, str):
            raise _Exhausted(
                f"adapter returned a completion whose text is {type(result.text).__name__}, not str", AdapterError.code
            )
        self._count(result.usage, result.served_by, result.cached)
        return result.text

    async def _send(self, make: Callable[[AdapterContext], Awaitable[R]]) -> R:
        """One request, retried after transient faults with exponential backoff and jitter (at least
        the provider's Retry-After) until it succeeds, `retries` is used up or the task's retry
        budget would be overrun."""
        opts = self._run.options
        attempt = 0
        while True:
            attempt += 1
            if self._run._stop is not None:
                raise asyncio.CancelledError()  # the run is ending: start nothing new
            ticket = await self._limiter.acquire()
            self.attempts += 1
            ctx = AdapterContext(
                task=self._task,
                task_index=self._index,
                attempt=attempt,
                seed=self.seed,
                sampling_index=(self.epoch or 1) - 1,
                settings=self._run._settings,
                cache=self._run._cache,
            )
            failure: AdapterError
            try:
                result = await _within(make(ctx), opts.timeout)
            except asyncio.TimeoutError:
                failure = RequestTimeoutError(f"request timed out after {opts.timeout:g}s", retryable=True)
            except AdapterError as exc:
                failure = exc
            else:
                self._limiter.succeeded()
                return result
            finally:
                self._limiter.release()
            if failure.fatal:
                raise _Fatal(failure)
            if not failure.retryable:
                raise _Exhausted(failure.message, failure.code)
            if isinstance(failure, RateLimitedError):
                self._limiter.rate_limited(ticket)
            if self._jitter is None:  # seeded on the first retry: most tasks never need one
                self._jitter = random.Random(self.seed * 1_000_003 + self._index)
            delay = min(opts.backoff_max, opts.backoff_base * 2 ** (attempt - 1)) * (0.5 + self._jitter.random())
            delay = max(delay, min(failure.retry_after or 0.0, opts.max_retry_after))
            out_of_retries = opts.retries is not None and attempt > opts.retries
            if out_of_retries or time.monotonic() + delay > self._deadline:
                suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
                raise _Exhausted(failure.message + suffix, failure.code)
            await asyncio.sleep(delay)

    def _count(self, usage: Usage, served: Optional[ServedBy], cached: bool) -> None:
        """Add an answer's usage, refused unless it can be totalled and written as JSON."""
        if not isinstance(usage, Usage):
            raise _Exhausted(f"adapter reported usage as {type(usage).__name__}, not Usage", AdapterError.code)
        counts = (usage.prompt_tokens, usage.completion_tokens, usage.reasoning_tokens, usage.cached_tokens)
        tokens_ok = all(n is None or (isinstance(n, int) and not isinstance(n, bool) and n >= 0) for n in counts)
        cost = usage.cost_usd
        cost_ok = cost is None or (
            isinstance(cost, (int, float)) and not isinstance(cost, bool) and 0 <= cost < math.inf
        )
        if not (tokens_ok and cost_ok and usage.prompt_tokens is not None and usage.completion_tokens is not None):
            raise _Exhausted(f"adapter reported invalid usage {usage!r}", AdapterError.code)
        self.usage = self.usage + usage
        if cached:
            self.cache_hits += 1
            if cost is not None:
                self.cached_cost = (self.cached_cost or 0.0) + cost
        if isinstance(served, ServedBy):
            self.served[(served.model, served.provider)] += 1

    def row(self, **fields: Any) -> RunRow:
        served = [
            ServedCount(model=m, provider=p, requests=n) for (m, p), n in sorted(self.served.items(), key=_served_order)
        ]
        return RunRow(
            task_id=self._task.id,
            epoch=self.epoch,
            attempts=self.attempts,
            usage=self.usage,
            cache_hits=self.cache_hits,
            cached_cost_usd=self.cached_cost,
            served_by=served,
            **fields,
        )

    def error_row(
        self,
        message: str,
        code: str,
        started: float,
        *,
        reason: Optional[str] = None,
        trace: Optional[Trace] = None,
        episode: Optional[Episode] = None,
    ) -> RunRow:
        """A zero-score row that keeps what is known: the error and its code, the attempts and usage
        spent, and the trace and episode when the model answered but grading failed."""
        return self.row(
            score=0.0,
            passed=False,
            reason=reason if reason is not None else f"error: {message}",
            latency_ms=_elapsed_ms(started),
            error=message,
            error_code=code,
            trace=trace if trace is not None else Trace(),
            episode=episode,
        )


def _labelled(row: RunRow, groups: dict[str, str]) -> RunRow:
    # Copy only the rows whose labels change: a copy per row is a tenth of a large run's report time.
    return row if row.groups == groups else attrs.evolve(row, groups=groups)


def _failure(exc: BaseException) -> str:
    # _Exhausted already carries the message a user should read.
    return str(exc) if isinstance(exc, _Exhausted) else describe_error(exc)


def _code(exc: BaseException) -> str:
    if isinstance(exc, _Exhausted):
        return exc.code
    if isinstance(exc, AdapterError):
        return exc.code
    return InternalError.code


def _elapsed_ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def utc_now() -> str:
    """An ISO 8601 UTC timestamp with milliseconds, as reports carry them."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
