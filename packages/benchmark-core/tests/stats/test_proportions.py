"""The Wilson score interval the results browser shows per model and group."""

from __future__ import annotations

import pytest
from benchmark_core.stats._proportions import wilson_ci


def test_published_values() -> None:
    # Brown, Cai and DasGupta (2001) and any textbook: 5 of 10 at 95% is [0.2366, 0.7634].
    ci = wilson_ci(5, 10)
    assert ci.low == pytest.approx(0.236593, abs=1e-6)
    assert ci.high == pytest.approx(0.763407, abs=1e-6)
    # 0 of 10 still has a width (the normal interval would be [0, 0]).
    assert wilson_ci(0, 10).low == 0.0
    assert wilson_ci(0, 10).high == pytest.approx(0.277533, abs=1e-6)


def test_edges() -> None:
    assert wilson_ci(0, 0).low == wilson_ci(0, 0).high == 0.0
    assert wilson_ci(10, 10).high <= 1.0
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_ci(11, 10)
