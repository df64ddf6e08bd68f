"""The leaderboard as one self-contained page (`<results>/index.html`), on the page shell every HTML
page shares (`html_page`): per group of comparable reports, the ranked table (each mean's interval
drawn on one 0-100% axis, the verdict against the top model, tasks, errored rows, pass^k, tokens,
cost, median latency) and a scatter plot of cost against score (tokens when a report has no cost)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reports._html_page import Axis, e, fact_list, interval_svg, page, percent
from ._leaderboard_markdown import (
    HEADER,
    cost_text,
    group_method,
    group_title,
    latency_text,
    rank_cell,
    rank_text,
    verdict_text,
)
from ._scatter import SCATTER_CSS, cost_score_svg

if TYPE_CHECKING:
    from ._leaderboard import Leaderboard, LeaderboardEntry, LeaderboardGroup

__all__ = ["render_leaderboard_html", "report_count", "verdict_cell"]

_HEAD = (
    "rank", "rank 95% CI", "model", "provider / model id", "mean", "95% CI", "interval", "vs top", "tasks",
    "errored", "pass^k", "tokens", "cost", "median latency",
)  # fmt: skip
_CSS_EXTRA = SCATTER_CSS + (
    "<style>td.vs-top{min-width:190px}td.vs-top small{color:var(--muted)}td.vs-top.worse b{color:var(--fail)}"
    "section.group{margin:24px 0}</style>"
)


def render_leaderboard_html(board: Leaderboard) -> str:
    """The page; the same leaderboard gives the same bytes."""
    ranked, partial = sum(len(g.entries) for g in board.groups), sum(len(g.partial) for g in board.groups)
    facts = [("results", board.results), ("groups", str(len(board.groups))), ("reports", report_count(ranked, partial))]
    header = f'<header><h1>Leaderboard</h1>{fact_list(facts)}<p class="note" id="method">{e(HEADER)}</p></header>'
    sections = [_group(group, index, board) for index, group in enumerate(board.groups, start=1)]
    if not board.groups:
        sections.append('<p class="note" id="empty">No run reports found.</p>')
    if board.skipped:
        items = "".join(f"<li><code>{e(s.path)}</code>: {e(s.reason)}</li>" for s in board.skipped)
        sections.append(f'<section id="skipped"><h2>Files that are not run reports</h2><ul>{items}</ul></section>')
    return page("Leaderboard", _CSS_EXTRA + header + "".join(sections), "")


def _group(group: LeaderboardGroup, index: int, board: Leaderboard) -> str:
    head = "".join(f"<th>{e(h)}</th>" for h in _HEAD)
    rows = "".join(_row(entry, group) for entry in [*group.entries, *group.partial])
    method = group_method(group, board.resamples, board.seed)
    return (
        f'<section class="group" id="group-{index}" data-benchmark="{e(group.benchmark)}" '
        f'data-version="{e(group.version)}" data-mode="{e(group.mode)}" data-task-set="{e(group.task_set)}">'
        f"<h2>{e(group_title(group))}</h2>"
        + (f'<p class="note apart">{e(group.note)}</p>' if group.note else "")
        + (f'<p class="note resampled">{e(method)}</p>' if method else "")
        + f'<table class="forest leaderboard"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        f"{cost_score_svg(group)}</section>"
    )


def _row(entry: LeaderboardEntry, group: LeaderboardGroup) -> str:
    ci = entry.confidence_interval95
    said = f"{entry.label}: mean {percent(entry.mean)}, 95% confidence interval {percent(ci.low)} to {percent(ci.high)}"
    cells = (
        entry_cells(entry, e(entry.label))
        + f"<td>{interval_svg(entry.mean, ci.low, ci.high, Axis.share(), said, width=240)}</td>"
        + verdict_cell(entry, group)
        + figure_cells(entry, group)
    )
    return f'<tr data-label="{e(entry.label)}" data-rank="{entry.rank}"{row_class(entry)}>{cells}</tr>'


def report_count(ranked: int, partial: int) -> str:
    """How many reports, the partial runs among them said apart: "4 (1 partial)"."""
    return f"{ranked + partial}" + (f" ({partial} partial)" if partial else "")


def row_class(entry: LeaderboardEntry) -> str:
    """` class="partial"` on a partial run's row (listed with its group, not ranked)."""
    return "" if entry.rank else ' class="partial"'


def entry_cells(entry: LeaderboardEntry, label_html: str) -> str:
    """A ranked run's first cells, shared by every leaderboard table: rank, rank interval, the
    model (`label_html`, a link where the page has one), provider and id, mean and its interval."""
    ci = entry.confidence_interval95
    pill = ' <span class="pill">incomplete</span>' if not entry.complete else ""
    ranks = entry.rank_interval95
    rank_data = f' data-rank-low="{ranks.low}" data-rank-high="{ranks.high}"' if ranks is not None else ""
    return (
        f'<td class="num rank">{rank_cell(entry)}</td><td class="num rank-ci"{rank_data}>{e(rank_text(entry))}</td>'
        f'<th scope="row">{label_html}{pill}</th>'
        f'<td>{e(entry.provider)} / {e(entry.model)}</td><td class="num mean">{percent(entry.mean)}</td>'
        f"<td class=num>{percent(ci.low)} to {percent(ci.high)}</td>"
    )


def figure_cells(entry: LeaderboardEntry, group: LeaderboardGroup) -> str:
    """A ranked run's figures: tasks, errored, pass^k, tokens, cost and median latency."""
    pass_k = percent(entry.pass_hat_k) if entry.pass_hat_k is not None else ("n/a" if group.epochs > 1 else "-")
    return (
        f'<td class="num tasks">{entry.tasks}</td><td class="num errored">{entry.errored}</td>'
        f'<td class="num pass-k">{pass_k}</td><td class="num tokens">{entry.total_tokens:,}</td>'
        f'<td class="num cost">{cost_text(entry.cost_usd)}</td>'
        f'<td class="num latency">{latency_text(entry.median_latency_ms)}</td>'
    )


def verdict_cell(entry: LeaderboardEntry, group: LeaderboardGroup) -> str:
    """The verdict in a word, the paired figures under it (`verdict_text` says both in one line)."""
    word, _, figures = verdict_text(entry, group).partition(" (")
    small = f"<br><small>{e(figures.removesuffix(')'))}</small>" if figures else ""
    return f'<td class="vs-top {e(entry.verdict or "none")}"><b>{e(word)}</b>{small}</td>'
