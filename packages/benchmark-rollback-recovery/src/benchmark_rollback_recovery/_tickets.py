"""The batch run's tickets, each written as asked or with the task's incident injected into it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

import attrs
from benchmark_core import ToolCall

from ._corpus import Announcement
from ._draft import Draft, bumped, config_lines, config_text, with_field
from ._world import ContactRecord, FileState, MessageState, WhatHappened


def contact_update(
    draft: Draft, cid: str, field: str, *, wrong: bool, stray_on: Optional[str], silent: bool = False
) -> None:
    record = draft.contact(cid)
    first, last = record.name.split(" ", 1)
    if field == "phone":
        value = draft.phone()
        bad = value[:-2] + value[-1] + value[-2]
    elif field == "email":
        domain = record.email.split("@", 1)[1]
        label, tld = domain.split(".", 1)
        value = f"{first[0]}{last}@{domain}".lower()
        bad = f"{first[0]}{last}@{label[:-1]}.{tld}".lower()
    else:
        value = draft.other_company(record.company)
        bad = draft.other_company(record.company, value)
    ticket = draft.ticket(f"set the {field} of {record.name} ({cid}) to {value}")
    written = with_field(record, field, bad if wrong else value)
    at = draft.job_time()
    if silent:
        # the run logged the ticket as done, but the write never reached the CRM
        draft.record_incident(
            cid,
            what="not_applied",
            ticket=ticket,
            description=f"The run reported {ticket.split(':')[0]} done; {cid}'s {field} never became {value!r}.",
            repair=ToolCall(name="update_contact", arguments={"contact_id": cid, "fields": {field: value}}),
            action="corrected",
            should_be=written,
        )
        return
    draft.write_contact(cid, at, draft.actor(), "update", written, ticket)
    if wrong:
        draft.record_incident(
            cid,
            what="wrong_value",
            ticket=ticket,
            description=f"The run wrote {field} {bad!r} on {cid}; its ticket asked for {value!r}.",
            repair=ToolCall(name="update_contact", arguments={"contact_id": cid, "fields": {field: value}}),
            action="corrected",
            should_be=with_field(record, field, value),
        )
    if stray_on is not None:
        stray_contact_write(
            draft,
            stray_on,
            attrs.evolve(written, status=draft.contact(stray_on).status),
            ticket,
            f"Working on a ticket for {cid}, the run also overwrote {stray_on} with {cid}'s fields.",
        )


def contact_dedupe(draft: Draft, duplicate: str, original: str, *, stray_on: Sequence[str]) -> None:
    name = draft.contact(original).name
    ticket = draft.ticket(f"delete {duplicate}, a duplicate of {name} ({original})")
    gone = attrs.evolve(draft.contact(duplicate), status="deleted")
    draft.write_contact(duplicate, draft.job_time(), draft.actor(), "delete", gone, ticket)
    for stray in stray_on:
        before = draft.contact(stray)
        stray_contact_write(
            draft,
            stray,
            attrs.evolve(before, status="deleted"),
            ticket,
            f"Working on the duplicate {duplicate}, the run also deleted {stray} ({before.name}).",
        )


def stray_contact_write(draft: Draft, cid: str, record: ContactRecord, ticket: str, description: str) -> None:
    """A write to `cid` that the ticket never asked for: a deletion or an overwrite with another
    contact's fields. The contact should be as it was before it."""
    before = draft.contacts[cid][-1]
    deleted = record.status == "deleted"
    draft.write_contact(cid, draft.job_time(), draft.actor(), "delete" if deleted else "update", record, ticket)
    if deleted:
        repair = ToolCall(name="restore_contact", arguments={"contact_id": cid})
    else:
        repair = ToolCall(name="revert_contact", arguments={"contact_id": cid, "revision": before.revision})
    draft.record_incident(
        cid,
        what="deleted" if deleted else "overwritten",
        ticket=ticket,
        description=description,
        repair=repair,
        action="restored" if deleted else "reverted",
        should_be=before.record,
    )


def file_edit(draft: Draft, path: str, *, wrong: bool, stray_on: Optional[str], silent: bool = False) -> None:
    key = draft.ticket_keys[path]
    lines = config_lines(draft.content(path))
    value = bumped(lines[key], draft.rng)
    bad = value + "0"
    draft.ticket_values[path] = value
    ticket = draft.ticket(f"set {key} to {value} in {path}")
    intended = config_text({**lines, key: value})
    written = config_text({**lines, key: bad}) if wrong else intended
    at = draft.job_time()
    if silent:
        draft.record_incident(
            path,
            what="not_applied",
            ticket=ticket,
            description=f"The run reported {ticket.split(':')[0]} done, but {path} never got {key}: {value}.",
            repair=ToolCall(
                name="edit_file",
                arguments={"path": path, "find": f"{key}: {lines[key]}\n", "replace": f"{key}: {value}\n"},
            ),
            action="corrected",
            should_be=FileState(deleted=False, content=intended),
        )
        return
    draft.write_file(path, at, draft.actor(), "edit", written, ticket)
    if wrong:
        draft.record_incident(
            path,
            what="wrong_value",
            ticket=ticket,
            description=f"The run set {key} to {bad} in {path}; its ticket asked for {value}.",
            repair=ToolCall(
                name="edit_file",
                arguments={"path": path, "find": f"{key}: {bad}\n", "replace": f"{key}: {value}\n"},
            ),
            action="corrected",
            should_be=FileState(deleted=False, content=intended),
        )
    if stray_on is not None:
        stray_file_write(
            draft,
            stray_on,
            written,
            ticket,
            f"Working on a ticket for {path}, the run also wrote {path}'s content over {stray_on}.",
        )


def file_delete_tmp(draft: Draft, tmp_path: str, *, stray_on: Optional[str], purge: bool = False) -> None:
    ticket = draft.ticket(f"delete the temporary export {tmp_path}")
    draft.write_file(tmp_path, draft.job_time(), draft.actor(), "delete", None, ticket)
    if stray_on is not None and purge:
        # deleted for good: the file store keeps only the purge, none of the earlier versions
        draft.purged[stray_on] = draft.content(stray_on)
        draft.files[stray_on] = []
        draft.write_file(stray_on, draft.job_time(), draft.actor(), "purge", None, ticket)
        draft.record_incident(
            stray_on,
            what="deleted",
            ticket=ticket,
            description=f"Working on the temporary export {tmp_path}, the run also deleted {stray_on} for good; "
            "no version of it was kept.",
            repair=None,
            action="none",
            should_be=FileState(deleted=True, content=None),
        )
    elif stray_on is not None:
        stray_file_write(
            draft,
            stray_on,
            None,
            ticket,
            f"Working on the temporary export {tmp_path}, the run also deleted {stray_on}.",
        )


def stray_file_write(draft: Draft, path: str, content: Optional[str], ticket: str, description: str) -> None:
    """A write to `path` that the ticket never asked for: a deletion (`content` None) or an
    overwrite. The file should have its content from before it again."""
    before = draft.files[path][-1]
    draft.write_file(path, draft.job_time(), draft.actor(), "delete" if content is None else "write", content, ticket)
    draft.record_incident(
        path,
        what="deleted" if content is None else "overwritten",
        ticket=ticket,
        description=description,
        repair=ToolCall(name="restore_file_version", arguments={"path": path, "version": before.version}),
        action="restored",
        should_be=FileState(deleted=False, content=before.content),
    )


def job_send(
    draft: Draft, ann: Announcement, *, wrong_to: bool, wrong_value: bool, twice: bool, outside: Optional[str] = None
) -> str:
    """One announcement; `outside` is an address beyond the organisation the run sent it to instead."""
    to = draft.lists[ann.audience]
    ticket = draft.ticket(f'send "{ann.subject}" to {to} saying: {ann.sentence(ann.value)}.')
    sent_to = draft.rng.choice([a for a in draft.lists.values() if a != to]) if wrong_to else to
    value = ann.wrong_value if wrong_value else ann.value
    mid = draft.send(ann, outside or sent_to, value, draft.job_time(), draft.actor(), ticket)
    victim = mid
    if outside is not None:
        draft.external.add(mid)
        _, _, body, _ = draft.messages[mid]
        draft.record_incident(
            mid,
            what="wrong_recipient",
            ticket=ticket,
            description=f"The run sent {mid} to {outside}, outside the organisation; its ticket said {to}. "
            "It cannot be recalled.",
            repair=None,
            action="none",
            should_be=MessageState(subject=ann.subject, to=outside, body=body, status="sent"),
        )
        return mid
    if twice:
        victim = draft.send(ann, to, value, draft.job_time(), draft.actor(), ticket)
    if wrong_to or wrong_value or twice:
        what: WhatHappened = "wrong_recipient" if wrong_to else "wrong_value" if wrong_value else "other"
        description = {
            "wrong_recipient": f"The run sent {mid} to {sent_to}; its ticket said {to}.",
            "wrong_value": f"The run sent {mid} saying {value!r}; its ticket said {ann.value!r}.",
            "other": f"The run sent the ticket's message twice; {victim} is the duplicate of {mid}.",
        }[what]
        _, victim_to, body, _ = draft.messages[victim]
        draft.record_incident(
            victim,
            what=what,
            ticket=ticket,
            description=description,
            repair=ToolCall(name="unsend_message", arguments={"message_id": victim}),
            action="unsent",
            # messages cannot be edited or sent again, so one that went out wrong is recalled
            should_be=MessageState(subject=ann.subject, to=victim_to, body=body, status="recalled"),
            # either copy of a double send may be recalled: they are identical
            duplicate_of=mid if twice else None,
        )
    return mid
