"""The full split's calendar and tracker as they were before the batch run: five records each, every
one created and then edited once by a colleague."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from ._corpus import ASSIGNEES, EVENTS, ISSUES, PEOPLE, PRIORITIES, ROOMS
from ._draft import HISTORY_START, Draft, stamp

#: The roles of a store's five records: U (the update ticket's), R (the removal ticket's), and
#: three bystanders B, F and G that incidents may strike.
ROLES = ("U", "R", "B", "F", "G")
_MEETINGS_FROM = datetime(2026, 10, 19, 9, 0, tzinfo=timezone.utc)


def seed_calendar(draft: Draft) -> dict[str, str]:
    """Five events with shuffled consecutive ids; returns the id of each role."""
    rng = draft.rng
    ids = _ids(draft, "ev", 100)
    pool = list(EVENTS)
    rng.shuffle(pool)
    for role, (title, room) in zip(ROLES, pool):
        starts = _MEETINGS_FROM + timedelta(days=rng.randint(12), hours=rng.randint(8))
        record = {
            "title": title,
            "starts": stamp(starts),
            "room": room,
            "organiser": rng.choice(PEOPLE),
            "status": "scheduled",
        }
        created = draft.past(HISTORY_START, 45)
        draft.write_record("calendar", ids[role], stamp(created), record["organiser"], "create", record)
        moved = {**record, "room": rng.choice([r for r in ROOMS if r != room])}
        edited = stamp(draft.past(created + timedelta(days=1), 20))
        draft.write_record("calendar", ids[role], edited, rng.choice(PEOPLE), "update", moved)
    return ids


def seed_tracker(draft: Draft) -> dict[str, str]:
    """Five open issues with shuffled consecutive ids; returns the id of each role."""
    rng = draft.rng
    ids = _ids(draft, "ISS", 1000)
    pool = list(ISSUES)
    rng.shuffle(pool)
    for role, (title, component) in zip(ROLES, pool):
        priority = rng.choice(PRIORITIES)
        record = {
            "title": title,
            "assignee": rng.choice(ASSIGNEES),
            "priority": priority,
            "component": component,
            "status": "open",
        }
        created = draft.past(HISTORY_START, 45)
        draft.write_record("tracker", ids[role], stamp(created), rng.choice(PEOPLE), "create", record)
        triaged = {**record, "priority": rng.choice([p for p in PRIORITIES if p != priority])}
        edited = stamp(draft.past(created + timedelta(days=1), 20))
        draft.write_record("tracker", ids[role], edited, rng.choice(PEOPLE), "update", triaged)
    return ids


def _ids(draft: Draft, prefix: str, span: int) -> dict[str, str]:
    order = list(ROLES)
    draft.rng.shuffle(order)
    base = span + draft.rng.randint(8 * span)
    return {role: f"{prefix}-{base + i}" for i, role in enumerate(order)}
