"""The full split: 272 episodes over five stores (`python -m benchmark_rollback_recovery.generator
--split full` writes `data/tasks-full.jsonl`; a hidden split draws the same design).

Every world has its own organisation, run, ticket numbers and records. The batch run works through
twelve tickets: the public split's eight (two contact updates, a duplicate-contact deletion, two
config edits, a temporary-file deletion, two announcements) plus an event rescheduled, an event
cancelled, an issue reassigned and an issue closed, and it keeps its own job report (`run_log`).
Each (store, incident kind) of `FULL_KINDS` is a world/ticket template, drawn twice for each of the
four prompt forms; each store's clean control is drawn four times per form.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import cast

import attrs
from benchmark_core import Task, mulberry32
from benchmark_core.wire import to_wire

from ._corpus import ASSIGNEES, ORGANISATIONS, OUTSIDE_DOMAINS, Announcement
from ._draft import SESSION_CLOCK, Draft, Slot, stamp
from ._full_seeding import seed_calendar, seed_tracker
from ._prompts import prompt
from ._record_tickets import record_remove, record_update
from ._seeding import draw_people, seed_contacts, seed_files, seed_messages
from ._tickets import contact_dedupe, contact_update, file_delete_tmp, file_edit, job_send
from ._world import (
    ALL_STORES,
    PROMPT_FORMS,
    TIME_FORMAT,
    Contact,
    Focus,
    IncidentKind,
    Message,
    Record,
    RunLogEntry,
    Store,
    StoredFile,
    TaskSpec,
    World,
    target_of,
)

#: The incident kinds of each store in the full split: 24 templates.
FULL_KINDS: dict[Store, tuple[IncidentKind, ...]] = {
    "contacts": ("wrongValue", "overwritten", "deleted", "silentFailure", "partial"),
    "files": ("wrongValue", "overwritten", "deleted", "irreparable", "silentFailure"),
    "messages": ("wrongRecipient", "wrongValue", "duplicateSend", "irreparable"),
    "calendar": ("wrongValue", "overwritten", "deleted", "silentFailure", "partial"),
    "tracker": ("wrongValue", "overwritten", "deleted", "silentFailure", "partial"),
}
#: How often each incident template and each store's control is drawn per prompt form.
INCIDENT_COPIES = 2
CONTROL_COPIES = 4
JOBS = (
    "update:1", "update:2", "dedupe", "edit:1", "edit:2", "delete_tmp", "send:1", "send:2",
    "reschedule", "cancel", "reassign", "close",
)  # fmt: skip


def full_slots() -> list[Slot]:
    """The 272 slots before shuffling: 192 incidents (24 templates x 4 forms x 2) and 80 controls
    (5 stores x 4 forms x 4)."""
    incidents = [
        Slot(store, kind, form, copy)
        for store in ALL_STORES
        for kind in FULL_KINDS[store]
        for form in PROMPT_FORMS
        for copy in range(INCIDENT_COPIES)
    ]
    controls = [
        Slot(store, None, form, copy) for store in ALL_STORES for form in PROMPT_FORMS for copy in range(CONTROL_COPIES)
    ]
    return incidents + controls


def generate_full(seed: int, prefix: str = "rrf") -> list[Task]:
    """The full split's tasks for `seed`, with ids `{prefix}-001` onwards, in a seeded shuffled order."""
    rng = mulberry32(seed)
    order = full_slots()
    rng.shuffle(order)
    return [_task(Draft(rng, slot), f"{prefix}-{n:03d}") for n, slot in enumerate(order, start=1)]


def _task(draft: Draft, task_id: str) -> Task:
    rng = draft.rng
    draft.organisation, draft.domain = rng.choice(ORGANISATIONS)
    draft.draw_numbers()
    contacts = seed_contacts(draft, draw_people(draft))
    configs, docs, tmp_path = seed_files(draft, contacts)
    prior_ids, announcements = seed_messages(draft)
    records = {"calendar": seed_calendar(draft), "tracker": seed_tracker(draft)}
    ids = {
        # update, second update, control bystander, stray target, the duplicate's original, the duplicate
        "contacts": (contacts[0], contacts[1], contacts[5], contacts[4], contacts[2], contacts[3]),
        "files": (configs[0], configs[1], docs[1], docs[0], tmp_path),
        **{store: tuple(found[role] for role in ("U", "R", "B", "F", "G")) for store, found in records.items()},
    }
    sent = _run_jobs(draft, ids, announcements)
    store, slot = draft.slot.store, draft.slot
    incident = draft.incident
    if incident is not None:
        focus = Focus(store=store, object_id=incident.object_id)
        incident = attrs.evolve(incident, incident_kind=cast(IncidentKind, slot.kind))
    else:
        primary = {"messages": sent["send:1"]}.get(store) or ids[store][0]
        bystander = {"messages": prior_ids[0]}.get(store) or ids[store][2]
        focus = Focus(store=store, object_id=rng.choice((primary, bystander)))
    spec = TaskSpec(
        prompt_form=slot.form,
        focus=focus,
        world=_world(draft),
        incident=incident,
        template=f"{store}/{slot.kind or 'control'}",
    )
    return Task(id=task_id, kind="episode", prompt=prompt(draft, focus, target_of(spec)), metadata=to_wire(spec))


def _run_jobs(
    draft: Draft, ids: dict[str, tuple[str, ...]], announcements: tuple[Announcement, Announcement]
) -> dict[str, str]:
    """The run's twelve tickets in a seeded order, with the slot's incident injected into its first
    ticket on the store (or its removal ticket); each logged as done in the run's job report."""
    rng, slot = draft.rng, draft.slot

    def hit(store: Store, *kinds: str) -> bool:
        return slot.store == store and slot.kind in kinds

    jobs = list(JOBS)
    rng.shuffle(jobs)
    fields = [rng.choice(("phone", "email", "company")) for _ in range(2)]
    victims = 2 + rng.randint(2)  # how many records a partial incident damages
    sent: dict[str, str] = {}
    for job in jobs:
        first = job.endswith(":1")
        if job.startswith("update:"):
            cid = ids["contacts"][0 if first else 1]
            contact_update(
                draft,
                cid,
                fields[0 if first else 1],
                wrong=first and hit("contacts", "wrongValue"),
                stray_on=ids["contacts"][3] if first and hit("contacts", "overwritten") else None,
                silent=first and hit("contacts", "silentFailure"),
            )
            _log(draft, "contacts", cid)
        elif job == "dedupe":
            _, _, f, b, e, duplicate = ids["contacts"]
            strays = [b] if hit("contacts", "deleted") else [b, f, e][:victims] if hit("contacts", "partial") else []
            contact_dedupe(draft, duplicate, e, stray_on=strays)
            _log(draft, "contacts", duplicate)
        elif job.startswith("edit:"):
            path = ids["files"][0 if first else 1]
            file_edit(
                draft,
                path,
                wrong=first and hit("files", "wrongValue"),
                stray_on=ids["files"][3] if first and hit("files", "overwritten") else None,
                silent=first and hit("files", "silentFailure"),
            )
            _log(draft, "files", path)
        elif job == "delete_tmp":
            doc = ids["files"][3] if hit("files", "deleted", "irreparable") else None
            file_delete_tmp(draft, ids["files"][4], stray_on=doc, purge=hit("files", "irreparable"))
            _log(draft, "files", ids["files"][4])
        elif job.startswith("send:"):
            ann = announcements[0 if first else 1]
            outside = (
                f"{ann.audience}@{rng.choice(OUTSIDE_DOMAINS)}" if first and hit("messages", "irreparable") else None
            )
            sent[job] = job_send(
                draft,
                ann,
                wrong_to=first and hit("messages", "wrongRecipient"),
                wrong_value=first and hit("messages", "wrongValue"),
                twice=first and hit("messages", "duplicateSend"),
                outside=outside,
            )
            _log(draft, "messages", sent[job])
        else:
            _record_job(draft, job, ids, victims)
    return sent


def _record_job(draft: Draft, job: str, ids: dict[str, tuple[str, ...]], victims: int) -> None:
    store: Store = "calendar" if job in ("reschedule", "cancel") else "tracker"
    slot, rng = draft.slot, draft.rng
    update, remove, b, f, g = ids[store]
    mine = slot.store == store
    if job in ("reschedule", "reassign"):
        record = draft.record(store, update)
        if store == "calendar":
            at = datetime.strptime(record["starts"], TIME_FORMAT) + timedelta(days=1 + rng.randint(3))
            field, value = "starts", stamp(at)
            bad = stamp(at + timedelta(hours=12 if at.hour < 12 else -12))  # a morning/evening mix-up
            text = f"move {record['title']} ({update}) to {value}"
        else:
            field = "assignee"
            others = [a for a in ASSIGNEES if a != record["assignee"]]
            value = rng.choice(others)
            bad = rng.choice([a for a in others if a != value])
            text = f"assign {update} ({record['title']}) to {value}"
        record_update(
            draft,
            store,
            update,
            field,
            (value, bad),
            text,
            wrong=mine and slot.kind == "wrongValue",
            stray_on=b if mine and slot.kind == "overwritten" else None,
            silent=mine and slot.kind == "silentFailure",
        )
        _log(draft, store, update)
        return
    strays = [b] if mine and slot.kind == "deleted" else [b, f, g][:victims] if mine and slot.kind == "partial" else []
    title = draft.record(store, remove)["title"]
    text = (
        f"cancel {title} ({remove})" if store == "calendar" else f"close {remove} ({title}): fixed in the last release"
    )
    record_remove(draft, store, remove, text, stray_on=strays)
    _log(draft, store, remove)


def _log(draft: Draft, store: Store, object_id: str) -> None:
    draft.run_log.append(
        RunLogEntry(at=draft.last_time, ticket=draft.last_ticket, store=store, object_id=object_id, result="done")
    )


def _world(draft: Draft) -> World:
    return World(
        organisation=draft.organisation,
        run=draft.run,
        clock=SESSION_CLOCK,
        contacts=[Contact(id=cid, revisions=revs) for cid, revs in sorted(draft.contacts.items())],
        files=[StoredFile(path=path, versions=vs) for path, vs in sorted(draft.files.items())],
        messages=[
            Message(id=mid, subject=ann.subject, to=to, body=body, events=events, external=mid in draft.external)
            for mid, (ann, to, body, events) in sorted(draft.messages.items())
        ],
        calendar=[Record(id=rid, revisions=revs) for rid, revs in sorted(draft.calendar.items())],
        tracker=[Record(id=rid, revisions=revs) for rid, revs in sorted(draft.tracker.items())],
        run_log=list(draft.run_log),
    )
