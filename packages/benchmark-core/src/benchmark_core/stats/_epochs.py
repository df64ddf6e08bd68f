"""What K epochs of a run say beyond the mean: pass@1, pass^k, pass@k and the flip rate. (The
interval resamples tasks with all their epochs, or clusters of tasks: `groups.interval_units`.)

pass^k is tau-bench's: the share of tasks a model passes in every one of K attempts, the figure that
matters when an agent must be reliable and not just capable now and then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from .._model import RunRow

__all__ = ["EpochStatistics", "epoch_statistics"]


class EpochStatistics:
    """Rows grouped by task, in task order."""

    def __init__(self, by_task: dict[str, list[RunRow]], epochs: int) -> None:
        self.by_task = by_task
        self.epochs = epochs

    def fields(self) -> dict[str, Any]:
        """The report fields of several epochs (none for runs of one epoch, whose bytes stay as
        they were)."""
        if self.epochs <= 1 or not self.by_task:
            return {"epochs": self.epochs} if self.epochs > 1 else {}
        verdicts = [[row.passed for row in rows] for rows in self.by_task.values()]
        n = len(verdicts)
        return {
            "epochs": self.epochs,
            "pass_at1": sum(sum(v) / len(v) for v in verdicts) / n,
            "pass_hat_k": sum(1 for v in verdicts if all(v)) / n,
            "pass_at_k": sum(1 for v in verdicts if any(v)) / n,
            "flip_rate": sum(1 for v in verdicts if any(v) and not all(v)) / n,
        }


def epoch_statistics(rows: Sequence[RunRow], epochs: Optional[int] = None) -> EpochStatistics:
    """`rows` grouped by task; `epochs` is the run's K (default: the highest epoch among the rows)."""
    by_task: dict[str, list[RunRow]] = {}
    for row in rows:
        by_task.setdefault(row.task_id, []).append(row)
    if epochs is None:
        epochs = max((row.epoch or 1 for row in rows), default=1)
    return EpochStatistics(by_task, epochs)
