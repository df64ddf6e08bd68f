"""The mock's skill on the full split (issue 27): `mock_skill` P answers a share P of the tasks with the
good policy, so a mock's mean is P within 0.03, in both answer modes, for any model name."""

from __future__ import annotations

import pytest
from benchmark_core import mock_adapter
from benchmark_schema_mutation import benchmark


@pytest.mark.parametrize(("model", "skill"), [("mock-a", 0.2), ("mock-b", 0.5), ("mock-c", 0.8), ("mock-a", 0.8)])
@pytest.mark.parametrize("mode", ["prompt", "native"])
def test_the_mean_is_the_skill_within_three_points_on_the_full_split(model: str, skill: float, mode: str) -> None:
    report = benchmark.run(mock_adapter(model=model), tasks="full", mode=mode, mock_skill=skill, concurrency=32)
    assert report.totals.tasks == len(benchmark.tasks("full")) > 700
    assert report.totals.failed == 0
    assert abs(report.mean - skill) <= 0.03, report.mean


def test_without_a_skill_the_full_split_mean_is_the_documented_half() -> None:
    report = benchmark.run(mock_adapter(), tasks="full", concurrency=32)
    assert report.mean == sum(n % 2 == 0 for n in range(report.totals.tasks)) / report.totals.tasks
