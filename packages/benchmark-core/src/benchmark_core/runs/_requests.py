"""The model requests of one task: each paced by the provider's rate-limit headers
(`adapters._pacing`), under the run's timeout, the adaptive limiter and the retry policy, every
attempt counted and the usage of every answer totalled, so that an error row can still report both.

Transient faults (429, 5xx, timeouts, malformed replies) are retried with exponential backoff and
jitter (at least the provider's Retry-After) until `retries` is used up or the task's retry budget
would be overrun; fatal ones (`AdapterError.fatal`) end the whole run. Whatever an adapter returns is
checked, because a third-party adapter's bug must cost one row, not the report (which could not be
totalled or written as JSON).
"""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Optional, TypeVar

from attrs import Factory, frozen

from .._model import (
    ChatMessage,
    ChatRequest,
    ChatResult,
    CompletionResult,
    Episode,
    RunRow,
    ServedBy,
    ServedCount,
    Task,
    Trace,
    Usage,
)
from .._util.rng import epoch_seed
from ..adapters._retry import GaveUp, RetryPolicy, retrying, transient
from ..adapters.base import AdapterContext, ModelAdapter
from ..errors._base import InternalError, describe_error
from ..errors._failures import AgentFailedError
from ..errors._provider import AdapterError, RateLimitedError, RequestTimeoutError
from ._run_report import ServedKey, served_counts

if TYPE_CHECKING:
    from ._options import RunOptions
    from ._runner import Run

R = TypeVar("R")


class Exhausted(Exception):
    """A request failed for good (non-retryable, or out of retries or retry budget)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class Fatal(Exception):
    """A failure that ends the whole run (see `AdapterError.fatal`)."""

    def __init__(self, error: AdapterError) -> None:
        super().__init__(error.message)
        self.error = error


@frozen
class Spent:
    """What the requests of a task have cost so far: attempts, usage, cache hits, truncated answers
    and who served them (an episode's turn checkpoint keeps it, so that a resumed episode's row
    counts every turn once)."""

    attempts: int = 0
    usage: Usage = Factory(Usage)
    cache_hits: int = 0
    cached_cost_usd: Optional[float] = None
    truncated: int = 0
    served_by: list[ServedCount] = Factory(list)


def retry_policy(options: RunOptions) -> RetryPolicy:
    """How a run with `options` retries direct requests and batch calls (`adapters._retry`)."""
    return RetryPolicy(
        retries=options.retries,
        budget=options.retry_budget,
        backoff_base=options.backoff_base,
        backoff_max=options.backoff_max,
        max_retry_after=options.max_retry_after,
    )


class TaskRequests:
    """The requests of one task (one epoch of it) in `run`."""

    def __init__(
        self,
        run: Run,
        task: Task,
        index: int,
        epoch: Optional[int],
        *,
        started: Optional[float] = None,
        attempts: int = 0,
    ) -> None:
        """`started` (a `time.perf_counter()`) and `attempts` are for answers that came another way
        (a batch: when it was polled, how many times the item was submitted)."""
        self.adapter: ModelAdapter = run.adapter
        self.epoch = epoch
        #: The seed of this epoch: the simulator, the mock and the replay grader use it.
        self.seed = epoch_seed(run.options.seed, epoch)
        self.attempts = attempts
        self.started = time.perf_counter() if started is None else started
        self._usage: Optional[Usage] = None
        self._cache_hits = 0
        self._cached_cost: Optional[float] = None
        self._truncated = 0
        self._served: Optional[dict[ServedKey, int]] = None
        self._run = run
        self._task = task
        self._index = index
        # Seeded per task, so a run's backoff delays do not depend on the order tasks finish in.
        self._retries = retry_policy(run.options).sequence(self.seed * 1_000_003 + index)

    async def chat(self, request: ChatRequest) -> ChatResult:
        result = await self._send(lambda ctx: self.adapter.chat(request, ctx))
        if not isinstance(result, ChatResult) or not isinstance(result.message, ChatMessage):
            raise Exhausted(f"adapter returned {type(result).__name__} from chat, not ChatResult", AdapterError.code)
        self._count(result.usage, result.served_by, result.cached, result.truncated)
        return result

    async def complete(self, prompt: str) -> str:
        result = await self._send(lambda ctx: self.adapter.complete(prompt, ctx))
        if not isinstance(result, CompletionResult):
            raise Exhausted(
                f"adapter returned {type(result).__name__} from complete, not CompletionResult", AdapterError.code
            )
        if not isinstance(result.text, str):
            raise Exhausted(
                f"adapter returned a completion whose text is {type(result.text).__name__}, not str", AdapterError.code
            )
        self._count(result.usage, result.served_by, result.cached, result.truncated)
        return result.text

    def batched(self, result: object, usage: Usage) -> None:
        """Count an answer that came back from a batch; `usage` is the answer's at the batch price."""
        if not isinstance(result, (ChatResult, CompletionResult)):
            raise Exhausted(f"adapter returned {type(result).__name__} from a batch", AdapterError.code)
        self._count(usage, result.served_by, False, result.truncated)

    async def _send(self, make: Callable[[AdapterContext], Awaitable[R]]) -> R:
        """One request, retried after transient faults (`adapters._retry.retrying`) until it succeeds
        or may not be retried."""
        try:
            return await retrying(functools.partial(self._attempt, make), self._retries)
        except GaveUp as gave_up:
            failure = gave_up.failure
            if failure.fatal:
                raise Fatal(failure) from None
            spent = gave_up.retryable and gave_up.attempts > 1
            suffix = f" (after {gave_up.attempts} attempts)" if spent else ""
            raise Exhausted(failure.message + suffix, failure.code) from None

    async def _attempt(self, make: Callable[[AdapterContext], Awaitable[R]], attempt: int) -> R:
        """Attempt number `attempt`: paced, under the adaptive limiter and the request's timeout."""
        run = self._run
        limiter = run.limiter
        if run.stopping:
            raise asyncio.CancelledError()  # the run is ending: start nothing new
        pacer = run.pacer
        if pacer.probing:
            await pacer.probe_answered()
        slot, wait = pacer.claim()
        if wait > 0:  # paced before the provider's limit, outside the request's timeout
            await pacer.wait(slot, wait)
        ticket = limiter.try_acquire() or await limiter.acquire()
        self.attempts += 1
        ctx = AdapterContext(
            task=self._task,
            task_index=self._index,
            attempt=attempt,
            seed=self.seed,
            sampling_index=(self.epoch or 1) - 1,
            settings=run.settings,
            cache=run.cache,
            pacer=run.pacer,
            pace_slot=slot,
        )
        failure: AdapterError
        try:
            result = await run.deadlines.within(make(ctx))
        except asyncio.TimeoutError:
            failure = RequestTimeoutError(f"request timed out after {run.options.timeout:g}s", retryable=True)
        except AdapterError as exc:
            failure = exc
        else:
            limiter.succeeded()
            return result
        finally:
            limiter.release()
            pacer.finished(slot)
        if isinstance(failure, RateLimitedError) and transient(failure):
            limiter.rate_limited(ticket)
        raise failure

    def _count(self, usage: Usage, served: Optional[ServedBy], cached: bool, truncated: bool) -> None:
        """Add an answer's usage, refused unless it can be totalled and written as JSON."""
        if not isinstance(usage, Usage):
            raise Exhausted(f"adapter reported usage as {type(usage).__name__}, not Usage", AdapterError.code)
        if not _valid_usage(usage):
            raise Exhausted(f"adapter reported invalid usage {usage!r}", AdapterError.code)
        # Usage is frozen, so the first answer's object can stand for the total as it is.
        self._usage = usage if self._usage is None else self._usage + usage
        if truncated is True:
            self._truncated += 1
        if cached:
            self._cache_hits += 1
            if usage.cost_usd is not None:
                self._cached_cost = (self._cached_cost or 0.0) + usage.cost_usd
        if isinstance(served, ServedBy):
            key = (served.model, served.provider)
            if self._served is None:
                self._served = {key: 1}
            else:
                self._served[key] = self._served.get(key, 0) + 1

    def spent(self) -> Spent:
        """The counts so far (see `Spent`)."""
        return Spent(
            attempts=self.attempts,
            usage=self._usage if self._usage is not None else Usage(),
            cache_hits=self._cache_hits,
            cached_cost_usd=self._cached_cost,
            truncated=self._truncated,
            served_by=served_counts(self._served) if self._served is not None else [],
        )

    def continue_from(self, spent: Spent) -> None:
        """Count on from `spent` (a resumed episode's finished turns), or from nothing (`Spent()`)."""
        self.attempts = spent.attempts
        self._usage = spent.usage if spent.attempts else None
        self._cache_hits = spent.cache_hits
        self._cached_cost = spent.cached_cost_usd
        self._truncated = spent.truncated
        self._served = {(s.model, s.provider): s.requests for s in spent.served_by} or None

    def row(self, **fields: Any) -> RunRow:
        return RunRow(
            task_id=self._task.id,
            epoch=self.epoch,
            attempts=self.attempts,
            usage=self._usage if self._usage is not None else Usage(),
            cache_hits=self._cache_hits,
            cached_cost_usd=self._cached_cost,
            served_by=served_counts(self._served) if self._served is not None else [],
            truncated=self._truncated,
            **fields,
        )

    def error_row(
        self,
        message: str,
        code: str,
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
            latency_ms=elapsed_ms(self.started),
            error=message,
            error_code=code,
            trace=trace if trace is not None else Trace(),
            episode=episode,
        )


def _valid_usage(usage: Usage) -> bool:
    """Token counts that are non-negative ints (the two main ones present) and a finite cost >= 0."""
    if not (_is_count(usage.prompt_tokens) and _is_count(usage.completion_tokens)):
        return False
    for optional in (usage.reasoning_tokens, usage.cached_tokens, usage.cache_write_tokens):
        if optional is not None and not _is_count(optional):
            return False
    return _is_dollars(usage.cost_usd) and _is_dollars(usage.cache_saved_usd, signed=True)


def _is_dollars(value: object, signed: bool = False) -> bool:
    """None, or a finite amount (>= 0 unless `signed`: a cache write that is never read costs more)."""
    if value is None:
        return True
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return False
    return signed or value >= 0


def _is_count(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


def failure_message(exc: BaseException) -> str:
    # Exhausted already carries the message a user should read.
    return str(exc) if isinstance(exc, Exhausted) else describe_error(exc)


def failure_code(exc: BaseException) -> str:
    if isinstance(exc, (Exhausted, AdapterError, AgentFailedError)):
        return exc.code
    return InternalError.code


def elapsed_ms(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)
