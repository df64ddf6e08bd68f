"""Bootstrap confidence intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .model import ConfidenceInterval


def bootstrap_ci(
    values: Sequence[float], *, seed: int = 1, resamples: int = 2000, level: float = 0.95
) -> ConfidenceInterval:
    """Percentile bootstrap interval of the mean.

    Deterministic for equal input, seed and resamples. Resampling uses `random.Random(seed)`, whose
    integer seeding and `choices` are stable across CPython versions; its C core keeps a 2,000-task
    run's interval well under a second. Empty input gives [0, 0]; constant input a zero-width interval.
    """
    if resamples <= 0:
        raise ValueError("resamples must be positive")
    n = len(values)
    if n == 0:
        return ConfidenceInterval(low=0.0, high=0.0)
    data = [float(v) for v in values]
    if all(v == data[0] for v in data):
        return ConfidenceInterval(low=data[0], high=data[0])
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(data, k=n)) / n for _ in range(resamples))
    tail = (1.0 - level) / 2.0
    low_index = max(0, math.floor(tail * resamples))
    high_index = min(resamples - 1, math.ceil((1.0 - tail) * resamples) - 1)
    return ConfidenceInterval(low=means[low_index], high=means[high_index])
