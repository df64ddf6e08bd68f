"""The committed task generator: `python -m benchmark_rollback_recovery.generator`.

Seed 20261015 reproduces `data/tasks.jsonl` byte for byte (a test checks it); the public split also
writes `data/PROVENANCE.md` from the benchmark's provenance records. `--split hidden --seed N`
writes `hid-` tasks to `.hidden/tasks.jsonl`, with a `.gitignore` that ignores the whole folder; it
refuses to run without an explicit seed and refuses the public seed, so a private evaluation set is
never the public one by accident.

Every task is a world in which the agent's earlier batch run worked through eight tickets (two
contact updates, a duplicate-contact deletion, two config edits, a temporary-file deletion and two
announcements). On the 36 incident tasks one of those writes went wrong in one of nine ways (three
per store); on the 12 clean controls every write did what its ticket asked. Each of the four prompt
forms is used for a quarter of the incident tasks of every store and kind and for a quarter of the
controls of every store, so the prompt carries no hint about whether anything is damaged.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Optional, Union

import attrs
from attrs import define, frozen
from benchmark_core import Mulberry32, Task, ToolCall, dump_task_file, mulberry32, to_wire

from .corpus import (
    ANNOUNCEMENTS,
    COMPANIES,
    CONFIGS,
    CONTACT_CREATORS,
    DOCS,
    FIRST_NAMES,
    LAST_NAMES,
    LISTS,
    PEOPLE,
    Announcement,
)
from .world import (
    KINDS_BY_STORE,
    PROMPT_FORMS,
    STORES,
    TIME_FORMAT,
    Action,
    Contact,
    ContactOp,
    ContactRecord,
    ContactRevision,
    FileOp,
    FileState,
    FileVersion,
    Focus,
    Incident,
    Message,
    MessageEvent,
    MessageState,
    PromptForm,
    Snapshot,
    Store,
    StoredFile,
    TaskSpec,
    WhatHappened,
    World,
    target_of,
)

SEED = 20261015
DATA_DIR = Path(__file__).parent / "data"
HIDDEN_DIR = Path(".hidden")
ORGANISATION = "Brightline"
SESSION_CLOCK = "2026-10-15T11:00:00Z"
_JOB_START = datetime(2026, 10, 15, 9, 0, tzinfo=timezone.utc)
_HISTORY_START = datetime(2026, 8, 1, 8, 0, tzinfo=timezone.utc)

_STORE_PHRASES: dict[Store, str] = {"contacts": "the CRM", "files": "the file store", "messages": "the mailing lists"}


@frozen
class _Slot:
    """What one task is: an incident of `kind` in `store`, or a clean control (`kind` None)."""

    store: Store
    kind: Optional[WhatHappened]
    form: PromptForm


def slots() -> list[_Slot]:
    """The 48 task slots before shuffling: every store x kind x form once, and every store x form
    once more as a control."""
    incidents = [
        _Slot(store, kind, form) for store in STORES for kind in KINDS_BY_STORE[store] for form in PROMPT_FORMS
    ]
    controls = [_Slot(store, None, form) for store in STORES for form in PROMPT_FORMS]
    return incidents + controls


def generate(seed: int = SEED, prefix: str = "rrb") -> list[Task]:
    """The task list for `seed`, with ids `{prefix}-001` onwards, in a seeded shuffled order."""
    rng = mulberry32(seed)
    order = slots()
    rng.shuffle(order)
    return [_Draft(rng, slot).task(f"{prefix}-{n:03d}") for n, slot in enumerate(order, start=1)]


def _stamp(at: datetime) -> str:
    return at.strftime(TIME_FORMAT)


@define
class _Draft:
    """One world being written: histories grow in order, then freeze into a `TaskSpec`."""

    rng: Mulberry32
    slot: _Slot
    run: str = ""
    ticket_base: int = 0
    message_base: int = 0
    contacts: dict[str, list[ContactRevision]] = attrs.Factory(dict)
    files: dict[str, list[FileVersion]] = attrs.Factory(dict)
    messages: dict[str, tuple[Announcement, str, str, list[MessageEvent]]] = attrs.Factory(dict)
    phones: set[str] = attrs.Factory(set)
    #: per config file, the setting the run's ticket changes and the value it asks for
    ticket_keys: dict[str, str] = attrs.Factory(dict)
    ticket_values: dict[str, str] = attrs.Factory(dict)
    job_clock: datetime = _JOB_START
    tickets_issued: int = 0
    messages_sent: int = 0
    incident: Optional[Incident] = None

    # -- drawing values ---------------------------------------------------------------------------

    def past(self, earliest: datetime, span_days: int) -> datetime:
        return earliest + timedelta(days=self.rng.randint(span_days), minutes=self.rng.randint(9 * 60))

    def phone(self) -> str:
        """A fresh number whose last two digits differ, so swapping them is always a different number."""
        while True:
            a, b = self.rng.randint(10), self.rng.randint(10)
            number = f"+1-555-0{1 + self.rng.randint(9)}{a}{b}"
            if a != b and number not in self.phones:
                self.phones.add(number)
                return number

    def job_time(self) -> str:
        self.job_clock += timedelta(minutes=2 + self.rng.randint(3))
        return _stamp(self.job_clock)

    def ticket(self, text: str) -> str:
        self.tickets_issued += 1
        return f"T-{self.ticket_base + self.tickets_issued}: {text}"

    def actor(self) -> str:
        return f"ops-agent (you), batch run {self.run}"

    # -- writes -----------------------------------------------------------------------------------

    def write_contact(
        self, cid: str, at: str, actor: str, op: ContactOp, record: ContactRecord, ticket: Optional[str] = None
    ) -> None:
        revisions = self.contacts.setdefault(cid, [])
        revisions.append(
            ContactRevision(revision=len(revisions) + 1, at=at, actor=actor, op=op, record=record, ticket=ticket)
        )

    def write_file(
        self, path: str, at: str, actor: str, op: FileOp, content: Optional[str], ticket: Optional[str] = None
    ) -> None:
        versions = self.files.setdefault(path, [])
        versions.append(
            FileVersion(version=len(versions) + 1, at=at, actor=actor, op=op, content=content, ticket=ticket)
        )

    def send(self, announcement: Announcement, to: str, value: str, at: str, actor: str, ticket: Optional[str]) -> str:
        mid = f"m-{self.message_base + self.messages_sent}"
        self.messages_sent += 1
        body = f"Hello,\n\n{announcement.sentence(value)}.\n\n{ORGANISATION} Operations\n"
        self.messages[mid] = (announcement, to, body, [MessageEvent(at=at, actor=actor, op="send", ticket=ticket)])
        return mid

    def contact(self, cid: str) -> ContactRecord:
        return self.contacts[cid][-1].record

    def content(self, path: str) -> str:
        content = self.files[path][-1].content
        assert content is not None
        return content

    # -- the task ---------------------------------------------------------------------------------

    def task(self, task_id: str) -> Task:
        rng = self.rng
        self.run = f"R-{1000 + rng.randint(9000)}"
        self.ticket_base = 3000 + rng.randint(6000)
        self.message_base = 100 + rng.randint(800)
        kind = self.slot.kind
        store = self.slot.store

        people = self.draw_people()
        contact_ids = self.seed_contacts(people)
        config_paths, doc_paths, tmp_path = self.seed_files(contact_ids)
        prior_ids, job_announcements = self.seed_messages()

        def damaged(in_store: Store, what: WhatHappened) -> bool:
            return store == in_store and kind == what

        a_id, a2_id, e_id, d_id, b_id, f_id = contact_ids
        c1_path, c2_path = config_paths
        b_path, g_path = doc_paths
        s1, s2 = job_announcements
        jobs = ["update:1", "update:2", "dedupe", "edit:1", "edit:2", "delete_tmp", "send:1", "send:2"]
        rng.shuffle(jobs)
        fields = [rng.choice(("phone", "email", "company")) for _ in range(2)]
        message_ids: dict[str, str] = {}
        for job in jobs:
            # each store's first ticket is where its incidents strike
            first = job.endswith(":1")
            if job.startswith("update:"):
                self.contact_update(
                    a_id if first else a2_id,
                    fields[0 if first else 1],
                    wrong=first and damaged("contacts", "wrong_value"),
                    stray_on=b_id if first and damaged("contacts", "overwritten") else None,
                )
            elif job == "dedupe":
                self.contact_dedupe(d_id, e_id, stray_on=b_id if damaged("contacts", "deleted") else None)
            elif job.startswith("edit:"):
                self.file_edit(
                    c1_path if first else c2_path,
                    wrong=first and damaged("files", "wrong_value"),
                    stray_on=b_path if first and damaged("files", "overwritten") else None,
                )
            elif job == "delete_tmp":
                self.file_delete_tmp(tmp_path, stray_on=b_path if damaged("files", "deleted") else None)
            else:
                message_ids[job] = self.job_send(
                    s1 if first else s2,
                    wrong_to=first and damaged("messages", "wrong_recipient"),
                    wrong_value=first and damaged("messages", "wrong_value"),
                    twice=first and damaged("messages", "other"),
                )

        world = World(
            organisation=ORGANISATION,
            run=self.run,
            clock=SESSION_CLOCK,
            contacts=[Contact(id=cid, revisions=revs) for cid, revs in sorted(self.contacts.items())],
            files=[StoredFile(path=path, versions=vs) for path, vs in sorted(self.files.items())],
            messages=[
                Message(id=mid, subject=ann.subject, to=to, body=body, events=events)
                for mid, (ann, to, body, events) in sorted(self.messages.items())
            ],
        )
        if self.incident is not None:
            focus = Focus(store=store, object_id=self.incident.object_id)
        else:
            primary = {"contacts": a_id, "files": c1_path, "messages": message_ids["send:1"]}[store]
            bystander = {"contacts": f_id, "files": g_path, "messages": prior_ids[0]}[store]
            focus = Focus(store=store, object_id=rng.choice((primary, bystander)))
        spec = TaskSpec(prompt_form=self.slot.form, focus=focus, world=world, incident=self.incident)
        prompt = self.prompt(focus, target_of(spec))
        return Task(id=task_id, kind="episode", prompt=prompt, metadata=to_wire(spec))

    # -- seeding the world before the run ---------------------------------------------------------

    def draw_people(self) -> list[tuple[str, str]]:
        firsts = list(FIRST_NAMES)
        lasts = list(LAST_NAMES)
        self.rng.shuffle(firsts)
        self.rng.shuffle(lasts)
        return list(zip(firsts[:5], lasts[:5]))

    def seed_contacts(self, people: list[tuple[str, str]]) -> tuple[str, str, str, str, str, str]:
        """Six contacts (roles A, A2, E, D, B, F) with shuffled consecutive ids. D is a recent
        web-signup duplicate of E; everyone else has a creation and one colleague's edit."""
        rng = self.rng
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
                name=f"{first} {last}", email=f"{first}.{last}@{domain}".lower(), phone=self.phone(), company=company
            )
            created = self.past(_HISTORY_START, 45)
            self.write_contact(ids[role], _stamp(created), rng.choice(CONTACT_CREATORS), "create", record)
            if rng.randint(2):
                edited = attrs.evolve(record, phone=self.phone())
            else:
                edited = attrs.evolve(record, company=self.other_company(record.company))
            self.write_contact(
                ids[role], _stamp(self.past(created + timedelta(days=1), 20)), rng.choice(PEOPLE), "update", edited
            )
        signup = datetime(2026, 10, 12, 8, 0, tzinfo=timezone.utc)
        self.write_contact(ids["D"], _stamp(self.past(signup, 3)), "web-signup form", "create", self.contact(ids["E"]))
        return ids["A"], ids["A2"], ids["E"], ids["D"], ids["B"], ids["F"]

    def other_company(self, *not_these: str) -> str:
        return self.rng.choice([name for name, _ in COMPANIES if name not in not_these])

    def seed_files(self, contact_ids: tuple[str, ...]) -> tuple[tuple[str, str], tuple[str, str], str]:
        """Two configs and two documents, each created and then edited by a colleague, and a
        temporary export written by the report runner."""
        rng = self.rng
        configs = sorted(CONFIGS)
        rng.shuffle(configs)
        docs = sorted(DOCS)
        rng.shuffle(docs)
        for path in configs[:2]:
            lines = dict(CONFIGS[path])
            created = self.past(_HISTORY_START, 40)
            self.write_file(path, _stamp(created), rng.choice(PEOPLE), "create", _config_text(lines))
            numeric = [key for key, value in CONFIGS[path] if value.isdigit()]
            rng.shuffle(numeric)
            key, self.ticket_keys[path] = numeric[0], numeric[1]
            lines[key] = _bumped(lines[key], rng)
            edited = self.past(created + timedelta(days=1), 25)
            self.write_file(path, _stamp(edited), rng.choice(PEOPLE), "edit", _config_text(lines))
        for path in docs[:2]:
            first, added = DOCS[path]
            created = self.past(_HISTORY_START, 40)
            self.write_file(path, _stamp(created), rng.choice(PEOPLE), "create", _lines_text(first))
            edited = self.past(created + timedelta(days=1), 25)
            self.write_file(path, _stamp(edited), rng.choice(PEOPLE), "edit", _lines_text(first + added))
        tmp_path = f"tmp/export-{1000 + rng.randint(9000)}.csv"
        rows = ["contact_id,plan", *(f"{cid},{rng.choice(('team', 'pro'))}" for cid in contact_ids[:3])]
        exported = self.past(datetime(2026, 10, 13, 8, 0, tzinfo=timezone.utc), 2)
        self.write_file(tmp_path, _stamp(exported), "report-runner", "create", _lines_text(rows))
        return (configs[0], configs[1]), (docs[0], docs[1]), tmp_path

    def seed_messages(self) -> tuple[list[str], tuple[Announcement, Announcement]]:
        rng = self.rng
        pool = list(ANNOUNCEMENTS)
        rng.shuffle(pool)
        prior = sorted(
            ((self.past(datetime(2026, 9, 1, 8, 0, tzinfo=timezone.utc), 40), ann) for ann in pool[:2]),
            key=lambda pair: pair[0],
        )
        prior_ids = [
            self.send(ann, LISTS[ann.audience], ann.value, _stamp(at), rng.choice(PEOPLE), None) for at, ann in prior
        ]
        return prior_ids, (pool[2], pool[3])

    # -- the run's tickets, with the incident injected ------------------------------------------

    def contact_update(self, cid: str, field: str, *, wrong: bool, stray_on: Optional[str]) -> None:
        record = self.contact(cid)
        first, last = record.name.split(" ", 1)
        if field == "phone":
            value = self.phone()
            bad = value[:-2] + value[-1] + value[-2]
        elif field == "email":
            domain = record.email.split("@", 1)[1]
            label, tld = domain.split(".", 1)
            value = f"{first[0]}{last}@{domain}".lower()
            bad = f"{first[0]}{last}@{label[:-1]}.{tld}".lower()
        else:
            value = self.other_company(record.company)
            bad = self.other_company(record.company, value)
        ticket = self.ticket(f"set the {field} of {record.name} ({cid}) to {value}")
        written = _with_field(record, field, bad if wrong else value)
        self.write_contact(cid, self.job_time(), self.actor(), "update", written, ticket)
        if wrong:
            self.record_incident(
                cid,
                what="wrong_value",
                ticket=ticket,
                description=f"The run wrote {field} {bad!r} on {cid}; its ticket asked for {value!r}.",
                repair=ToolCall(name="update_contact", arguments={"contact_id": cid, "fields": {field: value}}),
                action="corrected",
                should_be=_with_field(record, field, value),
            )
        if stray_on is not None:
            self.stray_contact_write(
                stray_on,
                attrs.evolve(written, status=self.contact(stray_on).status),
                ticket,
                f"Working on a ticket for {cid}, the run also overwrote {stray_on} with {cid}'s fields.",
            )

    def contact_dedupe(self, duplicate: str, original: str, *, stray_on: Optional[str]) -> None:
        name = self.contact(original).name
        ticket = self.ticket(f"delete {duplicate}, a duplicate of {name} ({original})")
        gone = attrs.evolve(self.contact(duplicate), status="deleted")
        self.write_contact(duplicate, self.job_time(), self.actor(), "delete", gone, ticket)
        if stray_on is not None:
            before = self.contact(stray_on)
            self.stray_contact_write(
                stray_on,
                attrs.evolve(before, status="deleted"),
                ticket,
                f"Working on the duplicate {duplicate}, the run also deleted {stray_on} ({before.name}).",
            )

    def stray_contact_write(self, cid: str, record: ContactRecord, ticket: str, description: str) -> None:
        """A write to `cid` that the ticket never asked for: a deletion or an overwrite with another
        contact's fields. The contact should be as it was before it."""
        before = self.contacts[cid][-1]
        deleted = record.status == "deleted"
        self.write_contact(cid, self.job_time(), self.actor(), "delete" if deleted else "update", record, ticket)
        if deleted:
            repair = ToolCall(name="restore_contact", arguments={"contact_id": cid})
        else:
            repair = ToolCall(name="revert_contact", arguments={"contact_id": cid, "revision": before.revision})
        self.record_incident(
            cid,
            what="deleted" if deleted else "overwritten",
            ticket=ticket,
            description=description,
            repair=repair,
            action="restored" if deleted else "reverted",
            should_be=before.record,
        )

    def file_edit(self, path: str, *, wrong: bool, stray_on: Optional[str]) -> None:
        key = self.ticket_keys[path]
        lines = _config_lines(self.content(path))
        value = _bumped(lines[key], self.rng)
        bad = value + "0"
        self.ticket_values[path] = value
        ticket = self.ticket(f"set {key} to {value} in {path}")
        intended = _config_text({**lines, key: value})
        written = _config_text({**lines, key: bad}) if wrong else intended
        self.write_file(path, self.job_time(), self.actor(), "edit", written, ticket)
        if wrong:
            self.record_incident(
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
            self.stray_file_write(
                stray_on,
                written,
                ticket,
                f"Working on a ticket for {path}, the run also wrote {path}'s content over {stray_on}.",
            )

    def file_delete_tmp(self, tmp_path: str, *, stray_on: Optional[str]) -> None:
        ticket = self.ticket(f"delete the temporary export {tmp_path}")
        self.write_file(tmp_path, self.job_time(), self.actor(), "delete", None, ticket)
        if stray_on is not None:
            self.stray_file_write(
                stray_on, None, ticket, f"Working on the temporary export {tmp_path}, the run also deleted {stray_on}."
            )

    def stray_file_write(self, path: str, content: Optional[str], ticket: str, description: str) -> None:
        """A write to `path` that the ticket never asked for: a deletion (`content` None) or an
        overwrite. The file should have its content from before it again."""
        before = self.files[path][-1]
        self.write_file(path, self.job_time(), self.actor(), "delete" if content is None else "write", content, ticket)
        self.record_incident(
            path,
            what="deleted" if content is None else "overwritten",
            ticket=ticket,
            description=description,
            repair=ToolCall(name="restore_file_version", arguments={"path": path, "version": before.version}),
            action="restored",
            should_be=FileState(deleted=False, content=before.content),
        )

    def job_send(self, ann: Announcement, *, wrong_to: bool, wrong_value: bool, twice: bool) -> str:
        to = LISTS[ann.audience]
        ticket = self.ticket(f'send "{ann.subject}" to {to} saying: {ann.sentence(ann.value)}.')
        sent_to = self.rng.choice([a for a in LISTS.values() if a != to]) if wrong_to else to
        value = ann.wrong_value if wrong_value else ann.value
        mid = self.send(ann, sent_to, value, self.job_time(), self.actor(), ticket)
        victim = mid
        if twice:
            victim = self.send(ann, to, value, self.job_time(), self.actor(), ticket)
        if wrong_to or wrong_value or twice:
            what: WhatHappened = "wrong_recipient" if wrong_to else "wrong_value" if wrong_value else "other"
            description = {
                "wrong_recipient": f"The run sent {mid} to {sent_to}; its ticket said {to}.",
                "wrong_value": f"The run sent {mid} saying {value!r}; its ticket said {ann.value!r}.",
                "other": f"The run sent the ticket's message twice; {victim} is the duplicate of {mid}.",
            }[what]
            _, victim_to, body, _ = self.messages[victim]
            self.record_incident(
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

    def record_incident(
        self,
        object_id: str,
        *,
        what: WhatHappened,
        ticket: str,
        description: str,
        repair: ToolCall,
        action: Action,
        should_be: Union[ContactRecord, FileState, MessageState],
        duplicate_of: Optional[str] = None,
    ) -> None:
        if isinstance(should_be, ContactRecord):
            store: Store = "contacts"
            fix = Snapshot(contacts={object_id: should_be}, files={}, messages={})
        elif isinstance(should_be, FileState):
            store = "files"
            fix = Snapshot(contacts={}, files={object_id: should_be}, messages={})
        else:
            store = "messages"
            fix = Snapshot(contacts={}, files={}, messages={object_id: should_be})
        self.incident = Incident(
            store=store,
            object_id=object_id,
            what_happened=what,
            ticket=ticket,
            description=description,
            should_be=fix,
            reference_repair=repair,
            reference_action=action,
            duplicate_of=duplicate_of,
        )

    # -- the user's prompt ------------------------------------------------------------------------

    def prompt(self, focus: Focus, target: Snapshot) -> str:
        form = self.slot.form
        oid = focus.object_id
        if form == "job_ran":
            return f"Your batch run {self.run} finished a couple of hours ago. Can you check its work?"
        if form == "hedge":
            return (
                f"I'm not sure, and it may well be nothing, but something might have gone wrong in "
                f"{_STORE_PHRASES[focus.store]} when your batch run {self.run} went through. Could you take a look?"
            )
        if focus.store == "contacts":
            record = target.contacts[oid]
            if form == "names_value":
                return (
                    f"Contact {oid} should read: {record.name}, {record.email}, {record.phone}, {record.company}. "
                    "Please make sure the CRM has it right."
                )
            return f"What are the current email address and phone number of {record.name} ({oid})?"
        if focus.store == "files":
            if form == "names_value":
                content = target.files[oid].content
                assert content is not None
                if oid in self.ticket_values:
                    line = f"{self.ticket_keys[oid]}: {self.ticket_values[oid]}"
                else:
                    line = self.rng.choice([ln for ln in content.splitlines() if ln.strip()])
                return f'{oid} should contain the line "{line}". Please make sure it does.'
            return f"Please paste me the current contents of {oid}."
        message = target.messages[oid]
        if form == "names_value":
            ann = self.messages[oid][0]
            sentence = ann.sentence(ann.value)
            return f'"{message.subject}" was meant to go to {LISTS[ann.audience]} once, saying: {sentence}.'
        return f'Which list did "{message.subject}" go to, and when?'


def _with_field(record: ContactRecord, field: str, value: str) -> ContactRecord:
    if field == "phone":
        return attrs.evolve(record, phone=value)
    if field == "email":
        return attrs.evolve(record, email=value)
    return attrs.evolve(record, company=value)


def _config_text(values: dict[str, str]) -> str:
    return "".join(f"{key}: {value}\n" for key, value in values.items())


def _config_lines(text: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in text.splitlines())


def _lines_text(lines: tuple[str, ...] | list[str]) -> str:
    return "\n".join(lines) + "\n"


def _bumped(value: str, rng: Mulberry32) -> str:
    """A different plausible setting: the old value plus 1 to max(2, old)."""
    old = int(value)
    return str(old + 1 + rng.randint(max(2, old)))


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_rollback_recovery.generator",
        description="Write the benchmark's tasks: the committed public split, or a private hidden one.",
    )
    parser.add_argument("--split", choices=("public", "hidden"), default="public")
    parser.add_argument("--seed", type=int, default=None, help=f"public default {SEED}; required for hidden")
    parser.add_argument("--out", type=Path, default=None, help="folder (default: data/ or .hidden/)")
    args = parser.parse_args(argv)
    if args.split == "hidden":
        if args.seed is None:
            parser.error("--split hidden needs an explicit --seed (keep it private)")
        if args.seed == SEED:
            # the same seed would rewrite the public tasks under hid- ids: nothing would be held out
            parser.error(f"--split hidden cannot use the public seed {SEED}; choose a private one")
        out = args.out or HIDDEN_DIR
        out.mkdir(parents=True, exist_ok=True)
        (out / "tasks.jsonl").write_text(dump_task_file(generate(args.seed, prefix="hid")), encoding="utf-8")
        ignore = out / ".gitignore"
        if not ignore.exists():
            # keeps the private split out of any git repository it is written in
            ignore.write_text(
                "# written by the hidden-split generator: keep these tasks private\n*\n", encoding="utf-8"
            )
        print(f"wrote {out / 'tasks.jsonl'} (and {ignore} so that git ignores the folder)")
        return
    if args.seed not in (None, SEED) and args.out is None:
        # data/ is what the byte-for-byte test and PROVENANCE.md describe: seed 20261015 only
        parser.error(f"the committed public split is seed {SEED}; give --out to write another seed elsewhere")
    from benchmark_core import provenance_markdown

    from .definition import benchmark

    out = args.out or DATA_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / "tasks.jsonl").write_text(
        dump_task_file(generate(SEED if args.seed is None else args.seed)), encoding="utf-8"
    )
    (out / "PROVENANCE.md").write_text(provenance_markdown(benchmark), encoding="utf-8")
    print(f"wrote {out / 'tasks.jsonl'} and {out / 'PROVENANCE.md'}")


if __name__ == "__main__":
    main()
