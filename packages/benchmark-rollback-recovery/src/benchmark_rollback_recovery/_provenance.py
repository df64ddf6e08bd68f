"""The provenance record behind `data/PROVENANCE.md` (rendered by core's `provenance_markdown`)."""

from __future__ import annotations

from benchmark_core import Provenance

PROVENANCE = [
    Provenance(
        name="benchmark-rollback-recovery task generator",
        kind="synthetic",
        url="https://aibenchmarkindex.com/benchmarks/benchmark-rollback-recovery",
        licence="MIT",
        how_to_get=(
            "python -m benchmark_rollback_recovery.generator (seed 20261015) writes data/tasks.jsonl: "
            "48 episodes, 36 incidents (3 stores x 3 kinds x 4 prompt forms) and 12 clean controls."
        ),
        retrieved_at="2026-10-15T00:00:00Z",
        contamination_notes=(
            "Synthetic people, companies, files and messages; the public tasks and the generator are open, so "
            "a model may have seen them. For a private evaluation generate a hidden split with "
            "--split hidden --seed <private seed> (the public seed is refused) and run it with --tasks."
        ),
        refresh="Regenerated only when the generator changes; a test checks the committed file byte for byte.",
    )
]
