"""What the stores share: the clock of the agent's own writes and the shapes every write shows."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Optional, Union

from benchmark_core import JsonObject

from .._world import TIME_FORMAT, ContactRevision, FileVersion, MessageEvent, RecordRevision

SESSION_ACTOR = "ops-agent (you), this session"

#: An audit-trail row with the key that orders it: (time, store index, record id, position).
AuditRow = tuple[tuple[str, int, str, int], JsonObject]


class SessionClock:
    """Stamps the agent's writes one minute apart, from the world's `clock`."""

    def __init__(self, clock: str) -> None:
        self._start = _parse(clock)
        self._writes = 0

    def stamp(self) -> str:
        at = self._start + timedelta(minutes=self._writes)
        self._writes += 1
        return at.strftime(TIME_FORMAT)


@lru_cache(maxsize=1024)
def _parse(clock: str) -> datetime:
    # Replay grading starts a simulator per submission, and strptime is slow: worlds share few clocks.
    return datetime.strptime(clock, TIME_FORMAT).replace(tzinfo=timezone.utc)


def who(write: Union[ContactRevision, RecordRevision, FileVersion, MessageEvent]) -> JsonObject:
    """When, by whom, which operation and for which ticket: what every write shows in the tools."""
    return {"at": write.at, "actor": write.actor, "op": write.op, "ticket": write.ticket}


def audit_entry(
    at: str, actor: str, store: str, object_id: str, op: str, ticket: Optional[str], change: str
) -> JsonObject:
    return {"at": at, "actor": actor, "store": store, "object": object_id, "op": op, "ticket": ticket, "change": change}


def quote(value: Optional[str]) -> str:
    return "(none)" if value is None else repr(value)
