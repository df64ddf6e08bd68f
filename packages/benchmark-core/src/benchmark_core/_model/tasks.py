"""What a benchmark's definition and task files hold: tasks (with the tools they offer) and provenance
records; and what the whole model shares: the JSON aliases and the field metadata that the wire
converter (`benchmark_core.wire._converter`) and the wire schemas (`benchmark_core.wire._schema`) read.

The other parts of the model import from here; this part imports none of them, so reading a task
file (all that `list` does) defines only these classes.
"""

from __future__ import annotations

from typing import Any, Literal

from attrs import Factory, field, frozen

#: Any JSON value (null, bool, number, string, array, object). Kept as `Any` because a recursive
#: alias cannot be structured by cattrs and buys nothing at the JSON boundary.
JsonValue = Any
#: A JSON object.
JsonObject = dict[str, Any]

#: Field metadata for attributes that are left out of the wire form while they hold their default,
#: so that a document gains a key only where it has something to say (and older reports keep their bytes).
OMIT_IF_DEFAULT = {"omit_if_default": True}
#: Field metadata for a mapping whose keys sit at the top level of the owner's wire form, where the
#: field stands (a report's benchmark-specific summary); the owner's wire form then admits keys of
#: its own beyond its attributes, which go back into that mapping when it is read.
FLATTENED = {"flattened": True}
#: Field metadata for a JSON object that may also arrive as its JSON-encoded string, as
#: OpenAI-compatible providers send a tool call's arguments.
MAY_BE_JSON_STRING = {"may_be_json_string": True}


def optional_field(default: Any = None) -> Any:
    """An attribute left out of the wire form while it holds `default` (see `OMIT_IF_DEFAULT`)."""
    return field(default=default, metadata=OMIT_IF_DEFAULT)


TaskKind = Literal["single", "episode"]
TASK_KINDS: tuple[str, ...] = ("single", "episode")


@frozen
class ToolSpec:
    """A tool offered to a model: a name, what it does, and a JSON Schema for its arguments."""

    name: str
    description: str = ""
    parameters: JsonObject = Factory(lambda: {"type": "object", "properties": {}})


@frozen
class Task:
    """One benchmark task.

    `expected` is what a single task's grader compares against; `tools` are offered to the model
    (episodes always get theirs from the environment instead); `metadata` holds the benchmark's own
    typed fields, which its grader and generator own.
    """

    id: str
    kind: TaskKind
    prompt: str
    expected: JsonValue = None
    tools: list[ToolSpec] = Factory(list)
    metadata: JsonObject = Factory(dict)


#: Where a data source's tasks come from: `synthetic` (made by a generator), `human-written` (authored
#: by people for this benchmark), `derived` (transformed from another data set), `scraped` (collected
#: from public pages) or `licensed` (obtained under a licence from its owner).
ProvenanceKind = Literal["synthetic", "human-written", "derived", "scraped", "licensed"]
PROVENANCE_KINDS: tuple[str, ...] = ("synthetic", "human-written", "derived", "scraped", "licensed")


@frozen
class Provenance:
    """One source of a benchmark's tasks; a definition needs at least one, and `provenance` (CLI,
    HTTP, MCP) and data/PROVENANCE.md show them.

    - `name`: what the source is called ("letter-bench task generator").
    - `kind`: one of `PROVENANCE_KINDS` (the `ProvenanceKind` values): synthetic, human-written,
      derived, scraped or licensed.
    - `url`: where the source lives ("-" when nowhere but the package).
    - `licence`: the licence the tasks are under (an SPDX id, such as MIT or CC-BY-4.0).
    - `how_to_get`: how to obtain or regenerate the data (a command, a download).
    - `retrieved_at`: when the data was obtained, as an ISO 8601 UTC timestamp; for generated data,
      when the generator was written.
    - `contamination_notes`: how likely models have seen the tasks, and what to do about it.
    - `refresh`: when and how the data is renewed.
    """

    name: str
    kind: ProvenanceKind
    url: str
    licence: str
    how_to_get: str
    retrieved_at: str
    contamination_notes: str
    refresh: str


BenchmarkStatus = Literal["alpha", "beta", "stable", "deprecated"]
BENCHMARK_STATUSES: tuple[str, ...] = ("alpha", "beta", "stable", "deprecated")
