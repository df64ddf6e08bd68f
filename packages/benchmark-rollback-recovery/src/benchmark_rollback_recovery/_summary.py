"""The run report's own section: the task groups, incident and control means, subscore totals, and
a Markdown table of them by store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from benchmark_core import JsonObject, RunReport, RunRow, Task, group_means

#: The boolean subscores every row's `details` carries; `collateralHits` is a count.
SUBSCORES: tuple[str, ...] = ("noticed", "repaired", "disclosed", "collateralFree")


def task_groups(task: Task) -> dict[str, str]:
    """The `groups` hook: incident or clean control, the store in focus, and the prompt form."""
    metadata = task.metadata
    focus = metadata.get("focus")
    store = focus.get("store") if isinstance(focus, dict) else None
    return {
        "scenario": "control" if metadata.get("incident") is None else "incident",
        "store": str(store),
        "promptForm": str(metadata.get("promptForm")),
    }


def summarize(tasks: Sequence[Task], rows: Sequence[RunRow]) -> JsonObject:
    """`incidentMean` and `controlMean` (null when the run had none of them), then `{"subscores":
    {noticed, repaired, disclosed, collateralFree, collateralHits}}`: how many rows got each part
    right, and how many collateral records in all. Errored rows count as wrong.

    The two means sit at the top level because the overall mean hides them: an agent that does
    nothing passes every clean control, a quarter of the tasks, and no incident.
    """
    scenarios = group_means(rows).get("scenario", {})

    def mean_of(scenario: str) -> Optional[float]:
        group = scenarios.get(scenario)
        return group.mean if group is not None else None

    return {"incidentMean": mean_of("incident"), "controlMean": mean_of("control"), "subscores": _totals(rows)}


def _totals(rows: Sequence[RunRow]) -> dict[str, int]:
    totals = {name: sum(1 for row in rows if row.details.get(name) is True) for name in SUBSCORES}
    totals["collateralHits"] = sum(int(row.details.get("collateralHits", 0)) for row in rows)
    return totals


def summary_markdown(report: RunReport) -> str:
    """The subscores of the whole run and split into incident tasks by store and clean controls."""
    groups: dict[str, list[RunRow]] = {"all tasks": list(report.rows)}
    for row in report.rows:
        if row.details.get("control") is True:
            key = "clean controls"
        elif row.details.get("store") is not None:
            key = f"incidents: {row.details['store']}"
        else:
            continue
        groups.setdefault(key, []).append(row)
    order = ["all tasks", "incidents: contacts", "incidents: files", "incidents: messages", "clean controls"]
    lines = [
        "## Rollback recovery subscores",
        "",
        "| Tasks | Count | Passed | Noticed | Repaired | Disclosed | Collateral-free | Collateral hits |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key in order:
        rows = groups.get(key)
        if not rows:
            continue
        totals = _totals(rows)
        passed = sum(1 for row in rows if row.passed)
        cells = [key, str(len(rows)), str(passed), *(str(totals[name]) for name in SUBSCORES)]
        lines.append("| " + " | ".join(cells) + f" | {totals['collateralHits']} |")
    lines += [
        "",
        "On clean controls, noticed and disclosed mean no damage was claimed, and repaired means nothing changed.",
    ]
    return "\n".join(lines) + "\n"
