"""The stores of one task's world together: what the tools act on and what the grader reads."""

from __future__ import annotations

from typing import Optional, Union

from benchmark_core import JsonObject, ToolRefusal
from benchmark_core.episodes import NOT_FOUND

from .._world import ALL_STORES, Snapshot, Store, World
from .calendar import CALENDAR
from .contacts import ContactStore
from .files import FileStore
from .messages import MessageStore
from .records import RecordStore
from .session import AuditRow, SessionClock
from .tracker import TRACKER


class Stores:
    """The CRM, the file store, the mailing lists, the calendar and the tracker as the agent finds
    them, sharing one clock. A public-split world has no events, issues or job report."""

    def __init__(self, world: World) -> None:
        clock = SessionClock(world.clock)
        self.contacts = ContactStore(world.contacts, clock)
        self.files = FileStore(world.files, clock)
        self.messages = MessageStore(world.messages, clock)
        self.calendar = RecordStore(CALENDAR, {r.id: list(r.revisions) for r in world.calendar}, clock)
        self.tracker = RecordStore(TRACKER, {r.id: list(r.revisions) for r in world.tracker}, clock)
        self._run_log = world.run_log
        self._ids_hint = "a contact id, a file path or a message id" + (
            ", an event id or an issue id" if world.full() else ""
        )
        self._reports = 0

    def snapshot(self) -> Snapshot:
        return Snapshot(
            contacts=self.contacts.contact_records(),
            files=self.files.current(),
            messages=self.messages.current(),
            calendar=self.calendar.current(),
            tracker=self.tracker.current(),
        )

    def records(self, store: Store) -> RecordStore:
        """The revisioned store `store` names (contacts, calendar or tracker)."""
        return {"contacts": self.contacts, "calendar": self.calendar, "tracker": self.tracker}[store]

    def audit_log(self, store: Optional[str]) -> JsonObject:
        """Every write to `store` (every store when None), oldest first."""
        rows: list[AuditRow] = []
        parts: tuple[Union[RecordStore, FileStore, MessageStore], ...] = (
            self.contacts,
            self.files,
            self.messages,
            self.calendar,
            self.tracker,
        )
        for name, part in zip(ALL_STORES, parts):
            if store in (None, name):
                rows += part.audit_rows()
        rows.sort(key=lambda row: row[0])
        return {"entries": [entry for _, entry in rows]}

    def run_log(self) -> JsonObject:
        """The batch run's own job report, in the order it worked."""
        return {
            "entries": [
                {"at": e.at, "ticket": e.ticket, "store": e.store, "object": e.object_id, "result": e.result}
                for e in self._run_log
            ]
        }

    def __contains__(self, object_id: object) -> bool:
        return any(
            object_id in part for part in (self.contacts, self.files, self.messages, self.calendar, self.tracker)
        )

    def report_incident(self, object_id: str) -> JsonObject:
        if object_id not in self:
            raise ToolRefusal(NOT_FOUND, f"no record {object_id!r}: give {self._ids_hint}")
        self._reports += 1
        return {"incident": f"INC-{self._reports}", "recorded": True, "objectId": object_id}
