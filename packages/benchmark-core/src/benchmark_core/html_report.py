"""Self-contained HTML pages: the run report (`render_report_html`) and the task browser that `serve`
shows at `/` (`render_task_browser_html`).

Each page is one file with its CSS and JavaScript inline and nothing fetched from the network. All
content is in the markup, so a page reads without JavaScript (episodes and details fold with
`<details>`); the script only adds filtering and sorting, or posting to `/v1/score`. Every piece of
text, a model's answer included, is HTML-escaped where it is written; no data is embedded in a script.

A page kind is a function that builds its sections from the shared pieces here (`_page`, `_ci_svg`,
`_bar`, `_bar_table`, `_json_block`) and returns `_page(...)`. Renderers are pure: the same report
gives the same bytes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, Optional

from .model import RunReport, Task
from .wire import to_wire

if TYPE_CHECKING:
    from .definition import Benchmark

__all__ = ["render_report_html", "render_task_browser_html"]

_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_TOOL_MESSAGE_LIMIT = 400
# Fixed column widths: the browser then lays out a long table without measuring every row.
_TASK_COLUMNS = (
    "<colgroup>"
    + "".join(f'<col style="width:{w}">' for w in ("4%", "15%", "12%", "8%", "6%", "7%", "8%", "40%"))
    + "</colgroup>"
)


def render_report_html(report: RunReport, benchmark: Optional[Benchmark] = None, tasks: Sequence[Task] = ()) -> str:
    """The run report as one HTML page: headline with its 95% CI drawn, per-group means and the
    benchmark's own summary as bar tables, and a task table (filter by status, group and text; sort
    by any column) where each task unfolds to its prompt (from `tasks`, when the task is there), the
    answer, the grader's reason and details, and for episodes the transcript, the tool log with
    each call's result, and the replay verdict."""
    doc: dict[str, Any] = to_wire(report)
    prompts = {task.id: task for task in tasks}
    name = benchmark.name if benchmark is not None else doc["benchmark"]
    title = f"{name}: {doc['model']} ({doc['provider']})"
    rows = doc["rows"]
    sections = [
        _report_header(doc, name),
        _headline(doc),
        _groups_section(doc),
        _summary_section(report.summary, doc["totals"]["tasks"]),
        _task_table(rows, prompts),
    ]
    return _page(title, "".join(s for s in sections if s), _REPORT_JS)


def render_task_browser_html(benchmark: Benchmark, tasks: Sequence[Task]) -> str:
    """The page `serve` shows at `/`: every task (prompt, tools, expected answer, metadata), each
    with a form that posts a submission to `/v1/score` and shows the verdict."""
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
            "<p><b>Tools:</b> " + ", ".join(f"<code>{_e(t.name)}</code>" for t in task.tools) + "</p>"
            if task.tools
            else ""
        )
        items.append(
            f'<section class="task" id="task-{_e(task.id)}" data-task-id="{_e(task.id)}" '
            f'data-search="{_e(_search_text(task.id, task.kind, task.prompt))}">'
            f'<h3><code>{_e(task.id)}</code> <span class="pill">{_e(task.kind)}</span></h3>'
            f'<pre class="prompt">{_t(task.prompt)}</pre>{tools}'
            f"<details><summary>Expected answer and metadata</summary>"
            f"{_json_block(task.expected)}{_json_block(task.metadata)}</details>"
            f'<form class="score" data-task-id="{_e(task.id)}">{field}'
            '<label class="seed">Seed <input name="seed" type="number" value="1" step="1"></label>'
            '<button type="submit">Score</button><output class="verdict" aria-live="polite"></output></form>'
            "</section>"
        )
    body = (
        f"<header><h1>{_e(benchmark.name)}</h1><p>{_e(benchmark.tagline)}</p>"
        f'<p class="meta">{_e(benchmark.id)} {_e(benchmark.version)} · {len(tasks)} tasks · '
        '<a href="/openapi.json">OpenAPI document</a> · <a href="/v1/tasks">/v1/tasks</a></p></header>'
        '<noscript><p class="note">Scoring from this page needs JavaScript; without it, '
        "POST {taskId, submission} to /v1/score.</p></noscript>"
        '<div class="controls" hidden><label>Search <input type="search" id="search" '
        'placeholder="id, kind or prompt text"></label> <span id="shown"></span></div>' + "".join(items)
    )
    return _page(f"{benchmark.name}: tasks", body, _BROWSER_JS)


# -- report sections -------------------------------------------------------------------------------


def _report_header(doc: Mapping[str, Any], name: str) -> str:
    facts = [
        ("benchmark", f"{doc['benchmark']} {doc['version']}"),
        ("model", doc["model"]),
        ("provider", doc["provider"]),
        ("mode", doc["mode"]),
        ("seed", str(doc["seed"])),
        ("started", doc.get("startedAt") or "-"),
        ("finished", doc.get("finishedAt") or "-"),
    ]
    items = "".join(f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in facts)
    return f'<header><h1>{_e(name)}</h1><dl class="facts">{items}</dl></header>'


def _headline(doc: Mapping[str, Any]) -> str:
    totals, usage, ci = doc["totals"], doc["usage"], doc["confidenceInterval95"]
    errored = totals["failed"]
    failed = totals["tasks"] - totals["passed"] - errored
    cost = usage.get("costUsd")
    spent = f"${cost:,.4f}" if isinstance(cost, (int, float)) else "not reported"
    return (
        '<section class="headline"><h2>Result</h2>'
        f'<p class="mean"><span id="mean">{_percent(doc["mean"])}</span> mean score '
        f'<span class="ci">95% CI {_percent(ci["low"])} to {_percent(ci["high"])}</span></p>'
        f"{_ci_svg(doc['mean'], ci['low'], ci['high'])}"
        '<ul class="counts">'
        f'<li><b id="count-tasks">{totals["tasks"]}</b> tasks</li>'
        f'<li class="passed"><b>{totals["passed"]}</b> passed</li>'
        f'<li class="failed"><b>{failed}</b> failed</li>'
        f'<li class="errored"><b>{errored}</b> errored</li>'
        f"<li><b>{usage['promptTokens']:,}</b> prompt and <b>{usage['completionTokens']:,}</b> completion tokens</li>"
        f"<li>cost <b>{_e(spent)}</b></li></ul></section>"
    )


def _ci_svg(mean: float, low: float, high: float, width: int = 480) -> str:
    """The mean and its interval on a 0-100% axis."""
    pad, top = 12, 10
    span = width - 2 * pad

    def x(value: float) -> float:
        return round(pad + span * min(max(value, 0.0), 1.0), 1) if math.isfinite(value) else pad

    ticks = "".join(
        f'<line x1="{x(t)}" y1="{top + 22}" x2="{x(t)}" y2="{top + 27}" class="tick"/>'
        f'<text x="{x(t)}" y="{top + 40}" text-anchor="middle">{int(t * 100)}%</text>'
        for t in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    label = f"mean {_percent(mean)}, 95% confidence interval {_percent(low)} to {_percent(high)}"
    return (
        f'<svg class="ci-chart" role="img" aria-label="{_e(label)}" viewBox="0 0 {width} 56" width="{width}" '
        f'height="56"><title>{_e(label)}</title>'
        f'<line x1="{pad}" y1="{top + 22}" x2="{width - pad}" y2="{top + 22}" class="axis"/>{ticks}'
        f'<rect class="interval" x="{x(low)}" y="{top + 4}" width="{max(x(high) - x(low), 1.0):.1f}" '
        'height="12" rx="3"/>'
        f'<circle class="point" cx="{x(mean)}" cy="{top + 10}" r="6"/></svg>'
    )


def _groups_section(doc: Mapping[str, Any]) -> str:
    """Macro means per task group, when the report carries them (`groups`: dimension -> group ->
    {mean, tasks})."""
    groups = doc.get("groups")
    if not isinstance(groups, dict) or not groups:
        return ""
    tables = []
    for dimension, by_group in groups.items():
        if not isinstance(by_group, dict):
            continue
        rows = [
            (str(group), [str(stats.get("tasks", ""))], _as_fraction(stats.get("mean")))
            for group, stats in by_group.items()
            if isinstance(stats, dict)
        ]
        tables.append(_bar_table(f"by {_words(str(dimension))}", ["group", "tasks"], "mean", rows))
    return '<section class="groups"><h2>Per group</h2>' + "".join(tables) + "</section>"


def _summary_section(summary: Mapping[str, Any], tasks: int) -> str:
    """The benchmark's own summary fields: per-kind breakdowns and counts as bar tables, rates and
    other figures as a list."""
    figures: list[str] = []
    tables: list[str] = []
    for key, value in summary.items():
        label = _words(key)
        if _is_breakdown(value):
            columns = sorted({k for stats in value.values() for k in stats}, key=_breakdown_order)
            shown = [c for c in columns if c not in ("tasks", "passed")]
            rows = []
            for group, stats in value.items():
                total = stats.get("tasks")
                passed = stats.get("passed")
                share = passed / total if isinstance(passed, (int, float)) and total else None
                cells = [_number(total), _number(passed)] + [_number(stats.get(c)) for c in shown]
                rows.append((str(group), cells, share))
            tables.append(_bar_table(label, ["group", "tasks", "passed", *shown], "pass rate", rows))
        elif _is_counts(value):
            largest = max([tasks, *value.values()]) or 1
            rows = [(str(k), [_number(v)], v / largest) for k, v in value.items()]
            tables.append(_bar_table(label, ["", f"of {tasks} tasks"], "share", rows))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            shown_value = _percent(value) if key.lower().endswith("rate") and 0 <= value <= 1 else _number(value)
            figures.append(f"<div><dt>{_e(label)}</dt><dd>{_e(shown_value)}</dd></div>")
        else:
            figures.append(f"<div><dt>{_e(label)}</dt><dd>{_json_block(value)}</dd></div>")
    if not figures and not tables:
        return ""
    listed = f'<dl class="facts">{"".join(figures)}</dl>' if figures else ""
    return f'<section class="summary"><h2>Benchmark summary</h2>{listed}{"".join(tables)}</section>'


def _task_table(rows: Sequence[Mapping[str, Any]], prompts: Mapping[str, Task]) -> str:
    labels = [_row_groups(row, prompts.get(row["taskId"])) for row in rows]
    options = sorted({f"{dim}={group}" for row_labels in labels for dim, group in row_labels.items()})
    group_select = "".join(f'<option value="{_e(o)}">{_e(o.replace("=", ": "))}</option>' for o in options)
    bodies = [_task_body(i, row, prompts.get(row["taskId"]), labels[i]) for i, row in enumerate(rows)]
    headers = "".join(
        f'<th scope="col" data-key="{key}" aria-sort="none"><button type="button">{_e(text)}</button></th>'
        for key, text in (
            ("index", "#"),
            ("id", "task"),
            ("groups", "group"),
            ("status", "status"),
            ("score", "score"),
            ("attempts", "attempts"),
            ("latency", "latency ms"),
            ("reason", "reason"),
        )
    )
    return (
        f'<section class="tasks"><h2>Tasks</h2>'
        '<form class="controls" id="filters" hidden>'
        '<label>Status <select id="status-filter"><option value="">all</option><option value="passed">passed</option>'
        '<option value="failed">failed</option><option value="errored">errored</option></select></label>'
        f'<label>Group <select id="group-filter"><option value="">all</option>{group_select}</select></label>'
        '<label>Search <input type="search" id="text-filter" placeholder="id, reason, answer, prompt"></label>'
        f'<span id="shown">{len(rows)} of {len(rows)} tasks</span></form>'
        f'<table id="task-table">{_TASK_COLUMNS}<thead><tr>{headers}</tr></thead>{"".join(bodies)}</table></section>'
    )


def _task_body(index: int, row: Mapping[str, Any], task: Optional[Task], labels: Mapping[str, str]) -> str:
    status = "errored" if row.get("error") else "passed" if row["passed"] else "failed"
    trace = row.get("trace") or {}
    group_text = ", ".join(f"{g}" for g in labels.values())
    group_attr = "|".join(f"{d}={g}" for d, g in labels.items())
    prompt = task.prompt if task is not None else None
    search = _search_text(
        row["taskId"], row["reason"], row.get("error") or "", _text(trace.get("answer")), prompt or ""
    )
    parts = [
        "<h4>Prompt</h4>",
        f'<pre class="prompt">{_t(prompt)}</pre>'
        if prompt is not None
        else '<p class="note">The prompt is not in this task list.</p>',
        "<h4>Answer</h4>",
        f'<pre class="answer">{_t(_text(trace.get("answer")))}</pre>'
        if trace.get("answer") is not None
        else '<p class="note">No final answer.</p>',
    ]
    if trace.get("toolCalls"):
        parts += ["<h4>Tool calls</h4>", _json_block(trace["toolCalls"])]
    if row.get("error"):
        parts += ["<h4>Error</h4>", f'<pre class="error">{_t(row["error"])}</pre>']
    parts += ["<h4>Grader</h4>", f'<p class="reason">{_t(row["reason"])}</p>', _json_block(row.get("details") or {})]
    episode = row.get("episode")
    if episode:
        parts.append(_episode(row, episode))
    return (
        f'<tbody class="task {status}" data-index="{index}" data-id="{_e(row["taskId"])}" data-status="{status}" '
        f'data-score="{row["score"]}" data-attempts="{row["attempts"]}" data-latency="{row["latencyMs"]}" '
        f'data-groups="{_e(group_attr)}" data-search="{_e(search)}">'
        f"<tr><td>{index + 1}</td><td><code>{_e(row['taskId'])}</code></td><td>{_e(group_text)}</td>"
        f'<td><span class="status {status}">{status}</span></td><td>{row["score"]:.2f}</td>'
        f'<td>{row["attempts"]}</td><td>{row["latencyMs"]}</td><td class="reason">{_e(row["reason"])}</td></tr>'
        f'<tr class="detail"><td colspan="8"><details class="task-detail"><summary>Details of '
        f"<code>{_e(row['taskId'])}</code></summary>{''.join(parts)}</details></td></tr></tbody>"
    )


def _episode(row: Mapping[str, Any], episode: Mapping[str, Any]) -> str:
    transcript = episode.get("transcript") or []
    log = episode.get("toolLog") or []
    messages = "".join(_message(m) for m in transcript) or '<p class="note">Transcript not kept in this report.</p>'
    calls = "".join(
        f"<tr><td>{i + 1}</td><td><code>{_e(entry['name'])}</code></td><td>{_json_block(entry.get('arguments'))}</td>"
        + (
            f'<td class="tool-error"><b>{_t(entry["error"].get("code", ""))}</b> '
            f"{_t(entry['error'].get('message', ''))}</td>"
            if entry.get("error")
            else f"<td>{_json_block(entry.get('result'))}</td>"
        )
        + "</tr>"
        for i, entry in enumerate(log)
    )
    aborted = episode.get("aborted")
    verdict_status = "errored" if row.get("error") else "passed" if row["passed"] else "failed"
    abort = f" Aborted: {_e(aborted)} ({_e(episode.get('abortDetail') or '')})." if aborted else ""
    return (
        '<div class="episode"><h4>Episode</h4>'
        f'<details class="transcript"><summary>Transcript ({len(transcript)} messages)</summary>{messages}</details>'
        f'<details class="tool-log" open><summary>Tool log ({len(log)} calls)</summary>'
        '<table class="log"><thead><tr><th>#</th><th>tool</th><th>arguments</th><th>result</th></tr></thead>'
        f"<tbody>{calls}</tbody></table></details>"
        f'<p class="replay">Replay verdict: <span class="status {verdict_status}">{verdict_status}</span>, '
        f"score {row['score']:.2f}: {_e(row['reason'])}.{abort}</p>"
        "<h4>Final state</h4>"
        f"{_json_block(episode.get('finalState'))}</div>"
    )


def _message(message: Mapping[str, Any]) -> str:
    role = str(message.get("role", ""))
    content = str(message.get("content") or "")
    if role == "tool" and len(content) > _TOOL_MESSAGE_LIMIT:
        # The same text is the call's result in the tool log below; the transcript shows its start.
        content = (
            content[:_TOOL_MESSAGE_LIMIT] + f"… ({len(content):,} characters; the whole result is in the tool log)"
        )
    body = f"<pre>{_t(content)}</pre>" if content else ""
    if message.get("toolCalls"):
        body += "".join(
            f"<p>calls <code>{_e(call.get('name', ''))}</code></p>{_json_block(call.get('arguments'))}"
            for call in message["toolCalls"]
        )
    reply_to = f" (to {_e(message['toolCallId'])})" if message.get("toolCallId") else ""
    return f'<div class="message {_e(role)}"><div class="role">{_e(role)}{reply_to}</div>{body}</div>'


# -- shared pieces ---------------------------------------------------------------------------------


def _page(title: str, body: str, script: str) -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # Nothing may load from anywhere: the page is one file, and a model's text must never run.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:; connect-src 'self'\">"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head>"
        f"<body><main>{body}</main><script>{script}</script></body></html>\n"
    )


def _bar_table(
    caption: str, columns: Sequence[str], bar_label: str, rows: Iterable[tuple[str, Sequence[str], Optional[float]]]
) -> str:
    head = "".join(f"<th>{_e(c)}</th>" for c in columns) + f"<th>{_e(bar_label)}</th>"
    body = "".join(
        f'<tr><th scope="row">{_e(name)}</th>{"".join(f"<td>{_e(c)}</td>" for c in cells)}<td>{_bar(share)}</td></tr>'
        for name, cells, share in rows
    )
    return (
        f'<table class="bars"><caption>{_e(caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _bar(share: Optional[float]) -> str:
    if share is None or not math.isfinite(share):
        return "n/a"
    width = min(max(share, 0.0), 1.0) * 100
    return f'<span class="bar"><span style="width:{width:.1f}%"></span></span> {_percent(share)}'


def _json_block(value: Any) -> str:
    return f'<pre class="json">{_t(json.dumps(value, indent=1, ensure_ascii=False))}</pre>'


def _e(value: Any) -> str:
    """Escaped for an attribute value or element content."""
    return escape(str(value), quote=True)


def _t(value: Any) -> str:
    """Escaped for element content (not attributes): quotes stay as they are, which keeps JSON
    blocks a third of the size."""
    return escape(str(value), quote=False)


def _text(value: Any) -> str:
    """An answer as text: strings as they are, anything else as JSON."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _search_text(*parts: str) -> str:
    return " ".join(" ".join(parts).split()).lower()[:4000]


def _percent(value: Any) -> str:
    return f"{value * 100:.1f}%" if isinstance(value, (int, float)) and math.isfinite(value) else "n/a"


def _number(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _as_fraction(value: Any) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _words(key: str) -> str:
    """`perMutationKind` -> `per mutation kind`."""
    return _CAMEL_RE.sub(" ", key).lower()


def _is_breakdown(value: Any) -> bool:
    """{group: {"tasks": n, ...numbers}}, like schema-mutation's perMutationKind."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, dict) and isinstance(v.get("tasks"), int) for v in value.values())
    )


def _is_counts(value: Any) -> bool:
    """{name: number}, like rollback-recovery's subscores."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values())
    )


def _breakdown_order(column: str) -> tuple[int, str]:
    return ({"tasks": 0, "passed": 1}.get(column, 2), column)


def _row_groups(row: Mapping[str, Any], task: Optional[Task]) -> dict[str, str]:
    """The task's group labels: the row's own (`groups`), else its kind."""
    labels = row.get("groups")
    if isinstance(labels, dict) and labels:
        return {str(k): str(v) for k, v in labels.items()}
    kind = task.kind if task is not None else ("episode" if row.get("episode") else "single")
    return {"kind": kind}


_CSS = """
:root{--fg:#1d2330;--muted:#5b6474;--line:#d9dee7;--bg:#fff;--soft:#f4f6fa;--pass:#1a7f37;--fail:#b42318;
--err:#9a6700;--accent:#3857c8}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--fg);background:var(--bg)}main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 8px}h2{font-size:19px;margin:28px 0 10px;border-bottom:1px solid var(--line);
padding-bottom:4px}h3{font-size:16px;margin:0 0 6px}h4{font-size:14px;margin:14px 0 4px;color:var(--muted)}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px;margin:4px 0;
white-space:pre-wrap;word-break:break-word;max-height:420px;overflow:auto}
.facts{display:flex;flex-wrap:wrap;gap:6px 24px;margin:8px 0}.facts div{min-width:120px}
.facts dt{font-size:12px;color:var(--muted)}.facts dd{margin:0;font-weight:600}
.mean{font-size:18px;margin:4px 0}.mean #mean{font-size:40px;font-weight:700}.ci{color:var(--muted);margin-left:8px}
.ci-chart .axis,.ci-chart .tick{stroke:var(--muted);stroke-width:1}.ci-chart text{font-size:11px;fill:var(--muted)}
.ci-chart .interval{fill:#c7d2fe;stroke:var(--accent)}.ci-chart .point{fill:var(--accent)}
.counts{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 20px}
.passed b,.status.passed{color:var(--pass)}.failed b,.status.failed{color:var(--fail)}
.errored b,.status.errored{color:var(--err)}.status{font-weight:600}
table{border-collapse:collapse;width:100%;margin:8px 0}#task-table{table-layout:fixed}
th,td{text-align:left;padding:5px 8px;
border-bottom:1px solid var(--line);vertical-align:top}caption{text-align:left;font-weight:600;padding:4px 0}
table.bars{width:auto;min-width:420px}.bar{display:inline-block;width:160px;height:10px;background:var(--soft);
border:1px solid var(--line);border-radius:5px;vertical-align:middle;overflow:hidden}
.bar span{display:block;height:100%;background:var(--accent)}
#task-table thead th{position:sticky;top:0;background:var(--bg)}
#task-table th button{all:unset;cursor:pointer;font-weight:600}
#task-table th[aria-sort=ascending] button::after{content:" \\25B2"}
#task-table th[aria-sort=descending] button::after{content:" \\25BC"}
#task-table td.reason{max-width:420px;overflow-wrap:anywhere}
tr.detail td{border-bottom:2px solid var(--line);padding-top:0}
details>summary{cursor:pointer;color:var(--accent)}.task-detail[open]{padding-bottom:8px}
.controls{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0;padding:8px;background:var(--soft);
border-radius:6px}.controls[hidden]{display:none}#shown{color:var(--muted)}
.message{border-left:3px solid var(--line);padding:2px 8px;margin:6px 0}.message .role{font-size:12px;
font-weight:700;text-transform:uppercase;color:var(--muted)}.message.assistant{border-color:var(--accent)}
.message.tool{border-color:var(--err)}.log td pre{max-height:200px}.tool-error{color:var(--fail)}
.note{color:var(--muted);font-style:italic}.pill{font-size:12px;background:var(--soft);border:1px solid var(--line);
border-radius:10px;padding:1px 8px;font-weight:400}section.task{border:1px solid var(--line);border-radius:8px;
padding:12px;margin:12px 0}form.score{display:grid;gap:6px;margin-top:8px}form.score textarea{width:100%;
font:13px ui-monospace,monospace}form.score .seed input{width:90px}form.score button{justify-self:start}
.verdict{display:block;white-space:pre-wrap}.meta{color:var(--muted)}
"""

# Filtering and sorting of the task table. Reads only data-* attributes and moves existing nodes.
_REPORT_JS = """
(function(){
var table=document.getElementById('task-table');if(!table)return;
var bodies=Array.prototype.slice.call(table.tBodies);
var form=document.getElementById('filters');form.hidden=false;
var status=document.getElementById('status-filter'),group=document.getElementById('group-filter'),
text=document.getElementById('text-filter'),shown=document.getElementById('shown');
function apply(){var s=status.value,g=group.value,t=text.value.trim().toLowerCase(),n=0;
bodies.forEach(function(b){var ok=(!s||b.dataset.status===s)&&(!g||b.dataset.groups.split('|').indexOf(g)>=0)&&
(!t||b.dataset.search.indexOf(t)>=0);b.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+bodies.length+' tasks';}
[status,group].forEach(function(e){e.addEventListener('change',apply);});text.addEventListener('input',apply);
form.addEventListener('submit',function(e){e.preventDefault();});
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
apply();})();
"""

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
