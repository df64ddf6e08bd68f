"""Test utilities shipped with benchmark-core, for its own tests and for benchmark packages' tests.

`FakeOpenAI` is an OpenAI-compatible server on 127.0.0.1 with scripted answers (text, tool calls,
usage and cost, rate limits, server errors, malformed bodies, slow answers) that records what it
received; `FakeAnthropic` (Messages: tool use, thinking, prompt caching, 529, rate-limit headers)
and `FakeGemini` (generateContent) do the same in their providers' published wire formats, refusing
what those APIs refuse; `FakeAzure` serves Azure OpenAI's deployment URLs, refusing a missing
`api-version` or a wrong `api-key` as Azure does. `FakeOpenAIBatches` and `FakeAnthropicBatches` serve OpenAI's Files +
Batches and Anthropic's Message Batches (a processing delay, per-item failures, submission counts).
With `ratelimit_headers=True`, `FakeOpenAI`'s rate limit sends OpenAI's rate-limit headers.
`mock_handler(benchmark, wire=...)` makes any of them answer as the offline
mock would (`mock_handlers` for several benchmarks behind one server; `stretch` makes its episodes
long), `sigkill_and_resume` kills a run mid-way and resumes it, counting what was sent again, and
`AlwaysGoodMock` is the mock answering every task well (a second model to compare with).
`serve_benchmark`, `mcp_stdio_parameters`, `tool_data` and `tool_error` help test a benchmark's HTTP API
and MCP server (see `benchmark_core.testing.surfaces`). For synchronous code (a Playwright test),
`serve_app_in_thread` serves any aiohttp app on loopback and `run_in_thread` runs a coroutine;
`benchmark_core.testing.browser` gives Playwright the system's Chromium. Importing this package
imports aiohttp.
"""

from ._loopback import ScriptedResponse, run_in_thread, serve_app_in_thread
from .fake_anthropic import MESSAGES_PATH, AnthropicResponse, FakeAnthropic
from .fake_azure import AzureResponse, FakeAzure
from .fake_batches import FakeAnthropicBatches, FakeBatch, FakeOpenAIBatches, ItemFault
from .fake_gemini import FakeGemini, GeminiResponse
from .fake_openai import CHAT_PATH, FakeOpenAI, FakeResponse, Handler, RecordedRequest, chat_completion
from .kills import KillAndResume, sigkill_and_resume
from .mock_server import MockHandler, MockHandlers, mock_handler, mock_handlers
from .mocks import AlwaysGoodMock
from .reports import VOLATILE_KEYS, stable_report
from .surfaces import free_port, mcp_stdio_parameters, serve_benchmark, tool_data, tool_error

__all__ = [
    "AlwaysGoodMock",
    "AnthropicResponse",
    "AzureResponse",
    "CHAT_PATH",
    "FakeAnthropic",
    "FakeAnthropicBatches",
    "FakeAzure",
    "FakeBatch",
    "FakeGemini",
    "FakeOpenAI",
    "FakeOpenAIBatches",
    "GeminiResponse",
    "MESSAGES_PATH",
    "ScriptedResponse",
    "run_in_thread",
    "serve_app_in_thread",
    "FakeResponse",
    "Handler",
    "ItemFault",
    "KillAndResume",
    "MockHandler",
    "MockHandlers",
    "RecordedRequest",
    "VOLATILE_KEYS",
    "chat_completion",
    "free_port",
    "mock_handler",
    "mock_handlers",
    "mcp_stdio_parameters",
    "serve_benchmark",
    "sigkill_and_resume",
    "stable_report",
    "tool_data",
    "tool_error",
]
