"""The task browser `serve` shows at `/` (`render_task_browser_html`): every task of the served
list, each with a form that posts an answer to `/v1/score` and shows the verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._model import Task
from ._html_page import e, json_block, page, t

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

__all__ = ["render_task_browser_html"]


def render_task_browser_html(benchmark: Benchmark, tasks: Sequence[Task], *, scoring: bool = True) -> str:
    """The page `serve` shows at `/`: every task (prompt, tools, expected answer, metadata), each
    with a form that posts a submission to `/v1/score` and shows the verdict. With `scoring=False`
    (plain `serve`, whose sessions' agents must find no answer key and no score oracle) the page
    shows the tasks alone: no grading fields, no form."""
    items = []
    for task in tasks:
        if task.kind == "single":
            field = (
                '<label>Answer <textarea name="answer" rows="3" spellcheck="false"></textarea></label>'
                '<input type="hidden" name="shape" value="answer">'
            )
        else:
            field = (
                '<label>Submission (JSON trace: {"answer", "toolLog", "finalState"}) '
                '<textarea name="submission" rows="6" spellcheck="false">{"toolLog": []}</textarea></label>'
                '<input type="hidden" name="shape" value="json">'
            )
        tools = (
            "<p><b>Tools:</b> " + ", ".join(f"<code>{e(tool.name)}</code>" for tool in task.tools) + "</p>"
            if task.tools
            else ""
        )
        search = " ".join(" ".join((task.id, task.kind, task.prompt)).split()).lower()[:4000]
        items.append(
            f'<section class="task" id="task-{e(task.id)}" data-task-id="{e(task.id)}" data-search="{e(search)}">'
            f'<h3><code>{e(task.id)}</code> <span class="pill">{e(task.kind)}</span></h3>'
            f'<pre class="prompt">{t(task.prompt)}</pre>{tools}'
            + (_grading(task, field) if scoring else "")
            + "</section>"
        )
    body = (
        f"<header><h1>{e(benchmark.name)}</h1><p>{e(benchmark.tagline)}</p>"
        f'<p class="meta">{e(benchmark.id)} {e(benchmark.version)} · {len(tasks)} tasks · '
        '<a href="/openapi.json">OpenAPI document</a> · <a href="/v1/tasks">/v1/tasks</a></p></header>'
        + (
            '<noscript><p class="note">Scoring from this page needs JavaScript; without it, '
            "POST {taskId, submission} to /v1/score.</p></noscript>"
            if scoring
            else '<p class="note">No scoring here: this server opens sessions, so it shows no answer and '
            "scores nothing (<code>serve --scoring-api</code> does).</p>"
        )
        + '<div class="controls" hidden><label>Search <input type="search" id="search" '
        'placeholder="id, kind or prompt text"></label> <span id="shown"></span></div>' + "".join(items)
    )
    return page(f"{benchmark.name}: tasks", body, _BROWSER_JS)


def _grading(task: Task, field: str) -> str:
    """A task's grading fields and the form that scores an answer to it."""
    return (
        f"<details><summary>Expected answer and metadata</summary>"
        f"{json_block(task.expected)}{json_block(task.metadata)}</details>"
        f'<form class="score" data-task-id="{e(task.id)}">{field}'
        '<label class="seed">Seed <input name="seed" type="number" value="1" step="1"></label>'
        '<button type="submit">Score</button><output class="verdict" aria-live="polite"></output></form>'
    )


# The task browser: search, and each form posts {taskId, submission, seed} to /v1/score.
_BROWSER_JS = """
(function(){
var sections=Array.prototype.slice.call(document.querySelectorAll('section.task'));
var controls=document.querySelector('.controls');controls.hidden=false;
var search=document.getElementById('search'),shown=document.getElementById('shown');
function apply(){var t=search.value.trim().toLowerCase(),n=0;sections.forEach(function(s){
var ok=!t||s.dataset.search.indexOf(t)>=0;s.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+sections.length+' tasks';}
search.addEventListener('input',apply);apply();
function show(out,cls,text){out.className='verdict '+cls;out.textContent=text;}
document.querySelectorAll('form.score').forEach(function(form){form.addEventListener('submit',function(e){
e.preventDefault();var out=form.querySelector('output'),submission;
if(form.elements.shape.value==='answer'){submission={answer:form.elements.answer.value};}
else{try{submission=JSON.parse(form.elements.submission.value);}catch(err){
show(out,'status errored','not JSON: '+err.message);return;}}
var body={taskId:form.dataset.taskId,submission:submission,seed:parseInt(form.elements.seed.value||'1',10)};
show(out,'','scoring...');
fetch('/v1/score',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify(body)})
.then(function(r){return r.json();}).then(function(d){
if(d.error){show(out,'status errored',d.error.code+': '+d.error.message);return;}
show(out,'status '+(d.passed?'passed':'failed'),(d.passed?'passed':'failed')+', score '+d.score+': '+d.reason+
'\\n'+JSON.stringify(d.details,null,2));}).catch(function(err){show(out,'status errored',String(err));});});});
})();
"""
