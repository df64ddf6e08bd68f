"""The provenance record behind `data/PROVENANCE.md` (rendered by core's `provenance_markdown`)."""

from __future__ import annotations

from benchmark_core import Provenance

PROVENANCE = [
    Provenance(
        name="benchmark-schema-mutation task generator",
        kind="synthetic",
        url="https://github.com/benchmark-core/benchmark-core/tree/main/packages/benchmark-schema-mutation",
        licence="MIT",
        how_to_get=(
            "python -m benchmark_schema_mutation.generator writes the public split, data/tasks.jsonl (seed "
            "20261015), from 12 base tool schemas written for this project and five mutation kinds; "
            "--split extended writes data/tasks-extended.jsonl (the same seed), 36 tasks of three more kinds "
            "(deprecation, paginationChange, scopeChange); --split full writes data/tasks-full.jsonl (the same "
            "seed), 792 tasks from 36 base schemas: every kind with two requests, a request that must not become a "
            "call and five drift episodes per schema. No third-party benchmark or API documentation text is "
            "copied."
        ),
        retrieved_at="2026-10-15T00:00:00Z",
        contamination_notes=(
            "The public split is committed and will be seen by crawlers: treat it as practice data. Hidden-split "
            "plan: final comparisons use a held-out split written with `--split hidden --seed N` (ids start with "
            "hid-, written to the git-ignored .hidden/ folder); the seed is kept private and the file is loaded "
            "through --tasks or the BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW allow-list. A hidden split draws every "
            "migration from four authored alternatives per kind and base schema that the public split never uses, "
            "so none of its current schemas (the tools a model is shown) equals a public one, and two hidden seeds "
            "share about a fifth of them (at most 19 of 60 for seeds 2 to 11). `--split hidden-full --seed N` "
            "(hidfull- ids) does the same for the full split's core kinds and drift episodes and shares none of "
            "its current schemas with the committed full split (seeds 2, 3, 5, 7, 11 and 48213)."
        ),
        refresh=(
            "The public split changes only with the generator, and a test checks the committed file byte for "
            "byte. Hidden splits are re-drawn with a new private seed for every minor release, and at least "
            "every six months."
        ),
    )
]
