"""What the results browser's pages (`benchmark-core view`, `leaderboard --site`) share besides
the page shell of `html_page`: the trail of links at the top of each page, their extra styles, the
leaderboard table with its links, and the in-progress table with the script that keeps it live.

Every link is relative (`view._paths.relative`), so one set of pages works from the server and
from `file://`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from ..reports._html_page import Axis, e, interval_svg, percent
from ..sweep._leaderboard_html import entry_cells, figure_cells, row_class, verdict_cell
from ..sweep._leaderboard_markdown import group_title
from ._paths import INDEX, LIVE_JSON, compare_page, group_page, relative, run_page

if TYPE_CHECKING:
    from ._catalog import GroupView
    from ._live import LiveRun

__all__ = ["ERRORED_RULE", "VIEW_CSS", "LIVE_JS", "errored_rule", "href", "leaderboard_table", "live_section", "trail"]

#: How every page counts an errored row (a provider, agent or grader error: no graded answer), said
#: once on each page. It is what the report's mean does, so every figure a page shows agrees with it.
ERRORED_RULE = (
    "Errored rows count as failed, with score 0, in every mean, interval, rank, pass count and filter "
    "on this page; only the median latency leaves them out (they have no answer to time), and so does "
    "the (differs) mark (they have no grader details)."
)

VIEW_CSS = (
    "<style>nav.trail{font-size:14px;margin:0 0 12px;color:var(--muted)}nav.trail a{color:var(--accent)}"
    "a{color:var(--accent)}section.group{margin:24px 0}td.vs-top{min-width:170px}td.vs-top small{color:var(--muted)}"
    "td.vs-top.worse b{color:var(--fail)}.leaderboard th,.leaderboard td.num{white-space:nowrap}"
    "table.dimension td{text-align:center;white-space:nowrap}"
    "table.dimension td small{display:block;color:var(--muted);font-size:11px}.scroll{overflow-x:auto}"
    "#matrix{table-layout:fixed;width:auto}#matrix th,#matrix td{padding:2px 4px;font-size:13px}"
    "#matrix thead th.model{writing-mode:vertical-rl;transform:rotate(180deg);min-height:120px;width:26px;"
    "font-weight:600;white-space:nowrap}#matrix td.c{width:26px;text-align:center;font-weight:700}"
    "#matrix td.p{color:var(--pass);background:#e6f4ea}#matrix td.f{color:var(--fail);background:#fdecea}"
    "#matrix td.e{color:var(--err);background:#fff4ce}#matrix td.m{color:var(--muted)}#matrix th.task{width:260px;"
    "overflow-wrap:anywhere}#matrix td.grp{width:180px;color:var(--muted);overflow-wrap:anywhere}"
    "#matrix td.n{width:54px;text-align:right}div.pair{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));"
    "gap:12px;align-items:start}div.pair>section{border:1px solid var(--line);border-radius:8px;padding:10px;"
    "min-width:0}div.pair h3 a{color:var(--fg)}table.fields{table-layout:fixed;width:100%}table.fields td,"
    "table.fields th{font-size:13px;overflow-wrap:anywhere}table.fields pre{white-space:pre-wrap}"
    "#overview tr.chosen th{background:#e8f0fe}table.dimension tbody th,table.dimension thead th:first-child"
    "{position:sticky;left:0;background:var(--bg,#fff);z-index:1}tr.differs th,tr.differs td{background:#fff4ce}"
    "tr.differs th::after{content:' (differs)';color:var(--err);font-weight:400;font-size:11px}"
    "#live[hidden]{display:none}.pager button{margin:0 4px}h1 code{font-size:inherit}</style>"
)


def href(here: str, target: str) -> str:
    """An escaped relative link from the page at `here` to the page at `target`."""
    return e(relative(here, target))


def errored_rule() -> str:
    return f'<p class="note" id="errored-rule">{e(ERRORED_RULE)}</p>'


def trail(here: str, steps: Sequence[tuple[str, Optional[str]]], *, rule: bool = True) -> str:
    """`Results > group > page`: each step a name and the page it links to (None: this page), then
    the rule for errored rows (`rule`: a page of results)."""
    links = [f'<a href="{href(here, INDEX)}">Results</a>']
    for name, target in steps:
        links.append(f'<a href="{href(here, target)}">{e(name)}</a>' if target is not None else f"<b>{e(name)}</b>")
    return f'<nav class="trail" aria-label="trail">{" &rsaquo; ".join(links)}</nav>' + (errored_rule() if rule else "")


def leaderboard_table(here: str, view: GroupView, *, full: bool, compare: Optional[set[str]] = None) -> str:
    """The group's ranked runs, each model linking to its run page, then its partial runs (stopped
    on a subset of its tasks: listed, not ranked, in no verdict). `full` adds tokens, cost, latency
    and a link comparing each run with the top one (a partial run on the tasks it has), when
    `compare` holds that page, or always when `compare` is None."""
    group = view.group
    # The group page has more columns: each interval is drawn on the index, written out here.
    head = ["rank", "rank 95% CI", "model", "provider / model id", "mean", "95% CI", *([] if full else ["interval"])]
    head.append("vs top")
    if full:
        head += ["tasks", "errored", "pass^k", "tokens", "cost", "median latency", ""]
    rows = []
    top = view.runs[0]
    for entry, run in [*zip(group.entries, view.runs), *zip(group.partial, view.partial)]:
        ci = entry.confidence_interval95
        said = f"{entry.label}: mean {percent(entry.mean)}, 95% interval {percent(ci.low)} to {percent(ci.high)}"
        label = f'<a class="run" href="{href(here, run_page(view.id, run.slug))}">{e(entry.label)}</a>'
        cells = (
            entry_cells(entry, label)
            + ("" if full else f"<td>{interval_svg(entry.mean, ci.low, ci.high, Axis.share(), said, width=240)}</td>")
            + verdict_cell(entry, group)
        )
        if full:
            target = compare_page(view.id, top.slug, run.slug)
            link = ""
            if run is not top and (compare is None or target in compare):
                link = f'<a class="compare" href="{href(here, target)}">compare with {e(top.label)}</a>'
            cells += figure_cells(entry, group) + f"<td>{link}</td>"
        rows.append(f'<tr data-label="{e(entry.label)}" data-rank="{entry.rank}"{row_class(entry)}>{cells}</tr>')
    heads = "".join(f"<th>{e(h)}</th>" for h in head)
    return (
        f'<div class="scroll"><table class="forest leaderboard"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def group_link(here: str, view: GroupView) -> str:
    return f'<a class="group-link" href="{href(here, group_page(view.id))}">{e(group_title(view.group))}</a>'


def live_section(here: str, runs: Sequence[LiveRun], generation: int) -> str:
    """The runs in progress (hidden when there are none); `LIVE_JS` keeps it current."""
    rows = "".join(_live_row(run) for run in runs)
    return (
        f'<section id="live" data-generation="{generation}" data-live-url="{href(here, LIVE_JSON)}"'
        f"{'' if runs else ' hidden'}><h2>In progress</h2>"
        '<p class="note">From the runs\' journals, read without locking them; a finished run moves into its '
        'group.</p><table id="live-table"><thead><tr><th>report</th><th>benchmark</th><th>model</th>'
        "<th>rows done</th><th>errored</th><th>passed</th><th>ETA</th><th>state</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>"
    )


def _live_row(run: LiveRun) -> str:
    cells = [
        ("output", run.output),
        ("benchmark", f"{run.benchmark} {run.version}"),
        ("model", f"{run.provider} / {run.model}"),
        ("rows", f"{run.rows}" + (f" of {run.total}" if run.total is not None else "")),
        ("errored", str(run.errored)),
        ("passed", str(run.passed)),
        ("eta", _eta(run.eta_seconds)),
        ("state", "running" if run.running else "stopped (resumable)"),
    ]
    tds = "".join(f'<td class="{k}">{e(v)}</td>' for k, v in cells)
    return f'<tr data-key="{e(run.key)}">{tds}</tr>'


def _eta(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


# Polls `live.json` (served by `view` only: on a static site the first fetch fails and the
# snapshot stays as written). Rows are written with textContent, never as markup; when the set
# of reports changed (a run finished), the page reloads to show it in its group.
LIVE_JS = """
(function(){
var live=document.getElementById('live');if(!live||location.protocol==='file:')return;
var url=live.dataset.liveUrl||'live.json';
function eta(s){if(s===null||s===undefined)return '-';s=Math.round(s);var m=Math.floor(s/60);
return m?m+'m '+String(s%60).padStart(2,'0')+'s':s+'s';}
function row(r){var tr=document.createElement('tr');tr.dataset.key=r.key;
[['output',r.output],['benchmark',r.benchmark+' '+r.version],['model',r.provider+' / '+r.model],
['rows',r.rows+(r.total!==null?' of '+r.total:'')],['errored',String(r.errored)],['passed',String(r.passed)],
['eta',eta(r.etaSeconds)],['state',r.running?'running':'stopped (resumable)']].forEach(function(c){
var td=document.createElement('td');td.className=c[0];td.textContent=c[1];tr.appendChild(td);});return tr;}
function tick(){fetch(url,{cache:'no-store'}).then(function(r){return r.ok?r.json():null;}).then(function(d){
if(!d)return;if(String(d.generation)!==live.dataset.generation){location.reload();return;}
var body=live.querySelector('tbody');body.replaceChildren.apply(body,d.runs.map(row));
live.hidden=d.runs.length===0;setTimeout(tick,1000);}).catch(function(){setTimeout(tick,3000);});}
setTimeout(tick,1000);
})();
"""
