"""A group's score-vs-cost scatter (tokens when a report of the group has no cost), drawn by the
static leaderboard and by the results browser's group page alike.

Each point's name is placed where it overlaps no other name, no point and no tick label: right of
its point if it fits, else
left of it, moved down or up a line at a time until it is clear; a name moved off its point's line
gets a thin leader line back to it. Widths are estimated from the character count (the page's
names are 12 px text), so the placement needs no browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..reports._html_page import e, percent

if TYPE_CHECKING:
    from ._leaderboard import LeaderboardGroup

__all__ = ["SCATTER_CSS", "cost_score_svg"]

SCATTER_CSS = (
    "<style>.scatter .axis{stroke:var(--muted)}.scatter text{font-size:11px;fill:var(--muted)}"
    ".scatter .point{fill:var(--accent)}.scatter .name{fill:var(--fg);font-size:12px}"
    ".scatter .leader{stroke:var(--muted);stroke-width:.5}</style>"
)

#: A 12 px name: about 7 px a character, 14 px a line.
_CHAR, _LINE = 7.0, 14.0

Box = tuple[float, float, float, float]


def cost_score_svg(group: LeaderboardGroup, width: int = 640, height: int = 260) -> str:
    """Score (y, 0-100%) against cost (x, from 0 to the group's highest), or tokens when any report
    of the group has no cost; one point per ranked model, each named."""
    by_cost = all(entry.cost_usd is not None for entry in group.entries)
    values = [float(entry.cost_usd if by_cost else entry.total_tokens) for entry in group.entries]  # type: ignore[arg-type]
    top = max(values) or 1.0
    left, right, upper, lower = 56.0, 24.0, 20.0, 36.0

    def x(value: float) -> float:
        return round(left + (width - left - right) * value / top, 1)

    def y(score: float) -> float:
        return round(upper + (height - upper - lower) * (1 - min(max(score, 0.0), 1.0)), 1)

    axis_name = "cost (USD)" if by_cost else "tokens (no cost reported)"
    # The end ticks anchor inward, so no label runs past the plot's edge.
    anchors = ("start", "middle", "end")
    ticks = "".join(
        f'<text x="{x(v)}" y="{height - lower + 16}" text-anchor="{anchor}">{e(_tick(v, by_cost))}</text>'
        for v, anchor in zip((0.0, top / 2, top), anchors)
    ) + "".join(f'<text x="{left - 6}" y="{y(s) + 4}" text-anchor="end">{round(s * 100)}%</text>' for s in (0, 0.5, 1))
    points = [(x(v), y(entry.mean)) for entry, v in zip(group.entries, values)]
    # A name may cover neither the score ticks' labels (11 px, about 6 px a character) nor a point.
    taken = [(left - 6 - 6.0 * len(f"{round(s * 100)}%"), y(s) - 7, left - 6, y(s) + 7) for s in (0, 0.5, 1)]
    taken += [(cx - 5, cy - 5, cx + 5, cy + 5) for cx, cy in points]
    bounds = (0.0, 4.0, float(width), height - lower)
    names = place_names([entry.label for entry in group.entries], points, bounds, taken)
    drawn = "".join(
        f'<g class="entry" data-label="{e(entry.label)}"><circle class="point" cx="{cx}" cy="{cy}" r="5">'
        f"<title>{e(entry.label)}: {percent(entry.mean)} at {e(_tick(v, by_cost))}</title></circle>"
        + (f'<line class="leader" x1="{cx}" y1="{cy}" x2="{lx}" y2="{ly - 4}"/>' if abs(ly - 4 - cy) > _LINE else "")
        + f'<text class="name" x="{lx}" y="{ly}" text-anchor="{anchor}">{e(entry.label)}</text></g>'
        for entry, v, (cx, cy), (lx, ly, anchor) in zip(group.entries, values, points, names)
    )
    label = f"{group.benchmark}: score against {axis_name}"
    return (
        f'<figure class="cost-score"><svg class="scatter" role="img" aria-label="{e(label)}" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}"><title>{e(label)}</title>'
        f'<line class="axis" x1="{left}" y1="{height - lower}" x2="{width - right}" y2="{height - lower}"/>'
        f'<line class="axis" x1="{left}" y1="{upper}" x2="{left}" y2="{height - lower}"/>{ticks}{drawn}'
        f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle">{e(axis_name)}</text></svg>'
        f"<figcaption>Mean score against {e(axis_name)}, one point per model.</figcaption></figure>"
    )


def place_names(
    names: list[str], points: list[tuple[float, float]], bounds: Box, taken: Sequence[Box] = ()
) -> list[tuple[float, float, str]]:
    """Where each name goes (x, baseline y, text-anchor) so that no two names' boxes overlap, nor
    cover a box of `taken` (what else the chart draws), nor leave `bounds` (left, top, right,
    bottom), nearest its point first; names are placed top down."""
    placed: list[Box] = list(taken)
    spots: dict[int, tuple[float, float, str]] = {}
    for i in sorted(range(len(names)), key=lambda i: (points[i][1], points[i][0])):
        (px, py), wide = points[i], _CHAR * len(names[i])
        sides = [(px + 8, px + 8 + wide, "start"), (px - 8 - wide, px - 8, "end")]
        sides = [side for side in sides if bounds[0] <= side[0] and side[1] <= bounds[2]] or sides[:1]
        shifts = [0.0] + [step * sign * _LINE for step in range(1, 40) for sign in (1, -1)]
        spot = None
        for shift in shifts:
            base = py - 6 + shift
            top = base - _LINE + 3
            if top < bounds[1] or base > bounds[3]:
                continue
            for low, high, anchor in sides:
                box = (low, top, high, base + 3)
                if not any(_overlap(box, other) for other in placed):
                    spot = (box, (low if anchor == "start" else high, base, anchor))
                    break
            if spot is not None:
                break
        box, where = spot if spot is not None else ((0.0, 0.0, 0.0, 0.0), (sides[0][0], py - 6, sides[0][2]))
        placed.append(box)
        spots[i] = (round(where[0], 1), round(where[1], 1), where[2])
    return [spots[i] for i in range(len(names))]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _tick(value: float, cost: bool) -> str:
    return f"${value:.4g}" if cost else f"{value:,.0f}"
