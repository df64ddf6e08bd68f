"""The real split's contamination-by-date view: the score by the release year of each task's change.

A model that knows the world only up to its training cutoff should do worse on the changes released
after it; the table shows where its knowledge ends. Each year's row counts the tasks of the changes
released that year and gives its pass rate with the Wilson 95% interval (core's `wilson_ci`; tasks
of one change are not independent, so the interval is a floor on the uncertainty, not a bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmark_core import JsonObject, RunReport, RunRow, Task
from benchmark_core.stats import wilson_ci

YEAR_HEADING = "## Score by release year of the change"


def per_change_year(tasks: Sequence[Task], rows: Sequence[RunRow]) -> JsonObject:
    """`perChangeYear`: {year: {"tasks", "passed"}} in year order; {} for tasks without a change year."""
    year_of = {task.id: task.metadata.get("changeYear") for task in tasks}
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        year = year_of.get(row.task_id)
        if isinstance(year, str):
            entry = counts.setdefault(year, {"tasks": 0, "passed": 0})
            entry["tasks"] += 1
            entry["passed"] += int(row.passed)
    return {year: counts[year] for year in sorted(counts)}


def _count(entry: Any, key: str) -> int:
    value = entry.get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def year_markdown(report: RunReport) -> list[str]:
    """The section that ends a real split's markdown report (none for the authored splits)."""
    per_year = report.summary.get("perChangeYear")
    if not isinstance(per_year, dict) or not per_year:
        return []
    lines = [
        "",
        YEAR_HEADING,
        "",
        "| Release year | Tasks | Passed | Score | 95% Wilson interval |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for year, entry in per_year.items():
        tasks, passed = _count(entry, "tasks"), _count(entry, "passed")
        if not tasks:
            continue
        ci = wilson_ci(passed, tasks)
        lines.append(
            f"| {year} | {tasks} | {passed} | {100 * passed / tasks:.1f}% | {100 * ci.low:.1f}%–{100 * ci.high:.1f}% |"
        )
    lines += [
        "",
        "The year is the release date of the Twilio change a task is built from. A model trained before a year "
        "cannot have seen that year's changes: a score that falls after some year shows where its knowledge ends.",
    ]
    return lines
