"""The Benchmark object every surface is built from, and the SDK's `run`, `run_async`, `score` and
`score_async`."""

from __future__ import annotations

from pathlib import Path

from benchmark_core import Deferred, define_benchmark

from .__about__ import __version__
from ._provenance import PROVENANCE

TASKS_FILE = Path(__file__).parent / "data" / "tasks.jsonl"
#: The extended split (deprecation, paginationChange, scopeChange): `--tasks tasks-extended`.
EXTENDED_TASKS_FILE = TASKS_FILE.with_name("tasks-extended.jsonl")
#: The full split (every base schema x every kind x two requests, noCall requests, drift episodes):
#: `--tasks full`.
FULL_TASKS_FILE = TASKS_FILE.with_name("tasks-full.jsonl")
#: The real split (changes Twilio shipped, from data/real-changes.json): `--tasks real`.
REAL_TASKS_FILE = TASKS_FILE.with_name("tasks-real.jsonl")
TASKS_ALLOW_ENV = "BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW"

# The grader, summaries, mock and native messages are imported when first used: `list`, `show` and
# `--help` load this definition and need none of them (nor the schema tables and the chat classes
# they import).
benchmark = define_benchmark(
    id="benchmark-schema-mutation",
    name="Schema Mutation",
    tagline="Does a model call the tool schema in front of it, or the one it memorised?",
    tags=["tool-use", "function-calling", "schema-drift", "json"],
    category="tool-use",
    what_it_measures=(
        "Whether a model follows a freshly migrated tool schema (a renamed field, a new required field, replaced "
        "enum values, an endpoint split in two, a changed type or unit) instead of the version it memorised, "
        "measured by exact match of the emitted JSON tool call."
    ),
    version=__version__,
    status="alpha",
    grade=Deferred("benchmark_schema_mutation._abstention:grade"),
    environment=Deferred("benchmark_schema_mutation._drift:DriftSimulator"),
    grading_method=(
        "Deterministic, no judge. The last {name, arguments} object of the answer (or the last native tool call) "
        "is compared with the canonical expected call as canonical JSON: 1 on an exact match; 0 with the typed "
        "reason staleSchemaUsed when it equals the pre-migration call; 0 otherwise, with the first differing "
        "path, validity against the current schema and the stale signals it shows. An answer with several distinct "
        "calls is graded on the last; the details count them and say whether an earlier one matched."
    ),
    provenance=PROVENANCE,
    tasks_file=TASKS_FILE,
    render_split=Deferred("benchmark_schema_mutation.generator:render_split"),
    hidden_splits=("hidden", "hidden-full"),
    mock_policies=Deferred("benchmark_schema_mutation._policies:MOCK_POLICIES"),
    summarize=Deferred("benchmark_schema_mutation._summary:summarize"),
    summary_markdown=Deferred("benchmark_schema_mutation._summary:summary_markdown"),
    groups=Deferred("benchmark_schema_mutation._summary:task_groups"),
    episode_context=Deferred("benchmark_schema_mutation._context:episode_context"),
    # Tasks of one base schema succeed and fail together: the interval resamples base schemas.
    cluster_by="baseSchema",
    answer_modes=("prompt", "native"),
    native_messages=Deferred("benchmark_schema_mutation._native:native_messages"),
    tasks_allow_env=TASKS_ALLOW_ENV,
    distribution="benchmark-schema-mutation",
)


# The SDK: the Benchmark's own methods (see `benchmark_core.Benchmark` for their options).
run = benchmark.run
run_async = benchmark.run_async
score = benchmark.score
score_async = benchmark.score_async
