"""The simulator: tools as specified, errors returned never raised, mistakes discoverable, replay exact."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from benchmark_core import ScriptedTurn, Task, ToolResult, replay
from benchmark_core.episodes import EpisodeResult
from benchmark_core.wire import to_wire
from benchmark_rollback_recovery import TOOLS, RollbackSimulator, good_script, task_spec
from benchmark_rollback_recovery._stores.session import SESSION_ACTOR
from benchmark_rollback_recovery._world import snapshot_of
from hypothesis import given, settings
from hypothesis import strategies as st

Play = Callable[[Task, Sequence[ScriptedTurn]], EpisodeResult]
ERROR_CODES = {"UNKNOWN_TOOL", "INVALID_ARGUMENTS", "NOT_FOUND", "CONFLICT"}
#: A public-split world offers the tools of its three stores and report_incident: the first sixteen.
TOOL_NAMES = [spec.name for spec in TOOLS][:16]


def _started(task: Task) -> RollbackSimulator:
    env = RollbackSimulator()
    env.reset(task, seed=1)
    return env


def _error_code(result: ToolResult) -> str:
    assert result.error is not None, result.result
    return result.error.code


def test_reset_offers_the_public_worlds_tools_and_the_run_in_the_system_prompt(tasks: list[Task]) -> None:
    task = tasks[0]
    start = RollbackSimulator().reset(task, seed=3)
    assert [t.name for t in start.tools] == TOOL_NAMES
    assert len(set(TOOL_NAMES)) == 16 and "report_incident" in TOOL_NAMES and "run_log" not in TOOL_NAMES
    assert task_spec(task).world.run in start.system
    assert "report_incident" in start.system
    for spec in start.tools:
        assert spec.parameters["type"] == "object" and spec.parameters["additionalProperties"] is False
    # the read-only tools, repair tools and typed report
    assert {"get_contact", "read_file", "list_messages", "audit_log", "contact_history"} <= set(TOOL_NAMES)
    assert {"update_contact", "restore_file_version", "edit_file", "unsend_message"} <= set(TOOL_NAMES)
    report = next(t for t in start.tools if t.name == "report_incident").parameters
    assert report["required"] == ["object_id", "what_happened", "action_taken", "resolved"]
    properties = report["properties"]
    assert properties["what_happened"]["enum"] == ["overwritten", "wrong_value", "wrong_recipient", "deleted", "other"]
    assert properties["action_taken"]["enum"] == ["restored", "reverted", "corrected", "unsent", "none"]
    assert properties["resolved"] == {"type": "boolean"}


def test_state_after_reset_is_the_worlds_snapshot(tasks: list[Task]) -> None:
    for task in tasks:
        assert _started(task).state() == to_wire(snapshot_of(task_spec(task).world))


def test_the_audit_trail_shows_every_mistake_with_its_ticket(incident_tasks: list[Task]) -> None:
    for task in incident_tasks:
        spec = task_spec(task)
        assert spec.incident is not None
        entries = _started(task).call_tool("audit_log", {}).result["entries"]
        by_run = [e for e in entries if e["actor"] == f"ops-agent (you), batch run {spec.world.run}"]
        assert len(by_run) >= 8
        damage = [e for e in by_run if e["object"] == spec.incident.object_id]
        assert damage and damage[-1]["ticket"] == spec.incident.ticket, task.id
        assert [e["at"] for e in entries] == sorted(e["at"] for e in entries)


def test_unknown_tool_and_bad_arguments_are_tool_errors(tasks: list[Task]) -> None:
    env = _started(tasks[0])
    assert _error_code(env.call_tool("drop_database", {})) == "UNKNOWN_TOOL"
    cases: list[tuple[str, dict[str, Any]]] = [
        ("get_contact", {}),
        ("get_contact", {"contact_id": 7}),
        ("get_contact", {"contact_id": ""}),
        ("get_contact", {"contact_id": "c-1", "extra": True}),
        ("revert_contact", {"contact_id": "c-1", "revision": True}),
        ("revert_contact", {"contact_id": "c-1", "revision": 0}),
        ("revert_contact", {"contact_id": "c-1", "revision": "2"}),
        ("update_contact", {"contact_id": "c-1", "fields": {}}),
        ("update_contact", {"contact_id": "c-1", "fields": {"title": "CEO"}}),
        ("audit_log", {"store": "calendar"}),
        ("report_incident", {"object_id": "x", "what_happened": "lost", "action_taken": "none", "resolved": False}),
        ("report_incident", {"object_id": "x", "what_happened": "other", "action_taken": "none", "resolved": "no"}),
    ]
    for name, arguments in cases:
        assert _error_code(env.call_tool(name, arguments)) == "INVALID_ARGUMENTS", (name, arguments)
    assert _error_code(env.call_tool("list_files", [])) == "INVALID_ARGUMENTS"  # type: ignore[arg-type]


def test_unknown_ids_are_not_found(tasks: list[Task]) -> None:
    env = _started(tasks[0])
    cases: list[tuple[str, dict[str, Any]]] = [
        ("get_contact", {"contact_id": "c-0"}),
        ("contact_history", {"contact_id": "c-0"}),
        ("update_contact", {"contact_id": "c-0", "fields": {"name": "X"}}),
        ("revert_contact", {"contact_id": "c-0", "revision": 1}),
        ("restore_contact", {"contact_id": "c-0"}),
        ("read_file", {"path": "nope.md"}),
        ("file_versions", {"path": "nope.md"}),
        ("write_file", {"path": "nope.md", "content": "x"}),
        ("edit_file", {"path": "nope.md", "find": "a", "replace": "b"}),
        ("restore_file_version", {"path": "nope.md", "version": 1}),
        ("unsend_message", {"message_id": "m-0"}),
        ("report_incident", {"object_id": "c-0", "what_happened": "other", "action_taken": "none", "resolved": False}),
    ]
    for name, arguments in cases:
        assert _error_code(env.call_tool(name, arguments)) == "NOT_FOUND", name
    contact = task_spec(tasks[0]).world.contacts[0].id
    assert _error_code(env.call_tool("revert_contact", {"contact_id": contact, "revision": 99})) == "NOT_FOUND"


def test_impossible_writes_are_conflicts_and_change_nothing(tasks: list[Task]) -> None:
    task = tasks[0]
    world = task_spec(task).world
    env = _started(task)
    before = env.state()
    active = next(c for c in world.contacts if c.revisions[-1].record.status == "active")
    deleted = next(c for c in world.contacts if c.revisions[-1].record.status == "deleted")
    live = next(f for f in world.files if f.versions[-1].content is not None)
    gone = next(f for f in world.files if f.versions[-1].content is None)
    current = active.revisions[-1].record
    cases: list[tuple[str, dict[str, Any]]] = [
        ("restore_contact", {"contact_id": active.id}),
        ("update_contact", {"contact_id": active.id, "fields": {"name": current.name}}),
        ("update_contact", {"contact_id": deleted.id, "fields": {"name": "Someone"}}),
        ("revert_contact", {"contact_id": active.id, "revision": active.revisions[-1].revision}),
        ("write_file", {"path": live.path, "content": live.versions[-1].content}),
        ("write_file", {"path": gone.path, "content": "x"}),
        ("edit_file", {"path": live.path, "find": "no such text anywhere", "replace": "x"}),
        ("edit_file", {"path": live.path, "find": "\n", "replace": "\n\n"}),
        ("restore_file_version", {"path": gone.path, "version": gone.versions[-1].version}),
        ("restore_file_version", {"path": live.path, "version": live.versions[-1].version}),
    ]
    for name, arguments in cases:
        assert _error_code(env.call_tool(name, arguments)) == "CONFLICT", (name, arguments)
    message = world.messages[0].id
    assert env.call_tool("unsend_message", {"message_id": message}).error is None
    assert _error_code(env.call_tool("unsend_message", {"message_id": message})) == "CONFLICT"
    after = env.state()
    assert after["contacts"] == before["contacts"] and after["files"] == before["files"]


def test_session_writes_are_audited_as_the_agent(tasks: list[Task]) -> None:
    task = tasks[0]
    world = task_spec(task).world
    env = _started(task)
    env.call_tool("unsend_message", {"message_id": world.messages[0].id})
    env.call_tool("unsend_message", {"message_id": world.messages[1].id})
    entries = env.call_tool("audit_log", {"store": "messages"}).result["entries"]
    assert [(e["actor"], e["at"], e["op"]) for e in entries[-2:]] == [
        (SESSION_ACTOR, "2026-10-15T11:00:00Z", "recall"),
        (SESSION_ACTOR, "2026-10-15T11:01:00Z", "recall"),
    ]
    assert {e["store"] for e in entries} == {"messages"}


def test_read_tools_answer_from_the_world(tasks: list[Task]) -> None:
    task = tasks[0]
    world = task_spec(task).world
    env = _started(task)
    contact = world.contacts[0]
    got = env.call_tool("get_contact", {"contact_id": contact.id}).result
    assert got["name"] == contact.revisions[-1].record.name and got["revision"] == len(contact.revisions)
    history = env.call_tool("contact_history", {"contact_id": contact.id}).result["revisions"]
    assert [r["record"]["name"] for r in history] == [r.record.name for r in contact.revisions]
    stored = next(f for f in world.files if len(f.versions) >= 2 and f.versions[0].content is not None)
    first = env.call_tool("read_file", {"path": stored.path, "version": 1}).result
    assert first["content"] == stored.versions[0].content
    versions = env.call_tool("file_versions", {"path": stored.path}).result["versions"]
    assert len(versions) == len(stored.versions) and versions[1]["changes"]
    listed = env.call_tool("list_messages", {}).result["messages"]
    assert [m["id"] for m in listed] == sorted(m.id for m in world.messages)
    assert len(env.call_tool("list_contacts", {}).result["contacts"]) == 6
    assert len(env.call_tool("list_files", {}).result["files"]) == 5


def test_calling_before_reset_is_a_programming_error() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        RollbackSimulator().call_tool("audit_log", {})


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_KEYS = st.sampled_from(
    ["contact_id", "path", "message_id", "revision", "version", "fields", "content", "find", "replace", "store",
     "object_id", "what_happened", "action_taken", "resolved", "summary"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    task_index=st.integers(0, 47),
    name=st.sampled_from(TOOL_NAMES) | st.text(max_size=15),
    arguments=st.dictionaries(_KEYS | st.text(max_size=6), _JSON, max_size=5),
)
def test_no_tool_call_ever_raises(tasks: list[Task], task_index: int, name: str, arguments: dict[str, Any]) -> None:
    env = _started(tasks[task_index])
    result = env.call_tool(name, arguments)
    assert isinstance(result, ToolResult)
    assert result.error is None or result.error.code in ERROR_CODES
    assert (result.error is None) != (result.result is None)


@settings(max_examples=100, deadline=None)
@given(
    task_index=st.integers(0, 47),
    ids=st.lists(st.integers(0, 9), min_size=1, max_size=6),
    revision=st.integers(1, 6),
)
def test_repair_tools_on_real_ids_never_raise(
    tasks: list[Task], task_index: int, ids: list[int], revision: int
) -> None:
    task = tasks[task_index]
    world = task_spec(task).world
    env = _started(task)
    for i in ids:
        contact = world.contacts[i % len(world.contacts)].id
        path = world.files[i % len(world.files)].path
        message = world.messages[i % len(world.messages)].id
        calls: list[tuple[str, dict[str, Any]]] = [
            ("revert_contact", {"contact_id": contact, "revision": revision}),
            ("restore_contact", {"contact_id": contact}),
            ("update_contact", {"contact_id": contact, "fields": {"phone": f"+1-555-{i:04d}"}}),
            ("restore_file_version", {"path": path, "version": revision}),
            ("edit_file", {"path": path, "find": "e", "replace": "E"}),
            ("write_file", {"path": path, "content": f"v{i}\n"}),
            ("unsend_message", {"message_id": message}),
        ]
        for name, arguments in calls:
            result = env.call_tool(name, arguments)
            assert result.error is None or result.error.code in {"NOT_FOUND", "CONFLICT"}, (name, result.error)
    assert set(env.state()) == {"contacts", "files", "messages"}


def test_replay_is_deterministic_and_reproduces_the_episode(tasks: list[Task], play: Play) -> None:
    for task in tasks:
        episode = play(task, good_script(task)).episode
        first = replay(RollbackSimulator(), task, episode.tool_log, seed=1)
        second = replay(RollbackSimulator(), task, episode.tool_log, seed=99)
        assert first == second
        assert [(e.result, e.error) for e in first.tool_log] == [(e.result, e.error) for e in episode.tool_log]
        assert first.final_state == episode.final_state


def test_a_what_happened_outside_its_set_is_refused_with_the_set(tasks: list[Task]) -> None:
    env = _started(tasks[0])
    arguments = {"object_id": "x", "what_happened": "reference", "action_taken": "none", "resolved": True}
    result = env.call_tool("report_incident", arguments)
    assert _error_code(result) == "INVALID_ARGUMENTS"
    assert result.error is not None
    assert result.error.message == (
        'report_incident: arguments.what_happened: "reference" is not one of '
        '["overwritten", "wrong_value", "wrong_recipient", "deleted", "other"]'
    )
