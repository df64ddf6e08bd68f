"""The new providers through the other surfaces: MCP `run_benchmark` (in memory and as a stdio
subprocess) reaches Anthropic and Gemini through their variables, the same declaration gives the
CLI's `--provider` choices and the MCP parameter, and `--base-url` is not an MCP parameter (an MCP
client may not send the key to another host)."""

from __future__ import annotations

import asyncio

import mcp
import pytest
from benchmark_core.adapters.catalog import PROVIDER_NAMES
from benchmark_core.example import benchmark as example
from benchmark_core.servers._mcp import create_mcp_server
from benchmark_core.testing import FakeAnthropic, FakeGemini, mock_handler
from benchmark_core.testing.surfaces import mcp_stdio_parameters, tool_data

KEY = "sk-surfaces-SECRET-0c2a"
FAKES = {"anthropic": FakeAnthropic, "gemini": FakeGemini}


async def test_the_run_benchmark_schema_lists_every_provider_and_takes_no_base_url() -> None:
    async with mcp.Client(create_mcp_server(example)) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    properties = listed["run_benchmark"].input_schema["properties"]
    assert tuple(properties["provider"]["enum"]) == PROVIDER_NAMES
    assert "base_url" not in properties and "prices" in properties


@pytest.mark.parametrize("provider", sorted(FAKES))
async def test_run_benchmark_reaches_the_native_providers(provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    handler = mock_handler(example, wire=provider)  # type: ignore[arg-type]
    async with FAKES[provider](handler=handler, api_key=KEY) as server:
        monkeypatch.setenv(f"{provider.upper()}_BASE_URL", server.base_url)
        monkeypatch.setenv(f"{provider.upper()}_API_KEY", KEY)
        arguments = {"model": "fake-model", "provider": provider, "cache": False, "prices": {"input": 1, "output": 5}}
        async with mcp.Client(create_mcp_server(example)) as client:
            report = tool_data(await client.call_tool("run_benchmark", arguments))
    assert report["provider"] == provider and report["totals"]["failed"] == 0
    assert report["usage"]["promptTokens"] > 0 and report["usage"]["costUsd"] > 0
    assert server.received >= len(report["rows"])


def test_run_benchmark_in_a_stdio_subprocess_reaches_anthropic() -> None:
    with FakeAnthropic(handler=mock_handler(example, wire="anthropic"), api_key=KEY).in_thread() as server:
        env = {"ANTHROPIC_BASE_URL": server.base_url, "ANTHROPIC_API_KEY": KEY}

        async def call() -> dict[str, object]:
            async with mcp.Client(mcp_stdio_parameters("benchmark_core", env=env)) as client:
                arguments = {"model": "claude-fake", "provider": "anthropic", "cache": False}
                result = await client.call_tool("run_benchmark", arguments)
                return tool_data(result)  # type: ignore[no-any-return]

        report = asyncio.run(call())
    assert report["provider"] == "anthropic" and report["model"] == "claude-fake"
    assert KEY not in str(report)
