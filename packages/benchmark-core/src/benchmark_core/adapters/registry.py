"""Adapters by provider name, for the CLI and the other surfaces.

The names and what each needs are the table of `catalog` (`PROVIDER_TABLE`). An HTTP provider's
module (and with it aiohttp) is imported only when such a provider is asked for, so importing this
module stays cheap.
"""

from __future__ import annotations

from typing import Optional

from .._errors import ConfigurationError
from .base import ModelAdapter
from .catalog import PROVIDER_NAMES, PROVIDERS_BY_NAME
from .mock import MockPolicies, mock_adapter
from .prices import Prices

#: Provider names `make_adapter` accepts.
PROVIDERS: tuple[str, ...] = PROVIDER_NAMES


def make_adapter(
    provider: str,
    model: str,
    *,
    seed: int = 1,
    policies: Optional[MockPolicies] = None,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
    prices: Optional[Prices] = None,
) -> ModelAdapter:
    """The adapter for `provider` and `model`.

    `seed` and `policies` configure the mock; `base_url`, `api_key` and `prices` the HTTP
    providers, which otherwise read the URL and key from the variables the table names
    (`OPENAI_BASE_URL`/`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`/`ANTHROPIC_API_KEY`, ...). Raises
    `ConfigurationError` for an unknown provider or a missing key.
    """
    info = PROVIDERS_BY_NAME.get(provider)
    if info is None:
        raise ConfigurationError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    if info.wire == "mock":
        return mock_adapter(seed=seed, policies=policies, model=model)
    if info.wire == "anthropic":
        from .anthropic import anthropic_adapter

        return anthropic_adapter(model, api_key, base_url=base_url, prices=prices)
    if info.wire == "gemini":
        from .gemini import gemini_adapter

        return gemini_adapter(model, api_key, base_url=base_url, prices=prices)
    if provider == "openai":
        from .openai_compat import openai_compat_adapter

        return openai_compat_adapter(base_url, model, api_key, prices=prices)
    from .openai_compat import preset_adapter

    return preset_adapter(provider, model, base_url=base_url, api_key=api_key, prices=prices)
