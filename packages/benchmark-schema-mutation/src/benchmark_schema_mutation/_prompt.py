"""What a single task says: the request sampled from a base schema's pools, and the prompt around it.

Every split's prompt shows the current schema (never the previous one), the request and the answer
format. The full split's prompts also offer the decline format (`DECLINE_SENTENCE`), on every task
and not only where no call is right, so that the offer says nothing about the answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from benchmark_core import JsonObject, Mulberry32, Task, ToolSpec
from benchmark_core.wire import to_wire

from ._mutations import Migration
from ._schemas.types import BaseSchema

#: The answer format's way to decline, stated in the full split's prompts (docs/grading.md).
DECLINE_SENTENCE = (
    "If the request cannot be carried out with the tools as defined, answer instead with exactly one JSON object "
    '{"decline": "<why, in one sentence>"} and make no call.'
)
#: Said in the native system message of the tasks that offer a decline.
NATIVE_DECLINE_SENTENCE = "If the request cannot be carried out with these tools, say why and call no tool."

KIND_SLUGS = {
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


def render_prompt(
    title: str, tools: Sequence[ToolSpec], schema_version: str, request: str, *, decline: bool = False
) -> str:
    """The prompt: the current schema (never the previous one), the request, and the answer format
    (with `decline`, also the way to decline)."""
    noun = "schema" if len(tools) == 1 else "schemas"
    schema_text = json.dumps(to_wire(list(tools)), ensure_ascii=False, indent=2)
    prompt = (
        f"You are calling the {title} API. Its current tool {noun} (schema_version {schema_version}):\n\n"
        f"```json\n{schema_text}\n```\n\n"
        f"Request: {request}\n\n"
        'Answer with exactly one JSON object {"name": "<tool name>", "arguments": {...}} that makes this call '
        "with the tool as defined above. Include only the arguments the request gives values for."
    )
    return f"{prompt} {DECLINE_SENTENCE}" if decline else prompt


def migrated_request(base: BaseSchema, migration: Migration, phrases: dict[str, str]) -> str:
    """The request of a migrated call: the migration's own, or the base template with the sampled
    phrases, followed by the sentence the migration needs (a new required field's value)."""
    request = migration.request or base.template.format(**phrases)
    return f"{request} {migration.request_suffix}" if migration.request_suffix else request


def mutation_task(
    base: BaseSchema, migration: Migration, request: str, *, task_id: str, split: str, seed: int, decline: bool = False
) -> Task:
    """A single task: the current schema and the request in the prompt, the expected call, and the
    metadata the grader reads (with `decline`, the prompt offers the decline format and says so)."""
    offered: JsonObject = {"declineOffered": True} if decline else {}
    return Task(
        id=task_id,
        kind="single",
        prompt=render_prompt(base.title, migration.tools, migration.schema_version, request, decline=decline),
        expected=migration.expected,
        tools=migration.tools,
        metadata={
            "mutationKind": migration.kind,
            "mutation": migration.description,
            "baseSchema": base.id,
            "schemaVersion": migration.schema_version,
            "previousVersion": base.version,
            "request": request,
            "staleCall": migration.stale,
            "previousTools": to_wire(migration.previous_tools),
            "mutatedElements": migration.elements,
            **offered,
            "split": split,
            "seed": seed,
        },
    )
