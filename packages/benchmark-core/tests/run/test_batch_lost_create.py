"""An Anthropic Message Batch whose create answer is lost (the client times out while the fake holds
the answer back; the batch exists) is found again on resume: the batches created since the
journal's `submitting` line are listed (`GET /v1/messages/batches`), the one whose request count and
creation time fit is adopted, and its results' custom ids are checked against the journaled items.
Only when none fits, several do, or the ids differ are the items submitted again, and the run says so."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import RunOptions
from benchmark_core.adapters import PROVIDER_TABLE, ChatAdapter
from benchmark_core.errors import RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import Run, journal_path
from benchmark_core.testing import FakeAnthropicBatches, FakeBatch, mock_handler

KEY = "sk-ant-test-lost-0123456789"
SINGLE = tuple(t.id for t in example.tasks() if t.kind == "single")
OPTIONS = RunOptions(task_ids=SINGLE, cache=False, batch=True, batch_poll=0.05)


def _run(fake: FakeAnthropicBatches, journal: Path, *, resume: bool) -> tuple[Any, list[str]]:
    anthropic = next(info for info in PROVIDER_TABLE if info.name == "anthropic")
    adapter = ChatAdapter.from_environment(anthropic, "claude-test", KEY, base_url=fake.base_url, request_timeout=0.5)
    runner = Run(example, adapter, OPTIONS, journal=journal, resume=resume)
    return asyncio.run(runner.execute()), runner.notes


@pytest.fixture
def lost(tmp_path: Path) -> Iterator[tuple[FakeAnthropicBatches, Path]]:
    """A fake whose first batch was created but whose create answer the run never got."""
    fake = FakeAnthropicBatches(mock_handler(example, wire="anthropic"), api_key=KEY, create_delay=2.0)
    journal = journal_path(tmp_path / "report.json")
    with fake.in_thread():
        with pytest.raises(RunStoppedError, match="timed out"):
            _run(fake, journal, resume=False)
        assert len(fake.batches) == 1  # created, its answer lost
        lines = journal.read_text(encoding="utf-8").splitlines()
        states = [json.loads(line)["batch"] for line in lines if line.startswith('{"batch"')]
        assert [s["state"] for s in states] == ["submitting"] and "at" in states[0]
        fake.create_delay = 0.0
        yield fake, journal


def test_the_batch_of_a_lost_create_is_adopted_and_nothing_is_paid_twice(lost: Any) -> None:
    fake, journal = lost
    report, notes = _run(fake, journal, resume=True)
    assert len(fake.batches) == 1 and set(fake.submissions.values()) == {1}
    assert report.complete and report.totals.failed == 0 and report.totals.tasks == len(SINGLE)
    assert report.batch is not None and report.batch.batches == ["msgbatch_0001"]
    assert len(notes) == 1 and notes[0].startswith("batch bc-") and "adopted msgbatch_0001 (20 requests" in notes[0]


def test_an_adopted_batch_with_other_custom_ids_is_not_used(lost: Any) -> None:
    fake, journal = lost
    batch: FakeBatch = fake.batches["msgbatch_0001"]
    batch.items = {f"x{cid}": body for cid, body in batch.items.items()}  # another run's batch, same size
    report, notes = _run(fake, journal, resume=True)
    assert len(fake.batches) == 2 and report.complete and report.totals.failed == 0
    assert report.batch is not None and report.batch.batches == ["msgbatch_0002"]
    assert all(row.attempts == 1 for row in report.rows)
    assert "adopted msgbatch_0001" in notes[0]
    assert notes[1].startswith("batch msgbatch_0001, adopted for bc-")
    assert notes[1].endswith("holds other custom ids (0 of 20 match): not this run's; its items are submitted again")


def test_no_batch_that_fits_means_the_items_are_submitted_again(lost: Any) -> None:
    fake, journal = lost
    fake.batches.clear()  # the create never reached the provider
    report, notes = _run(fake, journal, resume=True)
    assert list(fake.batches) == ["msgbatch_0001"] and report.complete and report.totals.failed == 0
    assert len(notes) == 1 and notes[0].endswith("not found at the provider; its 20 items are submitted again")


def test_two_batches_that_fit_are_not_told_apart_and_the_items_go_again(lost: Any) -> None:
    fake, journal = lost
    first = fake.batches["msgbatch_0001"]
    fake.batches["msgbatch_0002"] = FakeBatch("msgbatch_0002", dict(first.items), first.created, {})
    report, notes = _run(fake, journal, resume=True)
    assert len(fake.batches) == 3 and report.complete and report.totals.failed == 0
    assert "2 batches fit; cannot tell which" in notes[0] and "submitted again" in notes[1]


def test_a_batch_created_before_the_journal_line_is_not_adopted(lost: Any) -> None:
    fake, journal = lost
    fake.batches["msgbatch_0001"].created_at -= 3600  # an hour before the run journaled its batch
    report, notes = _run(fake, journal, resume=True)
    assert len(fake.batches) == 2 and report.complete
    assert notes[0].endswith("not found at the provider; its 20 items are submitted again")
