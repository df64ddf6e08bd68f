"""Token prices, for providers whose answers carry no cost (Anthropic, Gemini, most
OpenAI-compatible servers). Prices change and differ per model and contract, so none is built in:
give them with `--prices '{"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75}'` (US
dollars per million tokens), and each answer's cost, and what its prompt cache saved, are computed
from its usage. This module imports nothing heavy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Optional

from attrs import evolve, frozen

from .._model import Usage
from ..errors._usage import ConfigurationError

_KEYS = {"input": "input", "output": "output", "cacheRead": "cache_read", "cacheWrite": "cache_write"}


@frozen
class Prices:
    """US dollars per million tokens. `cache_read` and `cache_write` default to `input` (no
    discount, no surcharge) when a provider has no prompt cache price."""

    input: float
    output: float
    cache_read: Optional[float] = None
    cache_write: Optional[float] = None

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Prices:
        """From `{"input", "output", "cacheRead"?, "cacheWrite"?}`; a `ConfigurationError` otherwise."""
        unknown = sorted(set(value) - set(_KEYS))
        if unknown:
            raise ConfigurationError(f"prices: unknown key {unknown[0]!r}; expected {', '.join(_KEYS)}")
        for required in ("input", "output"):
            if required not in value:
                raise ConfigurationError(f"prices: {required!r} (dollars per million tokens) is required")
        fields = {}
        for key, name in _KEYS.items():
            price = value.get(key)
            if price is None:
                continue
            if isinstance(price, bool) or not isinstance(price, (int, float)) or not math.isfinite(price) or price < 0:
                raise ConfigurationError(f"prices: {key} must be a number of dollars >= 0, not {price!r}")
            fields[name] = float(price)
        return cls(**fields)

    def priced(self, usage: Usage) -> Usage:
        """`usage` with its cost, and the prompt cache's saving (reads at the cache price instead of
        the input price, less the surcharge of writes), when the usage reports cache tokens.
        `prompt_tokens` counts every prompt token, cached and written ones included."""
        read = usage.cached_tokens or 0
        written = usage.cache_write_tokens or 0
        read_price = self.input if self.cache_read is None else self.cache_read
        write_price = self.input if self.cache_write is None else self.cache_write
        uncached = max(0, usage.prompt_tokens - read - written)
        cost = uncached * self.input + read * read_price + written * write_price + usage.completion_tokens * self.output
        saved: Optional[float] = None
        if usage.cached_tokens is not None or usage.cache_write_tokens is not None:
            saved = (read * (self.input - read_price) - written * (write_price - self.input)) / 1e6
        return evolve(usage, cost_usd=cost / 1e6, cache_saved_usd=saved)
