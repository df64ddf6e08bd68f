"""Runs that survive: the journal and `--resume` (after SIGKILL and SIGTERM), fatal provider errors
that stop a run, transient faults that never become rows, the response cache, generation settings on
the wire, `--max-errors` and the error breakdown.

Every model here is a real OpenAI-compatible server on loopback (`FakeOpenAI`), most of them playing
our mock's answers over HTTP (`mock_handler`), so reports can be compared with a mock run's.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import Benchmark, RunOptions, Task, mock_adapter, openai_compat_adapter, run
from benchmark_core._util.json_values import loads
from benchmark_core.adapters import openrouter_adapter
from benchmark_core.errors import JournalError, RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import journal_path
from benchmark_core.runs._files import read_report
from benchmark_core.stats._identity import task_set_digest
from benchmark_core.testing import FakeOpenAI, FakeResponse, ScriptedResponse, mock_handler, stable_report
from benchmark_core.wire._converter import to_wire

# The `make_benchmark` fixture (conftest.py) builds a Benchmark from keyword overrides.
BenchmarkFactory = Callable[..., Benchmark]

KEY = "sk-test-durable-0123456789"


def _cli(base_url: str, *args: str, api_key: str = KEY) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": api_key}
    command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", "--provider", "openai", *args]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_requests(server: FakeOpenAI, count: int, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while server.received < count and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert child.poll() is None, f"the run ended before request {count}: {child.communicate()}"


def _journaled(output: Path) -> set[str]:
    lines = journal_path(output).read_text(encoding="utf-8").split("\n")
    rows = set()
    for line in lines[1:]:
        with contextlib.suppress(ValueError):  # the torn line a SIGKILL can leave
            entry = json.loads(line)
            if "row" in entry:  # not a holder line (the pid of a process that held the journal)
                rows.add(entry["row"]["taskId"])
    return rows


@pytest.fixture(scope="module")
def served_example() -> Iterator[tuple[FakeOpenAI, Any]]:
    """The example benchmark's mock answers over HTTP, 60 ms per answer."""
    handler = mock_handler(example, delay=0.06)
    server = FakeOpenAI(handler=handler, record=False)
    with server.in_thread():
        yield server, handler


def _baseline(server: FakeOpenAI, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "baseline.json"
    child = _cli(server.base_url, "--concurrency", "2", "--output", str(out), "--no-cache")
    _, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    assert not journal_path(out).exists()  # a clean complete run leaves nothing to resume
    report: dict[str, Any] = loads(out.read_text(encoding="utf-8"))
    return report


def test_sigkill_at_several_points_then_resume_gives_the_uninterrupted_report(
    served_example: tuple[FakeOpenAI, Any], tmp_path: Path
) -> None:
    server, handler = served_example
    baseline = _baseline(server, tmp_path)
    out = tmp_path / "report.json"
    resumed_at: list[int] = []
    for kill_after in (3, 8, 8, 5):  # requests into each process; the episode takes several
        journaled = _journaled(out) if journal_path(out).exists() else set()
        before = dict(handler.requests_per_task)
        start = server.received
        flags = ["--concurrency", "2", "--output", str(out), "--no-cache"]
        child = _cli(server.base_url, *flags, *(["--resume"] if journaled or resumed_at else []))
        _wait_for_requests(server, start + kill_after, child)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL
        # No task journaled before this process was sent again by it.
        assert all(handler.requests_per_task[t] == before.get(t, 0) for t in journaled)
        resumed_at.append(len(_journaled(out)))
    assert resumed_at == sorted(resumed_at) and resumed_at[-1] < len(baseline["rows"])
    journaled = _journaled(out)
    before = dict(handler.requests_per_task)
    child = _cli(server.base_url, "--concurrency", "2", "--output", str(out), "--no-cache", "--resume")
    _, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    assert all(handler.requests_per_task[t] == before.get(t, 0) for t in journaled)
    final = loads(out.read_text(encoding="utf-8"))
    assert stable_report(final) == stable_report(baseline)
    assert (final["mean"], final["confidenceInterval95"]) == (baseline["mean"], baseline["confidenceInterval95"])


def test_sigterm_writes_a_partial_report_and_exits_143(served_example: tuple[FakeOpenAI, Any], tmp_path: Path) -> None:
    server, _ = served_example
    baseline = _baseline(server, tmp_path)
    out = tmp_path / "report.json"
    child = _cli(server.base_url, "--concurrency", "2", "--output", str(out), "--no-cache")
    _wait_for_requests(server, server.received + 6, child)
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 143, stderr
    assert "terminated by SIGTERM" in stderr and "--resume" in stderr and "Traceback" not in stderr
    partial = loads(out.read_text(encoding="utf-8"))
    assert partial["complete"] is False
    assert partial["stopped"].startswith("terminated by SIGTERM;")
    assert f"{len(partial['rows'])} of 21 tasks finished" in partial["stopped"]
    assert 0 < len(partial["rows"]) < 21
    assert {r["taskId"] for r in partial["rows"]} == _journaled(out)
    child = _cli(server.base_url, "--concurrency", "2", "--output", str(out), "--no-cache", "--resume")
    _, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    assert stable_report(loads(out.read_text(encoding="utf-8"))) == stable_report(baseline)


def test_a_partial_report_says_so_in_its_summary(tmp_path: Path) -> None:
    from benchmark_core.reports._report import render_markdown, render_summary

    with FakeOpenAI(handler=mock_handler(example, delay=0.06), record=False).in_thread() as server:
        out = tmp_path / "r.json"
        child = _cli(server.base_url, "--concurrency", "1", "--output", str(out), "--no-cache")
        _wait_for_requests(server, 3, child)
        child.send_signal(signal.SIGTERM)
        stdout, _ = child.communicate(timeout=60)
    assert "**Incomplete run: terminated by SIGTERM;" in stdout
    saved = read_report(out)
    assert "Incomplete run" in render_markdown(saved, example) and "Incomplete run" in render_summary(saved)


def test_resume_refuses_another_run_naming_the_field(served_example: tuple[FakeOpenAI, Any], tmp_path: Path) -> None:
    server, _ = served_example
    out = tmp_path / "report.json"
    child = _cli(server.base_url, "--concurrency", "1", "--output", str(out), "--no-cache", "--temperature", "0.2")
    _wait_for_requests(server, server.received + 3, child)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    again = _cli(server.base_url, "--output", str(out), "--no-cache", "--temperature", "0.2")
    _, stderr = again.communicate(timeout=60)
    assert again.returncode == 1 and "exists" in stderr and "--resume" in stderr
    other = _cli(server.base_url, "--output", str(out), "--no-cache", "--temperature", "0.7", "--resume")
    _, stderr = other.communicate(timeout=60)
    assert other.returncode == 1
    assert "options.temperature is 0.2 there, 0.7 now" in stderr
    seed = _cli(server.base_url, "--output", str(out), "--no-cache", "--temperature", "0.2", "--seed", "9", "--resume")
    _, stderr = seed.communicate(timeout=60)
    assert seed.returncode == 1 and "seed is 1 there, 9 now" in stderr
    subset = _cli(server.base_url, "--output", str(out), "--temperature", "0.2", "--task", "arith-01", "--resume")
    _, stderr = subset.communicate(timeout=60)
    assert subset.returncode == 1 and "the task set is" in stderr
    # A torn last line (a row cut off by SIGKILL) is discarded, not fatal.
    with open(journal_path(out), "a", encoding="utf-8") as handle:
        handle.write('{"row": {"taskId": "arith-1')
    done = _cli(server.base_url, "--output", str(out), "--no-cache", "--temperature", "0.2", "--resume")
    _, stderr = done.communicate(timeout=120)
    assert done.returncode == 0, stderr
    assert len(loads(out.read_text(encoding="utf-8"))["rows"]) == 21


async def test_the_sdk_journal_resumes_single_tasks_and_episodes(tmp_path: Path) -> None:
    journal = tmp_path / "run.journal.jsonl"
    tasks = await example.load_tasks()
    handler = mock_handler(example, tasks=tasks)
    async with FakeOpenAI(handler=handler) as server:
        adapter = openai_compat_adapter(server.base_url, "m", KEY)
        full = await run(example, adapter, cache=False, concurrency=3)
        ids = [t.id for t in tasks]
        half = ids[::2]  # the episode (last task) is among them
        first = await run(example, adapter, cache=False, task_ids=half, journal=tmp_path / "half.jsonl")
        assert len(first.rows) == len(half)
        # A journal of the whole task set with half of the rows in it, as a killed run leaves it.
        header = json.loads((tmp_path / "half.jsonl").read_text().split("\n")[0])
        _write_partial_journal(journal, full, {**header, "taskSetDigest": task_set_digest(tasks)}, set(half))
        sent_before = dict(handler.requests_per_task)
        resumed = await run(example, adapter, cache=False, concurrency=3, journal=journal, resume=True)
    assert [r.task_id for r in resumed.rows] == ids
    assert all(handler.requests_per_task[t] == sent_before.get(t, 0) for t in half)
    assert all(handler.requests_per_task[t] > sent_before.get(t, 0) for t in ids if t not in half)
    assert [(r.score, r.trace) for r in resumed.rows] == [(r.score, r.trace) for r in full.rows]
    assert (resumed.mean, resumed.confidence_interval95) == (full.mean, full.confidence_interval95)
    episode_row = resumed.rows[-1]
    assert episode_row.episode is not None and episode_row.episode.tool_log


def _write_partial_journal(path: Path, full: Any, header: dict[str, Any], keep: set[str]) -> None:
    lines = [json.dumps(header)] + [json.dumps({"row": to_wire(r)}) for r in full.rows if r.task_id in keep]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


async def test_an_existing_journal_without_resume_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"journal": 1}\n', encoding="utf-8")
    with pytest.raises(JournalError, match="Pass --resume"):
        await run(example, mock_adapter(), journal=journal)
    assert journal.read_text(encoding="utf-8") == '{"journal": 1}\n'


@pytest.mark.parametrize(
    ("response", "code", "shown"),
    [
        (None, "AUTHENTICATION_FAILED", "HTTP 401: Incorrect API key provided: ***"),
        (FakeResponse.error(404, "The model `m` does not exist"), "MODEL_NOT_FOUND", "HTTP 404: The model `m`"),
        (FakeResponse.error(400, "Unsupported parameter: 'top_p'"), "BAD_REQUEST", "HTTP 400: Unsupported parameter"),
    ],
)
def test_fatal_provider_errors_stop_the_run_after_at_most_concurrency_requests(
    response: Any, code: str, shown: str, tmp_path: Path
) -> None:
    wrong_key = "sk-wrong-key-that-must-not-be-printed"
    server = FakeOpenAI(default=response, api_key=None if response is not None else KEY)
    out = tmp_path / "report.json"
    with server.in_thread():
        child = _cli(server.base_url, "--concurrency", "4", "--output", str(out), "--json", api_key=wrong_key)
        stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 2, stderr
    assert server.received <= 4
    assert shown in stderr and "fix the cause and continue with --resume" in stderr
    assert wrong_key not in stdout + stderr + out.read_text(encoding="utf-8")
    report = json.loads(stdout)
    assert report["complete"] is False and report["stopped"].startswith("openai: HTTP 4")
    assert journal_path(out).exists()


async def test_fatal_errors_stop_episodes_and_the_sdk_gets_the_partial_report() -> None:
    async with FakeOpenAI(default=FakeResponse.error(401, "no")) as server:
        adapter = openai_compat_adapter(server.base_url, "m", KEY)
        with pytest.raises(RunStoppedError) as stopped:
            await run(example, adapter, task_ids=["order-refund-01"], cache=False)
    assert stopped.value.code == "AUTHENTICATION_FAILED" and stopped.value.exit_code == 2
    assert stopped.value.report.complete is False and stopped.value.report.rows == []
    assert server.received == 1


async def test_transient_faults_at_30_percent_leave_no_errored_rows(make_benchmark: BenchmarkFactory) -> None:
    tasks = [Task(id=f"t{i}", kind="single", prompt=f"Say {i}.", expected=str(i)) for i in range(150)]
    bench = make_benchmark(tasks)

    def answer(request: Any) -> FakeResponse:
        return FakeResponse.text(request.prompt.removeprefix("Say ").rstrip("."))

    async with FakeOpenAI(handler=answer, fault_rate=0.3, fault_seed=7) as server:
        report = await run(bench, openai_compat_adapter(server.base_url, "m", KEY), concurrency=16, cache=False)
    assert server.faults > 30  # 429 with Retry-After: 1, 500, and a 200 with a cut-off body, in turn
    assert (report.totals.failed, report.totals.passed, report.mean) == (0, 150, 1.0)
    assert sum(r.attempts for r in report.rows) == server.received


def test_max_errors_ends_the_run_and_the_breakdown_names_the_causes(tmp_path: Path) -> None:
    def answer(request: Any) -> FakeResponse:
        if "88 - 32" in request.prompt:
            return FakeResponse.error(422, "content filter")
        return FakeResponse.error(500, "overloaded")

    with FakeOpenAI(handler=answer).in_thread() as server:
        child = _cli(server.base_url, "--retries", "0", "--max-errors", "3", "--concurrency", "1", "--no-cache")
        _, stderr = child.communicate(timeout=60)
    assert child.returncode == 2
    assert "error: run stopped after 3 errored rows (max errors 3)" in stderr
    assert "errored rows by cause (3):" in stderr
    assert "2  PROVIDER_ERROR  e.g. openai: HTTP 500: overloaded" in stderr
    assert "1  ADAPTER_ERROR  e.g. openai: HTTP 422: content filter" in stderr
    assert server.received == 3


def test_retry_errored_resends_only_the_errored_rows(tmp_path: Path) -> None:
    failed_once: set[str] = set()
    handler = mock_handler(example)

    async def flaky(request: Any) -> ScriptedResponse:
        prompt = request.prompt
        if prompt.startswith("What is 1") and prompt not in failed_once:
            failed_once.add(prompt)
            return FakeResponse.error(422, "try later")
        return await handler(request)

    out = tmp_path / "r.json"
    with FakeOpenAI(handler=flaky).in_thread() as server:
        first = _cli(server.base_url, "--output", str(out), "--no-cache")
        _, stderr = first.communicate(timeout=60)
        assert first.returncode == 2 and "errored rows by cause" in stderr and "ADAPTER_ERROR" in stderr
        errored = {r["taskId"] for r in json.loads(out.read_text())["rows"] if r["error"]}
        assert errored and journal_path(out).exists()
        before = dict(handler.requests_per_task)
        second = _cli(server.base_url, "--output", str(out), "--no-cache", "--resume", "--retry-errored")
        _, stderr = second.communicate(timeout=60)
    assert second.returncode == 0, stderr
    resent = {t for t, n in handler.requests_per_task.items() if n > before.get(t, 0)}
    assert resent == errored
    assert json.loads(out.read_text())["totals"]["failed"] == 0


async def test_the_cache_answers_a_rerun_without_requests(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    bench = make_benchmark()

    def answer(request: Any) -> FakeResponse:
        return FakeResponse.text(request.prompt.removeprefix("Say ").rstrip("."), cost=0.002)

    cache = tmp_path / "responses"
    async with FakeOpenAI(handler=answer) as server:
        adapter = openai_compat_adapter(server.base_url, "m", KEY)
        first = await run(bench, adapter, cache=str(cache), temperature=0.0)
        sent = server.received
        second = await run(bench, adapter, cache=str(cache), temperature=0.0)
        assert server.received == sent == 6
        # Another generation setting is another request: not answered from the cache.
        await run(bench, adapter, cache=str(cache), temperature=0.5)
        assert server.received == 12
        # Corrupt entries are ignored and rewritten, never trusted.
        entries = sorted(cache.rglob("*.json"))
        assert len(entries) == 12
        for entry in entries:
            entry.write_text(entry.read_text()[:20], encoding="utf-8")
        rewritten = await run(bench, adapter, cache=str(cache), temperature=0.0)
        assert server.received == 18 and rewritten.cache is not None and rewritten.cache.hits == 0
        third = await run(bench, adapter, cache=str(cache), temperature=0.0)
        assert server.received == 18
        assert sum(1 for entry in entries if entry.read_text().endswith("}}")) == 6  # the 0.5 ones stay cut
    assert [r.score for r in second.rows] == [r.score for r in first.rows] == [1.0] * 6
    assert first.cache is not None and (first.cache.hits, first.cache.saved_cost_usd) == (0, None)
    assert second.cache is not None and second.cache.hits == 6
    assert second.cache.saved_cost_usd == pytest.approx(0.012)
    assert third.cache is not None and third.cache.hits == 6
    assert (second.usage.cost_usd, second.mean) == (first.usage.cost_usd, first.mean)


async def test_the_mock_never_uses_the_cache(tmp_path: Path) -> None:
    report = await run(example, mock_adapter(), cache=str(tmp_path / "c"))
    assert report.cache is None and not (tmp_path / "c").exists()


@pytest.mark.parametrize("provider", ["openai", "openrouter"])
async def test_generation_settings_reach_the_request_body_only_when_given(provider: str) -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        if provider == "openai":
            adapter: Any = openai_compat_adapter(server.base_url, "m", KEY)
        else:
            adapter = openrouter_adapter("vendor/m", KEY, base_url=server.base_url)
        bare = await run(example, adapter, task_ids=["arith-01"], cache=False)
        given = RunOptions(
            task_ids=("arith-01",),
            cache=False,
            temperature=0.3,
            top_p=0.9,
            max_tokens=256,
            sampling_seed=42,
            reasoning_effort="low",
            extra_body={"top_k": 40, "model": "not-this-one"},
        )
        report = await run(example, adapter, given)
    plain, tuned = server.requests[0].body, server.requests[1].body
    # OpenAI's reasoning models refuse max_tokens: the openai provider sends max_completion_tokens.
    limit = "max_completion_tokens" if provider == "openai" else "max_tokens"
    for key in ("temperature", "top_p", "max_tokens", "max_completion_tokens", "seed", "reasoning_effort", "top_k"):
        assert key not in plain
    assert "reasoning" not in plain
    assert (tuned["temperature"], tuned["top_p"], tuned[limit], tuned["seed"]) == (0.3, 0.9, 256, 42)
    assert ({"max_tokens", "max_completion_tokens"} - {limit}).isdisjoint(tuned)
    assert tuned["top_k"] == 40 and tuned["model"] == adapter.model  # model and messages cannot be overridden
    if provider == "openrouter":
        assert tuned["reasoning"] == {"effort": "low"} and "reasoning_effort" not in tuned
        assert tuned["usage"] == {"include": True}
    else:
        assert tuned["reasoning_effort"] == "low" and "reasoning" not in tuned
    assert bare.generation == {}
    assert report.generation == {
        "temperature": 0.3,
        "topP": 0.9,
        "maxTokens": 256,
        "samplingSeed": 42,
        "reasoningEffort": "low",
        "extraBody": {"top_k": 40, "model": "not-this-one"},
    }


async def test_the_report_records_what_served_the_requests_and_detailed_usage() -> None:
    from benchmark_core.testing import chat_completion

    body = chat_completion(
        {"role": "assistant", "content": "4"},
        {
            "prompt_tokens": 30,
            "completion_tokens": 12,
            "prompt_tokens_details": {"cached_tokens": 16},
            "completion_tokens_details": {"reasoning_tokens": 8},
        },
    )
    body.update(model="vendor/m-2026-01", provider="Groq")
    async with FakeOpenAI(default=FakeResponse(body=body)) as server:
        adapter = openrouter_adapter("vendor/m", KEY, base_url=server.base_url)
        report = await run(example, adapter, task_ids=["arith-01", "arith-02"], cache=False)
    assert [(s.model, s.provider, s.requests) for s in report.served_by] == [("vendor/m-2026-01", "Groq", 2)]
    assert (report.usage.reasoning_tokens, report.usage.cached_tokens) == (16, 32)
    from benchmark_core.reports._report import render_summary

    assert "- Served by: `vendor/m-2026-01` via Groq (2 requests)" in render_summary(report)


def test_the_journal_header_records_the_run(tmp_path: Path) -> None:
    server = FakeOpenAI(default=FakeResponse.error(401, "no"))
    out = tmp_path / "r.json"
    with server.in_thread():
        child = _cli(server.base_url, "--output", str(out), "--max-tokens", "64", "--extra-body", '{"top_k": 5}')
        child.communicate(timeout=60)
    header = json.loads(journal_path(out).read_text().split("\n")[0])
    assert header["journal"] == 1
    assert (header["benchmark"], header["model"], header["provider"], header["mode"], header["seed"]) == (
        "benchmark-core-example",
        "m",
        "openai",
        "prompt",
        1,
    )
    assert header["taskSetDigest"].startswith("sha256:")
    assert header["options"]["maxTokens"] == 64 and header["options"]["extraBody"] == {"top_k": 5}


def test_bad_extra_body_and_resume_without_output_are_usage_errors() -> None:
    child = _cli("http://127.0.0.1:9/v1", "--extra-body", "[1]", "--json")
    stdout, _ = child.communicate(timeout=60)
    assert child.returncode == 1 and "must be a JSON object" in json.loads(stdout)["error"]["message"]
    child = _cli("http://127.0.0.1:9/v1", "--resume")
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 1 and "give --output" in stderr


async def test_the_mcp_tool_sends_generation_settings_and_stops_on_fatal_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mcp
    from benchmark_core.servers._mcp import create_mcp_server
    from benchmark_core.testing import tool_data, tool_error

    tasks = await example.load_tasks()
    async with FakeOpenAI(handler=mock_handler(example, tasks=tasks), api_key=KEY) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        arguments = {"model": "m", "provider": "openai", "task_ids": ["arith-01"], "temperature": 0.1}
        async with mcp.Client(create_mcp_server(example)) as client:
            report = tool_data(await client.call_tool("run_benchmark", {**arguments, "extra_body": {"top_k": 3}}))
            again = tool_data(await client.call_tool("run_benchmark", {**arguments, "extra_body": {"top_k": 3}}))
            monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
            stopped = tool_error(await client.call_tool("run_benchmark", {**arguments, "cache": False}))
    first = server.requests[0].body
    assert (first["temperature"], first["top_k"]) == (0.1, 3)
    assert report["generation"] == {"temperature": 0.1, "extraBody": {"top_k": 3}}
    assert again["cache"] == {"hits": 1, "savedCostUsd": None}  # the default cache, as on the CLI
    assert len(server.requests) == 2
    assert stopped["code"] == "AUTHENTICATION_FAILED"
    assert "HTTP 401" in stopped["message"] and "sk-wrong" not in stopped["message"]
