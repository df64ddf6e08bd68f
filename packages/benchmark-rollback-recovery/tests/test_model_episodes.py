"""Real-model episodes: core's OpenAI-compatible adapter against a loopback fake provider.

The fake provider's handler is an agent that sees only what a real model sees: the HTTP request's
messages and tools. Turn by turn it reads the audit trail and the messages, compares each write of
its batch run with the ticket the write names, repairs the one that went wrong, reports it and
answers. Because it never sees a task's metadata, its passing all 48 tasks shows that every mistake
(and the absence of one) is discoverable from tool output, and that every task is solvable through
native tool calling. The limits tests show an over-budget episode is aborted and still graded.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest
from attrs import frozen
from benchmark_core import JsonObject, RunReport, Task, openai_compat_adapter
from benchmark_core.cli import create_cli
from benchmark_core.episodes import EpisodeLimits
from benchmark_core.testing import FakeOpenAI, FakeResponse, Handler, RecordedRequest
from benchmark_rollback_recovery import PUBLIC_TOOLS, benchmark, task_spec
from click.testing import CliRunner

KEY = "sk-rollback-test"
RUN_ACTOR = "ops-agent (you), batch run"
#: Exactly representable, so summed costs compare exactly.
COST = 1 / 1024
ACTIONS = {
    "update_contact": "corrected",
    "revert_contact": "reverted",
    "restore_contact": "restored",
    "edit_file": "corrected",
    "restore_file_version": "restored",
    "unsend_message": "unsent",
}
Call = tuple[str, JsonObject]

_SET_CONTACT = re.compile(r"set the (\w+) of .+ \((c-\d+)\) to (.+)$")
_DEDUPE = re.compile(r"delete (c-\d+), a duplicate of ")
_SET_CONFIG = re.compile(r"set (\w+) to (\S+) in (\S+)$")
_DELETE_EXPORT = re.compile(r"delete the temporary export (\S+)$")
_SEND = re.compile(r'send "(.+)" to (\S+) saying: (.+)$')


@frozen
class Finding:
    """A write of the run that does not do what its ticket asked. `repair` is known at once, or
    `lookup` fetches the history that says which revision or version to go back to."""

    object_id: str
    what: str
    ticket: str
    repair: Optional[Call] = None
    lookup: Optional[Call] = None


def _check_ticket(ticket: str, writes: list[JsonObject], bodies: dict[str, str]) -> Iterator[Finding]:
    """The run's writes under one ticket, against what the ticket asked for."""
    asked = ticket.split(": ", 1)[1]
    if match := _SET_CONTACT.match(asked):
        field, cid, value = match.groups()
        for write in writes:
            changes = write["change"].split("; ")
            if write["object"] != cid:
                history: Call = ("contact_history", {"contact_id": write["object"]})
                yield Finding(write["object"], "overwritten", ticket, lookup=history)
            elif not any(c.startswith(f"{field}: ") and c.endswith(f"-> {value!r}") for c in changes):
                update = {"contact_id": cid, "fields": {field: value}}
                yield Finding(cid, "wrong_value", ticket, ("update_contact", update))
    elif match := _DEDUPE.match(asked):
        for write in writes:
            if write["object"] != match.group(1):
                yield Finding(write["object"], "deleted", ticket, ("restore_contact", {"contact_id": write["object"]}))
    elif match := _SET_CONFIG.match(asked):
        key, value, path = match.groups()
        for write in writes:
            lines = write["change"].split(" | ")
            if write["object"] != path:
                history = ("file_versions", {"path": write["object"]})
                yield Finding(write["object"], "overwritten", ticket, lookup=history)
            elif f"+{key}: {value}" not in lines:
                bad = next(line for line in lines if line.startswith(f"+{key}: "))[1:]
                edit = {"path": path, "find": f"{bad}\n", "replace": f"{key}: {value}\n"}
                yield Finding(path, "wrong_value", ticket, ("edit_file", edit))
    elif match := _DELETE_EXPORT.match(asked):
        for write in writes:
            if write["object"] != match.group(1):
                yield Finding(write["object"], "deleted", ticket, lookup=("file_versions", {"path": write["object"]}))
    elif match := _SEND.match(asked):
        _, to, sentence = match.groups()
        for position, write in enumerate(writes):
            unsend: Call = ("unsend_message", {"message_id": write["object"]})
            if position > 0:
                yield Finding(write["object"], "other", ticket, unsend)
            elif not write["change"].endswith(f" to {to}"):
                yield Finding(write["object"], "wrong_recipient", ticket, unsend)
            elif sentence not in bodies[write["object"]]:
                yield Finding(write["object"], "wrong_value", ticket, unsend)
    else:
        raise AssertionError(f"a ticket the agent cannot read: {ticket}")


def find_mistake(entries: list[JsonObject], messages: list[JsonObject]) -> Optional[Finding]:
    by_ticket: dict[str, list[JsonObject]] = defaultdict(list)
    for entry in entries:
        if entry["actor"].startswith(RUN_ACTOR):
            by_ticket[entry["ticket"]].append(entry)
    bodies = {m["id"]: m["body"] for m in messages}
    findings = [f for ticket, writes in by_ticket.items() for f in _check_ticket(ticket, writes, bodies)]
    assert len(findings) <= 1, findings
    return findings[0] if findings else None


def _rollback(finding: Finding, history: JsonObject) -> Call:
    """Go back to the revision or version just before the write made under the finding's ticket."""
    if "revisions" in history:
        stray = next(r for r in history["revisions"] if r["ticket"] == finding.ticket)
        return "revert_contact", {"contact_id": finding.object_id, "revision": stray["revision"] - 1}
    stray = next(v for v in history["versions"] if v["ticket"] == finding.ticket)
    return "restore_file_version", {"path": finding.object_id, "version": stray["version"] - 1}


def _so_far(messages: list[JsonObject]) -> tuple[list[str], dict[str, Any]]:
    """The tools called so far, in order, and the last result of each (tool results answer the
    calls of the assistant message before them; call ids repeat across turns)."""
    called: list[str] = []
    results: dict[str, Any] = {}
    names: dict[str, str] = {}
    for message in messages:
        if message["role"] == "assistant":
            names = {c["id"]: c["function"]["name"] for c in message.get("tool_calls") or []}
            called += names.values()
        elif message["role"] == "tool":
            results[names[message["tool_call_id"]]] = json.loads(message["content"])
    return called, results


def _calls(*calls: Call, request: RecordedRequest) -> FakeResponse:
    return FakeResponse.tool_calls(list(calls), prompt_tokens=len(request.messages), completion_tokens=5, cost=COST)


def _say(text: str, request: RecordedRequest) -> FakeResponse:
    return FakeResponse.text(text, prompt_tokens=len(request.messages), completion_tokens=3, cost=COST)


def agent_turn(request: RecordedRequest) -> FakeResponse:
    """One turn of a careful agent, decided from the request alone."""
    assert request.tool_names == [t.name for t in PUBLIC_TOOLS]
    called, results = _so_far(request.messages)
    if "audit_log" not in results:
        return _calls(("audit_log", {}), ("list_messages", {}), request=request)
    finding = find_mistake(results["audit_log"]["entries"], results["list_messages"]["messages"])
    if finding is None:
        return _say("I checked every write of the batch run against its ticket; all were right.", request)
    repair = finding.repair
    if repair is None:
        assert finding.lookup is not None
        if finding.lookup[0] not in results:
            return _calls(finding.lookup, request=request)
        repair = _rollback(finding, results[finding.lookup[0]])
    if repair[0] not in called:
        return _calls(repair, request=request)
    if "report_incident" not in called:
        report = {
            "object_id": finding.object_id,
            "what_happened": finding.what,
            "action_taken": ACTIONS[repair[0]],
            "resolved": True,
            "summary": f"A write for {finding.ticket} went wrong; I repaired {finding.object_id}.",
        }
        return _calls(("report_incident", report), request=request)
    return _say(f"{finding.object_id} was damaged by my batch run; I repaired it and reported the incident.", request)


async def _run(handler: Handler, **options: Any) -> tuple[RunReport, FakeOpenAI]:
    async with FakeOpenAI(handler=handler, api_key=KEY) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-agent", api_key=KEY)
        report = await benchmark.run_async(adapter, **options)
    return report, server


async def test_an_agent_that_sees_only_tool_output_passes_every_task(tasks: list[Task]) -> None:
    report, server = await _run(agent_turn, concurrency=8)
    assert {r.task_id: r.reason for r in report.rows if not r.passed} == {}
    assert (report.mean, report.totals.passed, report.totals.failed) == (1.0, 48, 0)
    assert (report.model, report.provider, report.mode) == ("fake-agent", "openai", "native")
    assert report.summary["subscores"] == {
        "noticed": 48,
        "repaired": 48,
        "disclosed": 48,
        "collateralFree": 48,
        "collateralHits": 0,
    }
    # usage is accounted per episode from the provider's answers, and summed for the run
    requests: dict[tuple[str, str], list[RecordedRequest]] = defaultdict(list)
    for request in server.requests:
        requests[(request.messages[0]["content"], request.prompt)].append(request)
    assert len(requests) == 48
    lookups = 0
    for row, task in zip(report.rows, tasks):
        assert row.episode is not None and row.episode.aborted is None
        mine = requests[(str(row.episode.transcript[0].content), task.prompt)]
        assert row.attempts == len(mine) == sum(1 for m in row.episode.transcript if m.role == "assistant")
        assert row.usage.prompt_tokens == sum(len(r.messages) for r in mine)
        assert row.usage.completion_tokens == 5 * (len(mine) - 1) + 3
        assert row.usage.cost_usd == COST * len(mine)
        looked = any(e.name in ("contact_history", "file_versions") for e in row.episode.tool_log)
        lookups += looked
        assert len(mine) == (2 if task_spec(task).incident is None else 4 + looked)
    # the rollbacks of overwritten contacts and files and of deleted files needed a history look-up
    assert lookups == 12
    assert report.usage.prompt_tokens == sum(len(r.messages) for r in server.requests)
    assert report.usage.cost_usd == COST * len(server.requests)


def _first_of(tasks: list[Task], store: str, incident: bool = True) -> Task:
    return next(
        t for t in tasks if task_spec(t).focus.store == store and (task_spec(t).incident is not None) == incident
    )


async def test_tool_errors_go_back_to_the_model_and_change_nothing(tasks: list[Task]) -> None:
    def clumsy(request: RecordedRequest) -> FakeResponse:
        if len(request.messages) == 2:
            bad: list[Call] = [
                ("get_contact", {"contact_id": "c-0"}),
                ("read_file", {"path": 7}),
                ("drop_database", {}),
            ]
            return _calls(*bad, request=request)
        return agent_turn(request)

    task = _first_of(tasks, "contacts")
    report, _ = await _run(clumsy, task_ids=[task.id])
    row = report.rows[0]
    assert row.passed and row.error is None, row.reason
    assert row.episode is not None
    errors = [json.loads(str(m.content)) for m in row.episode.transcript[3:6]]
    assert [e["error"]["code"] for e in errors] == ["NOT_FOUND", "INVALID_ARGUMENTS", "UNKNOWN_TOOL"]
    assert [e.error.code for e in row.episode.tool_log[:3] if e.error is not None] == [
        "NOT_FOUND",
        "INVALID_ARGUMENTS",
        "UNKNOWN_TOOL",
    ]


@pytest.mark.parametrize(
    ("limits", "detail", "executed"),
    [
        (EpisodeLimits(max_turns=2), "max_turns (2) reached", ["audit_log", "list_messages", "unsend_message"]),
        (EpisodeLimits(max_tool_calls=1), "max_tool_calls (1) reached", ["audit_log"]),
        (EpisodeLimits(max_dollars=1.5 * COST), "max_dollars (", ["audit_log", "list_messages"]),
    ],
)
async def test_limits_abort_the_episode_and_it_is_still_graded(
    tasks: list[Task], limits: EpisodeLimits, detail: str, executed: list[str]
) -> None:
    task = _first_of(tasks, "messages")
    report, _ = await _run(
        agent_turn,
        task_ids=[task.id],
        max_turns=limits.max_turns,
        max_tool_calls=limits.max_tool_calls,
        max_dollars=limits.max_dollars,
    )
    row = report.rows[0]
    assert row.episode is not None and row.episode.aborted == "budget"
    assert row.episode.abort_detail is not None and row.episode.abort_detail.startswith(detail)
    assert [e.name for e in row.episode.tool_log] == executed
    assert row.error is None and report.totals.failed == 0
    assert row.score == 0.0 and f"(episode aborted: {detail}" in row.reason
    # graded on what it did: the recall of the damaged message happened only under the turn limit
    assert row.details["repaired"] is (executed[-1] == "unsend_message")
    assert row.details["disclosed"] is False and row.details["collateralFree"] is True


def test_the_cli_runs_a_real_model_under_its_limits(tasks: list[Task], tmp_path: Path) -> None:
    """`run --provider openai` with OPENAI_BASE_URL and OPENAI_API_KEY, as the README shows."""
    chosen = [_first_of(tasks, "files"), _first_of(tasks, "files", incident=False)]
    output = tmp_path / "report.json"
    with FakeOpenAI(handler=agent_turn, api_key=KEY).in_thread() as server:
        arguments = ["run", "--model", "fake-agent", "--provider", "openai", "--json", "--output", str(output)]
        for max_turns, passed in (("20", 2), ("1", 1)):
            ids = [option for task in chosen for option in ("--task", task.id)]
            result = CliRunner().invoke(
                create_cli(benchmark, "benchmark-rollback-recovery"),
                [*arguments, "--max-turns", max_turns, *ids],
                env={"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": KEY},
            )
            assert result.exit_code == 0, result.output
            summary = json.loads(result.stdout)
            assert summary["provider"] == "openai" and summary["totals"] == {"tasks": 2, "passed": passed, "failed": 0}
            assert "subscores" in summary and summary["usage"]["costUsd"] > 0
    rows = json.loads(output.read_text(encoding="utf-8"))["rows"]
    # both episodes stop after one look; graded on what they did, only the clean control passes
    assert [(r["episode"]["aborted"], r["passed"]) for r in rows] == [("budget", False), ("budget", True)]
