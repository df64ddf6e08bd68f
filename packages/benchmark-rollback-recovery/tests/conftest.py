"""Shared fixtures: the committed tasks, and helpers that play a script and grade the result."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest
from benchmark_core import MockPolicies, ScriptedTurn, Task, TaskScore, ToolCall, ToolLogEntry, Trace, mock_adapter
from benchmark_core.episodes import EpisodeResult, run_episode
from benchmark_core.testing.browser_fixtures import browser_type_launch_args, pytest_collection_modifyitems
from benchmark_rollback_recovery import RollbackSimulator, benchmark, task_spec

Play = Callable[[Task, Sequence[ScriptedTurn]], EpisodeResult]
Grade = Callable[[Task, Sequence[ToolLogEntry]], TaskScore]
RUN_ACTOR = "ops-agent (you), batch run"

#: pytest-playwright's `page` on the system's Chromium (the HTML report's browser tests).
__all__ = ["browser_type_launch_args", "pytest_collection_modifyitems"]


@pytest.fixture(scope="session")
def tasks() -> list[Task]:
    return benchmark.tasks()


@pytest.fixture(scope="session")
def full_tasks() -> list[Task]:
    return benchmark.tasks("full")


@pytest.fixture(scope="session")
def incident_tasks(tasks: list[Task]) -> list[Task]:
    return [t for t in tasks if task_spec(t).incident is not None]


@pytest.fixture(scope="session")
def control_tasks(tasks: list[Task]) -> list[Task]:
    return [t for t in tasks if task_spec(t).incident is None]


def play_script(task: Task, script: Sequence[ScriptedTurn]) -> EpisodeResult:
    """Run `script` as a whole episode through core's mock adapter and a fresh simulator."""
    policies = MockPolicies(good_script=lambda _task: list(script))
    return asyncio.run(run_episode(task, mock_adapter(policies=policies), RollbackSimulator()))


def grade_log(task: Task, tool_log: Sequence[ToolLogEntry]) -> TaskScore:
    return asyncio.run(benchmark.grade(task, Trace(tool_log=list(tool_log))))


@pytest.fixture
def play() -> Play:
    return play_script


@pytest.fixture
def grade() -> Grade:
    return grade_log


@pytest.fixture
def grade_script() -> Callable[[Task, Sequence[ScriptedTurn]], TaskScore]:
    def run(task: Task, script: Sequence[ScriptedTurn]) -> TaskScore:
        return grade_log(task, play_script(task, script).episode.tool_log)

    return run


@pytest.fixture
def undo_everything() -> Callable[[Task], list[ScriptedTurn]]:
    """An agent that rolls back every write of its batch run and reports the damaged record fixed."""

    def script(task: Task) -> list[ScriptedTurn]:
        spec = task_spec(task)
        calls: list[ToolCall] = []
        # the run's writes are the last ones on each record, so the one before its first is where it started
        for contact in spec.world.contacts:
            by_run = [r.revision for r in contact.revisions if r.actor.startswith(RUN_ACTOR)]
            if by_run:
                calls.append(ToolCall("revert_contact", {"contact_id": contact.id, "revision": by_run[0] - 1}))
        for stored in spec.world.files:
            by_run = [v.version for v in stored.versions if v.actor.startswith(RUN_ACTOR)]
            if by_run:
                calls.append(ToolCall("restore_file_version", {"path": stored.path, "version": by_run[0] - 1}))
        for message in spec.world.messages:
            if any(e.actor.startswith(RUN_ACTOR) for e in message.events):
                calls.append(ToolCall("unsend_message", {"message_id": message.id}))
        for noun, records in (("event", spec.world.calendar), ("issue", spec.world.tracker)):
            for record in records:
                by_run = [r.revision for r in record.revisions if r.actor.startswith(RUN_ACTOR)]
                if by_run:
                    calls.append(ToolCall(f"revert_{noun}", {f"{noun}_id": record.id, "revision": by_run[0] - 1}))
        turns = [ScriptedTurn(tool_calls=calls)]
        if spec.incident is not None:
            turns.append(
                ScriptedTurn.call(
                    "report_incident",
                    object_id=spec.incident.object_id,
                    what_happened=spec.incident.what_happened,
                    action_taken=spec.incident.reference_action,
                    resolved=True,
                )
            )
        return [*turns, ScriptedTurn.say("I rolled back everything the batch run did.")]

    return script


@pytest.fixture(autouse=True)
def _private_response_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs against a provider cache their responses by default; tests keep theirs out of ~/.cache
    (subprocesses inherit the variable)."""
    monkeypatch.setenv("BENCHMARK_CORE_CACHE", str(tmp_path_factory.mktemp("response-cache")))
