"""The JSON documents the surfaces return, built once here so that `--json` on the CLI, the HTTP API
and the MCP tools answer with the same bytes for the same question (tests compare them across the
surfaces). Each document that a remote surface serves has its JSON Schema next to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from ..__about__ import __version__
from .._model import JsonObject, Provenance, Task
from ..wire._converter import to_wire

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..wire._schema import JsonSchema
    from ._submissions import Submission


def task_list_document(benchmark: Benchmark, tasks: list[Task]) -> dict[str, Any]:
    """`{benchmark, count, tasks}`: `list --json`, `GET /v1/tasks` and the `list_tasks` tool."""
    return {"benchmark": benchmark.id, "count": len(tasks), "tasks": to_wire(tasks)}


def provenance_document(benchmark: Benchmark) -> dict[str, Any]:
    """`{benchmark, provenance, markdown}`: the records and their rendered Markdown, as
    `provenance --json`, `GET /v1/provenance` and the `get_provenance` tool return them."""
    from ..reports._report import provenance_markdown

    return {
        "benchmark": benchmark.id,
        "provenance": to_wire(benchmark.provenance),
        "markdown": provenance_markdown(benchmark),
    }


def index_entry_document(benchmark: Benchmark, tasks: list[Task]) -> dict[str, Any]:
    """The benchmark's directory record: `index-entry` and `GET /v1/index-entry`."""
    from ..reports._report import index_entry

    return to_wire(index_entry(benchmark, tasks))  # type: ignore[no-any-return]


def health_document(benchmark: Benchmark) -> dict[str, Any]:
    """`GET /health`: the package identity."""
    return {
        "status": "ok",
        "benchmark": benchmark.id,
        "name": benchmark.name,
        "version": benchmark.version,
        "distribution": benchmark.distribution,
        "benchmarkCoreVersion": __version__,
    }


def health_document_schema() -> JsonSchema:
    return _every_property_required(
        {
            "status": {"const": "ok"},
            "benchmark": {"type": "string"},
            "name": {"type": "string"},
            "version": {"type": "string"},
            "distribution": {"type": ["string", "null"]},
            "benchmarkCoreVersion": {"type": "string"},
        }
    )


async def score_batch_document(
    benchmark: Benchmark, submissions: Sequence[Submission], tasks: Optional[Any], seed: int
) -> dict[str, Any]:
    """Grade every submission (each against its own epoch's seed) into `{benchmark, mean, count,
    changed, results}`: `changed` counts the submissions whose recorded score (from a saved report)
    differs from the new verdict; each result is the verdict with its `taskId` and, when known, its
    `recordedScore`."""
    from .._util.rng import epoch_seed

    results: list[dict[str, Any]] = []
    total = 0.0
    changed = 0
    for submission in submissions:
        task = await benchmark.get_task(submission.task_id, tasks)
        verdict = await benchmark.grade(
            task, submission.trace, benchmark.grade_context(epoch_seed(seed, submission.epoch))
        )
        row: dict[str, Any] = {"taskId": submission.task_id, **to_wire(verdict)}
        if submission.recorded_score is not None:
            row["recordedScore"] = submission.recorded_score
            changed += submission.recorded_score != verdict.score
        total += verdict.score
        results.append(row)
    mean = total / len(results) if results else 0.0
    return {"benchmark": benchmark.id, "mean": mean, "count": len(results), "changed": changed, "results": results}


def task_list_schema() -> JsonSchema:
    from ..wire._schema import wire_schema

    return _every_property_required(
        {
            "benchmark": {"type": "string"},
            "count": {"type": "integer"},
            "tasks": {"type": "array", "items": wire_schema(Task)},
        }
    )


def provenance_document_schema() -> JsonSchema:
    from ..wire._schema import wire_schema

    return _every_property_required(
        {
            "benchmark": {"type": "string"},
            "provenance": {"type": "array", "items": wire_schema(Provenance)},
            "markdown": {"type": "string", "description": "The provenance rendered as Markdown."},
        }
    )


def _every_property_required(properties: JsonObject) -> JsonSchema:
    """A document's schema: an object with every one of `properties`, and no other."""
    from ..episodes._toolbox import object_schema  # not on the `list`/`show` startup path

    return object_schema(properties, properties)
