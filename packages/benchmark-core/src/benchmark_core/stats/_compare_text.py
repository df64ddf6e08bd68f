"""How a comparison's figures read in words: the phrases the verdict summary, the Markdown
comparison and the HTML comparison page share, so that the three say the same thing the same way.

Labels are passed in already written for the medium (a Markdown cell, raw text for HTML escaping).
"""

from __future__ import annotations

from typing import Literal, Optional

from .._model import ConfidenceInterval
from ._stats import McNemarTest

__all__ = [
    "Verdict",
    "epochs_matched",
    "mcnemar_rule",
    "mcnemar_sentence",
    "p_value",
    "points",
    "resampled_units",
    "verdict_sentence",
]

Verdict = Literal["better", "worse", "no detectable difference"]


def points(value: float) -> str:
    """A difference of fractions in percentage points with a sign ("+8.3"); never "-0.0"."""
    text = f"{value * 100:+.1f}"
    return "+0.0" if text == "-0.0" else text


def p_value(value: float) -> str:
    """McNemar's p as a reader wants it: three decimals below 0.01, two above, a floor at 0.001."""
    if value < 0.001:
        return "p < 0.001"
    return f"p = {value:.3f}" if value < 0.01 else f"p = {value:.2f}"


def verdict_sentence(
    first: str, second: str, difference: float, ci: ConfidenceInterval, test: Optional[McNemarTest], verdict: Verdict
) -> str:
    """The one line that answers "is `second` better than `first`": difference, interval, p, verdict."""
    line = f"{second} - {first} = {points(difference)} points (95% CI {points(ci.low)} to {points(ci.high)})"
    if test is not None:
        line += f", {p_value(test.p_value)}"
    if verdict == "better":
        return f"{line}: {second} is better"
    if verdict == "worse":
        return f"{line}: {second} is worse"
    return f"{line}: no detectable difference"


def mcnemar_sentence(test: McNemarTest, first: str, second: str) -> str:
    """The discordant pairs McNemar's test counts, and its p."""
    return (
        f"McNemar: {test.only_first} task(s) passed only in {first}, "
        f"{test.only_second} only in {second}; {p_value(test.p_value)}"
    )


def resampled_units(clustered_by: Optional[str], clusters: Optional[int]) -> str:
    """What a bootstrap resampled: "tasks", or "12 baseSchema clusters" (each with all its tasks)."""
    if clustered_by is None:
        return "tasks"
    return f"{clusters or 0:,} {clustered_by} clusters"


def mcnemar_rule(epochs: int, clustered_by: Optional[str]) -> Optional[str]:
    """Why a comparison has no McNemar test (None when it has one for pass/fail scores)."""
    if clustered_by is not None:
        return f"the tasks of one {clustered_by} are not independent pairs"
    if epochs > 1:
        return "a task's epochs are not independent pairs"
    return None


def epochs_matched(epochs: int) -> str:
    """What follows the number of tasks compared when runs had several epochs."""
    return f" × {epochs} epochs, matched epoch by epoch" if epochs > 1 else ""
