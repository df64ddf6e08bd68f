"""Macro means per task group, from the group labels every row carries."""

from __future__ import annotations

from collections.abc import Sequence

from .._model import GroupMean, RunRow

__all__ = ["group_means"]


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
