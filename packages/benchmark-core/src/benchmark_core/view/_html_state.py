"""What a task page shows of an episode besides its turns, from the benchmark's `EpisodeContext`:
once per task, the notes (the incident that was injected) and the two sides (a schema before and
after it changed); per model, its final state as a diff against the target.

The diff names only the records whose final value is not the target's, each with just the fields
that differ (the final value beside the target value), and marks the records the task is about
(`focus`: the damaged record), saying so when one of those matches. When a benchmark accepts more
than one end state, the nearest one (fewest records differing) is the target shown. A benchmark
that gives no target gets the final state as it is, folded when long.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._model import JsonValue
from ..hooks._hooks import EpisodeContext
from ..reports._html_page import e, json_block, t
from ._html_timeline import json_html, text_html

__all__ = ["STATE_CSS", "context_section", "final_state_html", "state_diff"]

STATE_CSS = (
    "<style>/* final state against the target, and the task's episode context */"
    "table.state-diff{table-layout:fixed;width:100%;font-size:13px}table.state-diff th,table.state-diff td"
    "{vertical-align:top;overflow-wrap:anywhere;min-width:0}table.state-diff tr.focus th{background:#fff4ce}"
    "table.state-diff dl{margin:0}table.state-diff dt{font-weight:600}table.state-diff dd{margin:0 0 4px}"
    ".state-note{margin:4px 0;font-size:13px}.sides{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));"
    "gap:12px}.sides>div{min-width:0}</style>"
)


class _Absent:
    """A record or field that one side does not have (None is a value a record may hold)."""

    def __repr__(self) -> str:
        return "absent"


ABSENT: Any = _Absent()

#: One differing record: its store (None when the state is not an object of objects), its id, the
#: final value and the target value (either may be ABSENT).
Diff = tuple[str, str, Any, Any]


def state_diff(final: JsonValue, target: JsonValue) -> list[Diff]:
    """The records of `final` that are not as in `target`: store by store (the target's order, then
    stores only the final state has), record ids sorted."""
    if not (isinstance(final, dict) and isinstance(target, dict)):
        return [] if final == target else [("", "state", final, target)]
    diffs: list[Diff] = []
    for store in dict.fromkeys([*target, *final]):
        have, want = final.get(store, ABSENT), target.get(store, ABSENT)
        # A store one side lacks holds no records there: each record of the other side differs.
        have = {} if have is ABSENT and isinstance(want, dict) else have
        want = {} if want is ABSENT and isinstance(have, dict) else want
        if have == want:
            continue
        if isinstance(have, dict) and isinstance(want, dict):
            diffs += [
                (store, key, have.get(key, ABSENT), want.get(key, ABSENT))
                for key in sorted(set(have) | set(want))
                if have.get(key, ABSENT) != want.get(key, ABSENT)
            ]
        else:
            diffs.append(("", store, have, want))
    return diffs


def final_state_html(final: JsonValue, context: EpisodeContext) -> str:
    if final is None:
        return ""
    if not context.targets:
        return f"<h5>Final state</h5>{json_html(final)}"
    diffs = min((state_diff(final, target) for target in context.targets), key=len)
    focus = set(context.focus)
    differing = {(store, key) for store, key, _, _ in diffs}
    lines = []
    if not diffs:
        lines.append('<p class="state-note matches">Every record matches the target.</p>')
    else:
        count = "1 record differs" if len(diffs) == 1 else f"{len(diffs)} records differ"
        lines.append(f'<p class="state-note">{count} from the target.</p>')
    for store, key in context.focus:
        if (store, key) not in differing:
            name = e(_name(store, key))
            lines.append(
                f'<p class="state-note focus-ok">The damaged record <code>{name}</code> matches the target.</p>'
            )
    rows = "".join(_diff_row(diff, focus) for diff in diffs)
    table = (
        '<table class="state-diff"><thead><tr><th>record</th><th>final</th><th>target</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        if rows
        else ""
    )
    return f'<div class="final-state"><h5>Final state against the target</h5>{"".join(lines)}{table}</div>'


def _name(store: str, key: str) -> str:
    return f"{store}/{key}" if store else key


def _diff_row(diff: Diff, focus: set[tuple[str, str]]) -> str:
    store, key, have, want = diff
    damaged = (store, key) in focus
    if isinstance(have, dict) and isinstance(want, dict):
        fields = [f for f in dict.fromkeys([*want, *have]) if have.get(f, ABSENT) != want.get(f, ABSENT)]
        have = {f: have.get(f, ABSENT) for f in fields}
        want = {f: want.get(f, ABSENT) for f in fields}
    mark = ' <span class="damaged">(damaged record)</span>' if damaged else ""
    return (
        f'<tr class="record{" focus" if damaged else ""}" data-record="{e(_name(store, key))}">'
        f"<th scope=row><code>{e(_name(store, key))}</code>{mark}</th>"
        f'<td class="have">{_value(have)}</td><td class="want">{_value(want)}</td></tr>'
    )


def _value(value: Any) -> str:
    if value is ABSENT:
        return '<i class="absent">absent</i>'
    if isinstance(value, dict) and any(v is ABSENT or isinstance(v, str) for v in value.values()):
        # Fields one by one, so a file's content reads as text, not as one JSON string of "\n"s.
        return "<dl>" + "".join(f"<dt>{e(k)}</dt><dd>{_value(v)}</dd>" for k, v in value.items()) + "</dl>"
    if isinstance(value, str):
        return text_html(value)
    return json_html(value)


def context_section(context: EpisodeContext) -> str:
    """The task's notes and its two sides, once above the models (empty when it has neither)."""
    parts = [f'<div class="context-note"><h3>{t(title)}</h3>{json_html(value)}</div>' for title, value in context.notes]
    if context.sides is not None:
        sides: Sequence[tuple[str, JsonValue]] = context.sides
        parts.append(
            '<div class="sides">'
            + "".join(f'<div class="side"><h3>{t(title)}</h3>{json_block(value)}</div>' for title, value in sides)
            + "</div>"
        )
    return f'<section id="episode-context">{"".join(parts)}</section>' if parts else ""
