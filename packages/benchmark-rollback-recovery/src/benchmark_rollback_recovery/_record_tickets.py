"""The full split's tickets on the calendar and the tracker: an update (reschedule an event, reassign
an issue) and a removal (cancel an event, close an issue), each written as asked or with the task's
incident injected: a near-miss value, another record overwritten, other records removed with it, or
a write the run logged as done that never reached the store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from benchmark_core import ToolCall

from ._draft import Draft
from ._stores.calendar import CALENDAR
from ._stores.records import RecordKind
from ._stores.tracker import TRACKER
from ._world import RecordRevision, Store

KINDS: dict[Store, RecordKind] = {"calendar": CALENDAR, "tracker": TRACKER}
#: The tool that brings a removed record back, per store.
RESTORE_TOOL: dict[Store, str] = {"calendar": "restore_event", "tracker": "reopen_issue"}


def record_update(
    draft: Draft,
    store: Store,
    rid: str,
    field: str,
    values: tuple[str, str],
    text: str,
    *,
    wrong: bool,
    stray_on: Optional[str],
    silent: bool,
) -> None:
    """Set `field` of `rid` to `values[0]` for a ticket saying `text`; `values[1]` is the near miss
    a `wrong` write puts there instead."""
    kind = KINDS[store]
    value, bad = values
    record = draft.record(store, rid)
    ticket = draft.ticket(text)
    written = {**record, field: bad if wrong else value}
    at = draft.job_time()
    update = ToolCall(name=f"update_{kind.noun}", arguments={f"{kind.noun}_id": rid, "fields": {field: value}})
    if silent:
        draft.record_incident(
            rid,
            what="not_applied",
            ticket=ticket,
            description=f"The run reported {ticket.split(':')[0]} done; {rid}'s {field} never became {value!r}.",
            repair=update,
            action="corrected",
            should_be=written,
            store=store,
        )
        return
    draft.write_record(store, rid, at, draft.actor(), "update", written, ticket)
    if wrong:
        draft.record_incident(
            rid,
            what="wrong_value",
            ticket=ticket,
            description=f"The run set {field} of {rid} to {bad!r}; its ticket asked for {value!r}.",
            repair=update,
            action="corrected",
            should_be={**record, field: value},
            store=store,
        )
    if stray_on is not None:
        before = _last(draft, store, stray_on)
        overwrite = {**written, "status": before.record["status"]}
        draft.write_record(store, stray_on, draft.job_time(), draft.actor(), "update", overwrite, ticket)
        draft.record_incident(
            stray_on,
            what="overwritten",
            ticket=ticket,
            description=f"Working on a ticket for {rid}, the run also wrote {rid}'s fields over {stray_on}.",
            repair=ToolCall(
                name=f"revert_{kind.noun}", arguments={f"{kind.noun}_id": stray_on, "revision": before.revision}
            ),
            action="reverted",
            should_be=before.record,
            store=store,
        )


def record_remove(draft: Draft, store: Store, rid: str, text: str, *, stray_on: Sequence[str]) -> None:
    """Remove `rid` (cancel the event, close the issue) for a ticket saying `text`; every record in
    `stray_on` is removed with it by mistake and should be as it was before."""
    kind = KINDS[store]
    ticket = draft.ticket(text)
    gone = {**draft.record(store, rid), "status": kind.removed}
    draft.write_record(store, rid, draft.job_time(), draft.actor(), "delete", gone, ticket)
    for stray in stray_on:
        before = _last(draft, store, stray)
        removed = {**before.record, "status": kind.removed}
        draft.write_record(store, stray, draft.job_time(), draft.actor(), "delete", removed, ticket)
        draft.record_incident(
            stray,
            what="deleted",
            ticket=ticket,
            description=f"Working on {rid}, the run also set {stray} to {kind.removed}.",
            repair=ToolCall(name=RESTORE_TOOL[store], arguments={f"{kind.noun}_id": stray}),
            action="restored",
            should_be=before.record,
            store=store,
        )


def _last(draft: Draft, store: Store, rid: str) -> RecordRevision:
    return (draft.calendar if store == "calendar" else draft.tracker)[rid][-1]
