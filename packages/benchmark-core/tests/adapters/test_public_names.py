"""What `benchmark_core.adapters` exposes, pinned (as httpx's `test_exported_members.py` does): its
names, its public modules, and the deprecated shims of the modules that moved behind the registry."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
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
#: Old path -> where it lives now (until the next release).
MOVED = {
    "anthropic": "_providers.anthropic",
    "anthropic_batches": "_providers.anthropic_batches",
    "batches": "_batches",
    "gemini": "_providers.gemini",
    "openai_batches": "_providers.openai_batches",
    "openai_compat": "_providers.openai",
    "pacing": "_pacing",
    "prices": "_prices",
    "ratelimits": "_ratelimits",
    "toolnames": "_toolnames",
}


def test_the_public_names_are_pinned_and_resolve() -> None:
    assert adapters.__all__ == PUBLIC_NAMES
    for name in PUBLIC_NAMES:
        assert getattr(adapters, name) is not None


def test_the_public_modules_are_the_protocol_the_registry_the_table_and_the_mock() -> None:
    folder = Path(adapters.__file__).parent
    public = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    assert public == sorted([*PUBLIC_MODULES, *MOVED])
    assert all(p.name.startswith("_") for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__")


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_naming_the_new_one_and_still_works(old: str) -> None:
    name = f"benchmark_core.adapters.{old}"
    sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(name)
    [warning] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    new = f"benchmark_core.adapters.{MOVED[old]}"
    assert new in str(warning.message) and "benchmark_core.adapters" in str(warning.message)
    target = importlib.import_module(new)
    for attribute in getattr(target, "__all__", [n for n in vars(target) if not n.startswith("__")])[:5]:
        assert getattr(module, attribute) is getattr(target, attribute)


def test_the_old_adapter_paths_give_the_one_adapter() -> None:
    sys.modules.pop("benchmark_core.adapters.openai_compat", None)
    with pytest.warns(DeprecationWarning, match=r"moved to benchmark_core\.adapters\._providers\.openai"):
        from benchmark_core.adapters.openai_compat import OpenAICompatAdapter
    assert OpenAICompatAdapter is adapters.ChatAdapter


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
