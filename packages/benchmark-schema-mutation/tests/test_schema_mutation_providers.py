"""Whole runs through core's real OpenAI-compatible adapter against `benchmark_core.testing.FakeOpenAI`
(real HTTP on 127.0.0.1), in both answer modes, and the same through the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from benchmark_core import Task, openai_compat_adapter
from benchmark_core.cli import create_cli
from benchmark_core.testing import FakeOpenAI, FakeResponse, RecordedRequest
from benchmark_schema_mutation import benchmark, run_async
from click.testing import CliRunner

PROVIDER_SAFE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
COST_PER_REQUEST = 0.0005


def _sent_key(request: RecordedRequest) -> tuple[str, str]:
    """What tells the tasks apart in a native request: the request text and the tools' parameters."""
    tools = request.body.get("tools") if isinstance(request.body, dict) else None
    parameters = [tool["function"].get("parameters") for tool in tools or []]
    return request.prompt, json.dumps(parameters, sort_keys=True)


def _task_key(task: Task) -> tuple[str, str]:
    return str(task.metadata["request"]), json.dumps([tool.parameters for tool in task.tools], sort_keys=True)


class NativeModel:
    """A fake model that answers with tool calls, naming tools only as the request offered them.

    It copies the provider-safe names it received (so a dotted name must have been encoded on the
    way out and must be decoded on the way back). On `typeChange` tasks it answers the stale call,
    as a model that memorised the old unit would; everywhere else the canonical call. It finds the
    task by what a native request carries: the request text and the tools, nothing else.
    """

    def __init__(self, tasks: list[Task]) -> None:
        self.by_key = {_task_key(task): task for task in tasks}
        assert len(self.by_key) == len(tasks)

    def __call__(self, request: RecordedRequest) -> FakeResponse:
        task = self.by_key[_sent_key(request)]
        offered = request.tool_names
        assert all(PROVIDER_SAFE.fullmatch(name) for name in offered), offered
        # The request lists the tools in the task's order, so a position names the same tool.
        position = {tool.name: index for index, tool in enumerate(task.tools)}
        call = task.metadata["staleCall"] if task.metadata["mutationKind"] == "typeChange" else task.expected
        encoded = offered[position[call["name"]]]
        return FakeResponse.tool_calls([(encoded, call["arguments"])], cost=COST_PER_REQUEST)


class PromptModel:
    """A fake model that answers in text: prose around a fenced JSON call, as chat models write it."""

    def __init__(self, tasks: list[Task]) -> None:
        self.by_prompt = {task.prompt: task for task in tasks}

    def __call__(self, request: RecordedRequest) -> FakeResponse:
        call = json.dumps(self.by_prompt[request.prompt].expected, ensure_ascii=False)
        text = f"Sure. Under the current schema the call is:\n\n```json\n{call}\n```\n\nLet me know if it fails."
        return FakeResponse.text(text, prompt_tokens=300, completion_tokens=40, cost=COST_PER_REQUEST)


async def test_f18_native_mode_encodes_dotted_names_and_decodes_the_calls(tasks: list[Task]) -> None:
    async with FakeOpenAI(handler=NativeModel(tasks), api_key="sk-test") as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", api_key="sk-test")
        try:
            report = await run_async(adapter, mode="native", concurrency=8)
        finally:
            await adapter.aclose()
    assert (report.mode, report.provider, report.model) == ("native", "openai", "fake-model")
    assert len(server.requests) == 60
    by_key = {_task_key(t): t for t in tasks}
    for request in server.requests:
        task = by_key[_sent_key(request)]
        assert_native_request(request, task)
        assert isinstance(request.body, dict)
        sent = [tool["function"] for tool in request.body["tools"]]
        assert [tool["parameters"] for tool in sent] == [tool.parameters for tool in task.tools]
        assert all("." in tool.name for tool in task.tools)
        assert not any("." in tool["name"] for tool in sent)
    for task, row in zip(tasks, report.rows):
        assert row.trace is not None and row.trace.tool_calls
        decoded = row.trace.tool_calls[-1].name
        assert row.details["callSource"] == "toolCalls"
        if task.metadata["mutationKind"] == "typeChange":
            assert decoded == task.metadata["staleCall"]["name"]
            assert row.details["outcome"] == "staleSchemaUsed" and row.score == 0.0
        else:
            assert decoded == task.expected["name"]
            assert row.passed, (task.id, row.reason)
    assert report.mean == pytest.approx(48 / 60)
    assert report.summary["staleSchemaUsedRate"] == pytest.approx(12 / 60)
    assert report.summary["perMutationKind"]["typeChange"]["passed"] == 0
    assert report.usage.cost_usd == pytest.approx(60 * COST_PER_REQUEST)
    assert report.summary["toolCallRate"] == 1.0


def assert_native_request(request: RecordedRequest, task: Task) -> None:
    """A native request carries what a tool-using application sends: the schema version in words and
    the request; the schema only as `tools`, never as text, and no answer-format instruction."""
    version = task.metadata["schemaVersion"]
    assert request.messages == [
        {
            "role": "system",
            "content": f"You act for the user through the tools provided, which are at schema "
            f"version {version} of the API.",
        },
        {"role": "user", "content": task.metadata["request"]},
    ]
    text = json.dumps(request.messages)
    for leak in (
        "Answer with exactly one JSON object",
        "```",
        "schema_version",
        '"properties"',
        "additionalProperties",
    ):
        assert leak not in text, (task.id, leak)
    for tool in task.tools:
        # No tool's name or parameter list is spelled out in the messages.
        assert tool.name not in text and json.dumps(tool.parameters) not in text, task.id
    assert isinstance(request.body, dict) and len(request.body["tools"]) == len(task.tools)


async def test_native_mode_answered_in_text_is_graded_from_the_text_and_counted(tasks: list[Task]) -> None:
    by_key = {_task_key(t): t for t in tasks}

    def text_model(request: RecordedRequest) -> FakeResponse:
        return FakeResponse.text(json.dumps(by_key[_sent_key(request)].expected))

    async with FakeOpenAI(handler=text_model) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", api_key="sk-test")
        try:
            report = await run_async(adapter, mode="native", task_ids=[t.id for t in tasks[:10]])
        finally:
            await adapter.aclose()
    assert report.mean == 1.0
    assert all(row.details["callSource"] == "answer" for row in report.rows)
    assert report.summary["toolCallRate"] == 0.0


async def test_prompt_mode_reads_the_call_out_of_prose_and_a_code_fence(tasks: list[Task]) -> None:
    async with FakeOpenAI(handler=PromptModel(tasks)) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", api_key="sk-test")
        try:
            report = await run_async(adapter, concurrency=8)
        finally:
            await adapter.aclose()
    assert report.mode == "prompt"
    assert report.mean == 1.0 and report.totals.passed == 60
    assert all(row.details["callSource"] == "answer" for row in report.rows)
    assert all(isinstance(r.body, dict) and "tools" not in r.body for r in server.requests)
    assert [r.prompt for r in server.requests].count(tasks[0].prompt) == 1
    assert (report.usage.prompt_tokens, report.usage.completion_tokens) == (60 * 300, 60 * 40)
    assert report.usage.cost_usd == pytest.approx(60 * COST_PER_REQUEST)


def test_the_command_line_runs_an_openai_compatible_endpoint_from_the_environment(
    tasks: list[Task], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cli = create_cli(benchmark, "benchmark-schema-mutation")
    with FakeOpenAI(handler=NativeModel(tasks), api_key="sk-from-env").in_thread() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
        output = tmp_path / "report.json"
        arguments = ["run", "--model", "fake-model", "--provider", "openai", "--mode", "native"]
        markdown = tmp_path / "report.md"
        result = CliRunner().invoke(cli, [*arguments, "--json", "--output", str(output), "--markdown", str(markdown)])
    assert result.exit_code == 0, result.output
    by_key = {_task_key(t): t for t in tasks}
    for request in server.requests:
        assert_native_request(request, by_key[_sent_key(request)])
    assert "Tool-call rate: 100.0% of the answers were native tool calls" in markdown.read_text(encoding="utf-8")
    summary = json.loads(result.stdout)
    assert (summary["mode"], summary["provider"], summary["mean"]) == ("native", "openai", pytest.approx(0.8))
    assert summary["usage"]["costUsd"] == pytest.approx(60 * COST_PER_REQUEST)
    assert len(json.loads(output.read_text(encoding="utf-8"))["rows"]) == 60
