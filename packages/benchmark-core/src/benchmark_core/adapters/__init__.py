"""Model adapters: the offline mock and every HTTP provider of the provider table (`PROVIDER_TABLE`):
OpenAI-compatible endpoints (OpenRouter, vLLM, Ollama, llama.cpp, Together, Groq, DeepSeek,
Fireworks, Mistral and xAI are presets), Azure OpenAI deployments, and Anthropic's Messages and
Gemini's generateContent APIs natively. Get one with `make_adapter(provider, model)`.

Public modules: `base` (the `ModelAdapter` protocol, `AdapterContext`, `GenerationSettings`),
`registry` (`make_adapter`), `catalog` (the provider table) and `mock`. Every HTTP provider is one
`ChatAdapter` over its format object in the private `_providers/`, registered by name in the table.
Pacing by the providers' rate-limit headers: `Pacer`, `parse_rate_limits`; token prices: `Prices`.

The HTTP adapters import aiohttp, so they are loaded on first use, as attributes of this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes
from ._pacing import Pacer
from ._prices import Prices
from ._ratelimits import Budget, RateLimits, parse_duration, parse_rate_limits, parse_reset_time
from .base import AdapterContext, GenerationSettings, ModelAdapter
from .catalog import PROVIDER_TABLE, ProviderInfo
from .mock import MockAdapter, mock_adapter
from .registry import PROVIDERS, make_adapter

if TYPE_CHECKING:
    from ._chat import ChatAdapter
    from ._providers.anthropic import AnthropicAdapter, anthropic_adapter
    from ._providers.gemini import GeminiAdapter, gemini_adapter
    from ._providers.openai import OpenAICompatAdapter, openai_compat_adapter, openrouter_adapter, preset_adapter

__getattr__ = lazy_attributes(
    __name__,
    {
        "._chat": ("ChatAdapter",),
        "._providers.openai": ("OpenAICompatAdapter", "openai_compat_adapter", "openrouter_adapter", "preset_adapter"),
        "._providers.anthropic": ("AnthropicAdapter", "anthropic_adapter"),
        "._providers.gemini": ("GeminiAdapter", "gemini_adapter"),
    },
)

__all__ = [
    "PROVIDERS",
    "PROVIDER_TABLE",
    "AdapterContext",
    "AnthropicAdapter",
    "Budget",
    "ChatAdapter",
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
