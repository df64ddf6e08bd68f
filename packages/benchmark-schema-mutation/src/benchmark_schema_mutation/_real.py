"""The real split (`data/tasks-real.jsonl`, `--tasks real`): every task a change Twilio shipped.

The tasks are generated from `data/real-changes.json`, which `tools/mine_api_changes.py` mines from
the history of Twilio's OpenAPI descriptions (`twilio/twilio-oai`): request-parameter changes
between two releases, each linked to its `CHANGES.md` entry. Every task takes its tool schema from
the release after the change and its stale call from the release before, and records the change in
its metadata (kind, product, operation, release tags and date, change id, changelog reference).

Per change, in the data file's order:

- a removed parameter (`removedField`): `REAL_REQUESTS` requests that give its value "if the current
  version still takes it" (the right call leaves it out), one request that needs it (`noCall`), and a
  drift episode (the API refuses the stale call with Twilio's error for an unknown parameter);
- a renamed parameter (`renamedField`): `REAL_REQUESTS` requests;
- a new required parameter (`newRequired`): `REAL_REQUESTS` requests that give its value, one that
  does not (`noCall`: no value to send), and a drift episode (Twilio's missing-parameter error);
- removed enum values (`enumChange`): one request for a removed value (`noCall`);
- a removed operation (`removedOperation`): one request for it (`noCall`), the file's neighbouring
  operations as the current tools. An operation removed with its whole API (the file deleted) gives
  no task: there is no current tool to show, and a native run needs one;
- a new optional parameter (`addedOptional`): one control, whose old call is still the right one.

A hidden real split (`--split hidden-real --seed N`, `hidreal-` ids) draws other requests and values
over the same changes.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Optional

import attrs
from benchmark_core import JsonObject, Mulberry32, Task, ToolSpec, mulberry32
from benchmark_core.wire import to_wire

from ._drift import DRIFT
from ._extract import DECLINE_KEY
from ._no_call import NO_CALL
from ._prompt import render_prompt
from ._real_values import drawable, human, phrase, value_for

REAL = "real"
HIDDEN_REAL = "hidden-real"
ID_PREFIXES = {REAL: "real", HIDDEN_REAL: "hidreal"}
CHANGES_FILE = Path(__file__).parent / "data" / "real-changes.json"
#: Requests per removed, renamed or newly required parameter.
REAL_REQUESTS = 4
#: The control kind: an additive change, after which the old call is still right.
CONTROL = "control"
#: Optional parameters a request adds beside the required ones and the changed one, at most.
EXTRA_OPTIONAL = 2
_MAX_DRAWS = 50
_SLUGS = {"removedField": "removed-field", "renamedField": "renamed-field", "newRequired": "new-required"}
_TEMPLATES = (
    "Using Twilio {product}, {action} with {phrases}.",
    "On our Twilio account, {action} in {product}: {phrases}.",
    "Please {action} through the Twilio {product} API ({phrases}).",
)
_VERBS = {"Create": "create", "Update": "update", "Fetch": "fetch", "List": "list", "Delete": "delete"}
Change = dict[str, Any]


@functools.lru_cache(maxsize=1)
def real_changes() -> tuple[Change, ...]:
    """The mined changes, in the data file's order."""
    data = json.loads(CHANGES_FILE.read_text(encoding="utf-8"))
    return tuple(data["changes"])


def tool(change: Change, facts: JsonObject, operation_id: Optional[str] = None, path: str = "") -> ToolSpec:
    """The tool of one operation at one release: its parameters' facts, unknown ones refused."""
    op_id = operation_id or change["operationId"]
    method = str(facts.get("method", change["method"])).upper()
    return ToolSpec(
        name=f"{change['api']}.{op_id}",
        description=f"Twilio {title(change)} {method} {path or change['path']}",
        parameters={
            "type": "object",
            "properties": dict(facts["properties"]),
            "required": list(facts["required"]),
            "additionalProperties": False,
        },
    )


def title(change: Change) -> str:
    """`events_v1` -> `Events v1`; `api_v2010` -> `Api v2010`."""
    return " ".join(part.capitalize() if not part[1:].isdigit() else part for part in change["api"].split("_"))


def action(operation_id: str) -> str:
    """`UpdateSubscription` -> `update the subscription`; `ListConversation` -> `list the conversation records`."""
    for prefix, verb in _VERBS.items():
        if operation_id.startswith(prefix):
            resource = human(operation_id[len(prefix) :]) or "resource"
            return f"{verb} the {resource} records" if verb == "list" else f"{verb} the {resource}"
    return f"call {operation_id}"


def draw_arguments(
    facts: JsonObject,
    rng: Mulberry32,
    *,
    must: tuple[str, ...] = (),
    avoid: tuple[str, ...] = (),
    within: Optional[JsonObject] = None,
) -> dict[str, Any]:
    """Values for the operation's required parameters, the `must` ones and up to `EXTRA_OPTIONAL`
    drawn optional ones (never an `avoid` one, and with `within` only parameters the other version
    has too, so that another change of the same release stays out of the call), in schema order."""
    properties: JsonObject = facts["properties"]
    chosen = {name for name in [*facts["required"], *must] if name in properties}
    pool = [
        n
        for n in properties
        if n not in chosen and n not in avoid and drawable(n, properties[n]) and (within is None or n in within)
    ]
    for _ in range(min(EXTRA_OPTIONAL, len(pool))):
        pick = rng.choice(pool)
        pool.remove(pick)
        chosen.add(pick)
    return {name: value_for(name, properties[name], rng) for name in properties if name in chosen}


def request_text(change: Change, rng: Mulberry32, arguments: dict[str, Any], operation_id: str = "") -> str:
    phrases = ", ".join(phrase(name, value) for name, value in arguments.items()) or "no further details"
    template = rng.choice(_TEMPLATES)
    return template.format(product=title(change), action=action(operation_id or change["operationId"]), phrases=phrases)


def _call(change: Change, arguments: dict[str, Any], operation_id: str = "") -> JsonObject:
    return {"name": f"{change['api']}.{operation_id or change['operationId']}", "arguments": arguments}


def _metadata(change: Change, kind: str, split: str, seed: int) -> JsonObject:
    """What every real task records about its change."""
    return {
        "mutationKind": kind,
        "changeKind": change["kind"],
        "changeId": change["id"],
        "product": change["product"],
        "operation": f"{change['api']}.{change['operationId']}",
        "baseSchema": f"{change['api']}.{change['operationId']}",
        "schemaVersion": change["toTag"],
        "previousVersion": change["fromTag"],
        "releaseTags": [change["fromTag"], change["toTag"]],
        "commits": [change["fromCommit"], change["toCommit"]],
        "releaseDate": change["releaseDate"],
        "changeYear": change["releaseDate"][:4],
        "changelog": change["changelog"],
        "source": "twilio/twilio-oai",
        "apiErrors": "twilio",
        "declineOffered": True,
        "split": split,
        "seed": seed,
    }


def _task(
    change: Change, task_id: str, kind: str, request: str, tools: list[ToolSpec], expected: JsonObject, **meta: Any
) -> Task:
    split, seed = meta.pop("split"), meta.pop("seed")
    previous = meta.pop("previous_tools")
    metadata = {
        **_metadata(change, kind, split, seed),
        "request": request,
        "previousTools": to_wire(previous),
        **meta,
    }
    prompt = render_prompt(f"Twilio {title(change)}", tools, change["toTag"], request, decline=True)
    return Task(id=task_id, kind="single", prompt=prompt, expected=expected, tools=tools, metadata=metadata)


def _before_after(change: Change) -> tuple[ToolSpec, ToolSpec]:
    return tool(change, change["before"]), tool(change, change["after"])


def removed_field(change: Change, rng: Mulberry32, taken: list[JsonObject], **ids: Any) -> Task:
    """A request giving the removed parameter's value only if the current version takes it."""
    field = change["field"]
    before, after = _before_after(change)
    for _ in range(_MAX_DRAWS):
        arguments = draw_arguments(change["before"], rng, must=(field,), within=change["after"]["properties"])
        kept = {k: v for k, v in arguments.items() if k != field and k in change["after"]["properties"]}
        kept |= {
            n: value_for(n, change["after"]["properties"][n], rng) for n in change["after"]["required"] if n not in kept
        }
        if _call(change, kept) not in taken:
            break
    taken.append(_call(change, kept))
    base = request_text(change, rng, kept)
    request = f"{base} Also set {phrase(field, arguments[field])} if the current version still takes it."
    return _task(
        change,
        kind="removedField",
        request=request,
        tools=[after],
        expected=_call(change, kept),
        previous_tools=[before],
        staleCall=_call(change, {**kept, field: arguments[field]}),
        mutation=f"parameter {field} removed in {change['toTag']}",
        mutatedElements=[{"signal": "oldFieldName", "field": field}],
        **ids,
    )


def renamed_field(change: Change, rng: Mulberry32, taken: list[JsonObject], **ids: Any) -> Task:
    old, new = change["field"], change["newField"]
    before, after = _before_after(change)
    for _ in range(_MAX_DRAWS):
        arguments = draw_arguments(
            change["before"], rng, must=(old,), avoid=(new,), within=change["after"]["properties"]
        )
        renamed = {(new if k == old else k): v for k, v in arguments.items()}
        if _call(change, renamed) not in taken:
            break
    taken.append(_call(change, renamed))
    spoken = min(human(old), human(new), key=len)
    phrases = ", ".join(phrase(k, v, spoken if k == old else None) for k, v in arguments.items())
    request = rng.choice(_TEMPLATES).format(
        product=title(change), action=action(change["operationId"]), phrases=phrases
    )
    return _task(
        change,
        kind="renamedField",
        request=request,
        tools=[after],
        expected=_call(change, renamed),
        previous_tools=[before],
        staleCall=_call(change, arguments),
        mutation=f"parameter {old} renamed to {new} in {change['toTag']}",
        mutatedElements=[{"signal": "oldFieldName", "field": old, "replacement": new}],
        **ids,
    )


def new_required(change: Change, rng: Mulberry32, taken: list[JsonObject], *, given: bool = True, **ids: Any) -> Task:
    """A request for an operation that now requires `field`: with its value (`given`), or without (a noCall)."""
    field = change["field"]
    before, after = _before_after(change)
    for _ in range(_MAX_DRAWS):
        arguments = draw_arguments(change["before"], rng, avoid=(field,), within=change["after"]["properties"])
        value = value_for(field, change["after"]["properties"][field], rng)
        # Another parameter the same release made required is given by the request too.
        others = [n for n in change["after"]["required"] if n not in arguments and n != field]
        arguments |= {n: value_for(n, change["after"]["properties"][n], rng) for n in others}
        current = {k: v for k, v in arguments.items() if k in change["after"]["properties"]}
        if _call(change, {**current, field: value}) not in taken:
            break
    # A parameter the same release removed (required before) is said, but left out of the call.
    expected = _call(change, {**current, field: value})
    taken.append(expected)
    request = request_text(change, rng, arguments)
    stale = {k: v for k, v in arguments.items() if k in change["before"]["properties"]}
    common = {"previous_tools": [before], "staleCall": _call(change, stale), **ids}
    mutation = f"parameter {field} required from {change['toTag']}"
    if not given:
        return _task(
            change,
            kind=NO_CALL,
            request=request,
            tools=[after],
            expected={DECLINE_KEY: f"{mutation}, and the request gives no value for it"},
            noCallReason="missingRequired",
            mutation=mutation,
            mutatedElements=[],
            **common,
        )
    request = f"{request} Use {phrase(field, value)}."
    elements = [{"signal": "missingNewRequired", "field": field}]
    return _task(
        change, kind="newRequired", request=request, tools=[after], expected=expected, mutation=mutation,
        mutatedElements=elements, **common,
    )  # fmt: skip


def removed_need(change: Change, rng: Mulberry32, **ids: Any) -> Task:
    """A noCall request that needs what the change removed: a parameter, an enum value or the operation."""
    before = tool(change, change["before"])
    kind, field = change["kind"], str(change.get("field"))
    if kind == "removedOperation":
        tools = [tool(change, op, op["operationId"], op["path"]) for op in change.get("remaining", [])]
        arguments = draw_arguments(change["before"], rng)
        what = f"operation {change['operationId']} removed in {change['toTag']}"
    else:
        tools = [tool(change, change["after"])]
        arguments = draw_arguments(change["before"], rng, must=(field,), within=change["after"]["properties"])
        if kind == "enumChange":
            arguments[field] = rng.choice(change["removedValues"])
            what = f"value {arguments[field]} of {field} removed in {change['toTag']}"
        else:
            what = f"parameter {field} removed in {change['toTag']}"
    return _task(
        change,
        kind=NO_CALL,
        request=request_text(change, rng, arguments),
        tools=tools,
        expected={DECLINE_KEY: f"{what}; the request needs it"},
        previous_tools=[before],
        staleCall=_call(change, arguments),
        noCallReason="removed",
        mutation=what,
        mutatedElements=[],
        **ids,
    )


def control(change: Change, rng: Mulberry32, **ids: Any) -> Task:
    """An additive change: a new optional parameter the request does not need; the old call stays right."""
    field = change["field"]
    before, after = _before_after(change)
    arguments = draw_arguments(change["before"], rng, within=change["after"]["properties"])
    call = _call(change, arguments)
    return _task(
        change,
        kind=CONTROL,
        request=request_text(change, rng, arguments),
        tools=[after],
        expected=call,
        previous_tools=[before],
        staleCall=call,
        mutation=f"optional parameter {field} added in {change['toTag']}",
        mutatedElements=[],
        addedField=field,
        **ids,
    )


def drift(change: Change, single: Task) -> Task:
    """The drift episode of a single task: the client has the previous tools, the API the current
    ones and answers a stale call with Twilio's error (`_drift.twilio_error`)."""
    metadata = {**single.metadata, "mutationKind": DRIFT, "driftOf": single.metadata["mutationKind"]}
    metadata |= {"apiTitle": f"Twilio {title(change)}", "httpMethod": change["method"].upper()}
    metadata.pop("declineOffered", None)
    return attrs.evolve(single, kind="episode", prompt=str(metadata["request"]), metadata=metadata)


def change_tasks(change: Change, rng: Mulberry32, prefix: str, split: str, seed: int) -> list[Task]:
    """The tasks of one change (see the module docstring)."""
    kind, base = change["kind"], f"{prefix}-{change['id']}"
    ids: dict[str, Any] = {"split": split, "seed": seed}
    taken: list[JsonObject] = []
    if kind == "addedOptional":
        return [control(change, rng, task_id=f"{base}-control", **ids)]
    if kind == "removedOperation" and not change.get("remaining"):
        return []  # the whole API was withdrawn: no current tool to offer
    if kind in ("removedOperation", "enumChange"):
        return [removed_need(change, rng, task_id=f"{base}-no-call", **ids)]
    build = {"removedField": removed_field, "renamedField": renamed_field, "newRequired": new_required}[kind]
    tasks = [
        build(change, rng, taken, task_id=f"{base}-{_SLUGS[kind]}-{n}", **ids) for n in range(1, REAL_REQUESTS + 1)
    ]
    if kind == "removedField":
        tasks.append(removed_need(change, rng, task_id=f"{base}-no-call", **ids))
    if kind == "newRequired":
        tasks.append(new_required(change, rng, taken, given=False, task_id=f"{base}-no-call", **ids))
    if kind in ("removedField", "newRequired"):
        episode = build(change, rng, [], task_id=f"{base}-drift", **ids)
        tasks.append(drift(change, episode))
    return tasks


def real_tasks(seed: int, split: str = REAL) -> list[Task]:
    """The tasks of the real split (or, with `hidden-real`, of a held-out one), change by change."""
    if split not in ID_PREFIXES:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(ID_PREFIXES)}")
    rng = mulberry32(seed)
    return [task for change in real_changes() for task in change_tasks(change, rng, ID_PREFIXES[split], split, seed)]
