"""The run report's task table (`task_table`): one row per task, filtered by status, group and
text and sorted by any column by `TASK_TABLE_JS`.

The table reads without JavaScript: every task's details (prompt, answer, grader verdict, transcript,
tool log, replay verdict) are in the markup, inside a `<noscript>` in the row below the task. With
JavaScript on, a browser takes a `<noscript>`'s content as one run of raw text instead of building
it, so a 2,000-episode report loads about as fast as its table alone; the script builds a task's
details from that text when the task is unfolded, and searches it. The text is the escaped markup
itself (every `<` in it is escaped, so no content can end the element early).

Long texts and values that several rows show (a prompt in every epoch, a system prompt, an audit
log every episode of a store reads) are counted first (`count_blocks`), written once under "Shared
values" (`html_shared`), and put back in place by the script when a row unfolds. A transcript
names the tool-log call of each tool call and tool message instead of repeating its arguments and
result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from .._model import ChatMessage, Episode, RunReport, RunRow, Task, ToolLogEntry
from ._html_page import e, json_block, t, words
from ._html_shared import SharedBlocks

__all__ = ["TASK_TABLE_JS", "count_blocks", "task_table"]

# Fixed column widths: the browser then lays out a long table without measuring every row.
_TASK_COLUMNS = (
    "<colgroup>"
    + "".join(f'<col style="width:{w}">' for w in ("5%", "16%", "13%", "10%", "6%", "8%", "8%", "34%"))
    + "</colgroup>"
)
_COLUMNS = (
    ("index", "#"),
    ("id", "task"),
    ("groups", "group"),
    ("status", "status"),
    ("score", "score"),
    ("attempts", "attempts"),
    ("latency", "latency ms"),
    ("reason", "reason"),
)


def task_table(
    report: RunReport,
    prompts: Mapping[str, Task],
    blocks: SharedBlocks,
    task_href: Optional[Callable[[str], str]] = None,
) -> str:
    """The task table with its filters (shown only when the script runs), a `<tbody>` per row;
    `task_href` gives the link of a task's own page, shown next to its id."""
    rows = report.rows
    labels = [_row_groups(row, prompts.get(row.task_id)) for row in rows]
    bodies = [_task_body(i, row, prompts.get(row.task_id), labels[i], blocks, task_href) for i, row in enumerate(rows)]
    headers = "".join(
        f'<th scope="col" data-key="{key}" aria-sort="none"><button type="button">{e(text)}</button></th>'
        for key, text in _COLUMNS
    )
    return (
        '<section class="tasks" id="tasks"><h2>Tasks</h2>'
        '<form class="controls" id="filters" hidden>'
        '<label>Status <select id="status-filter"><option value="">all</option><option value="passed">passed</option>'
        '<option value="failed">failed</option><option value="errored">errored</option></select></label>'
        f'<label>Group <select id="group-filter"><option value="">all</option>{_group_options(report, labels)}'
        "</select></label>"
        '<label>Search <input type="search" id="text-filter" placeholder="any text: id, reason, answer, prompt, '
        'tool log"></label>'
        f'<span id="shown">{len(rows)} of {len(rows)} {"rows" if report.epochs > 1 else "tasks"}</span></form>'
        f'<table id="task-table">{_TASK_COLUMNS}<thead><tr>{headers}</tr></thead>{"".join(bodies)}</table></section>'
    )


def _group_options(report: RunReport, labels: Sequence[Mapping[str, str]]) -> str:
    """One option group per dimension, in the order the report declares them (then any others the
    rows carry), groups sorted by name; each option's value is `dimension=group`."""
    seen: dict[str, set[str]] = {dimension: set(groups) for dimension, groups in report.groups.items()}
    for row_labels in labels:
        for dimension, group in row_labels.items():
            seen.setdefault(dimension, set()).add(group)
    return "".join(
        f'<optgroup label="{e(words(dimension))}">'
        + "".join(f'<option value="{e(f"{dimension}={group}")}">{e(group)}</option>' for group in sorted(groups))
        + "</optgroup>"
        for dimension, groups in seen.items()
    )


def _row_groups(row: RunRow, task: Optional[Task]) -> dict[str, str]:
    """The task's group labels: the row's own (`groups`), else its kind."""
    if row.groups:
        return dict(row.groups)
    kind = task.kind if task is not None else ("episode" if row.episode is not None else "single")
    return {"kind": kind}


def _status(row: RunRow) -> str:
    return "errored" if row.error is not None else "passed" if row.passed else "failed"


def _task_body(
    index: int,
    row: RunRow,
    task: Optional[Task],
    labels: Mapping[str, str],
    blocks: SharedBlocks,
    task_href: Optional[Callable[[str], str]],
) -> str:
    status = _status(row)
    page = f' <a class="task-page" href="{e(task_href(row.task_id))}">all models</a>' if task_href else ""
    group_text = ", ".join(labels.values())
    group_attr = "|".join(f"{d}={g}" for d, g in labels.items())
    epoch = f' <span class="epoch">epoch {row.epoch}</span>' if row.epoch is not None else ""
    code = f' <code class="error-code">{e(row.error_code)}</code>' if row.error_code else ""
    return (
        f'<tbody class="task {status}" data-index="{index}" data-id="{e(row.task_id)}" data-status="{status}" '
        f'data-score="{row.score}" data-attempts="{row.attempts}" data-latency="{row.latency_ms}" '
        f'data-groups="{e(group_attr)}"><tr><td class="num">{index + 1}</td>'
        f'<td><a class="open" href="#d-{index}"><code>{e(row.task_id)}</code></a>{epoch}{page}</td>'
        f"<td>{e(group_text)}</td>"
        f'<td><span class="status {status}">{status}</span>{code}</td><td class="num">{row.score:.2f}</td>'
        f'<td class="num">{row.attempts}</td><td class="num">{row.latency_ms}</td>'
        f'<td class="reason">{e(row.reason)}</td></tr><tr class="detail" id="d-{index}"><td colspan="8"><noscript>'
        f"{_task_detail(row, task, blocks)}</noscript></td></tr></tbody>"
    )


def _task_detail(row: RunRow, task: Optional[Task], blocks: SharedBlocks) -> str:
    trace = row.trace
    epoch = f", epoch {row.epoch}" if row.epoch is not None else ""
    parts = [
        f'<details class="task-detail"><summary>Details of <code>{e(row.task_id)}</code>{epoch}</summary>',
        "<h4>Prompt</h4>",
        blocks.text(task.prompt, "prompt")
        if task is not None
        else '<p class="note">The prompt is not in this task list.</p>',
        "<h4>Answer</h4>",
        f'<pre class="answer">{t(_text(trace.answer))}</pre>'
        if trace.answer is not None
        else '<p class="note">No final answer.</p>',
    ]
    if trace.tool_calls:
        calls = [{"name": call.name, "arguments": call.arguments} for call in trace.tool_calls]
        parts += ["<h4>Tool calls</h4>", json_block(calls)]
    if row.error is not None:
        code = f"<b>{t(row.error_code)}</b> " if row.error_code else ""
        parts += ["<h4>Error</h4>", f'<p class="error">{code}{t(row.error)}</p>']
    parts += ["<h4>Grader</h4>", f'<p class="reason">{t(row.reason)}</p>', blocks.json(row.details)]
    if row.episode is not None:
        parts.append(_episode(row, row.episode, blocks))
    parts.append("</details>")
    return "".join(parts)


def _episode(row: RunRow, episode: Episode, blocks: SharedBlocks) -> str:
    log = episode.tool_log
    by_call = {entry.call_id: i for i, entry in enumerate(log) if entry.call_id}
    messages = "".join(_message(m, log, by_call, blocks) for m in episode.transcript)
    calls = "".join(_log_row(i, entry, blocks) for i, entry in enumerate(log))
    status = _status(row)
    abort = f" Aborted: {e(episode.aborted)} ({e(episode.abort_detail or '')})." if episode.aborted is not None else ""
    return (
        '<div class="episode"><h4>Episode</h4>'
        f'<details class="transcript"><summary>Transcript ({len(episode.transcript)} messages)</summary>'
        f"{messages or '<p class=note>Transcript not kept in this report.</p>'}</details>"
        f'<details class="tool-log" open><summary>Tool log ({len(log)} calls)</summary>'
        '<table class="log"><thead><tr><th>#</th><th>tool</th><th>arguments</th><th>result</th></tr></thead>'
        f"<tbody>{calls}</tbody></table></details>"
        f'<p class="replay">Replay verdict: <span class="status {status}">{status}</span>, '
        f"score {row.score:.2f}: {e(row.reason)}.{abort}</p>"
        f"<h4>Final state</h4>{blocks.json(episode.final_state)}</div>"
    )


def _log_row(index: int, entry: ToolLogEntry, blocks: SharedBlocks) -> str:
    if entry.error is not None:
        result = f'<td class="tool-error"><b>{t(entry.error.code)}</b> {t(entry.error.message)}</td>'
    else:
        result = f"<td>{blocks.json(entry.result)}</td>"
    return (
        f'<tr data-call="{index + 1}"><td>{index + 1}</td><td><code>{e(entry.name)}</code></td>'
        f"<td>{blocks.json(entry.arguments)}</td>{result}</tr>"
    )


def _message(
    message: ChatMessage, log: Sequence[ToolLogEntry], by_call: Mapping[str, int], blocks: SharedBlocks
) -> str:
    role = message.role
    content = message.content or ""
    body = ""
    if role == "system" and content:
        body = blocks.text(content, "system")
    elif role == "tool" and message.tool_call_id in by_call:
        position = by_call[message.tool_call_id or ""]
        body = f'<p class="ref">Result: call {position + 1} in the tool log ({len(content):,} characters).</p>'
    elif content:
        body = f"<pre>{t(content)}</pre>"
    for call in message.tool_calls or ():
        if call.id in by_call:
            body += (
                f'<p class="call">calls <code>{e(call.name)}</code>: call {by_call[call.id] + 1} in the tool log</p>'
            )
        else:
            arguments = json.dumps(call.arguments, ensure_ascii=False)
            body += f'<p class="call">calls <code>{e(call.name)}</code> <code>{t(arguments)}</code></p>'
    reply_to = f" (to {e(message.tool_call_id)})" if message.tool_call_id else ""
    return f'<div class="message {e(role)}"><div class="role">{e(role)}{reply_to}</div>{body}</div>'


def count_blocks(rows: Sequence[RunRow], prompts: Mapping[str, Task]) -> SharedBlocks:
    """Every long block a row shows, counted, so that those several rows show are written once."""
    blocks = SharedBlocks()
    for row in rows:
        task = prompts.get(row.task_id)
        if task is not None:
            blocks.count_text(task.prompt)
        blocks.count_json(row.details)
        if row.episode is None:
            continue
        for message in row.episode.transcript:
            if message.role == "system" and message.content:
                blocks.count_text(message.content)
        for entry in row.episode.tool_log:
            blocks.count_json(entry.arguments)
            if entry.error is None:
                blocks.count_json(entry.result)
        blocks.count_json(row.episode.final_state)
    return blocks


def _text(value: Any) -> str:
    """An answer as text: strings as they are, anything else as JSON."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# Unfolding, filtering, searching and sorting of the task table. A task's details are built from
# its <noscript> text the first time it unfolds; search runs over that text with the markup left
# out (escaped as the page escapes text, so "a & b" finds "a &amp; b").
TASK_TABLE_JS = """
(function(){
var table=document.getElementById('task-table');if(!table)return;
var bodies=Array.prototype.slice.call(table.tBodies),raw=[],hay=[],refs=[],shared={},sharedHay={};
var form=document.getElementById('filters');form.hidden=false;
var status=document.getElementById('status-filter'),group=document.getElementById('group-filter'),
text=document.getElementById('text-filter'),shown=document.getElementById('shown'),
unit=shown.textContent.split(' ').pop();
function noscript(el){var n=el&&el.querySelector('noscript');return n?n.textContent:'';}
function source(b){var i=+b.dataset.index;if(raw[i]===undefined)raw[i]=noscript(b.rows[1].cells[0]);return raw[i];}
function sharedSource(n){if(shared[n]===undefined)shared[n]=noscript(document.getElementById('shared-'+n));
return shared[n];}
function expand(b,show){var td=b.rows[1].cells[0];if(show&&!td.dataset.built){td.innerHTML=source(b);
td.querySelectorAll('.shared-ref').forEach(function(r){r.outerHTML=sharedSource(r.dataset.shared);});
td.dataset.built='1';var d=td.querySelector('details');if(d)d.open=true;}
b.rows[1].classList.toggle('open',show);b.classList.toggle('expanded',show);}
table.addEventListener('click',function(ev){var a=ev.target.closest('a.open');if(!a)return;ev.preventDefault();
var b=a.closest('tbody');expand(b,!b.classList.contains('expanded'));});
function plain(s){return s.replace(/<[^>]*>/g,' ').toLowerCase();}
function found(b,q){var i=+b.dataset.index;if(hay[i]===undefined){var s=source(b);
hay[i]=b.rows[0].textContent.toLowerCase()+' '+plain(s);refs[i]=[];
s.replace(/data-shared="(\\d+)"/g,function(_,n){refs[i].push(n);});}
return hay[i].indexOf(q)>=0||refs[i].some(function(n){if(sharedHay[n]===undefined)sharedHay[n]=plain(sharedSource(n));
return sharedHay[n].indexOf(q)>=0;});}
function escaped(s){return s.replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;');}
function apply(){var s=status.value,g=group.value,q=escaped(text.value.trim().toLowerCase()),n=0;
bodies.forEach(function(b){var ok=(!s||b.dataset.status===s)&&(!g||b.dataset.groups.split('|').indexOf(g)>=0)&&
(!q||found(b,q));b.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+bodies.length+' '+unit;}
[status,group].forEach(function(e){e.addEventListener('change',apply);});text.addEventListener('input',apply);
form.addEventListener('submit',function(e){e.preventDefault();});
document.querySelectorAll('tr[data-group]').forEach(function(tr){tr.style.cursor='pointer';
tr.title='Show these tasks';tr.addEventListener('click',function(){group.value=tr.dataset.group;apply();
form.scrollIntoView();});});
var numeric={index:1,score:1,attempts:1,latency:1};
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th){th.querySelector('button').addEventListener('click',
function(){var key=th.dataset.key,dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(o){o.setAttribute('aria-sort','none');});
th.setAttribute('aria-sort',dir>0?'ascending':'descending');
function val(b){if(key==='reason')return b.rows[0].cells[7].textContent;if(key==='id')return b.dataset.id;
if(key==='groups')return b.dataset.groups;if(key==='status')return b.dataset.status;
return parseFloat(b.dataset[key]);}
bodies.sort(function(a,b){var x=val(a),y=val(b);var c=numeric[key]?x-y:(x<y?-1:x>y?1:0);
return c*dir||(a.dataset.index-b.dataset.index);});
bodies.forEach(function(b){table.appendChild(b);});});});
var m=/^#d-(\\d+)$/.exec(location.hash);if(m&&bodies[+m[1]]){expand(bodies[+m[1]],true);
bodies[+m[1]].scrollIntoView();}
apply();})();
"""
