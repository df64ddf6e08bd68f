"""Azure OpenAI: deployment URLs, the `api-version` parameter, the `api-key` header, Azure's error
shapes and rate-limit headers, against `FakeAzure`, which refuses what Azure refuses."""

from __future__ import annotations

import aiohttp
import pytest
from benchmark_core import AdapterContext, RunOptions, Task, run
from benchmark_core.adapters import Pacer, make_adapter
from benchmark_core.adapters._providers.azure import DEFAULT_API_VERSION
from benchmark_core.adapters.base import GenerationSettings
from benchmark_core.errors import AdapterError, ConfigurationError, RunStoppedError
from benchmark_core.example import benchmark as example
from benchmark_core.testing import AzureResponse, FakeAzure, FakeOpenAI, FakeResponse

KEY = "azure-test-SECRET-5d2e"
CTX = AdapterContext(task=Task(id="t", kind="single", prompt="p"), settings=GenerationSettings(max_tokens=64))


def fast(**kwargs: object) -> RunOptions:
    return RunOptions(backoff_base=0.001, backoff_max=0.01, cache=False, **kwargs)  # type: ignore[arg-type]


async def test_the_request_goes_to_the_deployment_with_the_version_and_the_api_key_header() -> None:
    async with FakeAzure([AzureResponse.text("4")], api_key=KEY, deployments=["gpt-4o-prod"]) as server:
        adapter = make_adapter("azure", "gpt-4o-prod", base_url=server.base_url + "/", api_key=KEY)
        result = await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    [request] = server.requests
    assert result.text == "4"
    assert request.path == "/openai/deployments/gpt-4o-prod/chat/completions"
    assert request.query == {"api-version": DEFAULT_API_VERSION}
    assert request.headers["api-key"] == KEY and "Authorization" not in request.headers
    # The body is OpenAI's, the token limit as max_completion_tokens.
    assert request.body == {
        "max_completion_tokens": 64,
        "model": "gpt-4o-prod",
        "messages": [{"role": "user", "content": "2+2?"}],
    }


async def test_the_body_is_byte_for_byte_the_one_openai_receives() -> None:
    async with FakeAzure([AzureResponse.text("4")], api_key=KEY) as azure, FakeOpenAI([FakeResponse.text("4")]) as oai:
        for provider, server in (("azure", azure), ("openai", oai)):
            adapter = make_adapter(provider, "m", base_url=server.base_url, api_key=KEY)
            await adapter.complete("2+2?", CTX)
            await adapter.aclose()
    assert azure.requests[0].body == oai.requests[0].body


async def test_the_api_version_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_VERSION", "2025-01-01-preview")
    async with FakeAzure([AzureResponse.text("4")], api_key=KEY) as server:
        adapter = make_adapter("azure", "d", base_url=server.base_url, api_key=KEY)
        await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    assert server.requests[0].query == {"api-version": "2025-01-01-preview"}


async def test_an_unsupported_api_version_is_a_fatal_400(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_VERSION", "1999-01-01")
    async with FakeAzure(default=AzureResponse.text("4"), api_key=KEY) as server:
        with pytest.raises(RunStoppedError) as info:
            await run(example, make_adapter("azure", "d", base_url=server.base_url, api_key=KEY), fast(concurrency=1))
    assert "HTTP 400: API version not supported" in info.value.message and server.received == 1


async def test_the_fake_refuses_a_missing_api_version_and_a_bearer_token_as_azure_does() -> None:
    async with FakeAzure(default=AzureResponse.text("4"), api_key=KEY) as server, aiohttp.ClientSession() as client:
        url = f"{server.base_url}/openai/deployments/d/chat/completions"
        async with client.post(url, json={"messages": []}, headers={"api-key": KEY}) as missing:
            assert missing.status == 404
            assert await missing.json() == {"error": {"code": "404", "message": "Resource not found"}}
        bearer = {"Authorization": f"Bearer {KEY}"}
        async with client.post(url, params={"api-version": DEFAULT_API_VERSION}, json={}, headers=bearer) as refused:
            assert refused.status == 401
            assert (await refused.json())["error"]["message"].startswith(
                "Access denied due to invalid subscription key"
            )


async def test_a_wrong_key_ends_the_run_with_azures_401() -> None:
    async with FakeAzure(default=AzureResponse.text("4"), api_key=KEY) as server:
        adapter = make_adapter("azure", "d", base_url=server.base_url, api_key=KEY + "-wrong")
        with pytest.raises(RunStoppedError) as info:
            await run(example, adapter, fast(concurrency=1))
    assert "HTTP 401: Access denied" in info.value.message and KEY not in info.value.message


async def test_an_unknown_deployment_is_a_fatal_404() -> None:
    async with FakeAzure(default=AzureResponse.text("4"), api_key=KEY, deployments=["prod"]) as server:
        adapter = make_adapter("azure", "staging", base_url=server.base_url, api_key=KEY)
        with pytest.raises(AdapterError) as info:
            await adapter.complete("2+2?", CTX)
        await adapter.aclose()
    assert info.value.fatal and info.value.status == 404 and "deployment for this resource" in info.value.message


async def test_a_content_filter_refusal_fails_its_row_and_the_run_goes_on() -> None:
    async with FakeAzure([AzureResponse.content_filter()], default=AzureResponse.text("4"), api_key=KEY) as server:
        adapter = make_adapter("azure", "d", base_url=server.base_url, api_key=KEY)
        report = await run(example, adapter, fast(concurrency=1, task_ids=("arith-01", "arith-02")))
    first, second = report.rows
    assert first.error is not None and "content management policy" in first.error and first.attempts == 1
    assert second.error is None and server.received == 2


async def test_azures_rate_limit_headers_reach_the_pacer() -> None:
    async with FakeAzure([AzureResponse.text("4")], api_key=KEY, rate_limit=50, ratelimit_headers=True) as server:
        adapter = make_adapter("azure", "d", base_url=server.base_url, api_key=KEY)
        pacer = Pacer()
        slot, _ = pacer.claim()
        ctx = AdapterContext(task=CTX.task, pacer=pacer, pace_slot=slot)
        await adapter.complete("2+2?", ctx)
        await adapter.aclose()
    assert pacer.active  # the pacer read Azure's x-ratelimit-remaining-* (which carry no limit or reset)


def test_the_endpoint_is_required_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AZURE_OPENAI_ENDPOINT", raising=False)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
    with pytest.raises(ConfigurationError, match=r"\$AZURE_OPENAI_ENDPOINT is not set"):
        make_adapter("azure", "d")
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "not a url")
    with pytest.raises(ConfigurationError, match=r"\$AZURE_OPENAI_ENDPOINT must be an http\(s\) URL"):
        make_adapter("azure", "d")
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com/")
    assert make_adapter("azure", "d").base_url == "https://res.openai.azure.com"  # type: ignore[attr-defined]
