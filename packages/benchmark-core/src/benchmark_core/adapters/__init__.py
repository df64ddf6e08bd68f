"""Model adapters: the offline mock and OpenAI-compatible providers (OpenRouter is a preset), and
pacing by the providers' rate-limit headers (`Pacer`, `parse_rate_limits`).

The OpenAI-compatible adapter imports aiohttp, so it is loaded on first use: import it from
`benchmark_core.adapters.openai_compat` or get it as an attribute of this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .base import AdapterContext, ModelAdapter
from .mock import MockAdapter, mock_adapter
from .pacing import Pacer
from .ratelimits import Budget, RateLimits, parse_duration, parse_rate_limits, parse_reset_time
from .registry import PROVIDERS, make_adapter

if TYPE_CHECKING:
    from .openai_compat import OpenAICompatAdapter, openai_compat_adapter, openrouter_adapter

_LAZY = {"OpenAICompatAdapter", "openai_compat_adapter", "openrouter_adapter"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(".openai_compat", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "PROVIDERS",
    "AdapterContext",
    "Budget",
    "MockAdapter",
    "ModelAdapter",
    "OpenAICompatAdapter",
    "Pacer",
    "RateLimits",
    "make_adapter",
    "mock_adapter",
    "openai_compat_adapter",
    "openrouter_adapter",
    "parse_duration",
    "parse_rate_limits",
    "parse_reset_time",
]
