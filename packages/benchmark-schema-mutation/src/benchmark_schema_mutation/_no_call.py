"""The full split's requests that must not become a call (`mutationKind: "noCall"`).

Each base schema has one authored `NoCall` (`_schemas`): the tool was removed with no successor,
a new required field needs a value the request does not give (and the schema allows no default),
or the operation needs an OAuth scope the caller's token lacks. The request is sampled from the
base schema's pools like every other task's; the right answer is no call: in prompt mode the
decline object `{"decline": "..."}`, in native mode no tool call (docs/grading.md). The task's
`expected` is that decline object, with the authored explanation as its reason.
"""

from __future__ import annotations

from benchmark_core import JsonObject, Mulberry32, Task, ToolSpec
from benchmark_core.wire import to_wire

from ._extract import DECLINE_KEY
from ._mutations import _call, _tool, next_major, previous_tool
from ._prompt import render_prompt, sample_call
from ._schemas.types import BaseSchema, NoCall

NO_CALL = "noCall"


def _append(description: str, notice: str) -> str:
    return f"{description} {notice}"


def current_tools(base: BaseSchema, spec: NoCall) -> list[ToolSpec]:
    """The tools the current version offers for a no-call request (see `NoCall`)."""
    if spec.reason_kind == "removed":
        tools = [_tool(e.name, e.description, e.properties, list(e.required)) for e in spec.remaining]
        first = tools[0]
        return [ToolSpec(first.name, _append(first.description, spec.notice), first.parameters), *tools[1:]]
    properties: JsonObject = dict(base.properties)
    required = list(base.required)
    if spec.reason_kind == "missingRequired":
        properties[spec.field] = spec.schema
        required.append(spec.field)
    return [_tool(base.tool, _append(base.description, spec.notice), properties, required)]


def no_call_task(base: BaseSchema, spec: NoCall, rng: Mulberry32, *, task_id: str, split: str, seed: int) -> Task:
    """The no-call task of `base`: its request (the base template, then the authored sentence), the
    current tools, and the decline as the expected answer."""
    arguments, phrases = sample_call(base, rng)
    request = base.template.format(**phrases)
    if spec.sentence:
        request = f"{request} {spec.sentence}"
    tools = current_tools(base, spec)
    version = next_major(base.version)
    return Task(
        id=task_id,
        kind="single",
        prompt=render_prompt(base.title, tools, version, request, decline=True),
        expected={DECLINE_KEY: spec.explanation},
        tools=tools,
        metadata={
            "mutationKind": NO_CALL,
            "noCallReason": spec.reason_kind,
            "mutation": spec.explanation,
            "baseSchema": base.id,
            "schemaVersion": version,
            "previousVersion": base.version,
            "request": request,
            "staleCall": _call(base.tool, arguments),
            "previousTools": to_wire([previous_tool(base)]),
            "mutatedElements": [],
            "declineOffered": True,
            "split": split,
            "seed": seed,
        },
    )
