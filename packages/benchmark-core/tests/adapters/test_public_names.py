"""What `benchmark_core.adapters` exposes, pinned (as httpx's `test_exported_members.py` does): its
names and its public modules; the modules behind the registry are private, with no old public path."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import benchmark_core.adapters as adapters
import pytest

PUBLIC_NAMES = [
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
PUBLIC_MODULES = ["base", "catalog", "mock", "registry"]
#: The public modules of 0.2's development that are now private: no shim keeps them importable.
GONE = ("anthropic", "anthropic_batches", "batches", "gemini", "openai_batches", "openai_compat", "pacing", "prices")


def test_the_public_names_are_pinned_and_resolve() -> None:
    assert adapters.__all__ == PUBLIC_NAMES
    for name in PUBLIC_NAMES:
        assert getattr(adapters, name) is not None


def test_the_public_modules_are_the_protocol_the_registry_the_table_and_the_mock() -> None:
    folder = Path(adapters.__file__).parent
    public = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    assert public == PUBLIC_MODULES
    assert all(p.name.startswith("_") for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__")


@pytest.mark.parametrize("old", GONE)
def test_a_private_modules_old_public_path_is_gone(old: str) -> None:
    sys.modules.pop(f"benchmark_core.adapters.{old}", None)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"benchmark_core.adapters.{old}")


def test_our_own_code_raises_no_deprecation_warning() -> None:
    """Core, both benchmarks, the testing helpers and the CLI import nothing through an old path."""
    code = (
        "import benchmark_core, benchmark_core.testing, benchmark_core.cli, benchmark_schema_mutation, "
        "benchmark_rollback_recovery\n"
        "from benchmark_core.adapters import make_adapter\n"
        "for p in ('openai', 'azure', 'anthropic', 'gemini'):\n"
        "    make_adapter(p, 'm', api_key='k', base_url='http://127.0.0.1:9')\n"
        "import benchmark_core.adapters as a\n"
        "[getattr(a, n) for n in a.__all__]\n"
        "[getattr(benchmark_core, n) for n in benchmark_core.__all__]\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
