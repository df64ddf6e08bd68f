"""The three stores of one task's world together: what the tools act on and what the grader reads."""

from __future__ import annotations

from typing import Optional

from benchmark_core import NOT_FOUND, JsonObject, ToolRefusal

from ._contacts import ContactStore
from ._files import FileStore
from ._messages import MessageStore
from ._session import AuditRow, SessionClock
from ._world import Snapshot, World


class Stores:
    """The CRM, the file store and the mailing lists as the agent finds them, sharing one clock."""

    def __init__(self, world: World) -> None:
        clock = SessionClock(world.clock)
        self.contacts = ContactStore(world.contacts, clock)
        self.files = FileStore(world.files, clock)
        self.messages = MessageStore(world.messages, clock)
        self._reports = 0

    def snapshot(self) -> Snapshot:
        return Snapshot(contacts=self.contacts.current(), files=self.files.current(), messages=self.messages.current())

    def audit_log(self, store: Optional[str]) -> JsonObject:
        """Every write to `store` (all three when None), oldest first."""
        rows: list[AuditRow] = []
        if store in (None, "contacts"):
            rows += self.contacts.audit_rows()
        if store in (None, "files"):
            rows += self.files.audit_rows()
        if store in (None, "messages"):
            rows += self.messages.audit_rows()
        rows.sort(key=lambda row: row[0])
        return {"entries": [entry for _, entry in rows]}

    def report_incident(self, object_id: str) -> JsonObject:
        if object_id not in self.contacts and object_id not in self.files and object_id not in self.messages:
            raise ToolRefusal(NOT_FOUND, f"no record {object_id!r}: give a contact id, a file path or a message id")
        self._reports += 1
        return {"incident": f"INC-{self._reports}", "recorded": True, "objectId": object_id}
