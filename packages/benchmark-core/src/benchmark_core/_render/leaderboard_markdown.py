"""The leaderboard as Markdown (`leaderboard.md`, what `leaderboard RESULTS` prints): one ranked
table per group of comparable reports, then the files that were not run reports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .._render.report import percent
from .._stats.compare_text import p_value, points
from .._util.text import shorten

if TYPE_CHECKING:
    from .._sweep.leaderboard import Leaderboard, LeaderboardEntry, LeaderboardGroup

__all__ = ["cost_text", "group_title", "latency_text", "render_leaderboard", "verdict_text"]

_HEAD = ("rank", "model", "mean", "95% CI", "vs top", "tasks", "errored", "pass^k", "tokens", "cost", "median latency")
_ALIGN = ("---:", "---", "---:", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:")


def render_leaderboard(board: Leaderboard) -> str:
    lines = [
        f"# Leaderboard: {_cell(board.results)}",
        "",
        "Every run report in the folder, grouped by benchmark, version, answer mode, epochs and task set; "
        "only reports of one group are ranked together. Means with their 95% bootstrap interval; "
        "\"vs top\" is `compare`'s paired test against the group's top model.",
    ]
    if not board.groups:
        lines += ["", "No run reports found."]
    for group in board.groups:
        lines += ["", f"## {group_title(group)}", "", _row(_HEAD), _row(_ALIGN)]
        lines += [_row(_cells(entry, group)) for entry in group.entries]
    if board.skipped:
        lines += ["", "## Files that are not run reports", ""]
        lines += [f"- `{_cell(s.path)}`: {_cell(s.reason)}" for s in board.skipped]
    return "\n".join(lines) + "\n"


def group_title(group: LeaderboardGroup) -> str:
    epochs = f" × {group.epochs} epochs" if group.epochs > 1 else ""
    return f"{group.benchmark} {group.version} · {group.mode} · {group.tasks} tasks{epochs} (task set {group.task_set})"


def verdict_text(entry: LeaderboardEntry) -> str:
    """`top`, or the verdict against the top model with the paired difference and its interval."""
    if entry.verdict is None or entry.verdict == "top":
        return entry.verdict or "-"
    ci = entry.difference_interval95
    assert entry.mean_difference is not None and ci is not None
    figures = f"{points(entry.mean_difference)} pts, 95% CI {points(ci.low)} to {points(ci.high)}"
    if entry.p_value is not None:
        figures += f", {p_value(entry.p_value)}"
    return f"{entry.verdict} ({figures})"


def cost_text(cost: Optional[float]) -> str:
    return f"${cost:.4f}" if cost is not None else "n/a"


def latency_text(latency: Optional[float]) -> str:
    return f"{latency:,.0f} ms" if latency is not None else "n/a"


def _cells(entry: LeaderboardEntry, group: LeaderboardGroup) -> tuple[str, ...]:
    ci = entry.confidence_interval95
    incomplete = " (incomplete)" if not entry.complete else ""
    return (
        str(entry.rank),
        f"{_cell(entry.label)}{incomplete} ({_cell(entry.provider)}/{_cell(entry.model)})",
        percent(entry.mean),
        f"{percent(ci.low)} to {percent(ci.high)}",
        verdict_text(entry),
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
