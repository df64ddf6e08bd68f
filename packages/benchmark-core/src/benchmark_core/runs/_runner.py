"""The runner: every task through an adapter with bounded, adaptive concurrency, retries and
timeouts, then graded, totalled and given a bootstrap interval. Rows come back in task order, one per
task.

Durability: with a journal, each finished row is appended as it finishes and a resumed run sends
only the tasks the journal lacks, so its report is the one an uninterrupted run would have written.
Faults: transient ones (429, 5xx, timeouts, malformed replies) are retried with backoff until the
task's retry budget is spent (`requests`); fatal ones (a rejected key, an unknown model) stop the
whole run at the first occurrence (`RunStoppedError`, carrying the partial report), as does
`max_errors`. The report itself is built by `run_report`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import attrs

from .._model import ChatRequest, ChatResult, CompletionResult, Episode, RunReport, RunRow, ShardInfo, Task, Trace
from ..adapters._batches import BatchRequest
from ..adapters._pacing import Pacer
from ..adapters.base import ModelAdapter
from ..adapters.mock import for_run
from ..cache._cache import ResponseCache
from ..episodes._episode import EpisodeError
from ..errors._base import describe_error
from ..errors._failures import GraderError
from ..errors._provider import AdapterError
from ..errors._runs import MaxErrorsError, RunStoppedError
from ..errors._usage import ConfigurationError
from ..stats._identity import RunIdentity, task_set_digest
from ._batch import BatchProgress, BatchRun, check_batchable
from ._checkpoints import Checkpoints, RunNotes
from ._collector import fewer_collections
from ._deadlines import Deadlines
from ._journal import Journal
from ._limiter import AdaptiveLimiter
from ._options import RunOptions, with_overrides
from ._requests import Fatal, TaskRequests, elapsed_ms, failure_code, failure_message
from ._run_report import build_report, row_key, utc_now
from ._selection import TaskSource, run_task_list
from ._shards import shard_of

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

ProgressCallback = Callable[[int, int, RunRow], None]
Pending = tuple[int, Task, Optional[int]]


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
        limiter: Optional[AdaptiveLimiter] = None,
        batch_progress: Optional[BatchProgress] = None,
        notes: Optional[Callable[[str], None]] = None,
        turn_checkpoints: bool = True,
        journal_extra: Optional[dict[str, Any]] = None,
    ) -> None:
        self.benchmark = benchmark
        self.options = options
        self.mode = options.mode or benchmark.answer_modes[0]
        if self.mode not in benchmark.answer_modes:
            modes = ", ".join(benchmark.answer_modes)
            raise ConfigurationError(f"benchmark {benchmark.id!r} supports answer modes {modes}, not {self.mode!r}")
        options.validate()
        self.adapter = for_run(adapter, benchmark.mock_policies, options.mock_skill)
        self.started_at = utc_now()
        #: The tasks this run sends (a shard's share of them with `shard`), and their positions in
        #: the whole task list, which the mock and the episode seeds read.
        self.tasks: list[Task] = []
        self.positions: Sequence[int] = ()
        #: What a shard's report and journal record of it (None: not a shard).
        self.shard_info: Optional[ShardInfo] = None
        self._whole: list[Task] = []
        self.rows: dict[tuple[str, Optional[int]], RunRow] = {}
        #: What every request of the run shares (see `requests.TaskRequests`).
        self.cache = ResponseCache.for_run(adapter.provider, options.cache)
        self.settings = options.generation_settings()
        #: Requests in flight: the run's own, or one shared by the runs of an endpoint (a sweep's).
        self.limiter = limiter if limiter is not None else AdaptiveLimiter(options.concurrency)
        self.pacer = Pacer(probe=bool(getattr(adapter, "reports_rate_limits", False)))
        self.deadlines = Deadlines(options.timeout)
        self._limits = options.limits
        self._source = tasks
        self._journal_path = Path(journal) if journal is not None else None
        #: What the journal's header records besides the identity (a private split's variable).
        self._journal_extra = journal_extra or {}
        self._resume = resume
        self._retry_errored = retry_errored
        self._progress = progress
        self._batch_progress = batch_progress
        self._batch: Optional[BatchRun] = None
        self._stop: Optional[BaseException] = None
        self._loaded = False
        #: What the run says about how it resumed (`notes(text)` adds one and tells the callback).
        self.notes = RunNotes(notes)
        self._checkpoints = Checkpoints(self.notes, enabled=turn_checkpoints)

    @property
    def stopping(self) -> bool:
        """Whether the run is ending (a fatal error, `max_errors`): no new request may start."""
        return self._stop is not None

    def identity(self) -> RunIdentity:
        """The run's identity, as its journal records it (a shard's: the whole run's task set, and
        the shard). Known once the tasks are loaded."""
        shard = self.shard_info
        return RunIdentity.of_run(
            self.benchmark,
            self.options,
            model=self.adapter.model,
            provider=self.adapter.provider,
            mode=self.mode,
            task_set=shard.task_set_digest if shard is not None else task_set_digest(self._whole),
            shard=shard,
        )

    async def execute(self) -> RunReport:
        with fewer_collections():
            return await self._execute()

    def halt(self, error: AdapterError) -> None:
        """Stop the run as if `error` (a fatal provider error met elsewhere, e.g. by another run of
        the same model) had happened here: no new request starts, and `execute` raises
        `RunStoppedError` with the partial report once the requests in flight are done."""
        if self._stop is None:
            self._stop = Fatal(error)

    async def load(self) -> list[Task]:
        """Load and check the run's tasks (once), so a caller can find a mistake before anything is sent."""
        if not self._loaded:
            whole = await run_task_list(self.benchmark, self._source, self.options.task_ids, self.mode)
            self._select(whole)
            self._loaded = True
        return self.tasks

    async def _execute(self) -> RunReport:
        await self.load()
        batch_api = check_batchable(self) if self.options.batch else None
        journal: Optional[Journal] = None
        if self._journal_path is not None:
            journal, kept = Journal.open(
                self._journal_path, self.identity(), self.started_at, resume=self._resume, extra=self._journal_extra
            )
            wanted = {t.id for t in self.tasks}
            self.rows = {
                row_key(r): r for r in kept if r.task_id in wanted and not (self._retry_errored and r.error is not None)
            }
        epochs: list[Optional[int]] = [None] if self.options.epochs == 1 else list(range(1, self.options.epochs + 1))
        # Epoch by epoch, so that a run stopped early holds whole epochs first.
        pending = [
            (position, task, epoch)
            for epoch in epochs
            for position, task in zip(self.positions, self.tasks)
            if (task.id, epoch) not in self.rows
        ]
        if journal is not None and batch_api is None:
            self._checkpoints.open(journal, resume=self._resume, pending={(t.id, e) for _, t, e in pending})
        record = self._recorder(journal, len(self.tasks) * len(epochs))
        if batch_api is not None:
            self._batch = BatchRun(self, batch_api, journal, record, self._batch_progress)
            jobs = [asyncio.ensure_future(self._batch.execute(pending))]
        else:
            queue = iter(pending)
            jobs = [
                asyncio.ensure_future(self._worker(queue, record))
                for _ in range(min(self.options.concurrency, len(pending)))
            ]
        try:
            await _until_stopped(jobs, lambda: self._stop)
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            self.deadlines.close()
            await self.adapter.aclose()
            if journal is not None:
                await journal.close()
        if self._stop is not None:
            raise self._stopped_error(self._stop)
        return self.report()

    def _select(self, whole: list[Task]) -> None:
        """The tasks this run sends: all of `whole`, or the shard's share of them."""
        self._whole = whole
        self.positions, self.tasks, self.shard_info = shard_of(self.options, whole, cache=self.cache is not None)

    async def _worker(self, queue: Iterator[Pending], record: Callable[[RunRow], None]) -> None:
        # `concurrency` workers share one iterator, so tasks start in order, each exactly once,
        # and the loop holds `concurrency` coroutines rather than one per task.
        for index, task, epoch in queue:
            if self._stop is not None:
                return
            record(await self._run_task(task, index, epoch))

    def _recorder(self, journal: Optional[Journal], total: int) -> Callable[[RunRow], None]:
        """What keeps each finished row: the rows, the journal, progress, and the `max_errors` stop."""
        error_limit = self.options.error_limit(total)
        errored = sum(1 for r in self.rows.values() if r.error is not None)

        def record(row: RunRow) -> None:
            nonlocal errored
            self.rows[(row.task_id, row.epoch)] = row
            if journal is not None:
                journal.append(row)
            if self._progress is not None:
                self._progress(len(self.rows), total, row)
            if row.error is not None:
                errored += 1
                if error_limit is not None and errored >= error_limit and self._stop is None:
                    self._stop = _MaxErrors(
                        f"run stopped after {errored} errored rows (max errors {self.options.max_errors:g})"
                    )

        return record

    def _stopped_error(self, stop: BaseException) -> RunStoppedError:
        if isinstance(stop, Fatal):
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
            cache=self.cache is not None,
            batches=self._batch.batch_ids if self._batch is not None else None,
            shard=self.shard_info,
        )

    def partial_report(self, reason: str) -> RunReport:
        """The report of the rows finished so far, marked incomplete with the reason and the count."""
        total = len(self.tasks) * self.options.epochs
        stopped = f"{reason}; {len(self.rows)} of {total} {'rows' if self.options.epochs > 1 else 'tasks'} finished"
        return attrs.evolve(self.report(), complete=False, stopped=stopped)

    async def _run_task(self, task: Task, index: int, epoch: Optional[int]) -> RunRow:
        requests = TaskRequests(self, task, index, epoch)
        try:
            trace, episode = await self._answer(task, requests)
        except EpisodeError as exc:
            if isinstance(exc.cause, Fatal):
                raise self._halt(exc.cause) from None
            partial = exc.episode
            trace = Trace(tool_log=partial.tool_log, final_state=partial.final_state)
            cause = exc.cause
            return requests.error_row(failure_message(cause), failure_code(cause), trace=trace, episode=partial)
        except Fatal as fatal:
            raise self._halt(fatal) from None
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an adapter or environment bug must cost one row, not the run
            return requests.error_row(failure_message(exc), failure_code(exc))
        return await self.graded(task, requests, trace, episode)

    async def graded(self, task: Task, requests: TaskRequests, trace: Trace, episode: Optional[Episode]) -> RunRow:
        """The row of a task the model answered: graded, or an error row when the grader fails."""
        latency_ms = elapsed_ms(requests.started)
        benchmark = self.benchmark
        try:
            verdict = await benchmark.grade(task, trace, benchmark.grade_context(self.options.seed, self._limits))
        except Exception as exc:
            message = f"grader error: {describe_error(exc)}"
            return requests.error_row(message, GraderError.code, reason=message, trace=trace, episode=episode)
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

    def _halt(self, fatal: Fatal) -> asyncio.CancelledError:
        """Record the run-ending failure (the first one wins) and end this task's job quietly."""
        if self._stop is None:
            self._stop = fatal
        return asyncio.CancelledError()

    async def _answer(self, task: Task, requests: TaskRequests) -> tuple[Trace, Optional[Episode]]:
        """The model's submission for `task`, and the episode it played, if the task is one."""
        benchmark = self.benchmark
        if task.kind == "episode":
            assert benchmark.environment is not None  # validate_tasks refuses episodes without one
            outcome = await self._checkpoints.play(task, requests, benchmark.environment, self._limits)
            episode = outcome.episode
            return Trace(answer=outcome.answer, tool_log=episode.tool_log, final_state=episode.final_state), episode
        request = self.single_request(task)
        if isinstance(request, ChatRequest):
            return self.trace_of(await requests.chat(request)), None
        return Trace(answer=await requests.complete(request)), None

    def single_request(self, task: Task) -> BatchRequest:
        """What a single task sends: its prompt, or in native mode a chat offering its tools."""
        if self.mode == "native":
            return ChatRequest(messages=self.benchmark.native_messages(task), tools=task.tools)
        return task.prompt

    @staticmethod
    def trace_of(result: Union[ChatResult, CompletionResult]) -> Trace:
        """A single task's trace from the model's answer."""
        if isinstance(result, ChatResult):
            return Trace(answer=result.message.content, tool_calls=list(result.message.tool_calls or []))
        return Trace(answer=result.text)


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
    batch_progress: Optional[BatchProgress] = None,
    **overrides: Any,
) -> RunReport:
    """Run `benchmark` against `adapter` and return the report.

    `options` is a `RunOptions`; keyword `overrides` set its fields by name (`concurrency=2, seed=7`).
    `tasks` selects an alternate task list or JSONL file. With `journal` (a path), every finished row
    is appended there; `resume=True` continues the run that journal holds (only missing tasks are
    sent; `retry_errored=True` also re-sends errored rows). Nothing a model or grader does for one
    task makes the run fail: each task yields one row, failed requests and grader errors as zero-score
    rows with their error. A fatal provider error or `max_errors` ends the run early with
    `RunStoppedError`, whose `report` holds the finished rows. With `batch=True`, `batch_progress`
    is given each batch's `BatchStatus` whenever its state or counts change.
    """
    opts = with_overrides(options, overrides)
    return await Run(
        benchmark,
        adapter,
        opts,
        tasks=tasks,
        journal=journal,
        resume=resume,
        retry_errored=retry_errored,
        progress=progress,
        batch_progress=batch_progress,
    ).execute()
