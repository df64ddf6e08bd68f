"""Adapters by provider name, for the CLI and the other surfaces.

The OpenAI-compatible module (and with it aiohttp) is imported only when such a provider is asked
for, so importing this module stays cheap.
"""

from __future__ import annotations

from typing import Optional

from .._errors import ConfigurationError
from .base import ModelAdapter
from .mock import MockPolicies, mock_adapter

#: Provider names `make_adapter` accepts.
PROVIDERS: tuple[str, ...] = ("mock", "openrouter", "openai")


def make_adapter(
    provider: str,
    model: str,
    *,
    seed: int = 1,
    policies: Optional[MockPolicies] = None,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
) -> ModelAdapter:
    """The adapter for `provider` and `model`.

    `seed` and `policies` configure the mock; `base_url` and `api_key` the HTTP providers, which
    otherwise read them from the environment (`OPENAI_BASE_URL`/`OPENAI_API_KEY`,
    `OPENROUTER_API_KEY`). Raises `ConfigurationError` for an unknown provider or a missing key.
    """
    if provider == "mock":
        return mock_adapter(seed=seed, policies=policies, model=model)
    if provider == "openrouter":
        from .openai_compat import openrouter_adapter

        return openrouter_adapter(model, api_key=api_key, base_url=base_url)
    if provider == "openai":
        from .openai_compat import openai_compat_adapter

        return openai_compat_adapter(base_url, model, api_key)
    raise ConfigurationError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
