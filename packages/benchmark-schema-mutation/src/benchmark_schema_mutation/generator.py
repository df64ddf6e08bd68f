"""The committed task generator: `python -m benchmark_schema_mutation.generator`.

Seed 20261015 reproduces the public split, `data/tasks.jsonl`, byte for byte (a test checks it), and
`data/PROVENANCE.md` is rendered from the benchmark's provenance records. Every base schema gets
each of the five mutations once, so 12 base schemas give 60 tasks, 12 per mutation kind; the seed
picks the request's values and the authored alternatives of each migration.

`--split extended` writes the extended split, `data/tasks-extended.jsonl` (the same seed, `ext-` ids):
the three kinds of `extended.py` (deprecation, paginationChange, scopeChange) for every base schema,
36 tasks, 12 per kind.

`--split hidden --seed N` writes a held-out split with `hid-` ids to `.hidden/tasks.jsonl`, its
migrations drawn from the authored alternatives of `held_out.py`, never the public ones. The
repository ignores `.hidden/`, and the generator also puts a `.gitignore` that ignores everything
into the folder, so a hidden split stays out of any git repository it is written in. A hidden split
needs an explicit seed other than the public one, so it can never silently equal the committed tasks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from benchmark_core import (
    JsonObject,
    Mulberry32,
    Task,
    ToolSpec,
    dump_task_file,
    mulberry32,
    provenance_markdown,
    to_wire,
)

from ._definition import EXTENDED_TASKS_FILE, TASKS_FILE, benchmark
from ._mutations import EXTENDED_KINDS, MUTATION_KINDS, migrate
from ._schemas import BASE_SCHEMAS, BaseSchema

PUBLIC_SEED = 20261015
SPLITS: tuple[str, ...] = ("public", "hidden", "extended")
ID_PREFIXES = {"public": "sm", "hidden": "hid", "extended": "ext"}
#: The committed splits: their seed is always the public one.
COMMITTED_FILES = {"public": TASKS_FILE, "extended": EXTENDED_TASKS_FILE}
HIDDEN_DIR = Path(".hidden")
PROVENANCE_FILE = "PROVENANCE.md"
HIDDEN_GITIGNORE = "# A held-out split: keep it out of version control.\n*\n"

_KIND_SLUGS = {
    "renamedField": "renamed-field",
    "newRequired": "new-required",
    "enumChange": "enum-change",
    "splitEndpoint": "split-endpoint",
    "typeChange": "type-change",
    "deprecation": "deprecation",
    "paginationChange": "pagination-change",
    "scopeChange": "scope-change",
}


def sample_call(base: BaseSchema, rng: Mulberry32) -> tuple[JsonObject, dict[str, str]]:
    """One option from each of the base schema's pools: the previous version's arguments (in schema
    order) and the request phrases. An argument without an authored phrase is said as it is."""
    arguments: JsonObject = {}
    phrases: dict[str, str] = {}
    for pool in base.pools:
        option = rng.choice(pool)
        arguments.update(option.arguments)
        phrases.update({key: str(value) for key, value in option.arguments.items()})
        phrases.update(option.phrases)
    ordered = {key: arguments[key] for key in base.properties if key in arguments}
    return ordered, phrases


def render_prompt(title: str, tools: Sequence[ToolSpec], schema_version: str, request: str) -> str:
    """The prompt: the current schema (never the previous one), the request, and the answer format."""
    noun = "schema" if len(tools) == 1 else "schemas"
    schema_text = json.dumps(to_wire(list(tools)), ensure_ascii=False, indent=2)
    return (
        f"You are calling the {title} API. Its current tool {noun} (schema_version {schema_version}):\n\n"
        f"```json\n{schema_text}\n```\n\n"
        f"Request: {request}\n\n"
        'Answer with exactly one JSON object {"name": "<tool name>", "arguments": {...}} that makes this call '
        "with the tool as defined above. Include only the arguments the request gives values for."
    )


def generate_tasks(seed: int = PUBLIC_SEED, split: str = "public") -> list[Task]:
    """The tasks of a split: for each base schema in catalogue order, one task per mutation kind of
    the split (60 for public and hidden, 36 for extended)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    rng = mulberry32(seed)
    prefix = ID_PREFIXES[split]
    kinds = EXTENDED_KINDS if split == "extended" else MUTATION_KINDS
    tasks: list[Task] = []
    for base in BASE_SCHEMAS:
        for kind in kinds:
            arguments, phrases = sample_call(base, rng)
            migration = migrate(base, kind, arguments, rng, held_out=split == "hidden")
            request = migration.request or base.template.format(**phrases)
            if migration.request_suffix:
                request = f"{request} {migration.request_suffix}"
            tasks.append(
                Task(
                    id=f"{prefix}-{base.id}-{_KIND_SLUGS[kind]}",
                    kind="single",
                    prompt=render_prompt(base.title, migration.tools, migration.schema_version, request),
                    expected=migration.expected,
                    tools=migration.tools,
                    metadata={
                        "mutationKind": kind,
                        "mutation": migration.description,
                        "baseSchema": base.id,
                        "schemaVersion": migration.schema_version,
                        "previousVersion": base.version,
                        "request": request,
                        "staleCall": migration.stale,
                        "previousTools": to_wire(migration.previous_tools),
                        "mutatedElements": migration.elements,
                        "split": split,
                        "seed": seed,
                    },
                )
            )
    return tasks


def render_tasks(seed: int = PUBLIC_SEED, split: str = "public") -> str:
    """The JSONL text of a split, exactly as committed."""
    return dump_task_file(generate_tasks(seed, split))


def render_provenance() -> str:
    """`data/PROVENANCE.md`, rendered from the benchmark's provenance records."""
    return provenance_markdown(benchmark)


def write_split(split: str, seed: int, out: Path) -> list[Path]:
    """Write a split's tasks into `out`, with the benchmark's provenance (committed splits) or a
    `.gitignore` that ignores the whole folder (hidden split; an existing one is left alone)."""
    out.mkdir(parents=True, exist_ok=True)
    tasks_path = out / COMMITTED_FILES.get(split, TASKS_FILE).name
    tasks_path.write_text(render_tasks(seed, split), encoding="utf-8")
    written = [tasks_path]
    if split in COMMITTED_FILES:
        provenance_path = out / PROVENANCE_FILE
        provenance_path.write_text(render_provenance(), encoding="utf-8")
        written.append(provenance_path)
    else:
        ignore_path = out / ".gitignore"
        if not ignore_path.exists():
            ignore_path.write_text(HIDDEN_GITIGNORE, encoding="utf-8")
            written.append(ignore_path)
    return written


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_schema_mutation.generator",
        description="Write the public split (seed 20261015, into the package's data/ folder as tasks.jsonl), "
        "the extended split (the same seed, tasks-extended.jsonl) or a held-out hidden split (hid- ids, into "
        ".hidden/).",
    )
    parser.add_argument("--split", choices=SPLITS, default="public")
    parser.add_argument("--seed", type=int, default=None, help="required for --split hidden")
    parser.add_argument("--out", type=Path, default=None, help="output folder")
    args = parser.parse_args(argv)
    if args.split == "hidden":
        if args.seed is None:
            parser.error("--split hidden needs an explicit --seed (and keep it private)")
        if args.seed == PUBLIC_SEED:
            parser.error(f"--split hidden cannot use the public seed {PUBLIC_SEED}")
        seed, out = args.seed, args.out or HIDDEN_DIR
    else:
        # Another seed would overwrite a committed split with tasks nobody published.
        if args.seed not in (None, PUBLIC_SEED):
            parser.error(f"the {args.split} split always uses seed {PUBLIC_SEED}; use --split hidden for another seed")
        seed, out = PUBLIC_SEED, args.out or TASKS_FILE.parent
    for path in write_split(args.split, seed, out):
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
