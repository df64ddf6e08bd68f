"""The CRM store: contacts with every revision, and the tools' reads and writes on them."""

from __future__ import annotations

from typing import Optional

import attrs
from benchmark_core import CONFLICT, NOT_FOUND, JsonObject, ToolRefusal

from ._session import SESSION_ACTOR, AuditRow, SessionClock, audit_entry, quote, who
from ._world import CONTACT_FIELDS, Contact, ContactOp, ContactRecord, ContactRevision


class ContactStore:
    """Contacts by id, each the list of its revisions (the last one is current)."""

    def __init__(self, contacts: list[Contact], clock: SessionClock) -> None:
        self._contacts = {c.id: list(c.revisions) for c in contacts}
        self._clock = clock

    def current(self) -> dict[str, ContactRecord]:
        return {cid: revisions[-1].record for cid, revisions in self._contacts.items()}

    def __contains__(self, cid: object) -> bool:
        return cid in self._contacts

    def audit_rows(self) -> list[AuditRow]:
        rows: list[AuditRow] = []
        for cid, revisions in self._contacts.items():
            for i, rev in enumerate(revisions):
                previous = revisions[i - 1].record if i else None
                change = "; ".join(
                    f"{field}: {quote(old)} -> {quote(new)}"
                    for field, (old, new) in _changes(previous, rev.record).items()
                )
                rows.append(
                    ((rev.at, 0, cid, i), audit_entry(rev.at, rev.actor, "contacts", cid, rev.op, rev.ticket, change))
                )
        return rows

    def _revisions(self, cid: str) -> list[ContactRevision]:
        revisions = self._contacts.get(cid)
        if revisions is None:
            raise ToolRefusal(NOT_FOUND, f"no contact {cid!r}; list_contacts shows every id")
        return revisions

    # -- reads ------------------------------------------------------------------------------------

    def list(self) -> JsonObject:
        return {
            "contacts": [
                {"id": cid, "name": r[-1].record.name, "status": r[-1].record.status, "revision": r[-1].revision}
                for cid, r in sorted(self._contacts.items())
            ]
        }

    def get(self, cid: str) -> JsonObject:
        revisions = self._revisions(cid)
        latest = revisions[-1]
        previous = revisions[-2].record if len(revisions) > 1 else None
        return {
            "id": cid,
            **record_json(latest.record),
            "revision": latest.revision,
            "lastChange": _revision_json(latest, previous, with_record=False),
        }

    def history(self, cid: str) -> JsonObject:
        revisions = self._revisions(cid)
        return {
            "id": cid,
            "revisions": [
                _revision_json(rev, revisions[i - 1].record if i else None, with_record=True)
                for i, rev in enumerate(revisions)
            ],
        }

    # -- writes -----------------------------------------------------------------------------------

    def _write(self, cid: str, op: ContactOp, record: ContactRecord) -> JsonObject:
        revisions = self._revisions(cid)
        revision = ContactRevision(
            revision=revisions[-1].revision + 1, at=self._clock.stamp(), actor=SESSION_ACTOR, op=op, record=record
        )
        revisions.append(revision)
        return {"id": cid, "revision": revision.revision, **record_json(record)}

    def update(self, cid: str, fields: dict[str, str]) -> JsonObject:
        current = self._revisions(cid)[-1].record
        if current.status == "deleted":
            raise ToolRefusal(CONFLICT, f"contact {cid} is deleted; restore it before updating it")
        values = {f: getattr(current, f) for f in CONTACT_FIELDS}
        values.update(fields)
        record = ContactRecord(**values, status="active")
        if record == current:
            raise ToolRefusal(CONFLICT, f"contact {cid} already has those values; nothing was written")
        return self._write(cid, "update", record)

    def revert(self, cid: str, number: int) -> JsonObject:
        revisions = self._revisions(cid)
        if number > revisions[-1].revision:
            raise ToolRefusal(NOT_FOUND, f"contact {cid} has revisions 1 to {revisions[-1].revision}, not {number}")
        record = revisions[number - 1].record
        if record == revisions[-1].record:
            raise ToolRefusal(CONFLICT, f"contact {cid} already matches revision {number}; nothing was written")
        return self._write(cid, "revert", record)

    def restore(self, cid: str) -> JsonObject:
        current = self._revisions(cid)[-1].record
        if current.status != "deleted":
            raise ToolRefusal(CONFLICT, f"contact {cid} is not deleted")
        return self._write(cid, "restore", attrs.evolve(current, status="active"))


def record_json(record: ContactRecord) -> JsonObject:
    return {
        "name": record.name,
        "email": record.email,
        "phone": record.phone,
        "company": record.company,
        "status": record.status,
    }


def _changes(previous: Optional[ContactRecord], record: ContactRecord) -> dict[str, tuple[Optional[str], str]]:
    before = record_json(previous) if previous is not None else {}
    after = record_json(record)
    return {field: (before.get(field), value) for field, value in after.items() if before.get(field) != value}


def _revision_json(rev: ContactRevision, previous: Optional[ContactRecord], *, with_record: bool) -> JsonObject:
    out: JsonObject = {"revision": rev.revision, **who(rev)}
    if with_record:
        out["record"] = record_json(rev.record)
    out["changes"] = {field: {"from": old, "to": new} for field, (old, new) in _changes(previous, rev.record).items()}
    return out
