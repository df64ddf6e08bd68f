"""What Inspect loads through benchmark-core's `inspect_ai` entry point: the example benchmark's task
(`benchmark_core/example`), the `benchmark-mock` model provider and the `benchmark` one (every
provider adapter of benchmark-core, `benchmark/<provider>/<model>`)."""

from __future__ import annotations

from ..example.inspect_tasks import example
from .mock_model import BenchmarkMockAPI
from .provider_model import BenchmarkProviderAPI

__all__ = ["BenchmarkMockAPI", "BenchmarkProviderAPI", "example"]
