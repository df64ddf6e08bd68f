"""The CRM store: contacts with every revision, a `RecordStore` over the typed `ContactRecord`."""

from __future__ import annotations

import attrs

from .._world import Contact, ContactRecord, RecordRevision
from .records import RecordKind, RecordStore
from .session import SessionClock

CONTACTS = RecordKind(
    store="contacts",
    noun="contact",
    plural="contacts",
    list_tool="list_contacts",
    fields=("name", "email", "phone", "company"),
    live="active",
    removed="deleted",
    audit_order=0,
)


class ContactStore(RecordStore):
    """Contacts by id; `current` gives them back as the typed records the task files hold."""

    def __init__(self, contacts: list[Contact], clock: SessionClock) -> None:
        records = {
            c.id: [
                RecordRevision(r.revision, r.at, r.actor, r.op, record_json(r.record), r.ticket) for r in c.revisions
            ]
            for c in contacts
        }
        super().__init__(CONTACTS, records, clock)

    def contact_records(self) -> dict[str, ContactRecord]:
        return {cid: ContactRecord(**fields) for cid, fields in self.current().items()}  # type: ignore[arg-type]


def record_json(record: ContactRecord) -> dict[str, str]:
    return attrs.asdict(record)
