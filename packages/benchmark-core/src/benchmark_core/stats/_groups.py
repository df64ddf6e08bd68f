"""Macro means per task group, and the units an interval resamples, from the group labels every row
carries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from .._model import GroupMean, RunRow

__all__ = ["IntervalUnits", "group_means", "interval_units"]


class IntervalUnits:
    """What a bootstrap resamples for a list of rows: `keys[i]` names the unit of row i. Without
    clusters the unit is the task (with all its epochs); with `clustered_by`, a group dimension the
    benchmark declared (`define_benchmark(cluster_by=...)`), it is the row's group in that dimension,
    so every task of a cluster is drawn together with all their epochs. A plain class, like every
    per-run helper here."""

    __slots__ = ("clustered_by", "keys")

    def __init__(self, keys: list[str], clustered_by: Optional[str]) -> None:
        self.keys = keys
        self.clustered_by = clustered_by

    @property
    def clusters(self) -> Optional[int]:
        """How many clusters were resampled (None when the units are tasks)."""
        return len(set(self.keys)) if self.clustered_by is not None else None

    def grouped(self, scores: Sequence[float]) -> list[list[float]]:
        """`scores` (one per row, in row order) grouped by unit, units in order of first appearance."""
        by_unit: dict[str, list[float]] = {}
        for key, score in zip(self.keys, scores):
            by_unit.setdefault(key, []).append(score)
        return list(by_unit.values())


def interval_units(rows: Sequence[RunRow], cluster_by: Optional[str]) -> IntervalUnits:
    """The units the interval of `rows` resamples: the groups of `cluster_by` when every row carries
    a label in that dimension and there are at least two of them (one cluster has no spread to
    resample), otherwise the tasks. The one rule for `run`'s interval and `compare`'s pairing."""
    if cluster_by is not None and rows:
        labels = [row.groups.get(cluster_by) for row in rows]
        keys = [label for label in labels if label is not None]
        if len(keys) == len(rows) and len(set(keys)) >= 2:
            return IntervalUnits(keys, cluster_by)
    return IntervalUnits([row.task_id for row in rows], None)


def group_means(rows: Sequence[RunRow]) -> dict[str, dict[str, GroupMean]]:
    """dimension -> group -> the mean over the group's tasks of each task's mean score.

    Each task weighs the same whatever its number of rows, hence a macro mean. Dimensions come in
    the order they first appear in `rows` (the order the benchmark declares them), groups sorted by
    name, so the same rows give the same document.
    """
    task_rows: dict[str, list[float]] = {}
    task_labels: dict[str, dict[str, str]] = {}
    for row in rows:
        task_rows.setdefault(row.task_id, []).append(row.score)
        task_labels.setdefault(row.task_id, row.groups)
    members: dict[str, dict[str, list[float]]] = {}
    for task_id, labels in task_labels.items():
        scores = task_rows[task_id]
        task_mean = sum(scores) / len(scores)
        for dimension, group in labels.items():
            members.setdefault(dimension, {}).setdefault(group, []).append(task_mean)
    return {
        dimension: {
            group: GroupMean(mean=sum(means) / len(means), tasks=len(means))
            for group, means in sorted(by_group.items())
        }
        for dimension, by_group in members.items()
    }
