"""The leaderboard as Markdown (`leaderboard.md`, what `leaderboard RESULTS` prints): one ranked
table per group of comparable reports, then the files that were not run reports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .._util.text import shorten
from ..reports._report import percent
from ..stats._compare_text import p_value, points, resampled_units

if TYPE_CHECKING:
    from ._leaderboard import Leaderboard, LeaderboardEntry, LeaderboardGroup

__all__ = [
    "HEADER",
    "adjustment_text",
    "cost_text",
    "group_method",
    "group_title",
    "latency_text",
    "rank_text",
    "render_leaderboard",
    "verdict_text",
]

_HEAD = (
    "rank", "rank 95% CI", "model", "mean", "95% CI", "vs top", "tasks", "errored", "pass^k", "tokens", "cost",
    "median latency",
)  # fmt: skip
_ALIGN = ("---:", "---:", "---", "---:", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:")

#: What every rendering says first (Markdown here, the page in its own markup).
HEADER = (
    "Every run report in the folder, grouped by benchmark, version, answer mode, epochs and task set; "
    "only reports of one group are ranked together. Means with their 95% bootstrap interval. A model's rank "
    "(tied means share one) comes with its 95% rank interval from a joint bootstrap: each resample draws the "
    'group\'s tasks, or clusters, once for every model, and ranks them. "vs top" compares each model with the '
    "group's top model. With three models or more, a model is called worse only when the simultaneous 95% "
    "interval of its difference from the top excludes zero: from the same joint resamples, the intervals of "
    "every pairwise difference in the group hold together at 95% (max-t adjustment, with a small-sample "
    "correction for few tasks or clusters), so the 5% chance of any false verdict covers the choice of the top. "
    "With two models the verdict is compare's: the paired bootstrap and, for pass/fail runs of one epoch "
    "without clusters, McNemar's exact test, both at 0.05."
)


def render_leaderboard(board: Leaderboard) -> str:
    lines = [f"# Leaderboard: {_cell(board.results)}", "", HEADER]
    if not board.groups:
        lines += ["", "No run reports found."]
    for group in board.groups:
        lines += ["", f"## {group_title(group)}", ""]
        lines += [group.note, ""] if group.note else []
        method = group_method(group, board.resamples, board.seed)
        lines += [method, ""] if method else []
        lines += [_row(_HEAD), _row(_ALIGN)]
        lines += [_row(_cells(entry, group)) for entry in [*group.entries, *group.partial]]
    if board.skipped:
        lines += ["", "## Files that are not run reports", ""]
        lines += [f"- `{_cell(s.path)}`: {_cell(s.reason)}" for s in board.skipped]
    return "\n".join(lines) + "\n"


def group_title(group: LeaderboardGroup) -> str:
    epochs = f" × {group.epochs} epochs" if group.epochs > 1 else ""
    return f"{group.benchmark} {group.version} · {group.mode} · {group.tasks} tasks{epochs} (task set {group.task_set})"


def group_method(group: LeaderboardGroup, resamples: int, seed: int) -> Optional[str]:
    """What a group's rank intervals and verdicts rest on (None for a group of one report): what was
    resampled, and the adjustment with its family size and simultaneous level."""
    if group.comparisons == 0:
        return None
    comparisons = "one comparison" if group.comparisons == 1 else f"{group.comparisons} comparisons"
    units = resampled_units(group.clustered_by, group.clusters)
    return (
        f"Ranks and verdicts from {resamples:,} joint resamples of the {units} (seed {seed}); "
        f"{comparisons} with the top, {adjustment_text(group)}."
    )


def adjustment_text(group: LeaderboardGroup) -> str:
    """How a group's verdicts are adjusted, in words: the adjustment, the family, the level."""
    if group.adjustment == "max-t" and group.simultaneous_level is not None:
        level = f"{group.simultaneous_level * 100:g}%"
        critical = f", critical value {group.critical_value:.2f} standard errors" if group.critical_value else ""
        return (
            f"each judged by its simultaneous {level} interval: max-t adjustment over all {group.family} "
            f"pairwise differences of the {group.comparisons + 1} models{critical}"
        )
    if group.comparisons == 1:
        return "compare's rule (one comparison, no adjustment)"
    return "no verdicts"


def rank_cell(entry: LeaderboardEntry) -> str:
    """The rank, or "partial" for a run stopped on a subset of its group's tasks (not ranked)."""
    return str(entry.rank) if entry.rank else "partial"


def rank_text(entry: LeaderboardEntry) -> str:
    """The 95% rank interval: "2 to 5", or one rank when every resample agreed; "-" without one."""
    ranks = entry.rank_interval95
    if ranks is None:
        return "-"
    return str(ranks.low) if ranks.low == ranks.high else f"{ranks.low} to {ranks.high}"


def verdict_text(entry: LeaderboardEntry, group: LeaderboardGroup) -> str:
    """`top`, or the verdict against the top model with the paired difference and its interval: the
    simultaneous one, so labelled, in a group adjusted by max-t."""
    if entry.verdict is None or entry.verdict == "top":
        return entry.verdict or "-"
    ci = entry.difference_interval95
    assert entry.mean_difference is not None and ci is not None
    adjusted = group.adjustment == "max-t"
    label = "simultaneous 95% CI" if adjusted else "95% CI"
    figures = f"{points(entry.mean_difference)} pts, {label} {points(ci.low)} to {points(ci.high)}"
    if entry.adjusted_p_value is not None:
        figures += f", {'max-t adjusted ' if adjusted else ''}{p_value(entry.adjusted_p_value)}"
    return f"{entry.verdict} ({figures})"


def cost_text(cost: Optional[float]) -> str:
    return f"${cost:.4f}" if cost is not None else "n/a"


def latency_text(latency: Optional[float]) -> str:
    return f"{latency:,.0f} ms" if latency is not None else "n/a"


def _cells(entry: LeaderboardEntry, group: LeaderboardGroup) -> tuple[str, ...]:
    ci = entry.confidence_interval95
    incomplete = " (incomplete)" if not entry.complete else ""
    return (
        rank_cell(entry),
        rank_text(entry),
        f"{_cell(entry.label)}{incomplete} ({_cell(entry.provider)}/{_cell(entry.model)})",
        percent(entry.mean),
        f"{percent(ci.low)} to {percent(ci.high)}",
        verdict_text(entry, group),
        str(entry.tasks),
        str(entry.errored),
        percent(entry.pass_hat_k) if entry.pass_hat_k is not None else ("n/a" if group.epochs > 1 else "-"),
        f"{entry.total_tokens:,}",
        cost_text(entry.cost_usd),
        latency_text(entry.median_latency_ms),
    )


def _row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(cells) + " |"


def _cell(text: str) -> str:
    return shorten(" ".join(str(text).split()), 80).replace("|", "\\|")
