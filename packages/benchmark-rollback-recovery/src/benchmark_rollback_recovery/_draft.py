"""A world being drafted by the generator: its histories, the values drawn for it, and its incident.

`Draft` holds what grows while a task is written (revisions, versions, messages, tickets) and the
seeded draws every part of the generator makes through it; `seeding.py` writes the world as it was
before the batch run, `tickets.py` the run's tickets with the incident injected, `prompts.py` the
user's prompt, and `generator.py` puts them together in a fixed order, so that a seed gives the same
tasks byte for byte.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Optional, Union

import attrs
from attrs import define, frozen
from benchmark_core import Mulberry32, ToolCall

from ._corpus import COMPANIES, LIST_AUDIENCES, Announcement
from ._world import (
    TIME_FORMAT,
    Action,
    AlsoDamaged,
    ContactOp,
    ContactRecord,
    ContactRevision,
    FileOp,
    FileState,
    FileVersion,
    Incident,
    IncidentKind,
    MessageEvent,
    MessageState,
    PromptForm,
    RecordOp,
    RecordRevision,
    RunLogEntry,
    Snapshot,
    Store,
    WhatHappened,
)

ORGANISATION = "Brightline"

SESSION_CLOCK = "2026-10-15T11:00:00Z"
JOB_START = datetime(2026, 10, 15, 9, 0, tzinfo=timezone.utc)
HISTORY_START = datetime(2026, 8, 1, 8, 0, tzinfo=timezone.utc)


@frozen
class Slot:
    """What one task is: an incident of `kind` in `store`, or a clean control (`kind` None)."""

    store: Store
    kind: Optional[Union[WhatHappened, IncidentKind]]
    form: PromptForm
    #: the full split draws every slot twice; `copy` tells the two apart
    copy: int = 0


@define
class Draft:
    """One world being written: histories grow in order, then freeze into a `TaskSpec`."""

    rng: Mulberry32
    slot: Slot
    organisation: str = ORGANISATION
    #: the organisation's mail domain, `<domain>.example`
    domain: str = "brightline"
    run: str = ""
    ticket_base: int = 0
    message_base: int = 0
    contacts: dict[str, list[ContactRevision]] = attrs.Factory(dict)
    files: dict[str, list[FileVersion]] = attrs.Factory(dict)
    messages: dict[str, tuple[Announcement, str, str, list[MessageEvent]]] = attrs.Factory(dict)
    phones: set[str] = attrs.Factory(set)
    #: per config file, the setting the run's ticket changes and the value it asks for
    ticket_keys: dict[str, str] = attrs.Factory(dict)
    ticket_values: dict[str, str] = attrs.Factory(dict)
    job_clock: datetime = JOB_START
    tickets_issued: int = 0
    messages_sent: int = 0
    incident: Optional[Incident] = None
    # the full split's calendar, tracker and job report, and its messages that went outside
    calendar: dict[str, list[RecordRevision]] = attrs.Factory(dict)
    tracker: dict[str, list[RecordRevision]] = attrs.Factory(dict)
    run_log: list[RunLogEntry] = attrs.Factory(list)
    external: set[str] = attrs.Factory(set)
    #: the content of a file deleted for good, as it was (what a prompt about it may quote)
    purged: dict[str, str] = attrs.Factory(dict)
    last_ticket: str = ""
    last_time: str = ""

    @property
    def lists(self) -> dict[str, str]:
        """The organisation's mailing lists, by audience."""
        return {audience: f"{audience}@lists.{self.domain}.example" for audience in LIST_AUDIENCES}

    def draw_numbers(self) -> None:
        """The run's id and where its tickets' and messages' numbers start: every world's first draws."""
        self.run = f"R-{1000 + self.rng.randint(9000)}"
        self.ticket_base = 3000 + self.rng.randint(6000)
        self.message_base = 100 + self.rng.randint(800)

    def past(self, earliest: datetime, span_days: int) -> datetime:
        return earliest + timedelta(days=self.rng.randint(span_days), minutes=self.rng.randint(9 * 60))

    def phone(self) -> str:
        """A fresh number whose last two digits differ, so swapping them is always a different number."""
        while True:
            a, b = self.rng.randint(10), self.rng.randint(10)
            number = f"+1-555-0{1 + self.rng.randint(9)}{a}{b}"
            if a != b and number not in self.phones:
                self.phones.add(number)
                return number

    def job_time(self) -> str:
        self.job_clock += timedelta(minutes=2 + self.rng.randint(3))
        self.last_time = stamp(self.job_clock)
        return self.last_time

    def ticket(self, text: str) -> str:
        self.tickets_issued += 1
        self.last_ticket = f"T-{self.ticket_base + self.tickets_issued}: {text}"
        return self.last_ticket

    def write_record(
        self,
        store: Store,
        rid: str,
        at: str,
        actor: str,
        op: RecordOp,
        record: dict[str, str],
        ticket: Optional[str] = None,
    ) -> None:
        revisions = (self.calendar if store == "calendar" else self.tracker).setdefault(rid, [])
        revisions.append(
            RecordRevision(revision=len(revisions) + 1, at=at, actor=actor, op=op, record=record, ticket=ticket)
        )

    def record(self, store: Store, rid: str) -> dict[str, str]:
        return (self.calendar if store == "calendar" else self.tracker)[rid][-1].record

    def actor(self) -> str:
        return f"ops-agent (you), batch run {self.run}"

    def write_contact(
        self, cid: str, at: str, actor: str, op: ContactOp, record: ContactRecord, ticket: Optional[str] = None
    ) -> None:
        revisions = self.contacts.setdefault(cid, [])
        revisions.append(
            ContactRevision(revision=len(revisions) + 1, at=at, actor=actor, op=op, record=record, ticket=ticket)
        )

    def write_file(
        self, path: str, at: str, actor: str, op: FileOp, content: Optional[str], ticket: Optional[str] = None
    ) -> None:
        versions = self.files.setdefault(path, [])
        versions.append(
            FileVersion(version=len(versions) + 1, at=at, actor=actor, op=op, content=content, ticket=ticket)
        )

    def send(self, announcement: Announcement, to: str, value: str, at: str, actor: str, ticket: Optional[str]) -> str:
        mid = f"m-{self.message_base + self.messages_sent}"
        self.messages_sent += 1
        body = f"Hello,\n\n{announcement.sentence(value)}.\n\n{self.organisation} Operations\n"
        self.messages[mid] = (announcement, to, body, [MessageEvent(at=at, actor=actor, op="send", ticket=ticket)])
        return mid

    def contact(self, cid: str) -> ContactRecord:
        return self.contacts[cid][-1].record

    def content(self, path: str) -> str:
        content = self.files[path][-1].content
        assert content is not None
        return content

    def other_company(self, *not_these: str) -> str:
        return self.rng.choice([name for name, _ in COMPANIES if name not in not_these])

    def record_incident(
        self,
        object_id: str,
        *,
        what: WhatHappened,
        ticket: str,
        description: str,
        repair: Optional[ToolCall],
        action: Action,
        should_be: Union[ContactRecord, FileState, MessageState, dict[str, str]],
        duplicate_of: Optional[str] = None,
        store: Optional[Store] = None,
    ) -> None:
        """The task's incident; a second damaged record (a `partial` incident) joins the first."""
        if isinstance(should_be, ContactRecord):
            store = "contacts"
            fix = Snapshot(contacts={object_id: should_be}, files={}, messages={})
        elif isinstance(should_be, FileState):
            store = "files"
            fix = Snapshot(contacts={}, files={object_id: should_be}, messages={})
        elif isinstance(should_be, MessageState):
            store = "messages"
            fix = Snapshot(contacts={}, files={}, messages={object_id: should_be})
        else:
            assert store in ("calendar", "tracker")
            fix = Snapshot(contacts={}, files={}, messages={}, **{store: {object_id: should_be}})
        if self.incident is not None:
            assert repair is not None and self.incident.store == store
            joined: dict[str, Any] = {**self.incident.should_be.of(store), **fix.of(store)}
            self.incident = attrs.evolve(
                self.incident,
                description=f"{self.incident.description} {description}",
                should_be=attrs.evolve(self.incident.should_be, **{store: joined}),
                also_damaged=[*self.incident.also_damaged, AlsoDamaged(object_id, repair)],
            )
            return
        self.incident = Incident(
            store=store,
            object_id=object_id,
            what_happened=what,
            ticket=ticket,
            description=description,
            should_be=fix,
            reference_repair=repair,
            reference_action=action,
            duplicate_of=duplicate_of,
        )


def stamp(at: datetime) -> str:
    return at.strftime(TIME_FORMAT)


def with_field(record: ContactRecord, field: str, value: str) -> ContactRecord:
    if field == "phone":
        return attrs.evolve(record, phone=value)
    if field == "email":
        return attrs.evolve(record, email=value)
    return attrs.evolve(record, company=value)


def config_text(values: dict[str, str]) -> str:
    return "".join(f"{key}: {value}\n" for key, value in values.items())


def config_lines(text: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in text.splitlines())


def lines_text(lines: tuple[str, ...] | list[str]) -> str:
    return "\n".join(lines) + "\n"


def bumped(value: str, rng: Mulberry32) -> str:
    """A different plausible setting: the old value plus 1 to max(2, old)."""
    old = int(value)
    return str(old + 1 + rng.randint(max(2, old)))
