"""The CRM store: contacts with every revision, a `RecordStore` over the typed `ContactRecord`."""

from __future__ import annotations

import weakref

import attrs
from benchmark_core import JsonObject

from .._world import Contact, ContactRecord, RecordOp, RecordRevision
from .records import Fields, RecordKind, RecordStore
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
    """Contacts by id; `contact_records` gives them back as the typed records the task files hold."""

    def __init__(self, contacts: list[Contact], clock: SessionClock) -> None:
        super().__init__(CONTACTS, {c.id: list(_revisions(c)) for c in contacts}, clock)
        self._typed = {c.id: c.revisions[-1].record for c in contacts}

    def contact_records(self) -> dict[str, ContactRecord]:
        return dict(self._typed)

    def _write(self, rid: str, op: RecordOp, record: Fields) -> JsonObject:
        written = super()._write(rid, op, record)
        self._typed[rid] = ContactRecord(**record)  # type: ignore[arg-type]
        return written


def record_json(record: ContactRecord) -> dict[str, str]:
    return attrs.asdict(record)


#: Each world's contacts as field maps, by the identity of the (frozen) contact: a replay builds the
#: stores for every episode, and converting every revision is most of what that costs.
_CONVERTED: dict[int, tuple[weakref.ref[Contact], tuple[RecordRevision, ...]]] = {}


def _revisions(contact: Contact) -> tuple[RecordRevision, ...]:
    cached = _CONVERTED.get(id(contact))
    if cached is not None and cached[0]() is contact:
        return cached[1]
    converted = tuple(
        RecordRevision(r.revision, r.at, r.actor, r.op, record_json(r.record), r.ticket) for r in contact.revisions
    )
    key, cache = id(contact), _CONVERTED  # the dict itself: the callback may run at interpreter shutdown
    cache[key] = (weakref.ref(contact, lambda _: cache.pop(key, None)), converted)
    return converted
