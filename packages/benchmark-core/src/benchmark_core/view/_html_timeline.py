"""An episode on a task page, as a timeline: each turn's message in order, each tool call with its
arguments and its result (or error) inline under the call that asked for it, then the grader's
verdict and reason, then the final state (as `_html_state` draws it: the records that differ from
the target, when the benchmark says what the target is).

Calls are matched to their results by the tool log's call ids, which never appear on the page: a
reader sees "call 2: audit_log", not "tool (to call_0)". A long JSON block is folded into a
`<details>` that shows its first line; JSON is coloured by `JSON_JS` on the page itself (keys,
strings, numbers), so the page stays one file under its content policy.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._model import ChatMessage, Episode, RunRow, ToolLogEntry
from ..reports._html_page import e, pretty_json, t
from ..reports._html_tasks import _status

__all__ = ["TIMELINE_CSS", "JSON_JS", "json_html", "text_html", "timeline", "timeline_parts", "turn_count"]

#: A block longer than this many lines is folded (its first line stays visible).
_FOLD_LINES = 12

TIMELINE_CSS = (
    "<style>.timeline{display:flex;flex-direction:column;gap:6px;min-width:0}"
    ".turn{border-left:3px solid var(--line);padding:4px 8px;min-width:0}"
    ".turn.assistant{border-color:var(--accent)}.turn.user{border-color:#888}.turn .role{font-size:12px;"
    "color:var(--muted);text-transform:uppercase}.turn pre{white-space:pre-wrap;overflow-wrap:anywhere;"
    "max-width:100%;overflow-x:auto;margin:4px 0}.call{margin:6px 0;padding:6px;border:1px solid var(--line);"
    "border-radius:6px;min-width:0}.call .result.error{color:var(--fail)}.call h5{margin:0 0 4px;font-size:13px}"
    "pre.json .k{color:#0550ae}pre.json .s{color:#0a3069}pre.json .n{color:#953800}"
    ".verdict-end{font-weight:600}.verdict-end .reason{font-weight:400}</style>"
)

# Colours JSON blocks: the text is read with textContent and written back as spans built with
# createElement, so nothing in a model's output is ever parsed as markup.
JSON_JS = r"""
(function(){
var re=/("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;
document.querySelectorAll('pre.json').forEach(function(pre){
var text=pre.textContent,out=document.createDocumentFragment(),last=0,m;
function add(s,c){var n=c?document.createElement('span'):document.createTextNode(s);
if(c){n.className=c;n.textContent=s;}out.appendChild(n);}
while((m=re.exec(text))!==null){add(text.slice(last,m.index));
if(m[1]){add(m[1],m[2]?'k':'s');if(m[2])add(m[2]);}else add(m[0],'n');last=re.lastIndex;}
add(text.slice(last));pre.replaceChildren(out);});
})();
"""


def timeline(row: RunRow, episode: Episode, final_state: str) -> str:
    """One model's episode, expanded: its turns, the verdict at the end, then `final_state`
    (already drawn)."""
    turns, end = timeline_parts(row, episode, final_state)
    return f'<div class="timeline">{"".join(turns)}{end}</div>'


def timeline_parts(row: RunRow, episode: Episode, final_state: str) -> tuple[list[str], str]:
    """The episode's shown turns in order (a tool result is shown under its call, not as a turn of
    its own), and what follows them: the verdict and `final_state`."""
    log = episode.tool_log
    by_call = _by_call(episode)
    shown: set[int] = set()
    turns = [
        _turn(n, message, by_call, shown)
        for n, message in enumerate(episode.transcript, 1)
        if not _under_its_call(message, by_call)
    ]
    # Calls the transcript does not name (no transcript kept, or ids missing) still appear, in order.
    rest = "".join(_call(i, entry) for i, entry in enumerate(log) if i not in shown)
    if rest:
        turns.append(f'<div class="turn tools"><div class="role">tool calls</div>{rest}</div>')
    status = _status(row)
    abort = (
        f" Aborted: {t(episode.aborted)}{f' ({t(episode.abort_detail)})' if episode.abort_detail else ''}."
        if episode.aborted is not None
        else ""
    )
    verdict = (
        f'<p class="verdict-end" data-status="{status}">Verdict: <span class="status {status}">{status}</span>, '
        f'score {row.score:.2f}. <span class="reason">{t(row.reason)}</span>{abort}</p>'
    )
    return turns, verdict + final_state


def turn_count(episode: Episode) -> int:
    """How many turns `timeline_parts` draws for `episode`."""
    by_call = _by_call(episode)
    calls = (call.id for message in episode.transcript for call in message.tool_calls or ())
    shown = {by_call[call][0] for call in calls if call in by_call}
    unnamed = len(shown) < len(episode.tool_log)
    return sum(not _under_its_call(message, by_call) for message in episode.transcript) + unnamed


def _by_call(episode: Episode) -> dict[str, tuple[int, ToolLogEntry]]:
    return {entry.call_id: (i, entry) for i, entry in enumerate(episode.tool_log) if entry.call_id}


def _under_its_call(message: ChatMessage, by_call: Mapping[str, tuple[int, ToolLogEntry]]) -> bool:
    """A tool result the log matches to its call: shown under the call, not as a turn."""
    return message.role == "tool" and message.tool_call_id in by_call


def _turn(number: int, message: ChatMessage, by_call: Mapping[str, tuple[int, ToolLogEntry]], shown: set[int]) -> str:
    role = message.role
    content = message.content or ""
    body = text_html(content) if content else ""
    for call in message.tool_calls or ():
        found = by_call.get(call.id)
        if found is not None:
            shown.add(found[0])
            body += _call(*found)
        else:
            body += f'<div class="call"><h5>calls <code>{e(call.name)}</code></h5>{json_html(call.arguments)}</div>'
    label = "result" if role == "tool" else role
    return f'<div class="turn {e(role)}" data-turn="{number}"><div class="role">{e(label)}</div>{body}</div>'


def _call(index: int, entry: ToolLogEntry) -> str:
    if entry.error is not None:
        result = f'<p class="result error"><b>{t(entry.error.code)}</b> {t(entry.error.message)}</p>'
    else:
        result = f'<div class="result">{json_html(entry.result)}</div>'
    return (
        f'<div class="call" data-call="{index + 1}"><h5>call {index + 1}: <code>{e(entry.name)}</code></h5>'
        f"{json_html(entry.arguments)}{result}</div>"
    )


def text_html(content: str) -> str:
    """Text in a `<pre>`, folded when long."""
    return _folded(content, "pre")


def json_html(value: object) -> str:
    """JSON in a `<pre class="json">` (coloured by `JSON_JS`), folded when long."""
    return _folded(pretty_json(value), 'pre class="json"')


def _folded(text: str, tag: str) -> str:
    block = f"<{tag}>{t(text)}</pre>"
    lines = text.count("\n") + 1
    if lines <= _FOLD_LINES:
        return block
    first = text.split("\n", 1)[0]
    return f"<details><summary><code>{t(first[:80])}</code> ({lines} lines)</summary>{block}</details>"
