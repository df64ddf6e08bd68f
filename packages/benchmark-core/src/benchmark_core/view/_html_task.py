"""A task's page (`g/<group>/tasks/<task>.html`): the prompt and the expected answer (when the task
has one), an overview of every model of the group in rank order (status, score, tokens, latency;
the group's partial runs last, marked, "not run" where they stopped before the task), then the
models themselves: each its answer (or, for an episode, its timeline: `_html_timeline`),
the grader's reason and its details, where the fields whose values differ between models are
marked. Two models are shown side by side at full width: the first two in rank order, or the two
that `?a=<label>&b=<label>` names (the overview's links set them); the others follow below. When
each model has one row, the columns are subgrids of the pair, so turn i of a model sits on the
same row as turn i of the model beside it (`ALIGNED_CSS`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlencode

from .._model import RunRow, Task
from ..errors._base import BenchmarkError
from ..hooks._hooks import EpisodeContext
from ..reports._html_page import e, fact_list, json_block, page, t
from ..reports._html_tasks import _status, _text
from ..sweep._leaderboard_markdown import group_title
from ._benchmarks import installed
from ._html_common import VIEW_CSS, href, trail
from ._html_state import STATE_CSS, context_section, final_state_html
from ._html_timeline import JSON_JS, TIMELINE_CSS, timeline, timeline_parts, turn_count
from ._paths import group_page, run_page, task_page

if TYPE_CHECKING:
    from ._catalog import GroupView, RunFile

__all__ = ["render_view_task"]


def render_view_task(
    view: GroupView, task_id: str, task: Optional[Task], rows: Sequence[tuple[RunFile, Sequence[RunRow]]]
) -> str:
    here = task_page(view.id, task_id)
    labels = view.task_groups.get(task_id, {})
    facts = [("task", task_id), *((dimension, group) for dimension, group in labels.items())]
    if task is not None:
        facts.insert(1, ("kind", task.kind))
        question = (
            f'<section id="prompt"><h2>Prompt</h2><pre class="prompt">{t(task.prompt)}</pre>'
            + (
                f'<h2>Expected answer</h2><div id="expected">{json_block(task.expected)}</div>'
                if task.expected is not None
                else ""
            )
            + "</section>"
        )
    else:
        question = (
            '<p class="note" id="prompt">The prompt is not in the task files this benchmark ships (or the '
            "benchmark is not installed here).</p>"
        )
    differing = _differing([row for _, run_rows in rows for row in run_rows])
    context = _episode_context(view.group.benchmark, task)
    span = _span(rows)
    partial = {run.slug for run in view.partial}
    columns = "".join(
        _column(here, view, run, run_rows, differing, context, span, partial=run.slug in partial)
        for run, run_rows in rows
    )
    body = (
        VIEW_CSS
        + TIMELINE_CSS
        + STATE_CSS
        + trail(here, [(group_title(view.group), group_page(view.id)), (task_id, None)])
        + f"<header><h1><code>{e(task_id)}</code></h1>{fact_list(facts)}</header>"
        + question
        + context_section(context)
        + _overview(here, rows, partial)
        + ALIGNED_CSS
        + f'<section id="answers"><h2>Models, two side by side</h2>'
        f'<div class="pair{" aligned" if span is not None else ""}">{columns}</div></section>'
    )
    return page(f"{view.group.benchmark}: {task_id}", body, PAIR_JS + JSON_JS)


ALIGNED_CSS = (
    "<style>/* the pair's columns as subgrids: turn i of one model beside turn i of the other */"
    ".pair.aligned>section.model,.pair.aligned>section.model>.timeline{display:grid;grid-template-rows:subgrid;"
    "align-self:stretch;row-gap:6px}"
    ".pair.aligned .slot{min-width:0}</style>"
)

# Shows the two models `?a=&b=` names first, side by side (unknown labels keep the rank order).
PAIR_JS = """
(function(){
var q=new URLSearchParams(location.search),pair=document.querySelector('.pair');if(!pair)return;
var all=Array.prototype.slice.call(pair.children);
function find(l){return all.filter(function(s){return s.dataset.label===l;})[0];}
var b=find(q.get('b')),a=find(q.get('a'));
if(b)pair.insertBefore(b,pair.firstChild);if(a)pair.insertBefore(a,pair.firstChild);
var first=pair.children[0],second=pair.children[1];
document.querySelectorAll('#overview tr[data-label]').forEach(function(tr){
tr.classList.toggle('chosen',!!first&&tr.dataset.label===first.dataset.label||!!second&&tr.dataset.label===second.dataset.label);});
})();
"""


def _overview(here: str, rows: Sequence[tuple[RunFile, Sequence[RunRow]]], partial: set[str]) -> str:
    """Every model in rank order, one line each, with links that put it beside the top model; then
    the partial runs (`partial`: their slugs), marked, "not run" where they stopped before the task."""
    labels = [run.label for run, _ in rows]
    lines = []
    for run, run_rows in rows:
        row = run_rows[0] if run_rows else None
        status = _status(row) if row is not None else "not run" if run.slug in partial else "missing"
        tokens = sum(r.usage.prompt_tokens + r.usage.completion_tokens for r in run_rows)
        latency = sum(r.latency_ms for r in run_rows)
        other = labels[0] if run.label != labels[0] else (labels[1] if len(labels) > 1 else labels[0])
        query = urlencode({"a": other, "b": run.label})
        lines.append(
            f'<tr data-label="{e(run.label)}"><th scope="row">{e(run.label)}{_pill(run.slug in partial)}</th>'
            f'<td><span class="status {status.replace(" ", "-")}">{status}</span></td>'
            f'<td class="num">{"" if row is None else f"{row.score:.2f}"}</td>'
            f'<td class="num tokens">{tokens:,}</td><td class="num latency">{latency / 1000:.1f} s</td>'
            f'<td><a class="pair-link" href="?{e(query)}">beside {e(other)}</a></td></tr>'
        )
    return (
        '<section id="overview"><h2>All models</h2><div class="scroll"><table class="overview"><thead><tr>'
        "<th>model</th><th>status</th><th>score</th><th>tokens</th><th>latency</th><th>compare</th></tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table></div></section>"
    )


def _episode_context(benchmark_id: str, task: Optional[Task]) -> EpisodeContext:
    """What the benchmark says to show beside an episode task (nothing when it is not installed here,
    or when its hook fails: the page still shows every model's episode)."""
    bench = installed(benchmark_id)
    if task is None or task.kind != "episode" or bench is None:
        return EpisodeContext()
    try:
        return bench.episode_context(task)
    except BenchmarkError:
        return EpisodeContext()


def _column(
    here: str,
    view: GroupView,
    run: RunFile,
    rows: Sequence[RunRow],
    differing: set[str],
    context: EpisodeContext,
    span: Optional[int],
    *,
    partial: bool,
) -> str:
    """One model's column. With `span` (every model has one row, and some an episode), it is a
    subgrid of `span` rows of the pair: its head on the first, then its timeline, itself a subgrid
    of the rows left: turn i on its row i, the verdict and final state on its last. Two models side
    by side so show turn i beside turn i. A `partial` run's column is marked so."""
    link = f'<a href="{href(here, run_page(view.id, run.slug))}">{e(run.label)}</a>{_pill(partial)}'
    style = f' style="grid-row:span {span}"' if span is not None else ""
    opening = f'<section class="model" data-label="{e(run.label)}"{style}>'
    if not rows:
        said = "Not run: this partial run stopped before this task." if partial else "No row for this task."
        return f'{opening}<div class="slot head"><h3>{link}</h3><p class="note">{said}</p></div></section>'
    if span is not None:
        row = rows[0]
        slots = [f'<div class="slot head" style="grid-row:1"><h3>{link}</h3>{_head(row, differing)}</div>']
        if row.episode is not None:
            turns, end = timeline_parts(row, row.episode, final_state_html(row.episode.final_state, context))
            slots += [
                f'<div class="timeline" style="grid-row:2 / span {span - 1}">',
                *(
                    f'<div class="slot" data-pair-turn="{number}" style="grid-row:{number}">{turn}</div>'
                    for number, turn in enumerate(turns, 1)
                ),
                f'<div class="slot end" style="grid-row:{span - 1}">{end}</div></div>',
            ]
        return opening + "".join(slots) + "</section>"
    parts = [f"{opening}<h3>{link}</h3>"]
    for row in rows:
        parts.append(_head(row, differing))
        if row.episode is not None:
            parts.append(timeline(row, row.episode, final_state_html(row.episode.final_state, context)))
    parts.append("</section>")
    return "".join(parts)


def _pill(partial: bool) -> str:
    return (
        ' <span class="pill partial" title="stopped before it finished: not ranked">partial</span>' if partial else ""
    )


def _span(rows: Sequence[tuple[RunFile, Sequence[RunRow]]]) -> Optional[int]:
    """The rows each aligned column spans (its head, its longest turn list, its end), or None when
    the columns are not aligned: a model with several rows (epochs), or no episode at all."""
    if any(len(run_rows) > 1 for _, run_rows in rows):
        return None
    episodes = [run_rows[0].episode for _, run_rows in rows if run_rows and run_rows[0].episode is not None]
    if not episodes:
        return None
    return 2 + max(turn_count(episode) for episode in episodes)


def _head(row: RunRow, differing: set[str]) -> str:
    """A row's verdict line, its answer (for a single task), its error, and the grader's reason."""
    status = _status(row)
    epoch = f"epoch {row.epoch}: " if row.epoch is not None else ""
    parts = [
        f'<p class="verdict-row" data-status="{status}">{e(epoch)}<span class="status {status}">{status}</span>'
        f" score {row.score:.2f}</p>"
    ]
    if row.episode is None:
        answer = row.trace.answer
        parts.append(
            f'<h4>Answer</h4><pre class="answer">{t(_text(answer))}</pre>'
            if answer is not None
            else '<p class="note">No final answer.</p>'
        )
    if row.error is not None:
        code = f"<b>{t(row.error_code)}</b> " if row.error_code else ""
        parts.append(f'<h4>Error</h4><p class="error">{code}{t(row.error)}</p>')
    parts.append(f'<h4>Grader</h4><p class="reason">{t(row.reason)}</p>{_fields(row.details, differing)}')
    return "".join(parts)


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _differing(rows: Sequence[RunRow]) -> set[str]:
    """The details fields whose values are not the same in every graded row (a field one graded row
    lacks differs). Errored rows are left out: they hold no details, so they would mark every field."""
    graded = [row for row in rows if row.error is None]
    keys = {key for row in graded for key in row.details}
    return {key for key in keys if len({_compact(row.details.get(key)) for row in graded}) > 1}


def _fields(details: dict[str, Any], differing: set[str]) -> str:
    if not details:
        return ""
    rows = "".join(
        f'<tr data-field="{e(key)}"{" class=differs" if key in differing else ""}><th scope="row">{e(key)}</th>'
        f"<td>{json_block(value) if isinstance(value, (dict, list)) else t(_compact(value))}</td></tr>"
        for key, value in details.items()
    )
    return f'<table class="fields"><caption>details</caption><tbody>{rows}</tbody></table>'
