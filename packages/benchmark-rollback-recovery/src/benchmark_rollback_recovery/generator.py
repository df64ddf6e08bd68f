"""The committed task generator: `python -m benchmark_rollback_recovery.generator`.

Seed 20261015 reproduces `data/tasks.jsonl` byte for byte (a test checks it); the public split also
writes `data/PROVENANCE.md` from the benchmark's provenance records. `--split full` writes the full
split, `data/tasks-full.jsonl` (272 episodes over five stores, from the same seed; see `_full.py`),
also checked byte for byte. `--split hidden --seed N` writes `hid-` tasks of the public design to
`.hidden/tasks.jsonl`, and `--split hidden-full --seed N` `hidfull-` tasks of the full design to
`.hidden/tasks-full.jsonl`, with a `.gitignore` that ignores the whole folder; both refuse to run
without an explicit seed and refuse the public seed, so a private evaluation set is never a
committed one by accident.

Every task is a world in which the agent's earlier batch run worked through eight tickets (two
contact updates, a duplicate-contact deletion, two config edits, a temporary-file deletion and two
announcements). On the 36 incident tasks one of those writes went wrong in one of nine ways (three
per store); on the 12 clean controls every write did what its ticket asked. Each of the four prompt
forms is used for a quarter of the incident tasks of every store and kind and for a quarter of the
controls of every store, so the prompt carries no hint about whether anything is damaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from benchmark_core import Task, mulberry32
from benchmark_core.data import dump_task_file, split_generator_main
from benchmark_core.wire import to_wire

from ._corpus import Announcement
from ._draft import ORGANISATION, SESSION_CLOCK, Draft, Slot
from ._full import generate_full
from ._prompts import prompt
from ._seeding import draw_people, seed_contacts, seed_files, seed_messages
from ._tickets import contact_dedupe, contact_update, file_delete_tmp, file_edit, job_send
from ._world import (
    KINDS_BY_STORE,
    PROMPT_FORMS,
    STORES,
    Contact,
    Focus,
    Message,
    Store,
    StoredFile,
    TaskSpec,
    WhatHappened,
    World,
    target_of,
)

SEED = 20261015
DATA_DIR = Path(__file__).parent / "data"
#: The full split's file in data/, selected with `--tasks full`.
FULL_FILE = "tasks-full.jsonl"


def slots() -> list[Slot]:
    """The 48 task slots before shuffling: every store x kind x form once, and every store x form
    once more as a control."""
    incidents = [Slot(store, kind, form) for store in STORES for kind in KINDS_BY_STORE[store] for form in PROMPT_FORMS]
    controls = [Slot(store, None, form) for store in STORES for form in PROMPT_FORMS]
    return incidents + controls


def generate(seed: int = SEED, prefix: str = "rrb") -> list[Task]:
    """The task list for `seed`, with ids `{prefix}-001` onwards, in a seeded shuffled order."""
    rng = mulberry32(seed)
    order = slots()
    rng.shuffle(order)
    return [_task(Draft(rng, slot), f"{prefix}-{n:03d}") for n, slot in enumerate(order, start=1)]


def _task(draft: Draft, task_id: str) -> Task:
    """One task: the world before the run, the run's eight tickets (one of them going wrong on an
    incident task), the record in focus and the prompt, drawn in this order from the draft's rng."""
    rng = draft.rng
    draft.draw_numbers()
    contact_ids = seed_contacts(draft, draw_people(draft))
    config_paths, doc_paths, tmp_path = seed_files(draft, contact_ids)
    prior_ids, job_announcements = seed_messages(draft)
    message_ids = _run_jobs(draft, contact_ids, config_paths, doc_paths, tmp_path, job_announcements)
    store = draft.slot.store
    if draft.incident is not None:
        focus = Focus(store=store, object_id=draft.incident.object_id)
    else:
        primary = {"contacts": contact_ids[0], "files": config_paths[0], "messages": message_ids["send:1"]}[store]
        bystander = {"contacts": contact_ids[5], "files": doc_paths[1], "messages": prior_ids[0]}[store]
        focus = Focus(store=store, object_id=rng.choice((primary, bystander)))
    spec = TaskSpec(prompt_form=draft.slot.form, focus=focus, world=_world(draft), incident=draft.incident)
    text = prompt(draft, focus, target_of(spec))
    return Task(id=task_id, kind="episode", prompt=text, metadata=to_wire(spec))


def _run_jobs(
    draft: Draft,
    contact_ids: tuple[str, str, str, str, str, str],
    config_paths: tuple[str, str],
    doc_paths: tuple[str, str],
    tmp_path: str,
    announcements: tuple[Announcement, Announcement],
) -> dict[str, str]:
    """The batch run's eight tickets in a seeded order; returns the ids of the messages it sent."""
    kind, store = draft.slot.kind, draft.slot.store

    def damaged(in_store: Store, what: WhatHappened) -> bool:
        return store == in_store and kind == what

    a_id, a2_id, e_id, d_id, b_id, _ = contact_ids
    c1_path, c2_path = config_paths
    b_path = doc_paths[0]
    jobs = ["update:1", "update:2", "dedupe", "edit:1", "edit:2", "delete_tmp", "send:1", "send:2"]
    draft.rng.shuffle(jobs)
    fields = [draft.rng.choice(("phone", "email", "company")) for _ in range(2)]
    message_ids: dict[str, str] = {}
    for job in jobs:
        # each store's first ticket is where its incidents strike
        first = job.endswith(":1")
        if job.startswith("update:"):
            overwrite = b_id if first and damaged("contacts", "overwritten") else None
            wrong = first and damaged("contacts", "wrong_value")
            contact_update(draft, a_id if first else a2_id, fields[0 if first else 1], wrong=wrong, stray_on=overwrite)
        elif job == "dedupe":
            contact_dedupe(draft, d_id, e_id, stray_on=[b_id] if damaged("contacts", "deleted") else [])
        elif job.startswith("edit:"):
            overwrite = b_path if first and damaged("files", "overwritten") else None
            wrong = first and damaged("files", "wrong_value")
            file_edit(draft, c1_path if first else c2_path, wrong=wrong, stray_on=overwrite)
        elif job == "delete_tmp":
            file_delete_tmp(draft, tmp_path, stray_on=b_path if damaged("files", "deleted") else None)
        else:
            message_ids[job] = job_send(
                draft,
                announcements[0 if first else 1],
                wrong_to=first and damaged("messages", "wrong_recipient"),
                wrong_value=first and damaged("messages", "wrong_value"),
                twice=first and damaged("messages", "other"),
            )
    return message_ids


def _world(draft: Draft) -> World:
    return World(
        organisation=ORGANISATION,
        run=draft.run,
        clock=SESSION_CLOCK,
        contacts=[Contact(id=cid, revisions=revs) for cid, revs in sorted(draft.contacts.items())],
        files=[StoredFile(path=path, versions=vs) for path, vs in sorted(draft.files.items())],
        messages=[
            Message(id=mid, subject=ann.subject, to=to, body=body, events=events)
            for mid, (ann, to, body, events) in sorted(draft.messages.items())
        ],
    )


def render_split(split: str, seed: int) -> dict[str, str]:
    """The files of a split: the public or full tasks with the benchmark's provenance, or a hidden
    split (`hid-` tasks of the public design, `hidfull-` tasks of the full one)."""
    if split == "hidden":
        return {"tasks.jsonl": dump_task_file(generate(seed, prefix="hid"))}
    if split == "hidden-full":
        return {FULL_FILE: dump_task_file(generate_full(seed, prefix="hidfull"))}
    from benchmark_core.data import provenance_markdown

    from ._definition import benchmark  # here: generating tasks needs no definition

    tasks = {"public": ("tasks.jsonl", generate), "full": (FULL_FILE, generate_full)}
    name, make = tasks[split]
    return {name: dump_task_file(make(seed)), "PROVENANCE.md": provenance_markdown(benchmark)}


def main(argv: Optional[Sequence[str]] = None) -> None:
    split_generator_main(
        argv,
        prog="python -m benchmark_rollback_recovery.generator",
        description="Write the benchmark's tasks: the committed public split, or a private hidden one.",
        public_seed=SEED,
        data_dir=DATA_DIR,
        render=render_split,
        committed_splits=("public", "full"),
        hidden_splits=("hidden", "hidden-full"),
    )


if __name__ == "__main__":
    main()
