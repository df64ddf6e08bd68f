"""`RunTarget`: which model a run sends its requests to, at which endpoint, with which key, and
the one way every surface (the CLI's `run`, MCP's `run_benchmark`, a sweep's cells, Ray's shards,
the Inspect provider) turns it into an adapter (`RunTarget.adapter`).

Its fields are declared as run options (`options.option`), so the CLI's flags and the MCP tool's
parameters are generated from them, as `RunOptions`' are.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

import attrs
from attrs import frozen

from ..errors._usage import ConfigurationError
from ._option_values import prices_object, provider_help
from ._options import PROVIDERS, OptionSpec, option

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..adapters._prices import Prices
    from ..adapters.base import ModelAdapter


@frozen
class RunTarget:
    """Which model to run: the model id at the provider, and the provider (neither has a default on
    any surface, so that nothing calls a paid provider unless it was named); the API root overriding
    the provider's (CLI only: an MCP client may not send the key to another host), token prices
    for providers whose answers carry no cost, and the name of the variable holding the key (sweep
    files and Ray shards; the CLI and MCP read the provider's own variable)."""

    model: str = option(
        attrs.NOTHING, OptionSpec("Model id at the provider (any label for mock).", cli="--model", required=True)
    )
    provider: str = option(
        attrs.NOTHING,
        OptionSpec(provider_help(), cli="--provider", choices=PROVIDERS, required=True),
    )
    base_url: Optional[str] = option(
        None,
        OptionSpec(
            "API root of the provider, overriding its URL variable and default (see `providers`), "
            "like http://127.0.0.1:8000/v1 for a vllm server or https://api.anthropic.com for anthropic.",
            cli="--base-url",
            mcp=False,
            metavar="URL",
        ),
    )
    prices: Optional[Mapping[str, Any]] = option(
        None,
        OptionSpec(
            "Token prices in US dollars per million tokens, as a JSON object with input, output and "
            "optionally cacheRead and cacheWrite: each answer's cost (and what the provider's prompt "
            "cache saved) is computed from its tokens when the provider reports no cost.",
            cli="--prices",
            metavar="JSON",
            parse=prices_object,
        ),
    )

    #: The name of the environment variable holding the API key (a sweep file's `api_key_env`, a
    #: Ray shard's): read on the machine that builds the adapter, never carried with the target.
    #: None: the provider's own variable (`OPENAI_API_KEY`, ...), read by the adapter.
    api_key_env: Optional[str] = None

    def adapter_prices(self) -> Optional[Prices]:
        """The `Prices` of `prices`, or None."""
        from ..adapters._prices import Prices

        return Prices.from_json(self.prices) if self.prices is not None else None

    def api_key(self) -> Optional[str]:
        """The key from `api_key_env`, read now (None without one); `ConfigurationError` when that
        variable is not set here."""
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise ConfigurationError(f"the environment variable {self.api_key_env} is not set")
        return key

    def adapter(
        self, seed: int = 1, *, benchmark: Optional[Benchmark] = None, api_key: Optional[str] = None
    ) -> ModelAdapter:
        """The adapter for this target: the mock playing `benchmark`'s policies with `seed`, or the
        provider's HTTP adapter with this base URL, prices and key (`api_key`, else `api_key_env`'s,
        else the provider's own variable)."""
        from ..adapters.registry import make_adapter

        return make_adapter(
            self.provider,
            self.model,
            seed=seed,
            policies=benchmark.mock_policies if benchmark is not None else None,
            base_url=self.base_url,
            api_key=api_key if api_key is not None else self.api_key(),
            prices=self.adapter_prices(),
        )
