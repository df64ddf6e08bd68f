"""The bundled example benchmark: 20 arithmetic questions and one order-refund episode.

It exercises every surface (single tasks, an episode with a transient fault, replay grading) and is
what `benchmark-core run --model offline --provider mock` runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..__about__ import __version__
from .._benchmark.definition import define_benchmark
from .._model import Provenance
from .._util.lazy import Deferred, lazy_attributes

if TYPE_CHECKING:
    from .environment import OrderLookupEnvironment

# The grader, environment and mock scripts are imported when first used (`Deferred`), as a benchmark
# package's are: `benchmark-core list` loads this definition and needs none of them.
benchmark = define_benchmark(
    id="benchmark-core-example",
    name="benchmark-core example",
    tagline="Arithmetic answers and one tool-use episode with a transient fault.",
    tags=["example", "arithmetic", "tool-use"],
    category="reasoning",
    what_it_measures="Exact arithmetic answers, and retrying a flaky tool then refunding within a policy limit.",
    version=__version__,
    status="alpha",
    grade=Deferred("benchmark_core.example.grading:grade"),
    tasks_file=Path(__file__).parent / "data" / "tasks.jsonl",
    environment=Deferred("benchmark_core.example.environment:OrderLookupEnvironment"),
    render_split=Deferred("benchmark_core.example.generator:render_split"),
    hidden_splits=("hidden",),
    mock_policies=Deferred("benchmark_core.example.policies:MOCK_POLICIES"),
    answer_modes=("prompt",),
    tasks_allow_env="BENCHMARK_CORE_TASKS_ALLOW",
    distribution="benchmark-core",
    grading_method=(
        "Arithmetic: the answer must parse as the exact number. Episode: the tool log is replayed in a fresh "
        "OrderLookupEnvironment; it passes when the order is refunded in full with no refused call."
    ),
    provenance=[
        Provenance(
            name="benchmark-core example generator",
            kind="synthetic",
            url="https://github.com/benchmark-core/benchmark-core",
            licence="MIT",
            how_to_get="python -m benchmark_core.example.generator (seed 20261015) writes data/tasks.jsonl.",
            retrieved_at="2026-10-15T00:00:00Z",
            contamination_notes="Public practice tasks that test the surfaces, not model ability.",
            refresh="Regenerated only when the generator changes; a test checks the committed file byte for byte.",
        )
    ],
)

__getattr__ = lazy_attributes(__name__, {".environment": ("OrderLookupEnvironment",)})

__all__ = ["OrderLookupEnvironment", "benchmark"]
