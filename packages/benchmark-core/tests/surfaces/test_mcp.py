"""The MCP server: every tool and its errors through the SDK's in-memory client, the initialize
handshake in legacy mode, and one real stdio subprocess (`python -m benchmark_core mcp`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import mcp
import pytest
from benchmark_core import Benchmark, RunReport, Task, TaskScore
from benchmark_core._model import Provenance
from benchmark_core.example import benchmark as example
from benchmark_core.reports._report import provenance_markdown
from benchmark_core.servers._mcp import ERROR_META_KEY, create_mcp_server
from benchmark_core.testing.surfaces import mcp_stdio_parameters, tool_data, tool_error
from benchmark_core.wire import from_wire, to_wire
from benchmark_core.wire._schema import wire_schema
from mcp.types import CallToolResult

ALLOW_ENV = "TINY_MCP_TASKS_ALLOW"
TOOLS = {"list_tasks", "get_task", "score_answer", "run_benchmark", "get_provenance"}


@pytest.fixture
def tiny(make_benchmark: Any, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Benchmark:
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    bench: Benchmark = make_benchmark(tasks_file=data_dir / "tasks.jsonl", tasks_allow_env=ALLOW_ENV)
    return bench


async def test_the_five_tools_publish_input_and_output_schemas(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(listed) == TOOLS
    for tool in listed.values():
        assert tool.description
        assert tool.input_schema["type"] == "object"
        assert "tasks" in tool.input_schema["properties"]
        assert all(spec.get("description") for spec in tool.input_schema["properties"].values()), tool.name
        assert tool.output_schema is not None
        assert tool.output_schema["type"] == "object"
    assert listed["get_task"].output_schema == wire_schema(Task)
    assert listed["score_answer"].output_schema == wire_schema(TaskScore)
    assert listed["run_benchmark"].output_schema == wire_schema(RunReport)
    assert listed["score_answer"].input_schema["required"] == ["task_id", "submission"]
    # Neither has a default on any surface: nothing calls a paid provider unless it was named.
    assert listed["run_benchmark"].input_schema["required"] == ["model", "provider"]
    assert listed["run_benchmark"].annotations is not None
    assert listed["run_benchmark"].annotations.open_world_hint is True
    assert listed["score_answer"].annotations is not None
    assert listed["score_answer"].annotations.read_only_hint is True


async def test_list_and_get_tasks(tiny: Benchmark) -> None:
    tasks = await tiny.load_tasks()
    async with mcp.Client(create_mcp_server(tiny)) as client:
        listed = await client.call_tool("list_tasks", {})
        assert tool_data(listed) == {"benchmark": "tiny", "count": 3, "tasks": to_wire(tasks)}
        assert tool_data(await client.call_tool("get_task", {"task_id": "t2"})) == to_wire(tasks[2])
        missing = tool_error(await client.call_tool("get_task", {"task_id": "nope"}))
    assert missing["code"] == "TASK_NOT_FOUND"
    assert "'nope'" in missing["message"]


async def test_errors_are_readable_text_too(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        result = await client.call_tool("get_task", {"task_id": "nope"})
    assert result.is_error
    text = result.content[0]
    assert isinstance(text, mcp.types.TextContent)
    assert text.text.startswith("TASK_NOT_FOUND: unknown task id 'nope'")


async def test_errors_carry_no_structured_content_and_their_code_in_meta(tiny: Benchmark) -> None:
    """A client that validates structured content against the output schema (MCP Inspector does)
    must still see our message: error results carry none, and the code travels in `_meta`."""
    async with mcp.Client(create_mcp_server(tiny)) as client:
        result = await client.call_tool("get_task", {"task_id": "nope"})
    assert result.is_error
    assert result.structured_content is None
    assert result.meta is not None
    assert result.meta[ERROR_META_KEY] == {
        "code": "TASK_NOT_FOUND",
        "message": "unknown task id 'nope' in benchmark 'tiny'",
    }
    assert [block.type for block in result.content] == ["text"]


async def test_unknown_tool_is_a_coded_error(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        error = tool_error(await client.call_tool("drop_tables", {}))
    assert error["code"] == "UNKNOWN_TOOL"
    assert error["message"] == (
        "no tool named 'drop_tables'; available: get_provenance, get_task, list_tasks, run_benchmark, score_answer"
    )


async def test_an_unexpected_exception_is_an_internal_error(make_benchmark: Any) -> None:
    async def broken_loader() -> list[Task]:
        raise RuntimeError("the loader fell over")

    async with mcp.Client(create_mcp_server(make_benchmark(load_tasks=broken_loader))) as client:
        calls: list[tuple[str, dict[str, Any]]] = [
            ("list_tasks", {}),
            ("get_task", {"task_id": "t0"}),
            ("score_answer", {"task_id": "t0", "submission": {}}),
            ("run_benchmark", {"model": "m", "provider": "mock"}),
        ]
        for tool, arguments in calls:
            error = tool_error(await client.call_tool(tool, arguments))
            assert error["code"] == "INTERNAL_ERROR", tool
            assert error["message"] == f"{tool} failed unexpectedly; the traceback is in the server's log"


async def test_score_answer(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        good = tool_data(await client.call_tool("score_answer", {"task_id": "t1", "submission": {"answer": "1"}}))
        bad = tool_data(await client.call_tool("score_answer", {"task_id": "t1", "submission": {"answer": "7"}}))
        unknown_key = await client.call_tool("score_answer", {"task_id": "t1", "submission": {"answr": "1"}})
        bad_log = await client.call_tool("score_answer", {"task_id": "t1", "submission": {"toolLog": "x"}})
        no_task = await client.call_tool("score_answer", {"task_id": "zz", "submission": {}})
        not_object = await client.call_tool("score_answer", {"task_id": "t1", "submission": "1"})
        missing = await client.call_tool("score_answer", {"task_id": "t1"})
    assert good == to_wire(await tiny.score_async("t1", {"answer": "1"}))
    assert good["passed"] is True
    assert bad["passed"] is False
    assert tool_error(unknown_key)["code"] == "INVALID_SUBMISSION"
    assert tool_error(bad_log)["code"] == "INVALID_SUBMISSION"
    assert tool_error(no_task)["code"] == "TASK_NOT_FOUND"
    # Argument validation happens in the SDK, before the tool runs: still a coded tool error.
    assert tool_error(not_object) == {
        "code": "INVALID_ARGUMENTS",
        "message": "invalid arguments for score_answer: submission: Input should be a valid dictionary",
    }
    assert tool_error(missing) == {
        "code": "INVALID_ARGUMENTS",
        "message": "invalid arguments for score_answer: submission: Field required",
    }


async def test_get_provenance(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        data = tool_data(await client.call_tool("get_provenance", {}))
    assert data == {"benchmark": "tiny", "provenance": to_wire(tiny.provenance), "markdown": provenance_markdown(tiny)}
    assert from_wire(data["provenance"][0], Provenance) == tiny.provenance[0]


async def test_run_benchmark_with_the_mock(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny)) as client:
        data = tool_data(await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock", "seed": 5}))
        subset = tool_data(
            await client.call_tool(
                "run_benchmark", {"model": "m", "provider": "mock", "task_ids": ["t2", "t0"], "concurrency": 1}
            )
        )
    report = from_wire(data, RunReport)
    assert (report.benchmark, report.model, report.provider, report.seed) == ("tiny", "offline", "mock", 5)
    assert [row.task_id for row in report.rows] == ["t0", "t1", "t2"]
    assert [row.passed for row in report.rows] == [True, False, True]
    assert [row["taskId"] for row in subset["rows"]] == ["t0", "t2"]


async def test_run_benchmark_reports_progress(tiny: Benchmark) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with mcp.Client(create_mcp_server(tiny)) as client:
        listed = await client.list_tools()
        run_tool = next(tool for tool in listed.tools if tool.name == "run_benchmark")
        assert "ctx" not in run_tool.input_schema["properties"]
        result = await client.call_tool(
            "run_benchmark", {"model": "m", "provider": "mock", "concurrency": 1}, progress_callback=on_progress
        )
    assert tool_data(result)["totals"]["tasks"] == 3
    assert [(done, total) for done, total, _ in seen] == [(1, 3), (2, 3), (3, 3)]
    assert [message for _, _, message in seen] == ["t0: 1", "t1: 0", "t2: 1"]


async def test_run_benchmark_keeps_transcripts_only_when_asked() -> None:
    async with mcp.Client(create_mcp_server(example)) as client:
        short = tool_data(await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock"}))
        full = tool_data(
            await client.call_tool(
                "run_benchmark", {"model": "offline", "provider": "mock", "include_transcripts": True}
            )
        )
        episodes = [
            (row, full_row)
            for row, full_row in zip(short["rows"], full["rows"], strict=True)
            if row["episode"] is not None
        ]
        assert episodes
        for row, full_row in episodes:
            assert row["episode"]["transcript"] == []
            assert len(full_row["episode"]["transcript"]) > 2
            assert row["episode"]["toolLog"] == full_row["episode"]["toolLog"]
            rescored = await client.call_tool(
                "score_answer", {"task_id": row["taskId"], "submission": row["trace"], "seed": short["seed"]}
            )
            assert tool_data(rescored)["score"] == row["score"]
    assert [r["score"] for r in short["rows"]] == [r["score"] for r in full["rows"]]


async def test_run_benchmark_configuration_errors(tiny: Benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    async with mcp.Client(create_mcp_server(tiny)) as client:
        no_key = tool_error(await client.call_tool("run_benchmark", {"model": "some/model", "provider": "openrouter"}))
        # The declared choices and bounds are in the input schema, so the SDK refuses these itself.
        unknown = await client.call_tool("run_benchmark", {"model": "m", "provider": "pigeon"})
        bad_ids = tool_error(
            await client.call_tool("run_benchmark", {"model": "m", "provider": "mock", "task_ids": ["zz"]})
        )
        bad_mode = tool_error(
            await client.call_tool("run_benchmark", {"model": "m", "provider": "mock", "mode": "native"})
        )
        zero = await client.call_tool("run_benchmark", {"model": "m", "provider": "mock", "concurrency": 0})
        fraction = await client.call_tool("run_benchmark", {"model": "m", "provider": "mock", "max_errors": 1.5})
        # The server is still answering after all of those.
        assert tool_data(await client.call_tool("get_task", {"task_id": "t0"}))["id"] == "t0"
    assert no_key["code"] == "INVALID_CONFIGURATION"
    assert "OPENROUTER_API_KEY" in no_key["message"]
    assert unknown.is_error and "provider" in _text(unknown)
    assert bad_ids["code"] == "TASK_NOT_FOUND"
    assert bad_mode["code"] == "INVALID_CONFIGURATION"
    assert zero.is_error and "concurrency" in _text(zero)
    assert tool_error(fraction)["code"] == "INVALID_CONFIGURATION"


def _text(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


async def test_tasks_argument_follows_the_allow_list(
    tiny: Benchmark, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = data_dir.parent / "outside.jsonl"
    (data_dir / "link.jsonl").symlink_to(outside)
    async with mcp.Client(create_mcp_server(tiny)) as client:
        assert tool_data(await client.call_tool("list_tasks", {"tasks": "alt"}))["count"] == 2
        assert tool_data(await client.call_tool("get_task", {"task_id": "alt1", "tasks": "alt.jsonl"}))["id"] == "alt1"
        for name in ("../outside", str(outside), "link", "data/../../outside.jsonl", ""):
            calls: list[tuple[str, dict[str, Any]]] = [
                ("list_tasks", {}),
                ("get_task", {"task_id": "out0"}),
                ("score_answer", {"task_id": "out0", "submission": {}}),
                ("run_benchmark", {"model": "m", "provider": "mock"}),
                ("get_provenance", {}),
            ]
            for tool, arguments in calls:
                error = tool_error(await client.call_tool(tool, {**arguments, "tasks": name}))
                assert error["code"] == "TASKS_NOT_ALLOWED", (tool, name)
        assert tool_error(await client.call_tool("list_tasks", {"tasks": "nope"}))["code"] == "INVALID_TASK_FILE"
        monkeypatch.setenv(ALLOW_ENV, os.pathsep.join([str(outside)]))
        allowed = await client.call_tool(
            "score_answer", {"task_id": "out2", "submission": {"answer": "2"}, "tasks": str(outside)}
        )
        assert tool_data(allowed)["passed"] is True
        report = tool_data(
            await client.call_tool("run_benchmark", {"model": "m", "provider": "mock", "tasks": str(outside)})
        )
        assert [row["taskId"] for row in report["rows"]] == ["out0", "out1", "out2", "out3"]


async def test_task_file_errors_name_the_file_as_the_caller_did(tiny: Benchmark, data_dir: Path) -> None:
    (data_dir / "broken.jsonl").write_text('{"id": "b0", "kind": "single", "prompt": "p"}\n{nope\n', encoding="utf-8")
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_tasks", {}),
        ("get_task", {"task_id": "b0"}),
        ("score_answer", {"task_id": "b0", "submission": {}}),
        ("run_benchmark", {"model": "m", "provider": "mock"}),
        ("get_provenance", {}),
    ]
    async with mcp.Client(create_mcp_server(tiny)) as client:
        for tool, arguments in calls:
            error = tool_error(await client.call_tool(tool, {**arguments, "tasks": "broken"}))
            assert error["code"] == "INVALID_TASK_FILE", tool
            assert error["message"].startswith("broken:2: not JSON"), (tool, error)
            assert str(data_dir) not in error["message"]


async def test_a_crashing_grader_is_a_tool_error_without_internals(make_benchmark: Any) -> None:
    def crash(task: Task, trace: Any, ctx: Any) -> TaskScore:
        raise RuntimeError("secret internals")

    async with mcp.Client(create_mcp_server(make_benchmark(grade=crash))) as client:
        result = await client.call_tool("score_answer", {"task_id": "t0", "submission": {}})
        assert tool_error(result)["code"] == "INTERNAL_ERROR"
        assert "secret" not in str(result.content)
        assert "secret" not in str(result.meta)
        assert tool_data(await client.call_tool("get_task", {"task_id": "t0"}))["id"] == "t0"


async def test_legacy_handshake(tiny: Benchmark) -> None:
    async with mcp.Client(create_mcp_server(tiny), mode="legacy") as client:
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == ("tiny", "0.0.1")
        assert client.instructions is not None
        assert "Nothing real." in client.instructions
        assert tool_data(await client.call_tool("get_task", {"task_id": "t0"}))["id"] == "t0"


async def test_stdio_subprocess() -> None:
    async with mcp.Client(mcp_stdio_parameters("benchmark_core"), read_timeout_seconds=60) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
        listed = tool_data(await client.call_tool("list_tasks", {}))
        assert listed["benchmark"] == "benchmark-core-example"
        first = listed["tasks"][0]
        scored = await client.call_tool(
            "score_answer", {"task_id": first["id"], "submission": {"answer": str(first["expected"])}}
        )
        assert tool_data(scored)["passed"] is True
        assert tool_error(await client.call_tool("get_task", {"task_id": "nope"}))["code"] == "TASK_NOT_FOUND"
        report = tool_data(await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock"}))
        assert report["totals"]["tasks"] == listed["count"]


async def test_run_benchmark_applies_episode_limits() -> None:
    arguments = {"model": "m", "provider": "mock", "task_ids": ["order-refund-01"], "include_transcripts": True}
    async with mcp.Client(create_mcp_server(example)) as client:
        free = tool_data(await client.call_tool("run_benchmark", arguments))
        capped = tool_data(await client.call_tool("run_benchmark", {**arguments, "max_tool_calls": 1}))
    assert free["rows"][0]["passed"] is True
    assert free["rows"][0]["episode"]["aborted"] is None
    row = capped["rows"][0]
    assert row["episode"]["aborted"] == "budget"
    assert row["episode"]["abortDetail"] == "max_tool_calls (1) reached"
    assert row["passed"] is False
    assert len(row["trace"]["toolLog"]) == 1
