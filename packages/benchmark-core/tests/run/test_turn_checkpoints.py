"""Turn checkpoints: an episode in progress is journaled turn by turn, and a resumed run continues it
at its last finished turn. Killed by SIGKILL in the middle of long episodes (the example's order
episode, stretched to 13 turns), a resumed run sends again at most the requests in flight at the kill
and writes the uninterrupted report; a damaged checkpoint (a torn turn line, turn lines of another
run, a tool result that replays differently) starts that episode from turn 0, and the run says so.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import RunOptions, openai_compat_adapter, run
from benchmark_core.adapters import anthropic_adapter
from benchmark_core.example import benchmark as example
from benchmark_core.runs import Run, journal_path
from benchmark_core.testing import FakeAnthropic, FakeOpenAI, mock_handler, sigkill_and_resume, stable_report
from benchmark_core.wire import to_wire

KEY = "sk-test-turns-0123456789"
EPISODE = next(t for t in example.tasks() if t.kind == "episode")
CONCURRENCY = 2


def _lines(path: Path, kind: str) -> list[dict[str, Any]]:
    entries = [json.loads(line) for line in journal_path(path).read_text(encoding="utf-8").splitlines() if line]
    return [entry[kind] for entry in entries if kind in entry]


def test_sigkill_mid_episode_then_resume_resends_at_most_the_requests_in_flight(tmp_path: Path) -> None:
    handler = mock_handler(example, delay=0.05, stretch=6)
    command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", "openai"]
    command += ["--concurrency", str(CONCURRENCY), "--no-cache", "--task", EPISODE.id]
    env = {"OPENAI_BASE_URL": "", "OPENAI_API_KEY": KEY}
    with FakeOpenAI(handler=handler, record=False).in_thread() as server:
        env["OPENAI_BASE_URL"] = server.base_url
        outcome = sigkill_and_resume(command, env, server, tmp_path, kill_at=0.6)
    assert outcome.uninterrupted_requests == 13  # one episode of 13 turns, one request each
    assert 0 <= outcome.resent <= 1  # an episode has one request in flight at a time
    assert "resuming 1 episode at its last finished turn" in outcome.resume_stderr
    assert stable_report(outcome.resumed) == stable_report(outcome.uninterrupted)
    row = outcome.resumed["rows"][0]
    assert len([m for m in row["episode"]["transcript"] if m["role"] == "assistant"]) == 13
    assert row["attempts"] == 13 and row["usage"] == outcome.uninterrupted["rows"][0]["usage"]


async def _journaled_run(tmp_path: Path, **kwargs: Any) -> tuple[Path, Any]:
    """The example's episode over HTTP, stretched to 13 turns; its report, and its journal (cut as
    a killed run would leave it: every turn line kept, the row line gone)."""
    async with FakeOpenAI(handler=mock_handler(example, stretch=6), record=False) as server:
        output = tmp_path / "report.json"
        report = await run(
            example,
            openai_compat_adapter(server.base_url, "m", KEY),
            RunOptions(cache=False, task_ids=(EPISODE.id,)),
            journal=journal_path(output),
            **kwargs,
        )
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not line.startswith('{"row"')), encoding="utf-8")
    return output, report


async def _resume(output: Path, **kwargs: Any) -> tuple[Any, list[str], int]:
    """Resume the journal at `output` (or with `resume=False`, start it): the report, what the run
    said, and the requests it sent."""
    async with FakeOpenAI(handler=mock_handler(example, stretch=6), record=False) as server:
        options = RunOptions(cache=False, task_ids=(EPISODE.id,))
        adapter = openai_compat_adapter(server.base_url, "m", KEY)
        runner = Run(example, adapter, options, journal=journal_path(output), **{"resume": True, **kwargs})
        report = await runner.execute()
        return report, runner.notes, server.received


async def test_every_finished_turn_is_journaled_with_the_message_as_sent_back(tmp_path: Path) -> None:
    output, report = await _journaled_run(tmp_path)
    turns = _lines(output, "turn")
    assert [t["turn"] for t in turns] == list(range(12))  # the 13th turn ends the episode: the row holds it
    transcript = to_wire(report.rows[0].episode.transcript)
    assistant = [m for m in transcript if m["role"] == "assistant"]
    assert [t["message"] for t in turns] == assistant[:12]
    assert [c for t in turns for c in t["calls"]] == to_wire(report.rows[0].episode.tool_log)[:-1]
    assert turns[-1]["spent"]["attempts"] == 12


@pytest.mark.parametrize("kept", [0, 5, 12])
async def test_a_resumed_episode_sends_only_the_turns_after_its_checkpoint(tmp_path: Path, kept: int) -> None:
    output, whole = await _journaled_run(tmp_path)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    turns = [i for i, line in enumerate(lines) if line.startswith('{"turn"')]
    drop = set(turns[kept:])
    path.write_text("".join(line for i, line in enumerate(lines) if i not in drop), encoding="utf-8")
    report, notes, sent = await _resume(output)
    assert sent == 13 - kept
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
    assert notes == (
        [f"resuming 1 episode at its last finished turn ({kept} finished turns not sent again)"] if kept else []
    )


async def test_a_torn_turn_line_is_cut_and_the_turn_before_it_resumed(tmp_path: Path) -> None:
    output, whole = await _journaled_run(tmp_path)
    path = journal_path(output)
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) - 40])  # the last turn line half written
    report, notes, sent = await _resume(output)
    assert sent == 2  # turn 12 again (it was torn) and turn 13
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
    assert notes == ["resuming 1 episode at its last finished turn (11 finished turns not sent again)"]


async def test_turn_lines_of_another_run_are_ignored_and_the_episode_starts_again(tmp_path: Path) -> None:
    other, _ = await _journaled_run(tmp_path / "other", seed=1)
    output, whole = await _journaled_run(tmp_path)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    theirs = journal_path(other).read_text(encoding="utf-8").splitlines(keepends=True)
    mine = [line for line in lines if not line.startswith('{"turn"')]
    path.write_text("".join(mine + [line for line in theirs if line.startswith('{"turn"')]), encoding="utf-8")
    report, notes, sent = await _resume(output)
    assert sent == 13
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
    assert notes == [f"{path}: 12 turn lines of another run ignored"]


async def test_a_tool_result_that_replays_differently_starts_the_episode_again(tmp_path: Path) -> None:
    output, whole = await _journaled_run(tmp_path)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        entry = json.loads(line)
        if "turn" in entry and entry["turn"]["turn"] == 4:
            entry["turn"]["calls"][0]["result"] = {"edited": True}
            entry["turn"]["calls"][0].pop("error", None)
            lines[i] = json.dumps(entry) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    report, notes, sent = await _resume(output)
    assert sent == 13  # from turn 0: the model's later turns answered a result this run cannot produce
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
    assert report.rows[0].attempts == 13
    assert notes[0] == "resuming 1 episode at its last finished turn (12 finished turns not sent again)"
    assert notes[1].startswith(f"task {EPISODE.id}: the tool call ")
    assert notes[1].endswith("of turn 5 replays differently than journaled; the episode starts again from turn 0")


async def test_turn_lines_out_of_sequence_start_the_episode_again(tmp_path: Path) -> None:
    output, whole = await _journaled_run(tmp_path)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    third = [i for i, line in enumerate(lines) if line.startswith('{"turn"')][2]
    del lines[third]
    path.write_text("".join(lines), encoding="utf-8")
    report, notes, sent = await _resume(output)
    assert sent == 13
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
    assert notes == [
        f"task {EPISODE.id}: its journaled turns are not in sequence; the episode starts again from turn 0"
    ]


async def test_checkpoints_can_be_turned_off(tmp_path: Path) -> None:
    out = tmp_path / "off.json"
    await _resume(out, resume=False, turn_checkpoints=False)
    assert _lines(out, "turn") == [] and len(_lines(out, "row")) == 1


def test_a_killed_sigkill_run_leaves_turn_lines_that_parse(tmp_path: Path) -> None:
    """Whatever the moment of the kill, every complete line of the journal parses (one append per turn)."""
    handler = mock_handler(example, delay=0.01, stretch=6)
    with FakeOpenAI(handler=handler, record=False).in_thread() as server:
        out = tmp_path / "report.json"
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": KEY}
        command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", "openai"]
        child = subprocess.Popen(
            [*command, "--no-cache", "--task", EPISODE.id, "--output", str(out)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while server.received < 7 and time.monotonic() < deadline:
            time.sleep(0.002)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    raw = journal_path(out).read_bytes()
    complete = raw[: raw.rfind(b"\n") + 1]
    turns = [json.loads(line)["turn"] for line in complete.splitlines() if line.startswith(b'{"turn"')]
    assert [t["turn"] for t in turns] == list(range(len(turns))) and 5 <= len(turns) <= 7


async def test_thinking_blocks_and_signatures_go_back_exactly_after_a_resume(tmp_path: Path) -> None:
    """Over Anthropic's wire with extended thinking, the resumed episode's requests carry every
    journaled turn's signed thinking blocks (the fake refuses a changed signature): the requests
    after the checkpoint are byte for byte those of the uninterrupted run."""
    options = RunOptions(cache=False, task_ids=(EPISODE.id,), reasoning_effort="low")

    async def play(output: Path, resume: bool) -> tuple[Any, list[Any]]:
        handler = mock_handler(example, wire="anthropic", stretch=6)
        async with FakeAnthropic(handler=handler) as server:
            adapter = anthropic_adapter("claude-fake", KEY, base_url=server.base_url)
            report = await run(example, adapter, options, journal=journal_path(output), resume=resume)
            return report, [request.body for request in server.requests]

    whole, sent = await play(tmp_path / "whole.json", False)
    output = tmp_path / "report.json"
    await play(output, False)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    turns = [i for i, line in enumerate(lines) if line.startswith('{"turn"')]
    path.write_text("".join(line for i, line in enumerate(lines) if i not in {*turns[7:], len(lines) - 1}))
    resumed, resent = await play(output, True)
    assert resent == sent[7:]  # turns 8 to 13, as the uninterrupted run sent them
    assert any(block.get("type") == "thinking" for block in resent[0]["messages"][1]["content"])
    assert stable_report(to_wire(resumed)) == stable_report(to_wire(whole))


async def test_each_epoch_of_an_episode_resumes_from_its_own_checkpoint(tmp_path: Path) -> None:
    output, whole = await _journaled_run(tmp_path, epochs=2)
    path = journal_path(output)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    second = [
        i for i, line in enumerate(lines) if line.startswith('{"turn"') and json.loads(line)["turn"]["epoch"] == 2
    ]
    path.write_text("".join(line for i, line in enumerate(lines) if i not in set(second[4:])), encoding="utf-8")
    async with FakeOpenAI(handler=mock_handler(example, stretch=6), record=False) as server:
        options = RunOptions(cache=False, task_ids=(EPISODE.id,), epochs=2)
        runner = Run(example, openai_compat_adapter(server.base_url, "m", KEY), options, journal=path, resume=True)
        report = await runner.execute()
    assert server.received == (13 - 12) + (13 - 4)
    assert runner.notes == ["resuming 2 episodes at their last finished turn (16 finished turns not sent again)"]
    assert stable_report(to_wire(report)) == stable_report(to_wire(whole))
