"""How a replayed record differs from its target, store by store (the grader's reasons quote these)."""

from __future__ import annotations

from typing import Optional

import attrs

from ._world import ALL_STORES, ContactRecord, FileState, MessageState, Snapshot, Store, line_changes

_LABEL: dict[Store, str] = {
    "contacts": "contact",
    "files": "file",
    "messages": "message",
    "calendar": "event",
    "tracker": "issue",
}


def label(store: Store, object_id: str) -> str:
    """How a reason names a record: "contact c-1042", "event ev-311"."""
    return f"{_LABEL[store]} {object_id}"


@attrs.frozen
class RecordDiff:
    """A record whose replayed value differs from the target."""

    store: Store
    object_id: str
    how: str

    @property
    def label(self) -> str:
        return label(self.store, self.object_id)


def record_diffs(final: Snapshot, target: Snapshot) -> list[RecordDiff]:
    """Every record whose final value differs from the target, store by store in `ALL_STORES` order."""
    diffs: list[RecordDiff] = []
    for store in ALL_STORES:
        found, wanted = final.of(store), target.of(store)
        if found == wanted:
            continue
        for object_id in sorted(set(found) | set(wanted)):
            have, want = found.get(object_id), wanted.get(object_id)
            if have != want:
                diffs.append(RecordDiff(store, object_id, _diff(store, have, want)))
    return diffs


def _diff(store: Store, final: object, target: object) -> str:
    """How `final` differs from `target` (they do differ)."""
    if final is None:
        return "is missing"
    if target is None:
        return "should not exist"
    if store == "files":
        assert isinstance(final, FileState) and isinstance(target, FileState)
        return _file_diff(final, target)
    if store == "messages":
        assert isinstance(final, MessageState) and isinstance(target, MessageState)
        return f"is {final.status}, should be {target.status}" if final.status != target.status else "differs"
    if store == "contacts":
        assert isinstance(final, ContactRecord) and isinstance(target, ContactRecord)
        fields = ("status", "name", "email", "phone", "company")
        pairs = [(f, getattr(final, f), getattr(target, f)) for f in fields]
    else:
        assert isinstance(final, dict) and isinstance(target, dict)
        pairs = [(f, final.get(f), target.get(f)) for f in ("status", *(k for k in target if k != "status"))]
    return "; ".join(f"{f} {have!r}, should be {want!r}" for f, have, want in pairs if have != want)


def _file_diff(final: FileState, target: FileState) -> str:
    if final.deleted != target.deleted:
        return "is deleted, should exist" if final.deleted else "exists, should be deleted"
    changes = [
        f"{'lacks' if change.startswith('-') else 'has'} {change[1:]!r}"
        for change in line_changes(target.content, final.content)
    ]
    shown = ", ".join(changes[:4]) + (", ..." if len(changes) > 4 else "")
    return f"content differs from what it should be: {shown}"


def differs(diffs: list[RecordDiff], store: Store, object_id: str) -> Optional[RecordDiff]:
    return next((d for d in diffs if d.store == store and d.object_id == object_id), None)
