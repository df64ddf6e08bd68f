"""What every self-contained HTML page shares: the shell (`page`) with its stylesheet and content
policy, escaping, JSON blocks, a header's list of facts, and the drawn figures (an interval on an
axis, a bar, a bar table).

Page kinds live in their own modules (`html_report` with its task table in `html_tasks`,
`html_compare`, `html_browser`); each builds its sections from these pieces and returns
`page(...)`. Everything is escaped where it is written, and no data is ever embedded in a script.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any, Optional

from ._report import percent

__all__ = [
    "Axis",
    "bar",
    "bar_table",
    "e",
    "fact_list",
    "interval_svg",
    "json_block",
    "number",
    "page",
    "percent",
    "pretty_json",
    "t",
    "words",
]

_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def page(title: str, body: str, script: str) -> str:
    """One HTML document: `body` inside `<main>`, `script` run at the end. A tiny script in the head
    marks the document `js` before anything renders, so that styles for the scripted page (rows that
    unfold on demand) apply from the first paint, and the unscripted page shows everything."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # Nothing may load from anywhere: the page is one file, and a model's text must never run.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:; connect-src 'self'\">"
        f"<title>{e(title)}</title><script>document.documentElement.className='js'</script>"
        f"<style>{CSS}</style></head>"
        f"<body><main>{body}</main><script>{script}</script></body></html>\n"
    )


class Axis:
    """A horizontal scale for intervals: fractions 0-100% (`Axis.share()`) or differences in
    percentage points centred on zero (`Axis.difference(limit)`)."""

    def __init__(self, low: float, high: float, ticks: Sequence[float], label: Callable[[float], str]) -> None:
        self.low, self.high, self.ticks, self.label = low, high, ticks, label

    @classmethod
    def share(cls) -> Axis:
        return cls(0.0, 1.0, (0.0, 0.25, 0.5, 0.75, 1.0), lambda v: f"{round(v * 100)}%")

    @classmethod
    def difference(cls, limit: float, label: Callable[[float], str]) -> Axis:
        """Symmetric around 0, wide enough for `limit` (a fraction), in steps of 10 points."""
        span = min(max(math.ceil(abs(limit) * 10 - 1e-9) / 10, 0.1), 1.0)
        return cls(-span, span, (-span, -span / 2, 0.0, span / 2, span), label)

    def x(self, value: float, pad: float, width: float) -> float:
        if not math.isfinite(value):
            return pad
        share = (min(max(value, self.low), self.high) - self.low) / (self.high - self.low)
        return round(pad + (width - 2 * pad) * share, 1)


def interval_svg(estimate: float, low: float, high: float, axis: Axis, label: str, *, width: int = 480) -> str:
    """An estimate and its interval drawn on `axis`; `label` is what a screen reader says."""
    pad, top = 12.0, 10

    def x(value: float) -> float:
        return axis.x(value, pad, width)

    # The end ticks' labels anchor inward: centred, "+90.0" would run past the edge and be cut off.
    ticks = "".join(
        f'<line x1="{x(v)}" y1="{top + 22}" x2="{x(v)}" y2="{top + 27}" class="tick"/>'
        f'<text x="{x(v)}" y="{top + 40}" text-anchor="{_anchor(v, axis)}">{e(axis.label(v))}</text>'
        for v in axis.ticks
    )
    zero = ""
    if axis.low < 0 < axis.high:
        zero = f'<line x1="{x(0.0)}" y1="{top}" x2="{x(0.0)}" y2="{top + 22}" class="zero"/>'
    return (
        f'<svg class="ci-chart" role="img" aria-label="{e(label)}" viewBox="0 0 {width} 56" width="{width}" '
        f'height="56"><title>{e(label)}</title>'
        f'<line x1="{pad}" y1="{top + 22}" x2="{width - pad}" y2="{top + 22}" class="axis"/>{ticks}{zero}'
        f'<rect class="interval" x="{x(low)}" y="{top + 4}" width="{max(x(high) - x(low), 1.0):.1f}" '
        'height="12" rx="3"/>'
        f'<circle class="point" cx="{x(estimate)}" cy="{top + 10}" r="6"/></svg>'
    )


def _anchor(value: float, axis: Axis) -> str:
    return "start" if value <= axis.low else "end" if value >= axis.high else "middle"


def fact_list(facts: Iterable[tuple[str, str]]) -> str:
    """A page header's facts (benchmark, model, seed, ...) as a definition list, each entry marked
    with `data-fact` so that scripts and tests find it by name."""
    items = "".join(f'<div data-fact="{e(k)}"><dt>{e(k)}</dt><dd>{e(v)}</dd></div>' for k, v in facts)
    return f'<dl class="facts">{items}</dl>'


def bar_table(
    caption: str,
    columns: Sequence[str],
    bar_label: str,
    rows: Iterable[tuple[str, Sequence[str], Optional[float]]],
    *,
    row_attrs: Sequence[str] = (),
) -> str:
    """A table of named rows, their cells, and a bar for each row's share. `row_attrs` (one string
    per row, already escaped) go on each `<tr>`."""
    head = "".join(f"<th>{e(c)}</th>" for c in columns) + f"<th>{e(bar_label)}</th>"
    body = "".join(
        f'<tr{row_attrs[i] if i < len(row_attrs) else ""}><th scope="row">{e(name)}</th>'
        f"{''.join(f'<td>{e(c)}</td>' for c in cells)}<td>{bar(share)}</td></tr>"
        for i, (name, cells, share) in enumerate(rows)
    )
    return (
        f'<table class="bars"><caption>{e(caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def bar(share: Optional[float]) -> str:
    if share is None or not math.isfinite(share):
        return "n/a"
    width = min(max(share, 0.0), 1.0) * 100
    return f'<span class="bar"><span style="width:{width:.1f}%"></span></span> {percent(share)}'


def pretty_json(value: Any) -> str:
    """JSON with one line per member of the outer object or array, and of any member that is itself
    a long object or array; everything deeper stays compact. Reads almost as well as full
    indentation, and every line comes from the C encoder, which keeps long reports fast."""
    return _pretty(value, 0)


def _pretty(value: Any, depth: int) -> str:
    compact = json.dumps(value, ensure_ascii=False)
    if depth > 1 or len(compact) <= 80 or not isinstance(value, (dict, list)) or not value:
        return compact
    indent = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{json.dumps(k, ensure_ascii=False)}: {_pretty(v, depth + 1)}" for k, v in value.items()]
        open_, close = "{", "}"
    else:
        items = [_pretty(v, depth + 1) for v in value]
        open_, close = "[", "]"
    return open_ + "\n" + ",\n".join(indent + item for item in items) + "\n" + " " * depth + close


def json_block(value: Any) -> str:
    return f'<pre class="json">{t(pretty_json(value))}</pre>'


def e(value: Any) -> str:
    """Escaped for an attribute value or element content."""
    return escape(str(value), quote=True)


def t(value: Any) -> str:
    """Escaped for element content (not attributes): quotes stay as they are, which keeps JSON
    blocks a third of the size. `<` is always escaped, so no text can close a raw-text element."""
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def number(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def words(key: str) -> str:
    """`perMutationKind` -> `per mutation kind`."""
    return _CAMEL_RE.sub(" ", key).lower()


CSS = """
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
.banner{border:2px solid var(--err);background:#fff8e1;border-radius:8px;padding:10px 14px;margin:12px 0;
font-size:16px}.banner b{color:var(--err)}
.mean{font-size:18px;margin:4px 0}.mean #mean{font-size:40px;font-weight:700}
.ci,.method{color:var(--muted);margin-left:8px}
.ci-chart .axis,.ci-chart .tick{stroke:var(--muted);stroke-width:1}.ci-chart text{font-size:11px;fill:var(--muted)}
.ci-chart .zero{stroke:var(--fg);stroke-dasharray:3 2}
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
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#task-table thead th{position:sticky;top:0;background:var(--bg)}
#task-table th button{all:unset;cursor:pointer;font-weight:600}
#task-table th[aria-sort=ascending] button::after{content:" \\25B2"}
#task-table th[aria-sort=descending] button::after{content:" \\25BC"}
#task-table td.reason{overflow-wrap:anywhere}#task-table td{overflow-wrap:anywhere}
.js .shared-values{display:none}.js #task-table tr.detail{display:none}.js #task-table tr.detail.open{display:table-row}
.js #task-table a.open::before{content:"\\25B8 ";color:var(--muted)}
.js #task-table tbody.expanded a.open::before{content:"\\25BE "}
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
.verdict-line{font-size:18px;font-weight:600;margin:6px 0}.verdict-line.better{color:var(--pass)}
.verdict-line.worse{color:var(--fail)}.pair{border:1px solid var(--line);border-radius:8px;padding:4px 16px 12px;
margin:16px 0}.forest td{vertical-align:middle}.forest svg.ci-chart{display:block}
"""
