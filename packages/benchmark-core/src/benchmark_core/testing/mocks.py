"""Variants of the offline mock for tests that need a second, different run to compare or render."""

from __future__ import annotations

from typing import Optional

from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter, MockPolicies


class AlwaysGoodMock(MockAdapter):
    """The offline mock giving its good answer on every task (the plain mock: one task in two), so
    that a run of it is a clearly stronger model than `mock_adapter()` on the same tasks."""

    def for_benchmark(self, policies: MockPolicies, skill: Optional[float] = None) -> MockAdapter:
        return AlwaysGoodMock(self.seed, policies, self.model)  # always good: a skill changes nothing

    def is_good(self, ctx: AdapterContext) -> bool:
        return True
