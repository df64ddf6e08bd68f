"""The provider table: presets over the OpenAI-compatible adapter (URLs, keys, quirks), `--base-url`
and `--prices` on the CLI, and the `providers` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Optional

import pytest
from benchmark_core import AdapterContext, Task
from benchmark_core.adapters import make_adapter
from benchmark_core.adapters.base import GenerationSettings
from benchmark_core.adapters.catalog import PROVIDER_TABLE, PROVIDERS_BY_NAME
from benchmark_core.chat import ChatMessage, ChatRequest
from benchmark_core.errors import AdapterError
from benchmark_core.testing import FakeOpenAI, FakeResponse, chat_completion

PRESETS = [info for info in PROVIDER_TABLE if info.wire == "openai"]
SETTINGS = GenerationSettings(max_tokens=64, seed=9)
CTX = AdapterContext(task=Task(id="t", kind="single", prompt="p"), settings=SETTINGS)


@pytest.fixture(autouse=True)
def _no_provider_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_BASE_URL")):
            monkeypatch.delenv(name)


@pytest.mark.parametrize("info", PRESETS, ids=lambda info: info.name)
def test_each_preset_defaults_to_its_url_and_reads_its_variables(info: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(info.key_variable, "sk-preset")
    adapter: Any = make_adapter(info.name, "m")
    assert (adapter.provider, adapter.base_url) == (info.name, info.base_url)
    monkeypatch.setenv(info.base_url_variable, "http://127.0.0.1:7/v1")
    assert make_adapter(info.name, "m").base_url == "http://127.0.0.1:7/v1"  # type: ignore[attr-defined]
    given = make_adapter(info.name, "m", base_url="http://127.0.0.1:8/v1")
    assert given.base_url == "http://127.0.0.1:8/v1"  # type: ignore[attr-defined]


@pytest.mark.parametrize("info", PRESETS, ids=lambda info: info.name)
async def test_each_preset_sends_its_token_limit_and_seed_fields(info: Any) -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        adapter = make_adapter(info.name, "m", base_url=server.base_url, api_key="sk-preset")
        await adapter.complete("hi", CTX)
        await adapter.aclose()
    body = server.requests[0].body
    assert isinstance(body, dict)
    assert body[info.max_tokens_field] == 64 and body[info.seed_field] == 9
    assert {"max_tokens", "max_completion_tokens", "seed", "random_seed"} & set(body) == {
        info.max_tokens_field,
        info.seed_field,
    }
    assert server.requests[0].authorization == "Bearer sk-preset"


def test_openai_and_groq_send_max_completion_tokens_others_max_tokens() -> None:
    fields = {info.name: info.max_tokens_field for info in PRESETS}
    assert fields["openai"] == fields["groq"] == "max_completion_tokens"
    assert {fields[name] for name in ("vllm", "ollama", "llamacpp", "together", "deepseek", "mistral")} == {
        "max_tokens"
    }


@pytest.mark.parametrize("name", ["vllm", "ollama", "llamacpp"])
async def test_local_servers_need_no_key_and_get_no_authorization_header(name: str) -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        adapter = make_adapter(name, "m", base_url=server.base_url)
        await adapter.complete("hi", CTX)
        await adapter.aclose()
    assert server.requests[0].authorization is None


async def test_deepseek_reasoning_content_is_kept_and_never_sent_back() -> None:
    message = {"role": "assistant", "content": "4", "reasoning_content": "2 and 2 make 4."}
    answers = [FakeResponse(body=chat_completion(message)), FakeResponse.text("ok")]
    async with FakeOpenAI(answers) as server:
        adapter = make_adapter("deepseek", "deepseek-reasoner", base_url=server.base_url, api_key="sk-ds")
        history = [ChatMessage("user", "2+2?")]
        first = await adapter.chat(ChatRequest(history), CTX)
        await adapter.chat(ChatRequest([*history, first.message, ChatMessage("user", "Sure?")]), CTX)
        await adapter.aclose()
    assert first.message.reasoning == "2 and 2 make 4."
    assert "reasoning_content" not in json.dumps(server.requests[1].body)


@pytest.mark.parametrize("name", ["deepseek", "mistral"])
async def test_a_preset_without_reasoning_effort_refuses_it_before_sending(name: str) -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        adapter = make_adapter(name, "m", base_url=server.base_url, api_key="sk")
        ctx = AdapterContext(task=CTX.task, settings=GenerationSettings(reasoning_effort="high"))
        with pytest.raises(AdapterError, match="takes no reasoning effort") as info:
            await adapter.complete("hi", ctx)
    assert server.received == 0 and info.value.fatal


def run_cli(*args: str, env: Optional[dict[str, str]] = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "benchmark_core", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)


def test_the_providers_command_lists_every_provider_from_the_table() -> None:
    env = {**os.environ, "GROQ_API_KEY": "gsk-SECRET-never-shown"}
    text, as_json = run_cli("providers", env=env), run_cli("providers", "--json", env=env)
    assert text.returncode == 0 and as_json.returncode == 0
    listed = json.loads(as_json.stdout)["providers"]
    assert [entry["name"] for entry in listed] == [info.name for info in PROVIDER_TABLE]
    for entry in listed:
        info = PROVIDERS_BY_NAME[entry["name"]]
        assert (entry["baseUrl"] or "", entry["keyVariable"]) == (info.base_url, info.key_variable)
        assert entry["name"] in text.stdout and (info.base_url or "-") in text.stdout
    assert next(e for e in listed if e["name"] == "groq")["keySet"] is True
    assert "GROQ_API_KEY (set)" in text.stdout and "gsk-SECRET" not in text.stdout + as_json.stdout


def test_base_url_and_prices_on_the_cli(tmp_path: Any) -> None:
    with FakeOpenAI(default=FakeResponse.text("4", prompt_tokens=1000, completion_tokens=100)).in_thread() as server:
        env = {**os.environ, "TOGETHER_API_KEY": "sk-t"}
        prices = '{"input": 1, "output": 2}'
        args = ["run", "--model", "m", "--provider", "together", "--base-url", server.base_url, "--no-cache"]
        done = run_cli(*args, "--prices", prices, "--task", "arith-01", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["provider"] == "together" and report["usage"]["costUsd"] == pytest.approx(0.0012)
    bad = run_cli(*args[:-3], "--prices", '{"input": 1}', env=env)
    assert bad.returncode == 1 and "'output'" in bad.stderr and "Traceback" not in bad.stderr
