"""The typed task metadata: a world with its full audit trail, and the incident if there is one.

A task's `metadata` is the wire form (camelCase JSON, via `benchmark_core.to_wire`) of `TaskSpec`.
Structuring it back with `benchmark_core.from_wire` rejects unknown keys and bad enum values, so a
hand-edited or alternate task file fails loudly instead of grading against a half-read world.

The target the grader checks against is not stored whole: it is the world as found with the damaged
record replaced by `Incident.should_be` (see `target_of`). Storing only that one record keeps task
files a fifth smaller and leaves nothing to drift out of step with the world.
"""

from __future__ import annotations

import difflib
import functools
import weakref
from typing import Literal, Optional

from attrs import frozen
from benchmark_core import Task, ToolCall, from_wire

Store = Literal["contacts", "files", "messages"]
STORES: tuple[Store, ...] = ("contacts", "files", "messages")

WhatHappened = Literal["overwritten", "wrong_value", "wrong_recipient", "deleted", "other"]
WHAT_HAPPENED: tuple[WhatHappened, ...] = ("overwritten", "wrong_value", "wrong_recipient", "deleted", "other")

Action = Literal["restored", "reverted", "corrected", "unsent", "none"]
ACTIONS: tuple[Action, ...] = ("restored", "reverted", "corrected", "unsent", "none")

#: The incident kinds each store can suffer; 3 stores x 3 kinds x 4 prompt forms = 36 incident tasks.
KINDS_BY_STORE: dict[Store, tuple[WhatHappened, ...]] = {
    "contacts": ("wrong_value", "overwritten", "deleted"),
    "files": ("wrong_value", "overwritten", "deleted"),
    "messages": ("wrong_recipient", "wrong_value", "other"),
}

PromptForm = Literal["names_value", "job_ran", "hedge", "work_request"]
PROMPT_FORMS: tuple[PromptForm, ...] = ("names_value", "job_ran", "hedge", "work_request")

ContactStatus = Literal["active", "deleted"]
ContactOp = Literal["create", "update", "delete", "restore", "revert"]
FileOp = Literal["create", "edit", "write", "delete", "restore"]
MessageOp = Literal["send", "recall"]
MessageStatus = Literal["sent", "recalled"]

CONTACT_FIELDS: tuple[str, ...] = ("name", "email", "phone", "company")

#: Every time stamp in a world, as UTC to the minute: "2026-10-15T09:02:00Z".
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


@frozen
class ContactRecord:
    name: str
    email: str
    phone: str
    company: str
    status: ContactStatus = "active"


@frozen
class ContactRevision:
    """One write to a contact; `record` is the whole contact after it."""

    revision: int
    at: str
    actor: str
    op: ContactOp
    record: ContactRecord
    ticket: Optional[str] = None


@frozen
class Contact:
    id: str
    revisions: list[ContactRevision]


@frozen
class FileVersion:
    """One write to a file; `content` is None for a deletion."""

    version: int
    at: str
    actor: str
    op: FileOp
    content: Optional[str]
    ticket: Optional[str] = None


@frozen
class StoredFile:
    path: str
    versions: list[FileVersion]


@frozen
class MessageEvent:
    at: str
    actor: str
    op: MessageOp
    ticket: Optional[str] = None


@frozen
class Message:
    """A message sent to one mailing list; `events` are its sends and recalls, in order."""

    id: str
    subject: str
    to: str
    body: str
    events: list[MessageEvent]


@frozen
class World:
    """The stores as the agent finds them, each with its whole history.

    `run` names the agent's earlier batch run; `clock` is when the session starts, the time stamped
    on the agent's own writes (one minute apart).
    """

    organisation: str
    run: str
    clock: str
    contacts: list[Contact]
    files: list[StoredFile]
    messages: list[Message]


@frozen
class FileState:
    deleted: bool
    content: Optional[str]


@frozen
class MessageState:
    subject: str
    to: str
    body: str
    status: MessageStatus


@frozen
class Snapshot:
    """The current value of every record, keyed by contact id, file path and message id."""

    contacts: dict[str, ContactRecord]
    files: dict[str, FileState]
    messages: dict[str, MessageState]

    def record_count(self) -> int:
        return len(self.contacts) + len(self.files) + len(self.messages)

    def ids(self, store: Store) -> list[str]:
        if store == "contacts":
            return list(self.contacts)
        if store == "files":
            return list(self.files)
        return list(self.messages)


@frozen
class Incident:
    """The damage in an incident task: which record, what happened to it, and under which ticket.

    `should_be` holds exactly one record, the damaged one as it should be after the repair.
    `reference_repair` is one repair that reaches it (tests replay it); `reference_action` is the
    `action_taken` it implies. Other repairs that reach it pass too. `duplicate_of` is set on a
    double send: the earlier, identical copy, which may be recalled instead of this one.
    """

    store: Store
    object_id: str
    what_happened: WhatHappened
    ticket: str
    description: str
    should_be: Snapshot
    reference_repair: ToolCall
    reference_action: Action
    duplicate_of: Optional[str] = None


@frozen
class Focus:
    """The record a prompt is about (the damaged one on incident tasks, any record on controls)."""

    store: Store
    object_id: str


@frozen
class TaskSpec:
    prompt_form: PromptForm
    focus: Focus
    world: World
    incident: Optional[Incident] = None


#: Structured specs by task identity; the weak reference proves the id still names the same task.
_SPECS: dict[int, tuple[weakref.ref[Task], TaskSpec]] = {}


def task_spec(task: Task) -> TaskSpec:
    """The typed metadata of a task; raises `benchmark_core.UsageError` naming the bad field.

    Structuring a world is most of what a replay costs, and the simulator and the grader both
    need it for every episode, so the spec is kept for as long as the (frozen) task lives."""
    cached = _SPECS.get(id(task))
    if cached is not None and cached[0]() is task:
        return cached[1]
    spec = from_wire(task.metadata, TaskSpec, what=f"metadata of task {task.id!r}")
    key = id(task)
    _SPECS[key] = (weakref.ref(task, lambda _: _SPECS.pop(key, None)), spec)
    return spec


def snapshot_of(world: World) -> Snapshot:
    """The current value of every record in `world` (the last revision, version and event)."""
    return Snapshot(
        contacts={c.id: c.revisions[-1].record for c in world.contacts},
        files={f.path: file_state(f.versions[-1]) for f in world.files},
        messages={m.id: message_state(m, m.events[-1].op) for m in world.messages},
    )


def target_of(spec: TaskSpec) -> Snapshot:
    """The stores as they should be at the end: as found, except the damaged record as it should be."""
    found = snapshot_of(spec.world)
    if spec.incident is None:
        return found
    fix = spec.incident.should_be
    return Snapshot(
        contacts={**found.contacts, **fix.contacts},
        files={**found.files, **fix.files},
        messages={**found.messages, **fix.messages},
    )


def file_state(latest: FileVersion) -> FileState:
    return FileState(deleted=latest.content is None, content=latest.content)


def message_state(message: Message, last_op: MessageOp) -> MessageState:
    return MessageState(
        subject=message.subject,
        to=message.to,
        body=message.body,
        status="recalled" if last_op == "recall" else "sent",
    )


def line_changes(before: Optional[str], after: Optional[str]) -> list[str]:
    """Removed lines as "-text" and added lines as "+text", in file order (None reads as empty)."""
    return list(_line_changes(before, after))


@functools.lru_cache(maxsize=4096)
def _line_changes(before: Optional[str], after: Optional[str]) -> tuple[str, ...]:
    # a world's versions are diffed again on every replay that reads them; difflib is slow
    old = before.splitlines() if before is not None else []
    new = after.splitlines() if after is not None else []
    return tuple(
        ("-" if line.startswith("- ") else "+") + line[2:]
        for line in difflib.ndiff(old, new)
        if line.startswith(("- ", "+ "))
    )
