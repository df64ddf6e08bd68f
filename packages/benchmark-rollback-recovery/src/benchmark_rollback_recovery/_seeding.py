"""The world as it was before the batch run: contacts, files and messages, each with its history."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import attrs

from ._corpus import (
    ANNOUNCEMENTS,
    COMPANIES,
    CONFIGS,
    CONTACT_CREATORS,
    DOCS,
    FIRST_NAMES,
    LAST_NAMES,
    PEOPLE,
    Announcement,
)
from ._draft import HISTORY_START, Draft, bumped, config_text, lines_text, stamp
from ._world import ContactRecord


def draw_people(draft: Draft) -> list[tuple[str, str]]:
    firsts = list(FIRST_NAMES)
    lasts = list(LAST_NAMES)
    draft.rng.shuffle(firsts)
    draft.rng.shuffle(lasts)
    return list(zip(firsts[:5], lasts[:5]))


def seed_contacts(draft: Draft, people: list[tuple[str, str]]) -> tuple[str, str, str, str, str, str]:
    """Six contacts (roles A, A2, E, D, B, F) with shuffled consecutive ids. D is a recent
    web-signup duplicate of E; everyone else has a creation and one colleague's edit."""
    rng = draft.rng
    roles = ["A", "A2", "E", "D", "B", "F"]
    order = list(roles)
    rng.shuffle(order)
    base = 1000 + rng.randint(8000)
    ids = {role: f"c-{base + i}" for i, role in enumerate(order)}
    named = dict(zip(["A", "A2", "E", "B", "F"], people))
    for role in ["A", "A2", "E", "B", "F"]:
        first, last = named[role]
        company, domain = rng.choice(COMPANIES)
        record = ContactRecord(
            name=f"{first} {last}", email=f"{first}.{last}@{domain}".lower(), phone=draft.phone(), company=company
        )
        created = draft.past(HISTORY_START, 45)
        draft.write_contact(ids[role], stamp(created), rng.choice(CONTACT_CREATORS), "create", record)
        if rng.randint(2):
            edited = attrs.evolve(record, phone=draft.phone())
        else:
            edited = attrs.evolve(record, company=draft.other_company(record.company))
        draft.write_contact(
            ids[role], stamp(draft.past(created + timedelta(days=1), 20)), rng.choice(PEOPLE), "update", edited
        )
    signup = datetime(2026, 10, 12, 8, 0, tzinfo=timezone.utc)
    draft.write_contact(ids["D"], stamp(draft.past(signup, 3)), "web-signup form", "create", draft.contact(ids["E"]))
    return ids["A"], ids["A2"], ids["E"], ids["D"], ids["B"], ids["F"]


def seed_files(draft: Draft, contact_ids: tuple[str, ...]) -> tuple[tuple[str, str], tuple[str, str], str]:
    """Two configs and two documents, each created and then edited by a colleague, and a
    temporary export written by the report runner."""
    rng = draft.rng
    configs = sorted(CONFIGS)
    rng.shuffle(configs)
    docs = sorted(DOCS)
    rng.shuffle(docs)
    for path in configs[:2]:
        # the organisation's own sender address (the public split's is brightline's)
        lines = {key: value.replace("brightline", draft.domain) for key, value in CONFIGS[path]}
        created = draft.past(HISTORY_START, 40)
        draft.write_file(path, stamp(created), rng.choice(PEOPLE), "create", config_text(lines))
        numeric = [key for key, value in CONFIGS[path] if value.isdigit()]
        rng.shuffle(numeric)
        key, draft.ticket_keys[path] = numeric[0], numeric[1]
        lines[key] = bumped(lines[key], rng)
        edited = draft.past(created + timedelta(days=1), 25)
        draft.write_file(path, stamp(edited), rng.choice(PEOPLE), "edit", config_text(lines))
    for path in docs[:2]:
        first, added = DOCS[path]
        created = draft.past(HISTORY_START, 40)
        draft.write_file(path, stamp(created), rng.choice(PEOPLE), "create", lines_text(first))
        edited = draft.past(created + timedelta(days=1), 25)
        draft.write_file(path, stamp(edited), rng.choice(PEOPLE), "edit", lines_text(first + added))
    tmp_path = f"tmp/export-{1000 + rng.randint(9000)}.csv"
    rows = ["contact_id,plan", *(f"{cid},{rng.choice(('team', 'pro'))}" for cid in contact_ids[:3])]
    exported = draft.past(datetime(2026, 10, 13, 8, 0, tzinfo=timezone.utc), 2)
    draft.write_file(tmp_path, stamp(exported), "report-runner", "create", lines_text(rows))
    return (configs[0], configs[1]), (docs[0], docs[1]), tmp_path


def seed_messages(draft: Draft) -> tuple[list[str], tuple[Announcement, Announcement]]:
    rng = draft.rng
    pool = list(ANNOUNCEMENTS)
    rng.shuffle(pool)
    prior = sorted(
        ((draft.past(datetime(2026, 9, 1, 8, 0, tzinfo=timezone.utc), 40), ann) for ann in pool[:2]),
        key=lambda pair: pair[0],
    )
    prior_ids = [
        draft.send(ann, draft.lists[ann.audience], ann.value, stamp(at), rng.choice(PEOPLE), None) for at, ann in prior
    ]
    return prior_ids, (pool[2], pool[3])
