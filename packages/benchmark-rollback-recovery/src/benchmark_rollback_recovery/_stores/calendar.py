"""The calendar: events with every revision; a cancelled event is restored with the fields it had."""

from __future__ import annotations

from .records import RecordKind

CALENDAR = RecordKind(
    store="calendar",
    noun="event",
    plural="events",
    list_tool="list_events",
    fields=("title", "starts", "room", "organiser"),
    live="scheduled",
    removed="cancelled",
    audit_order=3,
)
