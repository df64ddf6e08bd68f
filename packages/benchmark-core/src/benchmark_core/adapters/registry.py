"""Adapters by provider name, for the CLI and the other surfaces.

The names and what each needs are the table of `catalog` (`PROVIDER_TABLE`). A row's `wire` names
the module of `_providers/` that speaks its format (its `FORMAT`, found by `_format.format_of`), so adding
a provider is that module and a row. An HTTP provider's module (and with it aiohttp) is imported
only when such a provider is asked for, so importing this module stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors._usage import ConfigurationError
from .base import ModelAdapter
from .catalog import PROVIDER_NAMES, PROVIDERS_BY_NAME
from .mock import MockPolicies, mock_adapter

if TYPE_CHECKING:
    from ._prices import Prices

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
    `ConfigurationError` for an unknown provider, a missing key, or prices given to the mock.
    """
    info = PROVIDERS_BY_NAME.get(provider)
    if info is None:
        raise ConfigurationError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    if info.wire == "mock":
        if prices is not None:
            # The mock's answers cost nothing: prices given to it would be silently unused.
            raise ConfigurationError("--prices: the mock provider has no costs to price; leave --prices out")
        return mock_adapter(seed=seed, policies=policies, model=model)
    from ._chat import ChatAdapter

    return ChatAdapter.from_environment(info, model, api_key, base_url=base_url, prices=prices)
