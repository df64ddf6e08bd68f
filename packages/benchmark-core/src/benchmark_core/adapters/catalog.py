"""Every provider the surfaces can run, in one table: the CLI's `--provider` choices, the MCP
`run_benchmark` parameter, the `providers` command and the docs all read `PROVIDER_TABLE`.

A provider speaks one format (`mock`, `openai` chat completions, `anthropic` Messages, `gemini`
generateContent, `azure`: OpenAI's chat completions at an Azure deployment), the name of its module
in `_providers/`. The OpenAI-compatible ones are presets: a default API root, the variables that
override the root and hold the key, and the quirks of the server behind them (which field carries
the token limit, how reasoning effort and the sampling seed are sent). `--base-url` overrides the
root of any of them. This module imports nothing heavy.
"""

from __future__ import annotations

from typing import Literal, Optional

from attrs import frozen

FormatName = Literal["mock", "openai", "anthropic", "gemini", "azure"]
Reasoning = Literal["reasoning_effort", "openrouter", "thinking", "thinkingConfig", "none"]


@frozen
class ProviderInfo:
    """One provider. `base_url` is the API root requests are sent under ("": no default, the mock,
    which sends nothing, or Azure, whose root is the user's resource); `base_url_variable` overrides
    it, `--base-url` overrides both. `key_variable` holds the key; `key_required` False means a local
    server that needs no key (one is sent when set). `max_tokens_field` is the body field of
    `--max-tokens`, `seed_field` that of `--sampling-seed`, `reasoning` how `--reasoning-effort` is
    sent. `wire` names the module of `_providers/` that speaks the provider's format."""

    name: str
    wire: FormatName
    summary: str
    base_url: str = ""
    base_url_variable: Optional[str] = None
    key_variable: Optional[str] = None
    key_required: bool = True
    max_tokens_field: str = "max_tokens"
    seed_field: str = "seed"
    reasoning: Reasoning = "reasoning_effort"
    quirks: str = ""


PROVIDER_TABLE: tuple[ProviderInfo, ...] = (
    ProviderInfo("mock", "mock", "offline mock: the benchmark's scripted answers, no network", reasoning="none"),
    ProviderInfo(
        "openai",
        "openai",
        "OpenAI, or any OpenAI-compatible endpoint through OPENAI_BASE_URL",
        "https://api.openai.com/v1",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        max_tokens_field="max_completion_tokens",
        quirks="max_completion_tokens (OpenAI's reasoning models refuse max_tokens)",
    ),
    ProviderInfo(
        "openrouter",
        "openai",
        "OpenRouter: many providers' models behind one key",
        "https://openrouter.ai/api/v1",
        "OPENROUTER_BASE_URL",
        "OPENROUTER_API_KEY",
        reasoning="openrouter",
        quirks="asks for usage.cost in every answer; reasoning effort as reasoning.effort",
    ),
    ProviderInfo(
        "anthropic",
        "anthropic",
        "Anthropic Messages API, natively (tools, extended thinking, prompt caching)",
        "https://api.anthropic.com",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_API_KEY",
        reasoning="thinking",
        quirks="max_tokens always sent (default 4096); reasoning effort as a thinking budget",
    ),
    ProviderInfo(
        "gemini",
        "gemini",
        "Google Gemini generateContent API, natively (function calling, thinking)",
        "https://generativelanguage.googleapis.com",
        "GEMINI_BASE_URL",
        "GEMINI_API_KEY",
        max_tokens_field="maxOutputTokens",
        reasoning="thinkingConfig",
        quirks="reasoning effort as thinkingConfig.thinkingBudget; tools as parametersJsonSchema",
    ),
    ProviderInfo(
        "azure",
        "azure",
        "Azure OpenAI: a deployment of your resource (--model is the deployment name)",
        "",
        "AZURE_OPENAI_ENDPOINT",
        "AZURE_OPENAI_API_KEY",
        max_tokens_field="max_completion_tokens",
        quirks="api-key header; api-version from AZURE_OPENAI_API_VERSION (default 2024-10-21)",
    ),
    ProviderInfo(
        "vllm",
        "openai",
        "a local vLLM server (vllm serve MODEL)",
        "http://localhost:8000/v1",
        "VLLM_BASE_URL",
        "VLLM_API_KEY",
        key_required=False,
        quirks="key only if the server was started with --api-key; reasoning_content read",
    ),
    ProviderInfo(
        "ollama",
        "openai",
        "a local Ollama server",
        "http://localhost:11434/v1",
        "OLLAMA_BASE_URL",
        "OLLAMA_API_KEY",
        key_required=False,
        quirks="no key needed",
    ),
    ProviderInfo(
        "llamacpp",
        "openai",
        "a local llama.cpp server (llama-server)",
        "http://localhost:8080/v1",
        "LLAMACPP_BASE_URL",
        "LLAMACPP_API_KEY",
        key_required=False,
        quirks="key only if the server was started with --api-key; reasoning_content read",
    ),
    ProviderInfo(
        "together",
        "openai",
        "Together AI",
        "https://api.together.xyz/v1",
        "TOGETHER_BASE_URL",
        "TOGETHER_API_KEY",
    ),
    ProviderInfo(
        "groq",
        "openai",
        "Groq",
        "https://api.groq.com/openai/v1",
        "GROQ_BASE_URL",
        "GROQ_API_KEY",
        max_tokens_field="max_completion_tokens",
        quirks="max_completion_tokens (max_tokens is deprecated there); the message's reasoning read",
    ),
    ProviderInfo(
        "deepseek",
        "openai",
        "DeepSeek",
        "https://api.deepseek.com/v1",
        "DEEPSEEK_BASE_URL",
        "DEEPSEEK_API_KEY",
        reasoning="none",
        quirks="reasoning_content read into the transcript and never sent back (the API refuses it); "
        "no reasoning effort (deepseek-reasoner always reasons)",
    ),
    ProviderInfo(
        "fireworks",
        "openai",
        "Fireworks AI",
        "https://api.fireworks.ai/inference/v1",
        "FIREWORKS_BASE_URL",
        "FIREWORKS_API_KEY",
    ),
    ProviderInfo(
        "mistral",
        "openai",
        "Mistral AI",
        "https://api.mistral.ai/v1",
        "MISTRAL_BASE_URL",
        "MISTRAL_API_KEY",
        seed_field="random_seed",
        reasoning="none",
        quirks="the sampling seed as random_seed; no reasoning effort",
    ),
    ProviderInfo(
        "xai",
        "openai",
        "xAI (Grok)",
        "https://api.x.ai/v1",
        "XAI_BASE_URL",
        "XAI_API_KEY",
        quirks="reasoning_content read",
    ),
)

#: Provider names, in the table's order.
PROVIDER_NAMES: tuple[str, ...] = tuple(info.name for info in PROVIDER_TABLE)
#: The table by name.
PROVIDERS_BY_NAME: dict[str, ProviderInfo] = {info.name: info for info in PROVIDER_TABLE}
