"""Holm's step-down adjustment of p-values for multiple comparisons.

A leaderboard of N models makes N - 1 tests against its top model; at a 5% level each, some "worse"
verdicts are bound to be chance. Holm's method (1979) keeps the chance of any false verdict in the
family at the level, under any dependence between the tests, and is uniformly more powerful than
Bonferroni's: the smallest of k p-values is multiplied by k, the next by k - 1, and so on, each
adjusted value at least the one before it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["holm_adjusted"]


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """The Holm-adjusted p-values, in the order given: a test is rejected at level a when its
    adjusted p-value is below a."""
    k = len(p_values)
    order = sorted(range(k), key=lambda i: p_values[i])
    adjusted = [0.0] * k
    running = 0.0
    for step, index in enumerate(order):
        running = max(running, min(1.0, (k - step) * p_values[index]))
        adjusted[index] = running
    return adjusted
