"""The committed task generator: `python -m benchmark_schema_mutation.generator`.

Seed 20261015 reproduces the public split, `data/tasks.jsonl`, byte for byte (a test checks it), and
`data/PROVENANCE.md` is rendered from the benchmark's provenance records. Every base schema gets
each of the five mutations once, so 12 base schemas give 60 tasks, 12 per mutation kind; the seed
picks the request's values and the authored alternatives of each migration.

`--split extended` writes the extended split, `data/tasks-extended.jsonl` (the same seed, `ext-` ids):
the three extended kinds (deprecation, paginationChange, scopeChange) for every base schema,
36 tasks, 12 per kind.

`--split hidden --seed N` writes a held-out split with `hid-` ids to `.hidden/tasks.jsonl`, its
migrations drawn from the held-out alternatives authored with each base schema, never the public ones. The
repository ignores `.hidden/`, and the generator also puts a `.gitignore` that ignores everything
into the folder, so a hidden split stays out of any git repository it is written in. A hidden split
needs an explicit seed other than the public one, so it can never silently equal the committed tasks.

`--split full` writes the full split, `data/tasks-full.jsonl` (the same seed, `full-` ids; `_full.py`):
every base schema x every kind x two requests, a noCall request per schema and the drift episodes.
`--split hidden-full --seed N` writes its held-out counterpart to `.hidden/tasks-full.jsonl`.

`--split real` writes the real split, `data/tasks-real.jsonl` (the same seed, `real-` ids; `_real.py`),
from the changes Twilio shipped (`data/real-changes.json`, mined by `tools/mine_api_changes.py`);
`--split hidden-real --seed N` draws other requests and values over the same changes into
`.hidden/tasks-real.jsonl` (`hidreal-` ids).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from benchmark_core import Task, mulberry32
from benchmark_core.data import dump_task_file, provenance_markdown, split_generator_main

from ._definition import EXTENDED_TASKS_FILE, FULL_TASKS_FILE, REAL_TASKS_FILE, TASKS_FILE, benchmark
from ._full import FULL, HIDDEN_FULL, full_tasks
from ._mutations import EXTENDED_KINDS, MUTATION_KINDS, migrate
from ._prompt import KIND_SLUGS, migrated_request, mutation_task, sample_call
from ._provenance import TWILIO_LICENCE_SECTION
from ._real import HIDDEN_REAL, REAL, real_tasks
from ._schemas.catalogue import BASE_SCHEMAS

PUBLIC_SEED = 20261015
SPLITS: tuple[str, ...] = ("public", "hidden", "extended", FULL, HIDDEN_FULL, REAL, HIDDEN_REAL)
ID_PREFIXES = {"public": "sm", "hidden": "hid", "extended": "ext"}
#: The committed splits: their seed is always the public one.
COMMITTED_FILES = {
    "public": TASKS_FILE,
    "extended": EXTENDED_TASKS_FILE,
    FULL: FULL_TASKS_FILE,
    REAL: REAL_TASKS_FILE,
}
#: The held-out splits and the file each is written to (in `.hidden/`).
HIDDEN_FILES = {"hidden": TASKS_FILE.name, HIDDEN_FULL: FULL_TASKS_FILE.name, HIDDEN_REAL: REAL_TASKS_FILE.name}
PROVENANCE_FILE = "PROVENANCE.md"


def generate_tasks(seed: int = PUBLIC_SEED, split: str = "public") -> list[Task]:
    """The tasks of a split: for each base schema in catalogue order, one task per mutation kind of
    the split (60 for public and hidden, 36 for extended)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    if split in (FULL, HIDDEN_FULL):
        return full_tasks(seed, split)
    if split in (REAL, HIDDEN_REAL):
        return real_tasks(seed, split)
    rng = mulberry32(seed)
    prefix = ID_PREFIXES[split]
    kinds = EXTENDED_KINDS if split == "extended" else MUTATION_KINDS
    tasks: list[Task] = []
    for base in BASE_SCHEMAS:
        for kind in kinds:
            arguments, phrases = sample_call(base, rng)
            migration = migrate(base, kind, arguments, rng, held_out=split == "hidden")
            request = migrated_request(base, migration, phrases)
            task_id = f"{prefix}-{base.id}-{KIND_SLUGS[kind]}"
            tasks.append(mutation_task(base, migration, request, task_id=task_id, split=split, seed=seed))
    return tasks


def render_tasks(seed: int = PUBLIC_SEED, split: str = "public") -> str:
    """The JSONL text of a split, exactly as committed."""
    return dump_task_file(generate_tasks(seed, split))


def render_provenance() -> str:
    """`data/PROVENANCE.md`, rendered from the benchmark's provenance records, then the licence of
    the Twilio descriptions the real split is derived from (its MIT terms ask for the notice)."""
    return provenance_markdown(benchmark) + TWILIO_LICENCE_SECTION


def render_split(split: str, seed: int) -> dict[str, str]:
    """The files of a split: its task file, with the benchmark's provenance beside a committed one."""
    if split not in COMMITTED_FILES:
        return {HIDDEN_FILES[split]: render_tasks(seed, split)}
    return {COMMITTED_FILES[split].name: render_tasks(seed, split), PROVENANCE_FILE: render_provenance()}


def main(argv: Optional[Sequence[str]] = None) -> None:
    split_generator_main(
        argv,
        prog="python -m benchmark_schema_mutation.generator",
        description="Write the public split (seed 20261015, into the package's data/ folder as tasks.jsonl), "
        "the extended split (the same seed, tasks-extended.jsonl), the full split (the same seed, tasks-full.jsonl), "
        "the real split (the same seed, tasks-real.jsonl), or a held-out hidden split of the public, the full or "
        "the real split (hid-, hidfull- or hidreal- ids, into .hidden/).",
        public_seed=PUBLIC_SEED,
        data_dir=TASKS_FILE.parent,
        render=render_split,
        committed_splits=tuple(COMMITTED_FILES),
        hidden_splits=tuple(HIDDEN_FILES),
    )


if __name__ == "__main__":
    main()
