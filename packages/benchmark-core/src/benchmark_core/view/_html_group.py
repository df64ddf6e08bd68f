"""A group's page (`g/<group>/index.html`): the leaderboard with paired verdicts, cost, tokens
and latency, each model linking to its run; two runs to compare; a models x groups table for each
dimension the benchmark declares (means with 95% intervals, shaded by the mean), the benchmark's
own summary figures side by side; and the task x model matrix (`view_matrix`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from ..reports._html_page import e, fact_list, page, percent, words
from ..sweep._leaderboard_html import report_count
from ..sweep._leaderboard_markdown import HEADER, group_method, group_title
from ..sweep._scatter import SCATTER_CSS, cost_score_svg
from ._html_common import LIVE_JS, VIEW_CSS, href, leaderboard_table, live_section, trail
from ._html_matrix import MATRIX_JS, matrix_section
from ._paths import compare_page, group_page

if TYPE_CHECKING:
    from ._catalog import GroupView
    from ._live import LiveRun

__all__ = ["render_view_group"]


def render_view_group(
    view: GroupView,
    live: Sequence[LiveRun],
    generation: int,
    *,
    resamples: int,
    seed: int,
    compare: Optional[set[str]] = None,
) -> str:
    """`resamples` and `seed`: the leaderboard's joint bootstrap. `compare`: the compare pages that
    exist (a static site writes some); None: any pair."""
    here = group_page(view.id)
    group = view.group
    facts = [
        ("benchmark", f"{group.benchmark} {group.version}"),
        ("mode", group.mode),
        ("tasks", str(group.tasks)),
        ("epochs", str(group.epochs)),
        ("task set", group.task_set),
        ("reports", report_count(len(view.runs), len(view.partial))),
    ]
    method = group_method(group, resamples, seed)
    mine = [r for r in live if (r.benchmark, r.version, r.mode) == (group.benchmark, group.version, group.mode)]
    body = (
        VIEW_CSS
        + trail(here, [(group_title(group), None)])
        + f"<header><h1>{e(group.benchmark)} {e(group.version)}</h1>{fact_list(facts)}</header>"
        + live_section(here, mine, generation)
        + '<section id="leaderboard"><h2>Leaderboard</h2>'
        + f'<p class="note" id="method">{e(HEADER)}</p>'
        + (f'<p class="note apart">{e(group.note)}</p>' if group.note else "")
        + (f'<p class="note resampled">{e(method)}</p>' if method else "")
        + leaderboard_table(here, view, full=True, compare=compare)
        + SCATTER_CSS
        + cost_score_svg(group)
        + _compare_form(here, view, compare)
        + "</section>"
        + _dimensions(view)
        + _figures(view)
        + matrix_section(here, view)
    )
    return page(f"{group.benchmark}: {group_title(group)}", body, LIVE_JS + MATRIX_JS + COMPARE_JS)


def _compare_form(here: str, view: GroupView, compare: Optional[set[str]]) -> str:
    """Two runs to compare. On the server any pair has a page: two pickers, and a link the script
    points at the chosen pair (without the script, each run's link to the top one stays); a partial
    run is among the first picker's runs, compared with a ranked one. A static site lists the pairs
    it wrote."""
    if len(view.runs) + len(view.partial) < 2:
        return ""
    if compare is None:
        options = "".join(f'<option value="{e(run.slug)}">{e(run.label)}</option>' for run in view.runs)
        extra = "".join(f'<option value="{e(run.slug)}">{e(run.label)} (partial)</option>' for run in view.partial)
        first, second = view.runs[0], [*view.runs, *view.partial][1]
        target = href(here, compare_page(view.id, first.slug, second.slug))
        return (
            '<form class="controls" id="compare-runs"><label>Compare <select id="compare-second">'
            f'{options}{extra}</select></label><label>with <select id="compare-first">{options}</select></label>'
            f'<a id="compare-link" href="{target}">{e(second.label)} vs {e(first.label)}</a></form>'
        )
    pairs = []
    for a in view.runs:
        for b in [*view.runs, *view.partial]:
            target = compare_page(view.id, a.slug, b.slug)
            if a is not b and target in compare:
                pairs.append(f'<li><a href="{href(here, target)}">{e(b.label)} vs {e(a.label)}</a></li>')
    return (
        '<details id="compare-runs"><summary>Compare two runs</summary>'
        f'<ul class="pairs">{"".join(pairs)}</ul></details>'
    )


# The compare pickers: the link follows the two runs chosen (the pages are at compare/A--B.html).
COMPARE_JS = """
(function(){
var first=document.getElementById('compare-first'),second=document.getElementById('compare-second'),
link=document.getElementById('compare-link');if(!first||!second||!link)return;
second.selectedIndex=Math.min(1,second.options.length-1);
function update(){var a=first.value,b=second.value;link.hidden=a===b;
link.href='compare/'+encodeURIComponent(a)+'--'+encodeURIComponent(b)+'.html';
link.textContent=second.options[second.selectedIndex].text+' vs '+first.options[first.selectedIndex].text;}
first.addEventListener('change',update);second.addEventListener('change',update);update();
})();
"""


def _shade(mean: float) -> str:
    """A background from red (0%) through white to green (100%), light enough for dark text."""
    hue = round(120 * min(max(mean, 0.0), 1.0))
    return f"background:hsl({hue},70%,88%)"


def _dimensions(view: GroupView) -> str:
    tables = []
    for dimension in view.dimensions:
        cells = view.dimension_cells(dimension)
        labels = sorted({label for row in cells.values() for label in row})
        head = "".join(f"<th>{e(label)}</th>" for label in labels)
        rows = []
        for run in view.runs:
            row = cells.get(run.slug, {})
            tds = "".join(
                (
                    f'<td style="{_shade(c.mean)}" data-group="{e(label)}" title="{c.tasks} tasks">'
                    f"{percent(c.mean)}<small>{percent(c.low)}&ndash;{percent(c.high)}</small></td>"
                )
                if (c := row.get(label)) is not None
                else "<td>-</td>"
                for label in labels
            )
            rows.append(f'<tr data-label="{e(run.label)}"><th scope="row">{e(run.label)}</th>{tds}</tr>')
        tables.append(
            f'<div class="scroll"><table class="dimension" data-dimension="{e(dimension)}">'
            f"<caption>by {e(words(dimension))}</caption><thead><tr><th>model</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
    if not tables:
        return ""
    return (
        '<section id="dimensions"><h2>Per group</h2><p class="note">Macro means per group with 95% intervals '
        "over the group's tasks (Wilson score intervals for pass/fail scores, else a bootstrap of 2,000 resamples, "
        "seed 1), shaded from red (0%) to green (100%). Each cell is one model alone; the paired difference of two "
        "models per group is on their compare page.</p>" + "".join(tables) + "</section>"
    )


def _figures(view: GroupView) -> str:
    """The benchmark's own summary figures (rates, counts), one column each, models side by side."""
    keys: dict[str, None] = {}
    intervals: dict[str, None] = {}
    for run in view.runs:
        keys.update((key, None) for key in run.figures)
        intervals.update((key, None) for key in run.intervals)
    if not keys and not intervals:
        return ""
    head = "".join(f"<th>{e(words(key))}</th>" for key in [*keys, *intervals])
    rows = []
    for run in view.runs:
        tds = "".join(
            f'<td class="num" data-field="{e(key)}">{e(_figure(key, run.figures.get(key)))}</td>' for key in keys
        ) + "".join(
            f'<td class="num" data-field="{e(key)}">{e(_interval(run.intervals.get(key)))}</td>' for key in intervals
        )
        rows.append(f'<tr data-label="{e(run.label)}"><th scope="row">{e(run.label)}</th>{tds}</tr>')
    return (
        '<section id="figures"><h2>Benchmark summary</h2><div class="scroll"><table class="figures">'
        f"<thead><tr><th>model</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        f"{_breakdowns(view)}</section>"
    )


def _breakdowns(view: GroupView) -> str:
    """Each per-kind breakdown of the summary, models side by side: one row per model, one cell per
    kind with its figures (passed of tasks first)."""
    fields: dict[str, None] = {}
    for run in view.runs:
        fields.update((field, None) for field in run.breakdowns)
    tables = []
    for field in fields:
        groups = sorted({g for run in view.runs for g in run.breakdowns.get(field, {})})
        head = "".join(f"<th>{e(g)}</th>" for g in groups)
        rows = []
        for run in view.runs:
            by_group = run.breakdowns.get(field, {})
            cells = "".join(f'<td data-group="{e(g)}">{_breakdown_cell(by_group.get(g))}</td>' for g in groups)
            rows.append(f'<tr data-label="{e(run.label)}"><th scope="row">{e(run.label)}</th>{cells}</tr>')
        tables.append(
            f'<table class="breakdown" data-field="{e(field)}"><caption>{e(words(field))}</caption>'
            f"<thead><tr><th>model</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    return "".join(f'<div class="scroll">{table}</div>' for table in tables)


def _breakdown_cell(stats: Optional[dict[str, float]]) -> str:
    if not stats:
        return "-"
    tasks, passed = stats.get("tasks"), stats.get("passed")
    lines = [f"<b>{passed:,.0f} of {tasks:,.0f}</b>"] if tasks is not None and passed is not None else []
    lines += [
        f"<small>{e(words(k))} {e(_figure(k, v))}</small>" for k, v in stats.items() if k not in ("tasks", "passed")
    ]
    return "<br>".join(lines)


def _interval(bounds: Optional[tuple[float, float]]) -> str:
    return f"{percent(bounds[0])} to {percent(bounds[1])}" if bounds is not None else "-"


def _figure(key: str, value: Optional[float]) -> str:
    if value is None:
        return "-"
    if key.lower().endswith(("rate", "mean")) and 0 <= value <= 1:
        return percent(value)
    return f"{value:,.0f}" if value == int(value) else f"{value:.4g}"
