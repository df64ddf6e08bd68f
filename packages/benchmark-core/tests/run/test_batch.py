"""`--batch` against the fake batch APIs (real loopback servers): the SDK, the CLI (including a run
killed with SIGKILL while it polls, then resumed) and MCP `run_benchmark`; bodies that match a direct
request's, failed items resubmitted and nothing else, costs at the batch price, episodes refused."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest
from aiohttp import web
from benchmark_core import RunOptions, mock_adapter, openai_compat_adapter, run
from benchmark_core.adapters._prices import Prices
from benchmark_core.adapters._providers.anthropic import anthropic_adapter
from benchmark_core.errors import ConfigurationError, RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import journal_path
from benchmark_core.testing import (
    AnthropicResponse,
    FakeAnthropicBatches,
    FakeOpenAI,
    FakeOpenAIBatches,
    FakeResponse,
    RecordedRequest,
    ScriptedResponse,
    mock_handler,
)

KEY = "sk-test-batch-0123456789"
SINGLE = tuple(t.id for t in example.tasks() if t.kind == "single")
SETTINGS: dict[str, Any] = {
    "temperature": 0.2,
    "top_p": 0.9,
    "max_tokens": 64,
    "sampling_seed": 7,
    "reasoning_effort": "high",
    "extra_body": {"top_k": 3},
}
PRICES = Prices(input=2.0, output=8.0)


def _canonical(bodies: Any) -> list[str]:
    return sorted(json.dumps(body, sort_keys=True) for body in bodies)


def _fault(expired: set[str], times: int = 1) -> Any:
    return lambda custom_id, submission: "expired" if custom_id in expired and submission <= times else None


@pytest.fixture
def openai_batches() -> Iterator[FakeOpenAIBatches]:
    fake = FakeOpenAIBatches(mock_handler(example), processing_delay=0.2, api_key=KEY)
    with fake.in_thread():
        yield fake


def test_a_batch_run_grades_as_a_direct_run_and_costs_half(openai_batches: FakeOpenAIBatches) -> None:
    async def main() -> tuple[Any, Any, Any]:
        options = RunOptions(task_ids=SINGLE, cache=False, batch_poll=0.05)
        async with FakeOpenAI(handler=mock_handler(example)) as direct_server:
            direct_adapter = openai_compat_adapter(direct_server.base_url, "m", KEY, prices=PRICES)
            direct = await run(example, direct_adapter, options)
        adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY, prices=PRICES)
        batched = await run(example, adapter, options, batch=True)
        mock = await run(example, mock_adapter(), task_ids=SINGLE)
        return direct, batched, mock

    direct, batched, mock = asyncio.run(main())
    assert [r.score for r in batched.rows] == [r.score for r in mock.rows] == [r.score for r in direct.rows]
    assert batched.usage.prompt_tokens == direct.usage.prompt_tokens > 0
    assert batched.usage.cost_usd == pytest.approx(direct.usage.cost_usd * 0.5)
    assert batched.batch is not None and batched.batch.discount == 0.5
    assert batched.batch.batches == list(openai_batches.batches)
    assert batched.batch.saved_cost_usd == pytest.approx(direct.usage.cost_usd * 0.5)
    assert direct.batch is None
    assert sorted(openai_batches.submissions) == sorted(f"t{i:05d}-e1" for i in range(len(SINGLE)))
    assert set(openai_batches.submissions.values()) == {1}
    assert openai_batches.polls >= 2  # in progress at first, then ended


def test_batch_bodies_carry_the_settings_of_a_direct_request(openai_batches: FakeOpenAIBatches) -> None:
    """Inspect's batch-only crash with reasoning_effort (#3272) came from a batch body that differed
    from a direct one: here every item's body is what a direct request sends. (Native mode, with
    tools, is checked by benchmark-schema-mutation's tests.)"""
    options = RunOptions(task_ids=SINGLE[:4], cache=False, batch_poll=0.05, **SETTINGS)

    async def main() -> list[RecordedRequest]:
        async with FakeOpenAI(handler=mock_handler(example)) as direct_server:
            await run(example, openai_compat_adapter(direct_server.base_url, "m", KEY), options)
        await run(example, openai_compat_adapter(openai_batches.base_url, "m", KEY), options, batch=True)
        return direct_server.requests

    direct = asyncio.run(main())
    batched = list(openai_batches.batches["batch_0001"].items.values())
    assert _canonical([r.body for r in direct]) == _canonical(batched)  # direct ones arrive in any order
    assert batched[0]["reasoning_effort"] == "high" and batched[0]["top_k"] == 3
    assert batched[0]["max_completion_tokens"] == 64 and batched[0]["seed"] == 7


def test_only_failed_items_are_submitted_again(openai_batches: FakeOpenAIBatches) -> None:
    openai_batches.item_fault = _fault({"t00002-e1", "t00005-e1"})
    adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY)
    report = asyncio.run(run(example, adapter, task_ids=SINGLE, cache=False, batch=True, batch_poll=0.05))
    assert report.totals.failed == 0
    twice = {cid for cid, n in openai_batches.submissions.items() if n == 2}
    assert twice == {"t00002-e1", "t00005-e1"}
    assert set(openai_batches.submissions.values()) == {1, 2}
    assert [len(b.items) for b in openai_batches.batches.values()] == [len(SINGLE), 2]
    assert [r.attempts for r in report.rows if r.task_id in {SINGLE[2], SINGLE[5]}] == [2, 2]


def test_each_epoch_is_an_item_of_its_own(openai_batches: FakeOpenAIBatches) -> None:
    adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY)
    options = RunOptions(task_ids=SINGLE[:3], cache=False, batch=True, batch_poll=0.05, epochs=2)
    report = asyncio.run(run(example, adapter, options))
    assert sorted(openai_batches.submissions) == [f"t{i:05d}-e{e}" for i in range(3) for e in (1, 2)]
    assert [(r.task_id, r.epoch) for r in report.rows] == [(t, e) for t in SINGLE[:3] for e in (1, 2)]
    assert report.pass_at_k is not None


def test_items_that_keep_failing_become_error_rows(openai_batches: FakeOpenAIBatches) -> None:
    openai_batches.item_fault = _fault({"t00001-e1"}, times=99)
    adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY)
    report = asyncio.run(run(example, adapter, task_ids=SINGLE, cache=False, batch=True, batch_poll=0.05, retries=1))
    failed = [r for r in report.rows if r.error is not None]
    assert [(r.task_id, r.error_code, r.attempts) for r in failed] == [(SINGLE[1], "BATCH_ITEM_FAILED", 2)]
    assert "batch_expired" in (failed[0].error or "")
    assert openai_batches.submissions["t00001-e1"] == 2


def test_a_rejected_item_is_not_submitted_again(openai_batches: FakeOpenAIBatches) -> None:
    handler = mock_handler(example)

    async def answer(request: RecordedRequest) -> ScriptedResponse:
        if "51 - 55" in request.prompt:
            return FakeResponse.error(400, "this request is invalid")
        return await handler(request)

    openai_batches.handler = answer
    adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY)
    report = asyncio.run(run(example, adapter, task_ids=SINGLE, cache=False, batch=True, batch_poll=0.05))
    failed = [r for r in report.rows if r.error is not None]
    assert len(failed) == 1 and "HTTP 400: this request is invalid" in (failed[0].error or "")
    assert set(openai_batches.submissions.values()) == {1}


def test_a_batch_created_but_never_journaled_is_found_by_its_tag(tmp_path: Path) -> None:
    """The create's answer is lost (the client times out while the fake holds it back), so the run
    stops with the batch journaled only as `submitting`; resumed, it finds the batch by the tag in
    its metadata and polls it instead of submitting the tasks again."""
    fake = FakeOpenAIBatches(mock_handler(example), api_key=KEY, create_delay=2.0)
    journal = tmp_path / "report.json.journal.jsonl"
    options = RunOptions(task_ids=SINGLE, cache=False, batch=True, batch_poll=0.05)
    with fake.in_thread():
        adapter = openai_compat_adapter(fake.base_url, "m", KEY, request_timeout=0.5)
        with pytest.raises(RunStoppedError, match="timed out"):
            asyncio.run(run(example, adapter, options, journal=journal))
        assert len(fake.batches) == 1
        fake.create_delay = 0.0
        report = asyncio.run(run(example, adapter, options, journal=journal, resume=True))
    assert len(fake.batches) == 1 and set(fake.submissions.values()) == {1}
    assert report.complete and report.totals.failed == 0 and report.batch is not None
    assert report.batch.batches == list(fake.batches)


def test_episodes_and_providers_without_a_batch_api_are_refused(openai_batches: FakeOpenAIBatches) -> None:
    adapter = openai_compat_adapter(openai_batches.base_url, "m", KEY)
    with pytest.raises(ConfigurationError, match=r"single tasks only.*episodes"):
        asyncio.run(run(example, adapter, cache=False, batch=True))
    with pytest.raises(ConfigurationError, match="provider with a batch API"):
        asyncio.run(run(example, mock_adapter(), task_ids=SINGLE, batch=True))
    assert openai_batches.submissions == {}


async def _direct_anthropic_bodies(options: RunOptions) -> list[Any]:
    """What the Anthropic adapter POSTs to /v1/messages directly, recorded by a loopback server."""
    bodies: list[Any] = []

    async def messages(request: web.Request) -> web.Response:
        bodies.append(await request.json())
        return web.json_response(AnthropicResponse.text("4", input_tokens=1, output_tokens=1).body)

    app = web.Application()
    app.router.add_post("/v1/messages", messages)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        await run(example, anthropic_adapter("claude-test", KEY, base_url=url), options)
    finally:
        await runner.cleanup()
    return bodies


def test_anthropic_message_batches_end_to_end() -> None:
    options = RunOptions(task_ids=SINGLE[:6], cache=False, batch_poll=0.05, max_tokens=50, temperature=0.3)
    fake = FakeAnthropicBatches(
        lambda request: AnthropicResponse.text("4", input_tokens=100, output_tokens=10),
        processing_delay=0.2,
        api_key=KEY,
        item_fault=lambda custom_id, n: "error" if custom_id == "t00003-e1" and n == 1 else None,
    )

    async def main() -> tuple[Any, list[Any]]:
        async with fake:
            adapter = anthropic_adapter("claude-test", KEY, base_url=fake.base_url, prices=PRICES)
            report = await run(example, adapter, options, batch=True)
        return report, await _direct_anthropic_bodies(options)

    report, direct = asyncio.run(main())
    assert report.totals.failed == 0 and report.totals.tasks == 6
    assert fake.submissions["t00003-e1"] == 2 and sum(fake.submissions.values()) == 7
    assert _canonical(fake.batches["msgbatch_0001"].items.values()) == _canonical(direct)
    assert direct[0]["max_tokens"] == 50 and direct[0]["temperature"] == 0.3
    # 6 answers of 100 input and 10 output tokens at $2 and $8 per million, half price.
    assert report.usage.cost_usd == pytest.approx(6 * (100 * 2 + 10 * 8) / 1e6 * 0.5)
    assert report.batch is not None and report.batch.batches == ["msgbatch_0001", "msgbatch_0002"]


def _cli(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "benchmark_core", "run", "--model", "m", *args]
    return subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _task_flags() -> list[str]:
    return [flag for task_id in SINGLE for flag in ("--task", task_id)]


def _wait(condition: Any, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not condition() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert child.poll() is None, f"the run ended early: {child.communicate()}"


def _batch_lines(output: Path) -> list[Any]:
    lines = journal_path(output).read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["batch"] for line in lines if line.startswith('{"batch"')]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_killed_batch_run_resumes_polling_and_never_submits_twice(tmp_path: Path, provider: str) -> None:
    handler = mock_handler(example, wire="openai" if provider == "openai" else "anthropic")
    cls = FakeOpenAIBatches if provider == "openai" else FakeAnthropicBatches
    fake = cls(handler, processing_delay=3.0, api_key=KEY, item_fault=_fault({"t00004-e1"}))
    out = tmp_path / "report.json"
    flags = ["--provider", provider, "--batch", "--batch-poll", "0.05", "--output", str(out), *_task_flags()]
    with fake.in_thread():
        variable = "OPENAI" if provider == "openai" else "ANTHROPIC"
        env = {f"{variable}_BASE_URL": fake.base_url, f"{variable}_API_KEY": KEY}
        child = _cli(env, *flags)
        _wait(lambda: fake.polls >= 3, child)  # submitted, and polling
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert [b["state"] for b in _batch_lines(out)][:2] == ["submitting", "submitted"]
        resumed = _cli(env, *flags, "--resume")
        _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    first = next(iter(fake.batches))
    ended = "completed" if provider == "openai" else "ended"  # the provider's own word
    assert f"batch {first}: {ended}, {len(SINGLE)}/{len(SINGLE)} done, 1 failed" in stderr
    assert len(fake.batches) == 2  # the first, polled again after the kill, and the failed item's
    assert {cid: n for cid, n in fake.submissions.items() if n != 1} == {"t00004-e1": 2}
    assert len(fake.submissions) == len(SINGLE)
    report = json.loads(out.read_text(encoding="utf-8"))
    mock = asyncio.run(run(example, mock_adapter(), task_ids=SINGLE))
    assert [r["score"] for r in report["rows"]] == [r.score for r in mock.rows]
    assert report["batch"]["discount"] == 0.5 and report["complete"] is True
    assert not journal_path(out).exists()


def test_the_cli_refuses_batch_for_episodes_with_exit_1() -> None:
    child = _cli({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "--provider", "openai", "--batch")
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 1
    assert "--batch runs single tasks only" in stderr and "Traceback" not in stderr


def test_mcp_run_benchmark_takes_batch(openai_batches: FakeOpenAIBatches, monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp
    from benchmark_core.servers import create_mcp_server
    from benchmark_core.testing import tool_data, tool_error

    monkeypatch.setenv("OPENAI_BASE_URL", openai_batches.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    arguments: dict[str, Any] = {"model": "m", "provider": "openai", "batch": True, "batch_poll": 0.05, "cache": False}

    seen: list[str] = []

    async def record_progress(progress: float, total: Optional[float], message: Optional[str]) -> None:
        seen.append(message or "")

    async def main() -> tuple[Any, Any]:
        async with mcp.Client(create_mcp_server(example)) as client:
            call = client.call_tool(
                "run_benchmark", {**arguments, "task_ids": list(SINGLE[:5])}, progress_callback=record_progress
            )
            report = tool_data(await call)
            refused = tool_error(await client.call_tool("run_benchmark", arguments))
        return report, refused

    report, refused = asyncio.run(main())
    assert report["batch"]["discount"] == 0.5 and len(report["rows"]) == 5
    assert "batch batch_0001: completed, 5/5 done" in seen
    assert sum(openai_batches.submissions.values()) == 5
    assert refused["code"] == "INVALID_CONFIGURATION" and "single tasks only" in refused["message"]
