"""The results browser's front page (`index.html`): every group of comparable reports, as the
leaderboard groups them, with its ranked models (mean, interval, verdict against the top), and
the runs still in progress, kept current by `LIVE_JS` while `view` serves it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..reports._html_page import e, fact_list, page
from ..sweep._leaderboard_html import report_count
from ..sweep._leaderboard_markdown import HEADER, group_method
from ._html_common import LIVE_JS, VIEW_CSS, errored_rule, group_link, leaderboard_table, live_section
from ._paths import INDEX

if TYPE_CHECKING:
    from ._catalog import ResultsCatalog
    from ._live import LiveRun

__all__ = ["render_view_index"]


def render_view_index(catalog: ResultsCatalog, live: Sequence[LiveRun]) -> str:
    here = INDEX
    ranked = sum(len(view.runs) for view in catalog.groups)
    partial = sum(len(view.partial) for view in catalog.groups)
    facts = [
        ("results", ", ".join(str(root) for root in catalog.roots)),
        ("groups", str(len(catalog.groups))),
        ("reports", report_count(ranked, partial)),
        ("in progress", str(len(live))),
    ]
    intro = f'<p class="note" id="method">{e(HEADER)}</p>'
    header = f"<header><h1>Results</h1>{fact_list(facts)}{intro}{errored_rule()}</header>"
    sections = [live_section(here, live, catalog.generation)]
    for view in catalog.groups:
        method = group_method(view.group, catalog.resamples, catalog.seed)
        sections.append(
            f'<section class="group" id="{e(view.id)}"><h2>{group_link(here, view)}</h2>'
            + (f'<p class="note resampled">{e(method)}</p>' if method else "")
            + f"{leaderboard_table(here, view, full=False)}</section>"
        )
    if not catalog.groups:
        sections.append('<p class="note" id="empty">No run reports found yet.</p>')
    if catalog.skipped:
        items = "".join(f"<li><code>{e(s.path)}</code>: {e(s.reason)}</li>" for _, s in catalog.skipped)
        sections.append(f'<section id="skipped"><h2>Files that are not run reports</h2><ul>{items}</ul></section>')
    return page("Results", VIEW_CSS + header + "".join(sections), LIVE_JS)
