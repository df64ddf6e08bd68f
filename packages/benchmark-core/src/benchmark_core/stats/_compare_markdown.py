"""A comparison as Markdown (`render_comparison`): what `compare` prints and `--markdown` writes.

The document reads top down: what was compared and how, a leaderboard for three or more runs, then
each run against the first (the verdict line, both runs' figures, McNemar's counts, a table of the
per-group differences). Labels and names go into headings on one line and into cells shortened,
with `|` escaped, so a hostile label cannot break the layout.
"""

from __future__ import annotations

from .._util.text import shorten
from ..reports._report import percent
from ._compare import ComparedRun, Comparison, Difference
from ._compare_text import epochs_matched, mcnemar_rule, mcnemar_sentence, points, resampled_units

__all__ = ["render_comparison"]


def render_comparison(comparison: Comparison) -> str:
    """The comparison as Markdown: what was compared and how, a leaderboard for three or more runs,
    then each run against the first."""
    runs = {run.label: run for run in comparison.runs}
    lines = _overview(comparison)
    if comparison.leaderboard is not None:
        lines += _leaderboard(comparison.leaderboard, runs)
    for diff in comparison.differences:
        lines += _pair(diff, runs)
    return "\n".join(lines) + "\n"


def _overview(c: Comparison) -> list[str]:
    """The title, what was compared and the method; a note for each run with errored rows."""
    no_mcnemar = mcnemar_rule(c.epochs, c.clustered_by)
    lines = [
        f"# Comparison: {_heading(c.benchmark)} {_heading(c.version)}, {_heading(c.mode)} mode",
        "",
        f"- Tasks compared: {c.tasks}" + epochs_matched(c.epochs) + _not_compared_note(c),
        f"- Paired bootstrap over {_heading(resampled_units(c.clustered_by, c.clusters))}: "
        f"{c.resamples:,} resamples, seed {c.seed}; "
        + (
            "exact McNemar test when every score is pass/fail"
            if no_mcnemar is None
            else f"no McNemar test ({_heading(no_mcnemar)})"
        ),
    ]
    for run in c.runs:
        if run.errored:
            lines.append(f"- {_cell(run.label)}: {run.errored} task(s) errored and count as 0")
    return lines


def _not_compared_note(c: Comparison) -> str:
    left_out = {label: count for label, count in c.not_compared.items() if count}
    if not left_out:
        return " (every task of every run)"
    parts = ", ".join(f"{_cell(label)} {count}" for label, count in left_out.items())
    return f" shared by every run (left out: {parts})"


def _leaderboard(order: list[str], runs: dict[str, ComparedRun]) -> list[str]:
    lines = [
        "",
        "## Leaderboard",
        "",
        "| Rank | Run | Model | Mean | 95% CI |",
        "| ---: | --- | --- | ---: | ---: |",
    ]
    for rank, label in enumerate(order, start=1):
        run = runs[label]
        ci = run.confidence_interval95
        lines.append(
            f"| {rank} | {_cell(label)} | {_cell(run.model)} | {percent(run.mean)} | "
            f"{percent(ci.low)}–{percent(ci.high)} |"
        )
    return lines


def _pair(diff: Difference, runs: dict[str, ComparedRun]) -> list[str]:
    """One run against the first: the verdict line, both runs' figures, McNemar, the groups."""
    lines = ["", f"## {_heading(diff.second)} vs {_heading(diff.first)}", "", f"**{_heading(diff.summary)}**", ""]
    for label in (diff.first, diff.second):
        run = runs[label]
        ci = run.confidence_interval95
        lines.append(
            f"- {_cell(label)}: {percent(run.mean)} (95% CI {percent(ci.low)}–{percent(ci.high)}), "
            f"model {_cell(run.model)} ({_cell(run.provider)}), seed {run.seed}"
        )
    if diff.mcnemar is not None:
        lines.append(f"- {mcnemar_sentence(diff.mcnemar, _cell(diff.first), _cell(diff.second))}")
    if diff.groups:
        lines += _group_table(diff)
    return lines


def _group_table(diff: Difference) -> list[str]:
    lines = [
        "",
        f"| Dimension | Group | Tasks | {_cell(diff.first)} | {_cell(diff.second)} | Difference | 95% CI |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for dimension, groups in diff.groups.items():
        for group, g in groups.items():
            ci = g.confidence_interval95
            lines.append(
                f"| {_cell(dimension)} | {_cell(group)} | {g.tasks} | {percent(g.first_mean)} | "
                f"{percent(g.second_mean)} | {points(g.mean_difference)} | "
                f"{points(ci.low)} to {points(ci.high)} |"
            )
    return lines


def _heading(text: str) -> str:
    """Text on one line, for a heading."""
    return " ".join(text.split())


def _cell(text: str) -> str:
    """Text for a table cell or list item: one line, shortened, `|` escaped."""
    return shorten(" ".join(text.split()), 80).replace("|", "\\|")
