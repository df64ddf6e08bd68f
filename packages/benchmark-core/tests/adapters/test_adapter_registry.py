"""`make_adapter`: providers by name, and the light import the CLI relies on."""

from __future__ import annotations

import subprocess
import sys

import pytest
from benchmark_core import MockPolicies
from benchmark_core.adapters import PROVIDERS, MockAdapter, make_adapter
from benchmark_core.adapters._providers.openai import OPENROUTER_BASE_URL, OpenAICompatAdapter
from benchmark_core.adapters.catalog import PROVIDER_TABLE
from benchmark_core.errors import ConfigurationError


def test_mock_gets_model_seed_and_policies() -> None:
    policies = MockPolicies(good_answer=lambda task: "yes")
    adapter = make_adapter("mock", "offline-7", seed=7, policies=policies)
    assert isinstance(adapter, MockAdapter)
    assert (adapter.provider, adapter.model, adapter.seed, adapter.policies) == ("mock", "offline-7", 7, policies)


def test_openai_uses_the_given_base_url_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    adapter = make_adapter("openai", "gpt-x", base_url="http://127.0.0.1:9/v1", api_key="sk-given")
    assert isinstance(adapter, OpenAICompatAdapter)
    assert (adapter.provider, adapter.model, adapter.base_url) == ("openai", "gpt-x", "http://127.0.0.1:9/v1")


def test_openrouter_defaults_to_openrouter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-env")
    adapter = make_adapter("openrouter", "vendor/model")
    assert isinstance(adapter, OpenAICompatAdapter)
    assert (adapter.provider, adapter.model, adapter.base_url) == ("openrouter", "vendor/model", OPENROUTER_BASE_URL)


KEYED = [(info.name, info.key_variable) for info in PROVIDER_TABLE if info.key_variable and info.key_required]


@pytest.mark.parametrize(("provider", "variable"), KEYED)
def test_a_missing_key_names_its_variable(monkeypatch: pytest.MonkeyPatch, provider: str, variable: str) -> None:
    monkeypatch.delenv(variable, raising=False)
    with pytest.raises(ConfigurationError, match=variable):
        make_adapter(provider, "some-model")


def test_an_unknown_provider_lists_the_valid_ones() -> None:
    with pytest.raises(ConfigurationError) as info:
        make_adapter("carrier-pigeon", "claude")
    assert "'carrier-pigeon'" in info.value.message
    for provider in PROVIDERS:
        assert provider in info.value.message
    assert info.value.exit_code == 1


def test_importing_the_registry_does_not_import_aiohttp() -> None:
    code = (
        "import sys, benchmark_core.adapters.registry, benchmark_core.adapters; "
        "sys.exit(1 if 'aiohttp' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
