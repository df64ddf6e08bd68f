"""The full split (`data/tasks-full.jsonl`, `--tasks full`) and its hidden counterpart.

For every base schema, in catalogue order (the public twelve, then the added ones):

- every mutation kind (the five core and the three extended) with `FULL_REQUESTS` requests each,
  drawn from the pools until the expected calls differ (other values, other people);
- one request that must not become a call (`noCall`, `_no_call.py`);
- one drift episode per kind in `DRIFT_KINDS` (`_drift.py`): the client has the previous tools,
  the API answers the stale call with its error, and the model must then make the current call. In
  a deprecation episode the client's list has both the old tool and its successor, as a deprecation
  period ships them, and the API has since removed the old one (`410 Gone`, naming the successor).

Every single task's prompt offers the decline format, so that the offer says nothing about which
tasks have no right call.

A hidden full split (`--split hidden-full --seed N`, `hidfull-` ids) draws every migration from the
held-out alternatives, as the hidden split does: the five core kinds with `FULL_REQUESTS` requests
each and the drift episodes of the core kinds. The extended kinds and the noCall requests have one
authored version each, so a hidden split leaves them out rather than repeat the committed ones.
"""

from __future__ import annotations

import attrs
from benchmark_core import JsonObject, Mulberry32, Task, mulberry32

from ._drift import DRIFT
from ._mutations import (
    DEPRECATION,
    ENUM_CHANGE,
    EXTENDED_KINDS,
    MUTATION_KINDS,
    NEW_REQUIRED,
    RENAMED_FIELD,
    TYPE_CHANGE,
    Migration,
    migrate,
    previous_tool,
)
from ._no_call import no_call_task
from ._prompt import KIND_SLUGS, migrated_request, mutation_task, sample_call
from ._schemas.catalogue import ALL_SCHEMAS, NO_CALLS
from ._schemas.types import BaseSchema

FULL = "full"
HIDDEN_FULL = "hidden-full"
ID_PREFIXES = {FULL: "full", HIDDEN_FULL: "hidfull"}
#: Requests per base schema and mutation kind.
FULL_REQUESTS = 2
#: The kinds whose stale call a real API refuses with an error that says what changed, and whose
#: corrected call the client can send with the tools it has: the tool keeps its name, or (a
#: deprecation) its successor was already listed. A split endpoint is left out: its successors are
#: tools the client's list would not have.
DRIFT_KINDS: tuple[str, ...] = (RENAMED_FIELD, NEW_REQUIRED, ENUM_CHANGE, TYPE_CHANGE, DEPRECATION)
#: Draws tried for a request whose expected call differs from the earlier ones of its kind.
_MAX_DRAWS = 50


def _draw(
    base: BaseSchema, kind: str, rng: Mulberry32, held_out: bool, taken: list[JsonObject]
) -> tuple[Migration, str]:
    """A migration of `base` by `kind` whose expected call is not among `taken`, and its request."""
    for _ in range(_MAX_DRAWS):
        arguments, phrases = sample_call(base, rng)
        migration = migrate(base, kind, arguments, rng, held_out=held_out)
        if migration.expected not in taken:
            taken.append(migration.expected)
            return migration, migrated_request(base, migration, phrases)
    raise ValueError(f"{base.id}: fewer than {len(taken) + 1} distinct {kind} requests in {_MAX_DRAWS} draws")


def drift_task(base: BaseSchema, migration: Migration, request: str, *, task_id: str, split: str, seed: int) -> Task:
    """A drift episode: the user's request, the current tools the API enforces and the expected call;
    the client's previous tools are in the metadata, which the simulator offers the model. The
    metadata is a single task's, with the kind it drifts from and the API's title added."""
    if migration.kind == DEPRECATION:
        # The client listed the old tool and its successor; the API now has only the successor.
        (_, successor) = migration.tools
        migration = attrs.evolve(migration, tools=[successor], previous_tools=[previous_tool(base), successor])
    single = mutation_task(base, migration, request, task_id=task_id, split=split, seed=seed)
    metadata = {**single.metadata, "mutationKind": DRIFT, "driftOf": migration.kind, "apiTitle": base.title}
    return attrs.evolve(single, kind="episode", prompt=request, metadata=metadata)


def full_tasks(seed: int, split: str = FULL) -> list[Task]:
    """The tasks of the full split (or, with `hidden-full`, of a held-out one): the single tasks
    schema by schema, then the noCall requests, then the drift episodes (each block in catalogue
    order), all drawn from one seeded generator."""
    if split not in ID_PREFIXES:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(ID_PREFIXES)}")
    held_out = split == HIDDEN_FULL
    prefix = ID_PREFIXES[split]
    rng = mulberry32(seed)
    kinds = MUTATION_KINDS if held_out else MUTATION_KINDS + EXTENDED_KINDS
    tasks: list[Task] = []
    for base in ALL_SCHEMAS:
        for kind in kinds:
            taken: list[JsonObject] = []
            for number in range(1, FULL_REQUESTS + 1):
                migration, request = _draw(base, kind, rng, held_out, taken)
                task_id = f"{prefix}-{base.id}-{KIND_SLUGS[kind]}-{number}"
                tasks.append(
                    mutation_task(base, migration, request, task_id=task_id, split=split, seed=seed, decline=True)
                )
    if not held_out:
        for base in ALL_SCHEMAS:
            task_id = f"{prefix}-{base.id}-no-call"
            tasks.append(no_call_task(base, NO_CALLS[base.id], rng, task_id=task_id, split=split, seed=seed))
    # A hidden split has held-out alternatives for the core kinds only.
    drift_kinds = [kind for kind in DRIFT_KINDS if kind in MUTATION_KINDS or not held_out]
    for base in ALL_SCHEMAS:
        for kind in drift_kinds:
            migration, request = _draw(base, kind, rng, held_out, [])
            task_id = f"{prefix}-{base.id}-drift-{KIND_SLUGS[kind]}"
            tasks.append(drift_task(base, migration, request, task_id=task_id, split=split, seed=seed))
    return tasks
