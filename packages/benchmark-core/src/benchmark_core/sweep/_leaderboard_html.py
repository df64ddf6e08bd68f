"""The leaderboard as one self-contained page (`<results>/index.html`), on the page shell every HTML
page shares (`html_page`): per group of comparable reports, the ranked table (each mean's interval
drawn on one 0-100% axis, the verdict against the top model, tasks, errored rows, pass^k, tokens,
cost, median latency) and a scatter plot of cost against score (tokens when a report has no cost)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reports._html_page import Axis, e, fact_list, interval_svg, page, percent
from ._leaderboard_markdown import HEADER, cost_text, group_method, group_title, latency_text, rank_text, verdict_text

if TYPE_CHECKING:
    from ._leaderboard import Leaderboard, LeaderboardEntry, LeaderboardGroup

__all__ = ["render_leaderboard_html", "verdict_cell"]

_HEAD = (
    "rank", "rank 95% CI", "model", "provider / model id", "mean", "95% CI", "interval", "vs top", "tasks",
    "errored", "pass^k", "tokens", "cost", "median latency",
)  # fmt: skip
_CSS_EXTRA = (
    "<style>.scatter .axis{stroke:var(--muted)}.scatter text{font-size:11px;fill:var(--muted)}"
    ".scatter .point{fill:var(--accent)}.scatter .name{fill:var(--fg);font-size:12px}"
    "td.vs-top{min-width:190px}td.vs-top small{color:var(--muted)}td.vs-top.worse b{color:var(--fail)}"
    "section.group{margin:24px 0}</style>"
)


def render_leaderboard_html(board: Leaderboard) -> str:
    """The page; the same leaderboard gives the same bytes."""
    reports = sum(len(g.entries) for g in board.groups)
    facts = [("results", board.results), ("groups", str(len(board.groups))), ("reports", str(reports))]
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
    rows = "".join(_row(entry, group) for entry in group.entries)
    method = group_method(group, board.resamples, board.seed)
    return (
        f'<section class="group" id="group-{index}" data-benchmark="{e(group.benchmark)}" '
        f'data-version="{e(group.version)}" data-mode="{e(group.mode)}" data-task-set="{e(group.task_set)}">'
        f"<h2>{e(group_title(group))}</h2>"
        + (f'<p class="note apart">{e(group.note)}</p>' if group.note else "")
        + (f'<p class="note resampled">{e(method)}</p>' if method else "")
        + f'<table class="forest leaderboard"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        f"{_scatter(group)}</section>"
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
    return f'<tr data-label="{e(entry.label)}" data-rank="{entry.rank}">{cells}</tr>'


def entry_cells(entry: LeaderboardEntry, label_html: str) -> str:
    """A ranked run's first cells, shared by every leaderboard table: rank, rank interval, the
    model (`label_html`, a link where the page has one), provider and id, mean and its interval."""
    ci = entry.confidence_interval95
    pill = ' <span class="pill">incomplete</span>' if not entry.complete else ""
    ranks = entry.rank_interval95
    rank_data = f' data-rank-low="{ranks.low}" data-rank-high="{ranks.high}"' if ranks is not None else ""
    return (
        f'<td class="num rank">{entry.rank}</td><td class="num rank-ci"{rank_data}>{e(rank_text(entry))}</td>'
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


def _scatter(group: LeaderboardGroup, width: int = 640, height: int = 260) -> str:
    """Score (y, 0-100%) against cost (x, from 0 to the group's highest), or tokens when any report
    of the group has no cost."""
    by_cost = all(entry.cost_usd is not None for entry in group.entries)
    values = [float(entry.cost_usd if by_cost else entry.total_tokens) for entry in group.entries]  # type: ignore[arg-type]
    top = max(values) or 1.0
    left, right, upper, lower = 56.0, 150.0, 20.0, 36.0  # room on the right for the names

    def x(value: float) -> float:
        return round(left + (width - left - right) * value / top, 1)

    def y(score: float) -> float:
        return round(upper + (height - upper - lower) * (1 - min(max(score, 0.0), 1.0)), 1)

    axis_name = "cost (USD)" if by_cost else "tokens (no cost reported)"
    ticks = "".join(
        f'<text x="{x(v)}" y="{height - lower + 16}" text-anchor="middle">{e(_tick(v, by_cost))}</text>'
        for v in (0.0, top / 2, top)
    ) + "".join(f'<text x="{left - 6}" y="{y(s) + 4}" text-anchor="end">{round(s * 100)}%</text>' for s in (0, 0.5, 1))
    points = "".join(
        f'<g class="entry" data-label="{e(entry.label)}"><circle class="point" cx="{x(v)}" cy="{y(entry.mean)}" r="5">'
        f"<title>{e(entry.label)}: {percent(entry.mean)} at {e(_tick(v, by_cost))}</title></circle>"
        f'<text class="name" x="{x(v) + 8}" y="{y(entry.mean) - 6}">{e(entry.label)}</text></g>'
        for entry, v in zip(group.entries, values)
    )
    label = f"{group.benchmark}: score against {axis_name}"
    return (
        f'<figure class="cost-score"><svg class="scatter" role="img" aria-label="{e(label)}" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}"><title>{e(label)}</title>'
        f'<line class="axis" x1="{left}" y1="{height - lower}" x2="{width - right}" y2="{height - lower}"/>'
        f'<line class="axis" x1="{left}" y1="{upper}" x2="{left}" y2="{height - lower}"/>{ticks}{points}'
        f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle">{e(axis_name)}</text></svg>'
        f"<figcaption>Mean score against {e(axis_name)}, one point per model.</figcaption></figure>"
    )


def _tick(value: float, cost: bool) -> str:
    return f"${value:.4g}" if cost else f"{value:,.0f}"
