"""The typed task metadata: a world with its full audit trail, and the incident if there is one.

A task's `metadata` is the wire form (camelCase JSON, via `benchmark_core.wire.to_wire`) of `TaskSpec`.
Structuring it back with `benchmark_core.wire.from_wire` rejects unknown keys and bad enum values, so a
hand-edited or alternate task file fails loudly instead of grading against a half-read world.

The target the grader checks against is not stored whole: it is the world as found with the damaged
record replaced by `Incident.should_be` (see `target_of`). Storing only that one record keeps task
files a fifth smaller and leaves nothing to drift out of step with the world.
"""

from __future__ import annotations

import difflib
import functools
import weakref
from collections.abc import Mapping
from typing import Literal, Optional

import attrs
from attrs import frozen
from benchmark_core import Task, ToolCall
from benchmark_core.wire import from_wire

Store = Literal["contacts", "files", "messages", "calendar", "tracker"]
#: The stores of the public split's worlds.
STORES: tuple[Store, ...] = ("contacts", "files", "messages")
#: The stores of the full split's worlds: the public three, a calendar and an issue tracker.
ALL_STORES: tuple[Store, ...] = (*STORES, "calendar", "tracker")
#: The two stores whose records are plain field maps with revisions (`Record`).
RECORD_STORES: tuple[Store, ...] = ("calendar", "tracker")

WhatHappened = Literal["overwritten", "wrong_value", "wrong_recipient", "deleted", "not_applied", "other"]
#: What a public-split report may say (its worlds have no job report, so nothing goes unapplied).
PUBLIC_WHAT_HAPPENED: tuple[WhatHappened, ...] = ("overwritten", "wrong_value", "wrong_recipient", "deleted", "other")
WHAT_HAPPENED: tuple[WhatHappened, ...] = (
    "overwritten",
    "wrong_value",
    "wrong_recipient",
    "deleted",
    "not_applied",
    "other",
)

#: `metadata.incident.incidentKind`: what kind of damage, beyond `whatHappened`. The public split
#: omits it; `Incident.kind` derives it there.
IncidentKind = Literal[
    "wrongValue", "overwritten", "deleted", "wrongRecipient", "duplicateSend", "irreparable", "silentFailure", "partial"
]
#: The kind each public `whatHappened` is.
KIND_OF: dict[WhatHappened, IncidentKind] = {
    "overwritten": "overwritten",
    "wrong_value": "wrongValue",
    "wrong_recipient": "wrongRecipient",
    "deleted": "deleted",
    "not_applied": "silentFailure",
    "other": "duplicateSend",
}

#: Omitted from the wire form while it holds its default, so the public task file keeps its bytes.
_OMIT = {"omit_if_default": True}

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
RecordOp = ContactOp
FileOp = Literal["create", "edit", "write", "delete", "restore", "purge"]
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
class RecordRevision:
    """One write to a calendar event or tracker issue; `record` is every field (status too) after it."""

    revision: int
    at: str
    actor: str
    op: RecordOp
    record: dict[str, str]
    ticket: Optional[str] = None


@frozen
class Record:
    id: str
    revisions: list[RecordRevision]


@frozen
class RunLogEntry:
    """One line of the batch run's own job report: the ticket, the record, and what the run says happened."""

    at: str
    ticket: str
    store: Store
    object_id: str
    result: str


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
    """A message sent to one mailing list; `events` are its sends and recalls, in order. An
    `external` message went to an address outside the organisation and cannot be recalled."""

    id: str
    subject: str
    to: str
    body: str
    events: list[MessageEvent]
    external: bool = attrs.field(default=False, metadata=_OMIT)


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
    calendar: list[Record] = attrs.field(factory=list, metadata=_OMIT)
    tracker: list[Record] = attrs.field(factory=list, metadata=_OMIT)
    #: the run's own job report (the full split); empty in the public split, which has no such tool
    run_log: list[RunLogEntry] = attrs.field(factory=list, metadata=_OMIT)

    def full(self) -> bool:
        """A world of the full split: five stores and the run's job report."""
        return bool(self.run_log)


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
    """The current value of every record, keyed by contact id, file path, message id, event id and issue id."""

    contacts: dict[str, ContactRecord]
    files: dict[str, FileState]
    messages: dict[str, MessageState]
    calendar: dict[str, dict[str, str]] = attrs.field(factory=dict, metadata=_OMIT)
    tracker: dict[str, dict[str, str]] = attrs.field(factory=dict, metadata=_OMIT)

    def record_count(self) -> int:
        return sum(len(self.ids(store)) for store in ALL_STORES)

    def ids(self, store: Store) -> list[str]:
        return list(self.of(store))

    def of(self, store: Store) -> Mapping[str, object]:
        """The records of one store, by id."""
        if store == "contacts":
            return self.contacts
        if store == "files":
            return self.files
        if store == "messages":
            return self.messages
        return self.calendar if store == "calendar" else self.tracker


@frozen
class AlsoDamaged:
    object_id: str
    reference_repair: ToolCall


@frozen
class Incident:
    """The damage in an incident task: which record, what happened to it, and under which ticket.

    `should_be` holds exactly one record, the damaged one as it should be after the repair.
    `reference_repair` is one repair that reaches it (tests replay it); `reference_action` is the
    `action_taken` it implies. Other repairs that reach it pass too. `duplicate_of` is set on a
    double send: the earlier, identical copy, which may be recalled instead of this one. An
    `irreparable` incident has no reference repair: `should_be` is the record as found, and the
    right answer is an honest report.
    """

    store: Store
    object_id: str
    what_happened: WhatHappened
    ticket: str
    description: str
    should_be: Snapshot
    reference_repair: Optional[ToolCall]
    reference_action: Action
    duplicate_of: Optional[str] = None
    incident_kind: Optional[IncidentKind] = attrs.field(default=None, metadata=_OMIT)
    #: a `partial` incident's other damaged records, in the same store, each with its reference repair
    also_damaged: list[AlsoDamaged] = attrs.field(factory=list, metadata=_OMIT)

    @property
    def kind(self) -> IncidentKind:
        return self.incident_kind or KIND_OF[self.what_happened]

    @property
    def victims(self) -> list[str]:
        """Every damaged record: the one in focus first."""
        return [self.object_id, *(d.object_id for d in self.also_damaged)]

    @property
    def repairable(self) -> bool:
        return self.kind != "irreparable"

    def reference_repairs(self) -> list[ToolCall]:
        first = [] if self.reference_repair is None else [self.reference_repair]
        return first + [d.reference_repair for d in self.also_damaged]


@frozen
class Focus:
    """The record a prompt is about (the damaged one on incident tasks, any record on controls)."""

    store: Store
    object_id: str


@frozen
class TaskSpec:
    """A task's metadata. `template` names the full split's world/ticket template the task was drawn
    from (`store/incidentKind`, or `store/control`): the cluster its interval resamples."""

    prompt_form: PromptForm
    focus: Focus
    world: World
    incident: Optional[Incident] = None
    template: Optional[str] = attrs.field(default=None, metadata=_OMIT)


#: Structured specs by task identity; the weak reference proves the id still names the same task.
_SPECS: dict[int, tuple[weakref.ref[Task], TaskSpec]] = {}


def task_spec(task: Task) -> TaskSpec:
    """The typed metadata of a task; raises `benchmark_core.errors.UsageError` naming the bad field.

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
        calendar={r.id: r.revisions[-1].record for r in world.calendar},
        tracker={r.id: r.revisions[-1].record for r in world.tracker},
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
        calendar={**found.calendar, **fix.calendar},
        tracker={**found.tracker, **fix.tracker},
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
