"""`RunIdentity` (issue 25): one type for what makes a run the run it is, read from a run, a journal
header, a report or a shard record, and one `difference` every refusal is worded from."""

from __future__ import annotations

from typing import Any

import attrs
from benchmark_core import RunOptions, Task, mock_adapter
from benchmark_core.example import benchmark as example
from benchmark_core.stats._identity import FieldDifference, RunIdentity, task_set_digest

DIGEST = task_set_digest(example.tasks())


def _identity(**options: Any) -> RunIdentity:
    return RunIdentity.of_run(
        example, RunOptions(**options), model="m", provider="mock", mode="prompt", task_set=DIGEST
    )


def test_the_header_reads_back_as_the_identity_it_was_written_from() -> None:
    identity = _identity(seed=3, temperature=0.5)
    header = identity.header("2026-01-01T00:00:00Z")
    assert list(header) == [
        "benchmark",
        "version",
        "taskSetDigest",
        "model",
        "provider",
        "mode",
        "seed",
        "options",
        "startedAt",
    ]
    assert RunIdentity.from_header(header) == identity.journaled()
    assert RunIdentity.from_header(header).difference(identity.journaled()) == []


def test_difference_names_each_field_and_each_option_in_order() -> None:
    mine = _identity(seed=1, temperature=0.5, max_turns=5)
    theirs = attrs.evolve(_identity(seed=2, temperature=0.7, max_turns=5), model="other")
    assert mine.difference(theirs) == [
        FieldDifference("model", "m", "other"),
        FieldDifference("seed", 1, 2),
        FieldDifference("generation", {"temperature": 0.5}, {"temperature": 0.7}),
        FieldDifference("options.seed", 1, 2),
        FieldDifference("options.temperature", 0.5, 0.7),
    ]
    assert [d.what for d in mine.difference(attrs.evolve(mine, task_set="sha256:0"))] == ["the task set"]


def test_the_task_set_is_the_tasks_content_not_their_ids() -> None:
    tasks = example.tasks()
    changed = [attrs.evolve(tasks[0], prompt=tasks[0].prompt + " (reworded)"), *tasks[1:]]
    assert [t.id for t in changed] == [t.id for t in tasks]
    assert task_set_digest(changed) != task_set_digest(tasks)
    assert task_set_digest(list(reversed(tasks))) != task_set_digest(tasks)
    assert task_set_digest([Task(id="a", kind="single", prompt="p")]).startswith("sha256:")


def test_a_report_records_the_identity_of_its_run() -> None:
    report = example.run(mock_adapter(), seed=4, epochs=2, temperature=0.25)
    run = RunIdentity.of_run(
        example,
        RunOptions(seed=4, epochs=2, temperature=0.25),
        model=report.model,
        provider=report.provider,
        mode=report.mode,
        task_set=DIGEST,
    )
    assert RunIdentity.of_report(report) == run.reported()
    assert RunIdentity.of_report(report).difference(attrs.evolve(run, epochs=1).reported()) == [
        FieldDifference("epochs", 2, 1)
    ]
    assert RunIdentity.of_report(report).comparable() == RunIdentity(
        benchmark=example.id, version=example.version, mode=report.mode
    )
