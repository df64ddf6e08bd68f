"""Variants of the offline mock for tests that need a second, different run to compare or render."""

from __future__ import annotations

import hashlib
from typing import Optional

from ..adapters.base import AdapterContext
from ..adapters.mock import MockAdapter, MockPolicies


class AlwaysGoodMock(MockAdapter):
    """The offline mock giving its good answer on every task (the plain mock: one task in two), so
    that a run of it is a clearly stronger model than `mock_adapter()` on the same tasks."""

    def for_benchmark(self, policies: MockPolicies) -> MockAdapter:
        return AlwaysGoodMock(self.seed, policies, self.model)

    def is_good(self, ctx: AdapterContext) -> bool:
        return True


class SkilledMock(MockAdapter):
    """The offline mock giving its good answer on a share `skill` of the tasks, chosen per task by a
    digest of the model name and task id: models of known skill that disagree task by task, as
    real models do (the results browser's tests and figures, the docs' screenshots)."""

    def __init__(
        self, skill: float, seed: int = 1, policies: Optional[MockPolicies] = None, model: str = "skilled"
    ) -> None:
        super().__init__(seed, policies, model)
        self.skill = skill

    def for_benchmark(self, policies: MockPolicies) -> MockAdapter:
        return SkilledMock(self.skill, self.seed, policies, self.model)

    def is_good(self, ctx: AdapterContext) -> bool:
        digest = hashlib.sha256(f"{self.model}\n{ctx.task.id}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.skill
