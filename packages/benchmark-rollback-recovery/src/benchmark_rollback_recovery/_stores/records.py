"""A store of records that keep every revision: the CRM's contacts, the calendar's events and the
tracker's issues are all this, with their own names, fields and statuses (`RecordKind`).

A record is a map of its fields plus `status`; every write appends a whole new revision, so any
earlier revision can be put back exactly (`revert`), and a removed record (a deleted contact, a
cancelled event, a closed issue) comes back with the fields it had (`restore`).
"""

from __future__ import annotations

import weakref
from typing import Optional

from attrs import frozen
from benchmark_core import JsonObject, ToolRefusal
from benchmark_core.episodes import CONFLICT, NOT_FOUND

from .._world import RecordOp, RecordRevision, Store
from .session import SESSION_ACTOR, AuditRow, SessionClock, audit_entry, quote, who

Fields = dict[str, str]
#: Audit rows by the identity of their revision (see `RecordStore._audit_entry`).
_ROWS: dict[int, tuple[weakref.ref[RecordRevision], JsonObject]] = {}


@frozen
class RecordKind:
    """What one revisioned store calls its things: `noun` ("event"), its tools' `list_tool`, the
    `fields` the update tool may set, and the `live` and `removed` statuses."""

    store: Store
    noun: str
    plural: str
    list_tool: str
    fields: tuple[str, ...]
    live: str
    removed: str
    #: where the store's rows sort among the audit trail's rows written at the same minute
    audit_order: int


class RecordStore:
    """Records by id, each the list of its revisions (the last one is current)."""

    def __init__(self, kind: RecordKind, records: dict[str, list[RecordRevision]], clock: SessionClock) -> None:
        self.kind = kind
        self._records = records
        self._clock = clock

    def current(self) -> dict[str, Fields]:
        return {rid: revisions[-1].record for rid, revisions in self._records.items()}

    def __contains__(self, rid: object) -> bool:
        return rid in self._records

    def audit_rows(self) -> list[AuditRow]:
        rows: list[AuditRow] = []
        for rid, revisions in self._records.items():
            for i, rev in enumerate(revisions):
                entry = self._audit_entry(rid, rev, revisions[i - 1].record if i else None)
                rows.append(((rev.at, self.kind.audit_order, rid, i), entry))
        return rows

    def _audit_entry(self, rid: str, rev: RecordRevision, previous: Optional[Fields]) -> JsonObject:
        # A world's revisions are the same objects in every replay of its task, each always after the
        # same one, and the audit log is read in nearly every episode: each row is rendered once.
        cached = _ROWS.get(id(rev))
        if cached is not None and cached[0]() is rev:
            return dict(cached[1])
        change = "; ".join(
            f"{field}: {quote(old)} -> {quote(new)}" for field, (old, new) in _changes(previous, rev.record).items()
        )
        entry = audit_entry(rev.at, rev.actor, self.kind.store, rid, rev.op, rev.ticket, change)
        key, rows = id(rev), _ROWS  # the dict itself: the callback may run as the interpreter shuts down
        rows[key] = (weakref.ref(rev, lambda _: rows.pop(key, None)), entry)
        return dict(entry)

    def _revisions(self, rid: str) -> list[RecordRevision]:
        revisions = self._records.get(rid)
        if revisions is None:
            raise ToolRefusal(NOT_FOUND, f"no {self.kind.noun} {rid!r}; {self.kind.list_tool} shows every id")
        return revisions

    # -- reads ------------------------------------------------------------------------------------

    def list(self) -> JsonObject:
        first = self.kind.fields[0]
        return {
            self.kind.plural: [
                {"id": rid, first: r[-1].record[first], "status": r[-1].record["status"], "revision": r[-1].revision}
                for rid, r in sorted(self._records.items())
            ]
        }

    def get(self, rid: str) -> JsonObject:
        revisions = self._revisions(rid)
        latest = revisions[-1]
        previous = revisions[-2].record if len(revisions) > 1 else None
        return {
            "id": rid,
            **latest.record,
            "revision": latest.revision,
            "lastChange": _revision_json(latest, previous, with_record=False),
        }

    def history(self, rid: str) -> JsonObject:
        revisions = self._revisions(rid)
        return {
            "id": rid,
            "revisions": [
                _revision_json(rev, revisions[i - 1].record if i else None, with_record=True)
                for i, rev in enumerate(revisions)
            ],
        }

    # -- writes -----------------------------------------------------------------------------------

    def _write(self, rid: str, op: RecordOp, record: Fields) -> JsonObject:
        revisions = self._revisions(rid)
        revision = RecordRevision(
            revision=revisions[-1].revision + 1, at=self._clock.stamp(), actor=SESSION_ACTOR, op=op, record=record
        )
        revisions.append(revision)
        return {"id": rid, "revision": revision.revision, **record}

    def update(self, rid: str, fields: Fields) -> JsonObject:
        noun, current = self.kind.noun, self._revisions(rid)[-1].record
        if current["status"] == self.kind.removed:
            raise ToolRefusal(CONFLICT, f"{noun} {rid} is {self.kind.removed}; restore it before updating it")
        record = {**current, **fields, "status": self.kind.live}
        if record == current:
            raise ToolRefusal(CONFLICT, f"{noun} {rid} already has those values; nothing was written")
        return self._write(rid, "update", record)

    def revert(self, rid: str, number: int) -> JsonObject:
        revisions = self._revisions(rid)
        if number > revisions[-1].revision:
            raise ToolRefusal(
                NOT_FOUND, f"{self.kind.noun} {rid} has revisions 1 to {revisions[-1].revision}, not {number}"
            )
        record = revisions[number - 1].record
        if record == revisions[-1].record:
            raise ToolRefusal(
                CONFLICT, f"{self.kind.noun} {rid} already matches revision {number}; nothing was written"
            )
        return self._write(rid, "revert", record)

    def restore(self, rid: str) -> JsonObject:
        current = self._revisions(rid)[-1].record
        if current["status"] != self.kind.removed:
            raise ToolRefusal(CONFLICT, f"{self.kind.noun} {rid} is not {self.kind.removed}")
        return self._write(rid, "restore", {**current, "status": self.kind.live})


def _changes(previous: Optional[Fields], record: Fields) -> dict[str, tuple[Optional[str], str]]:
    before = previous or {}
    return {field: (before.get(field), value) for field, value in record.items() if before.get(field) != value}


def _revision_json(rev: RecordRevision, previous: Optional[Fields], *, with_record: bool) -> JsonObject:
    out: JsonObject = {"revision": rev.revision, **who(rev)}
    if with_record:
        out["record"] = dict(rev.record)
    out["changes"] = {field: {"from": old, "to": new} for field, (old, new) in _changes(previous, rev.record).items()}
    return out
