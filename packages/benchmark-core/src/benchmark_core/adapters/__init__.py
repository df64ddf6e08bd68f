"""Model adapters: the offline mock, OpenAI-compatible providers (OpenRouter, vLLM, Ollama, llama.cpp,
Together, Groq, DeepSeek, Fireworks, Mistral and xAI are presets), and Anthropic's Messages and
Gemini's generateContent APIs natively; `PROVIDER_TABLE` lists them all. Pacing by the providers'
rate-limit headers: `Pacer`, `parse_rate_limits`.

The HTTP adapters import aiohttp, so they are loaded on first use: import them from their modules
(`benchmark_core.adapters.openai_compat`, `.anthropic`, `.gemini`) or get them as attributes of
this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .base import AdapterContext, GenerationSettings, ModelAdapter
from .catalog import PROVIDER_TABLE, ProviderInfo
from .mock import MockAdapter, mock_adapter
from .pacing import Pacer
from .prices import Prices
from .ratelimits import Budget, RateLimits, parse_duration, parse_rate_limits, parse_reset_time
from .registry import PROVIDERS, make_adapter

if TYPE_CHECKING:
    from .anthropic import AnthropicAdapter, anthropic_adapter
    from .gemini import GeminiAdapter, gemini_adapter
    from .openai_compat import OpenAICompatAdapter, openai_compat_adapter, openrouter_adapter, preset_adapter

#: Names loaded on first use, by the module that defines them.
_LAZY = {
    "OpenAICompatAdapter": ".openai_compat",
    "openai_compat_adapter": ".openai_compat",
    "openrouter_adapter": ".openai_compat",
    "preset_adapter": ".openai_compat",
    "AnthropicAdapter": ".anthropic",
    "anthropic_adapter": ".anthropic",
    "GeminiAdapter": ".gemini",
    "gemini_adapter": ".gemini",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "PROVIDERS",
    "PROVIDER_TABLE",
    "AdapterContext",
    "AnthropicAdapter",
    "Budget",
    "GeminiAdapter",
    "GenerationSettings",
    "MockAdapter",
    "ModelAdapter",
    "OpenAICompatAdapter",
    "Pacer",
    "Prices",
    "ProviderInfo",
    "RateLimits",
    "anthropic_adapter",
    "gemini_adapter",
    "make_adapter",
    "mock_adapter",
    "openai_compat_adapter",
    "openrouter_adapter",
    "parse_duration",
    "parse_rate_limits",
    "parse_reset_time",
    "preset_adapter",
]
