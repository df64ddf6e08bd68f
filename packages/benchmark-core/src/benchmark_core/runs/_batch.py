"""Runs with `--batch`: every pending single task as one item of a provider batch, at the batch price.

The cycle: submit the items (each the request a direct call would send, settings included), poll
the batch with backoff (`batch_poll` seconds at first, doubling to `POLL_MAX`; each new state or count
goes to the run's `batch_progress`), fetch the results, read each answer as the direct call's answer
and grade it. Items that failed in a way another try may fix (expired, cancelled, 429, 5xx, or no
result at all) are submitted again in a new batch, at most `RESUBMISSIONS` times (or `--retries`);
the others become error rows. Cost is the direct price times `1 - BATCH_DISCOUNT`. Calls to the
batch endpoints that meet a transient fault are retried by the run's one retry policy (the one of
direct requests: jitter, Retry-After, `--retries`, `--retry-budget`).

With a journal, every batch is journaled (and synced) under a fresh tag with its items before it is
created (`submitting`), then with the provider's id, then as its state changes; the rows follow as
they are graded, then the batch is marked `fetched`. A resumed run polls every journaled batch not
yet fetched and submits only the tasks that are in none of them, so no task is paid twice. A batch
journaled only as `submitting` (killed while creating it, or the create's answer lost) is looked up
by the tag, which the batch carries in its metadata (`BatchClient.find`): OpenAI's can be found.
Anthropic's Message Batches take no metadata, so there the batches created since the `submitting`
line (its `at`) are listed (`BatchClient.created_since`), and the one whose request count fits and
that was created within `CREATE_WINDOW` of it is adopted, if exactly one is (`_found_again`); once
it has ended, its results' custom ids must be the journaled items, or its answers are not used and
the items are submitted again. Either way the run says what it did (`Run.note`).

Episodes are refused: each turn depends on the last, and a batch round trip can take hours. See
`check_batchable`.
"""

from __future__ import annotations

import asyncio
import functools
import time
import uuid
from collections.abc import Awaitable, Callable, Collection
from datetime import timedelta
from typing import TYPE_CHECKING, Optional, TypeVar

from attrs import define, evolve

from .._model import JsonObject, RunRow, Task, Usage
from ..adapters._batches import (
    BATCH_DISCOUNT,
    BatchCapable,
    BatchClient,
    BatchOutcome,
    BatchStatus,
    batch_capable,
    parse_time,
)
from ..adapters._retry import GaveUp, retrying, transient
from ..adapters.base import AdapterContext
from ..errors._provider import AdapterError, BatchItemFailedError
from ..errors._usage import ConfigurationError
from ._journal import Journal
from ._requests import Exhausted, Fatal, TaskRequests, failure_code, failure_message, retry_policy
from ._run_report import utc_now

if TYPE_CHECKING:
    from ._runner import Pending, Run

POLL_MAX = 60.0
#: How many times an item whose batch failed it (expired, 5xx, ...) is submitted again by default.
RESUBMISSIONS = 3
BatchProgress = Callable[[BatchStatus], None]
R = TypeVar("R")
#: A batch to poll: its journal tag, the provider's id, its items' custom ids.
Waiting = tuple[str, str, list[str]]
#: How long after its `submitting` line a batch whose create answer was lost may have been created
#: (the create's timeout and retries), and how far the provider's clock may be behind ours.
CREATE_WINDOW = timedelta(minutes=10)
CLOCK_SKEW = timedelta(minutes=2)


def check_batchable(run: Run) -> BatchCapable:
    """The adapter's batch API; a `ConfigurationError` (exit 1) for episodes or a provider without one."""
    episodes = [task.id for task in run.tasks if task.kind == "episode"]
    if episodes:
        shown = ", ".join(episodes[:3]) + (", ..." if len(episodes) > 3 else "")
        raise ConfigurationError(
            f"--batch runs single tasks only, and {len(episodes)} of these tasks are episodes ({shown}): an "
            "episode's turns depend on each other. Run them without --batch, or select single tasks with --task"
        )
    api = batch_capable(run.adapter)
    if api is None:
        raise ConfigurationError(
            f"--batch needs a provider with a batch API (openai, anthropic), not {run.adapter.provider!r}"
        )
    return api


def custom_id(index: int, epoch: Optional[int]) -> str:
    """An item's id: the task's position and epoch (`t00012-e1`), valid for both providers."""
    return f"t{index:05d}-e{epoch or 1}"


def discounted(usage: Usage) -> Usage:
    """`usage` at the batch price."""
    keep = 1.0 - BATCH_DISCOUNT
    saved = usage.cache_saved_usd
    return evolve(
        usage,
        cost_usd=usage.cost_usd * keep if usage.cost_usd is not None else None,
        cache_saved_usd=saved * keep if saved is not None else None,
    )


@define
class _Item:
    index: int
    task: Task
    epoch: Optional[int]
    submissions: int = 0


class BatchRun:
    """The batch cycle of one run (see the module docstring)."""

    def __init__(
        self,
        run: Run,
        api: BatchCapable,
        journal: Optional[Journal],
        record: Callable[[RunRow], None],
        progress: Optional[BatchProgress],
    ) -> None:
        self._run = run
        self._api = api
        self._journal = journal
        self._record = record
        self._progress = progress
        self._items: dict[str, _Item] = {}
        #: The ids of every batch this run has used, created or resumed, in order.
        self.batch_ids: list[str] = []
        #: Batches adopted after a lost create (tag -> the journaled custom ids), checked once ended.
        self._adopted: dict[str, set[str]] = {}

    async def execute(self, pending: list[Pending]) -> None:
        self._items = {custom_id(i, epoch): _Item(i, task, epoch) for i, task, epoch in pending}
        client = self._api.batch_client()
        try:
            await self._cycle(client, await self._resumed(client))
        except Fatal as fatal:
            self._run.halt(fatal.error)
            raise asyncio.CancelledError() from None
        finally:
            await client.aclose()

    async def _resumed(self, client: BatchClient) -> list[Waiting]:
        """The journaled batches whose results are not in. A batch journaled only as `submitting`
        (the run was killed while creating it) is looked up by its tag: if the provider has it, it
        is polled; if not, its items were never submitted."""
        waiting: list[Waiting] = []
        records = self._journal.batches if self._journal is not None else []
        known = {str(r["batch"]) for r in records if r.get("batch") is not None}
        for record in records:
            tag, batch_id = str(record["id"]), record.get("batch")
            cids = [cid for cid in record.get("items", {}) if cid in self._items]
            if record.get("state") == "submitting":
                batch_id = await self._found_again(client, record, known)
                if batch_id is None:
                    continue
            if record.get("adopted"):
                self._adopted[tag] = set(record.get("items", {}))
            for cid in cids:
                self._items[cid].submissions += 1
            self.batch_ids.append(str(batch_id))
            if record.get("state") != "fetched":
                waiting.append((tag, str(batch_id), cids))
        return waiting

    async def _cycle(self, client: BatchClient, waiting: list[Waiting]) -> None:
        """Poll the resumed batches, submit the tasks in none of them, and resubmit failed items."""
        in_open = {cid for _, _, cids in waiting for cid in cids}
        fresh = [cid for cid in self._items if cid not in in_open]
        if fresh:
            waiting.append(await self._submit(client, fresh))
        while waiting:
            again = await self._finish(client, *waiting.pop(0))
            if again:
                waiting.append(await self._submit(client, again))

    async def _submit(self, client: BatchClient, cids: list[str]) -> Waiting:
        """Create a batch of `cids`, journaled first under a fresh tag (`submitting`), then with its id."""
        run = self._run
        lines = [
            self._api.batch_item(cid, run.single_request(self._items[cid].task), self._context(cid)) for cid in cids
        ]
        tag = f"bc-{uuid.uuid4().hex}"
        self._journaled(tag, "submitting", cids)
        metadata = {"benchmark_core_tag": tag, "benchmark": run.benchmark.id, "items": str(len(cids))}
        batch_id = await _provider_call(run, lambda: client.submit(lines, metadata), idempotent=False)
        for cid in cids:
            self._items[cid].submissions += 1
        self.batch_ids.append(batch_id)
        self._journaled(tag, "submitted", cids, batch_id=batch_id)
        return tag, batch_id, cids

    def _context(self, cid: str) -> AdapterContext:
        item = self._items[cid]
        run = self._run
        return AdapterContext(task=item.task, task_index=item.index, seed=run.options.seed, settings=run.settings)

    async def _finish(self, client: BatchClient, tag: str, batch_id: str, cids: list[str]) -> list[str]:
        """Poll `batch_id` until it ends, grade its results; the items to submit again."""
        started = time.perf_counter()
        status = await self._poll(client, tag, batch_id)
        outcomes = {o.custom_id: o for o in await _provider_call(self._run, lambda: client.results(batch_id))}
        if tag in self._adopted and not self._adopted_ids_match(tag, batch_id, outcomes, cids):
            return cids
        again: list[str] = []
        for cid in cids:
            item = self._items[cid]
            if (item.task.id, item.epoch) in self._run.rows:  # graded before a kill, then resumed
                continue
            outcome = outcomes.get(cid) or BatchOutcome(cid, error=f"no result ({status.state})", retryable=True)
            row = await self._row(cid, outcome, started)
            if row is None:
                again.append(cid)
            else:
                self._record(row)
        self._journaled(tag, "fetched", cids)
        return again

    async def _poll(self, client: BatchClient, tag: str, batch_id: str) -> BatchStatus:
        delay = self._run.options.batch_poll
        seen: Optional[BatchStatus] = None
        while True:
            status = await _provider_call(self._run, lambda: client.status(batch_id))
            if status != seen:
                seen = status
                if self._progress is not None:
                    self._progress(status)
                self._journaled(tag, "ended" if status.ended else status.state, [], status)
            if status.ended:
                return status
            await asyncio.sleep(delay)
            delay = min(POLL_MAX, delay * 2)

    async def _row(self, cid: str, outcome: BatchOutcome, started: float) -> Optional[RunRow]:
        """The graded row of an answered item, an error row, or None when it goes in the next batch."""
        item = self._items[cid]
        run = self._run
        if outcome.answer is None:
            limit = run.options.retries if run.options.retries is not None else RESUBMISSIONS
            if outcome.retryable and item.submissions <= limit:
                return None
        requests = TaskRequests(run, item.task, item.index, item.epoch, started=started, attempts=item.submissions)
        if outcome.answer is None:
            return requests.error_row(f"batch item failed: {outcome.error}", BatchItemFailedError.code)
        request = run.single_request(item.task)
        try:
            result = self._api.batch_answer(request, outcome.answer)
            requests.batched(result, discounted(result.usage))
        except Exhausted as exc:
            return requests.error_row(str(exc), exc.code)
        except Exception as exc:  # a malformed answer costs its row, not the run
            return requests.error_row(failure_message(exc), failure_code(exc))
        return await run.graded(item.task, requests, run.trace_of(result), None)

    def _journaled(
        self,
        tag: str,
        state: str,
        cids: list[str],
        status: Optional[BatchStatus] = None,
        batch_id: Optional[str] = None,
    ) -> None:
        if self._journal is None:
            return
        record: JsonObject = {"id": tag, "state": state}
        if state == "submitting":  # later records of the batch name only what changed
            record["items"] = {cid: [self._items[cid].task.id, self._items[cid].epoch] for cid in cids}
            record["at"] = utc_now()  # what a batch without metadata is found again by
        if batch_id is not None:
            record["batch"] = batch_id
        if status is not None:
            record["counts"] = {"total": status.total, "succeeded": status.succeeded, "failed": status.failed}
        self._journal.append_batch(record)

    async def _found_again(self, client: BatchClient, record: JsonObject, known: Collection[str]) -> Optional[str]:
        """The batch of a `submitting` record (a create whose answer was lost), journaled as
        submitted: found by its tag, or else adopted from the batches created since the record when
        exactly one has its request count and was created within `CREATE_WINDOW` (and is no other
        journaled batch); None when neither, and the run says its items are submitted again."""
        run, tag = self._run, str(record["id"])
        items = record.get("items") or {}
        cids = [cid for cid in items if cid in self._items]
        batch_id = await _provider_call(run, functools.partial(client.find, tag))
        since = parse_time(record.get("at"))
        if batch_id is None and since is not None:
            listed = await _provider_call(run, functools.partial(client.created_since, since - CLOCK_SKEW))
            fits = [b for b in listed if b.requests == len(items) and b.id not in known]
            fits = [b for b in fits if b.created_at <= since + CREATE_WINDOW]
            if len(fits) == 1:
                batch_id = fits[0].id
                self._adopted[tag] = set(items)
                run.notes(
                    f"batch {tag}: its create answer was lost; adopted {batch_id} ({len(items)} requests, created "
                    f"{fits[0].created_at.isoformat(timespec='seconds')}), its custom ids checked once it ends"
                )
            elif fits:
                run.notes(f"batch {tag}: its create answer was lost and {len(fits)} batches fit; cannot tell which")
        if batch_id is None:
            run.notes(f"batch {tag}: not found at the provider; its {len(cids)} items are submitted again")
            return None
        if self._journal is not None:
            adopted = {"adopted": True} if tag in self._adopted else {}
            self._journal.append_batch({"id": tag, "state": "submitted", "batch": batch_id, **adopted})
        return batch_id

    def _adopted_ids_match(self, tag: str, batch_id: str, outcomes: dict[str, BatchOutcome], cids: list[str]) -> bool:
        """Whether an adopted batch holds exactly the journaled items; if not, it is another's: its
        answers are not used, and its items are submitted again (the run says so)."""
        expected = self._adopted[tag]
        if set(outcomes) == expected:
            return True
        self._run.notes(
            f"batch {batch_id}, adopted for {tag}, holds other custom ids ({len(expected & set(outcomes))} of "
            f"{len(expected)} match): not this run's; its items are submitted again"
        )
        for cid in cids:
            self._items[cid].submissions -= 1
        self.batch_ids.remove(batch_id)
        self._journaled(tag, "fetched", [])
        return False


async def _provider_call(run: Run, make: Callable[[], Awaitable[R]], *, idempotent: bool = True) -> R:
    """A call to the batch endpoints, retried by the run's retry policy (`adapters._retry.retrying`: backoff
    with jitter, Retry-After, `--retries`, the retry budget) after 429s and 5xx (and, when it is
    `idempotent`, after timeouts and lost connections); any other failure, or one the policy gives
    up on, ends the run (`Fatal`). Creating a batch is not idempotent: a timed-out create may have
    created it, so it is not sent again."""

    def may_retry(failure: AdapterError) -> bool:
        return transient(failure) and (idempotent or failure.status is not None)

    retries = retry_policy(run.options).sequence(run.options.seed)
    try:
        return await retrying(lambda _: make(), retries, may_retry=may_retry)
    except GaveUp as gave_up:
        raise Fatal(gave_up.failure) from None
