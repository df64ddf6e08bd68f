"""What Inspect loads through benchmark-core's `inspect_ai` entry point: the example benchmark's task
(`benchmark_core/example`) and the `benchmark-mock` model provider."""

from __future__ import annotations

from ..example.inspect_tasks import example
from .mock_model import BenchmarkMockAPI

__all__ = ["BenchmarkMockAPI", "example"]
