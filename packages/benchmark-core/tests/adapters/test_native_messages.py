"""The `native_messages` hook: what a single task sends in native answer mode, on the wire."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from benchmark_core import Benchmark, Task, ToolSpec, openai_compat_adapter, run
from benchmark_core.chat import ChatMessage
from benchmark_core.errors import DefinitionError
from benchmark_core.testing import FakeOpenAI, FakeResponse

BenchmarkFactory = Callable[..., Benchmark]

TOOL = ToolSpec(name="notes.add", description="Add a note.", parameters={"type": "object"})
TASKS = [Task(id="t0", kind="single", prompt="PROMPT-MODE TEXT with the schema", expected="0", tools=[TOOL])]


def _messages(task: Task) -> list[ChatMessage]:
    return [
        ChatMessage(role="system", content="You take notes through the tools."),
        ChatMessage(role="user", content=f"Request for {task.id}"),
    ]


def test_default_is_one_user_message_with_the_prompt(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark(TASKS, answer_modes=("native",))
    assert bench.native_messages(TASKS[0]) == [ChatMessage(role="user", content="PROMPT-MODE TEXT with the schema")]


def test_native_messages_must_be_callable(make_benchmark: BenchmarkFactory) -> None:
    with pytest.raises(DefinitionError, match="native_messages must be callable"):
        make_benchmark(TASKS, native_messages="not a function")


@pytest.mark.asyncio
async def test_the_hook_is_what_the_provider_receives(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark(TASKS, answer_modes=("prompt", "native"), native_messages=_messages)
    async with FakeOpenAI(default=FakeResponse.tool_calls([("notes_add", {})])) as server:
        adapter = openai_compat_adapter(server.base_url, "fake-model", "sk-test")
        await run(bench, adapter, mode="native")
        adapter = openai_compat_adapter(server.base_url, "fake-model", "sk-test")
        await run(bench, adapter, mode="prompt")
    native, prompt = server.requests
    assert native.messages == [
        {"role": "system", "content": "You take notes through the tools."},
        {"role": "user", "content": "Request for t0"},
    ]
    assert native.tool_names == ["notes_add"]
    # Prompt mode is untouched by the hook.
    assert prompt.messages == [{"role": "user", "content": "PROMPT-MODE TEXT with the schema"}]


@pytest.mark.asyncio
async def test_a_hook_returning_no_messages_costs_the_row(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark(TASKS, answer_modes=("native",), native_messages=lambda task: [])
    async with FakeOpenAI(default=FakeResponse.tool_calls([("notes_add", {})])) as server:
        report = await run(bench, openai_compat_adapter(server.base_url, "fake-model", "sk-test"), mode="native")
    assert server.requests == []
    assert report.rows[0].error is not None and "native_messages" in report.rows[0].error
