"""The task x model matrix of a group page: one row per task, one column per model (in rank
order), each cell passed, failed or errored, and each task linking to its page.

Every row is in the markup, so the page reads without JavaScript. `MATRIX_JS` then takes the rows
out of the document and shows one page of them at a time (`PAGE_ROWS`), which keeps an 800-task x
20-model matrix as quick to filter and scroll as a short one. Its filters (models disagree, every
model fails, only one passes, a row errored; and for two models A and B picked beside it, "A fails,
B passes", "A passes, B fails", "both fail", where an errored row fails), the search (task id, group
labels, and every model's reasons and error codes) and the sort (by how many models pass) work on
the rows' data attributes: `data-s` holds one letter per model (p, f, e, or m when the model has no
row for the task; a partial run's columns come last, x where it stopped before the task), `data-n`
the ranked models' passes, `data-q` the task's text, `data-r` its rows' reasons and codes.

The filter, search, sort and page are the page's query parameters (`?filter=disagree&q=drift&sort=
fewest&page=2`; a pairwise filter adds `a=<label>&b=<label>`, and each task's link then carries
them, so the task page opens on that pair): read when the page loads and written back
(`history.replaceState`) as they change, so a link reproduces the view, from `view` and from a
static site opened over file:// alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..reports._html_page import e
from ._html_common import href
from ._paths import task_page

if TYPE_CHECKING:
    from ._catalog import GroupView

__all__ = ["MATRIX_JS", "PAGE_ROWS", "matrix_section"]

PAGE_ROWS = 100
_MARK = {"p": "✓", "f": "✗", "e": "!", "m": "·", "x": "–"}
_WORD = {"p": "passed", "f": "failed", "e": "errored", "m": "no row", "x": "not run"}


def matrix_section(here: str, view: GroupView) -> str:
    runs, partial = view.runs, view.partial
    columns = [(run.label, run.label) for run in runs] + [(run.label, f"{run.label} (partial)") for run in partial]
    head = "".join(f'<th class="model" title="{e(run.label)}" scope="col">{e(run.label)}</th>' for run in runs)
    head += "".join(
        f'<th class="model partial" title="{e(run.label)}: a partial run, not ranked" scope="col">{e(text)}</th>'
        for run, (_, text) in zip(partial, columns[len(runs) :])
    )
    rows = [_row(here, view, task_id) for task_id in view.task_ids]
    legend = " ".join(f'<span class="c {s}">{_MARK[s]}</span> {_WORD[s]}' for s in ("p", "f", "e"))
    if partial:
        legend += (
            f' <span class="c x">{_MARK["x"]}</span> {_WORD["x"]} (a partial run, stopped before the task; '
            "partial runs are not counted in the pass column nor the filters that count models)"
        )
    style = "<style>#matrix td.x{color:var(--muted);background:var(--soft)}</style>" if partial else ""
    total = len(view.task_ids)
    picks = [
        "".join(
            f'<option value="{e(label)}"{" selected" if i == default else ""}>{e(text)}</option>'
            for i, (label, text) in enumerate(columns)
        )
        for default in (0, min(1, len(runs) - 1))
    ]
    return (
        f'<section id="matrix-section"><h2>Tasks &times; models</h2>{style}'
        f'<p class="note">{legend}. Each task links to its page, with every model\'s answer side by side.</p>'
        '<form class="controls" id="matrix-controls" hidden>'
        '<label>Show <select id="matrix-filter"><option value="all">all tasks</option>'
        '<option value="disagree">models disagree</option><option value="all-fail">every model fails</option>'
        '<option value="one-pass">only one passes</option><option value="errored">a model errored</option>'
        '<option value="a-fails-b-passes">A fails, B passes</option>'
        '<option value="a-passes-b-fails">A passes, B fails</option>'
        '<option value="both-fail">A and B both fail</option>'
        "</select></label>"
        f'<label>A <select id="matrix-a">{picks[0]}</select></label>'
        f'<label>B <select id="matrix-b">{picks[1]}</select></label>'
        '<label>Search <input type="search" id="matrix-search" placeholder="task, group, reason or error code">'
        "</label>"
        '<label>Sort <select id="matrix-sort"><option value="id">by task id</option>'
        '<option value="most">most models pass first</option><option value="fewest">fewest models pass first</option>'
        "</select></label>"
        f'<span id="matrix-count">{total} of {total} tasks</span>'
        '<span class="pager"><button type="button" id="matrix-prev">previous</button>'
        '<span id="matrix-page"></span><button type="button" id="matrix-next">next</button></span></form>'
        f'<div class="scroll"><table id="matrix" data-models="{len(runs)}"><thead><tr><th class="task">task</th>'
        f'<th>group</th><th class="n">pass</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        "</section>"
    )


def _row(here: str, view: GroupView, task_id: str) -> str:
    runs, partial = view.runs, view.partial
    ranked = "".join(run.status.get(task_id, "m") for run in runs)
    # A partial run's columns follow; their passes count in no tally (the filters' and "pass").
    states = ranked + "".join(run.status.get(task_id, "x") for run in partial)
    labels = ", ".join(view.task_groups.get(task_id, {}).values())
    notes = " ".join(dict.fromkeys(run.notes.get(task_id, "") for run in [*runs, *partial]))
    cells = "".join(f'<td class="c {s}">{_MARK[s]}</td>' for s in states)
    return (
        f'<tr data-s="{states}" data-n="{ranked.count("p")}" data-q="{e((task_id + " " + labels).lower())}"'
        f' data-r="{e(notes)}">'
        f'<th class="task" scope="row"><a href="{href(here, task_page(view.id, task_id))}">{e(task_id)}</a></th>'
        f'<td class="grp">{e(labels)}</td><td class="n">{ranked.count("p")}/{len(runs)}</td>{cells}</tr>'
    )


MATRIX_JS = """
(function(){
var table=document.getElementById('matrix');if(!table)return;
var PAGE=PAGE_ROWS,body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows),shown=[],page=0;
var info=rows.map(function(r,i){var s=r.dataset.s,n=+r.dataset.n,link=r.querySelector('th.task a');
return {row:r,i:i,s:s,n:n,q:r.dataset.q+' '+r.dataset.r,e:s.indexOf('e')>=0,link:link,
href:link.getAttribute('href')};});
var controls=document.getElementById('matrix-controls'),filter=document.getElementById('matrix-filter'),
search=document.getElementById('matrix-search'),sort=document.getElementById('matrix-sort'),
count=document.getElementById('matrix-count'),pageInfo=document.getElementById('matrix-page'),
prev=document.getElementById('matrix-prev'),next=document.getElementById('matrix-next'),
pickA=document.getElementById('matrix-a'),pickB=document.getElementById('matrix-b');
var models=+table.dataset.models;
var tests={all:function(){return true;},disagree:function(t){return t.n>0&&t.n<models;},
'all-fail':function(t){return t.n===0;},'one-pass':function(t){return t.n===1;},errored:function(t){return t.e;},
'a-fails-b-passes':function(t){return fails(t,pickA)&&passes(t,pickB);},
'a-passes-b-fails':function(t){return passes(t,pickA)&&fails(t,pickB);},
'both-fail':function(t){return fails(t,pickA)&&fails(t,pickB);}};
// An errored row fails, as in every mean; a model with no row for the task neither passes nor fails.
function passes(t,pick){return t.s.charAt(pick.selectedIndex)==='p';}
function fails(t,pick){var c=t.s.charAt(pick.selectedIndex);return c==='f'||c==='e';}
var PAIRWISE={'a-fails-b-passes':1,'a-passes-b-fails':1,'both-fail':1};
function pairwise(){return PAIRWISE.hasOwnProperty(filter.value);}
function apply(keep){var test=tests[filter.value],q=search.value.trim().toLowerCase();
var picked=info.filter(function(t){return test(t)&&(!q||t.q.indexOf(q)>=0);});
if(sort.value==='most')picked.sort(function(a,b){return b.n-a.n||a.i-b.i;});
else if(sort.value==='fewest')picked.sort(function(a,b){return a.n-b.n||a.i-b.i;});
shown=picked;if(!keep)page=0;draw();}
function draw(){var pages=Math.max(1,Math.ceil(shown.length/PAGE));page=Math.min(page,pages-1);
var part=shown.slice(page*PAGE,(page+1)*PAGE);
var pair=pairwise()?'?'+new URLSearchParams({a:pickA.value,b:pickB.value}).toString():'';
part.forEach(function(t){t.link.setAttribute('href',t.href+pair);});
body.replaceChildren.apply(body,part.map(function(t){return t.row;}));
count.textContent=shown.length+' of '+info.length+' tasks';
pageInfo.textContent=' page '+(page+1)+' of '+pages+' ';prev.disabled=page===0;next.disabled=page>=pages-1;}
function save(){var p=new URLSearchParams(location.search);
var two=pairwise();
[['filter',filter.value,'all'],['q',search.value.trim(),''],['sort',sort.value,'id'],['page',String(page+1),'1'],
['a',two?pickA.value:'',''],['b',two?pickB.value:'','']]
.forEach(function(k){if(k[1]===k[2])p.delete(k[0]);else p.set(k[0],k[1]);});
var s=p.toString();try{history.replaceState(null,'',location.pathname+(s?'?'+s:'')+location.hash);}catch(err){}}
function choose(select,value){if(value&&Array.prototype.some.call(select.options,function(o){return o.value===value;}))
select.value=value;}
var given=new URLSearchParams(location.search);choose(filter,given.get('filter'));choose(sort,given.get('sort'));
choose(pickA,given.get('a'));choose(pickB,given.get('b'));
search.value=given.get('q')||'';
function changed(){apply(false);save();}
filter.addEventListener('change',changed);sort.addEventListener('change',changed);
pickA.addEventListener('change',changed);pickB.addEventListener('change',changed);
search.addEventListener('input',changed);
prev.addEventListener('click',function(){page--;draw();save();});
next.addEventListener('click',function(){page++;draw();save();});
controls.hidden=false;apply(false);page=Math.max(0,(parseInt(given.get('page'),10)||1)-1);draw();
table.dataset.ready='1';
})();
""".replace("PAGE_ROWS", str(PAGE_ROWS))
