"""Every page of the results browser by its path (`Site.page`), for the server (`view`) and the
static site (`write_site`, what `leaderboard --site` writes). One renderer per page kind lives in
`reports` (`view_index`, `view_group`, `view_task`; the run page is `html_report`'s and the compare
page `html_compare`'s, with a trail of links added).

A path names a page only through the catalog: a group id, a run's or task's slug, never a file
name, so no path can reach a file outside the pages (`..` and the like are simply not found).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Optional

from .._model import RunReport, RunRow
from ._catalog import GroupView, ResultsCatalog, RunFile, read_run
from ._live import LiveRun
from ._paths import INDEX, compare_page, group_page, relative, run_page, slug, task_page
from ._rows import RowIndex

__all__ = ["Site", "compare_pair", "render_compare", "write_site"]

#: A static site writes every pair's compare page for groups up to this size, else each run against the top.
ALL_PAIRS_UP_TO = 6


class Site:
    def __init__(self, catalog: ResultsCatalog, *, static: bool = False) -> None:
        self.catalog = catalog
        self.static = static
        self._rows = RowIndex()

    def live(self) -> list[LiveRun]:
        return self.catalog.live()

    def page(self, path: str) -> Optional[str]:
        """The page at `path` (relative, as `view._paths` spells them), or None when there is none."""
        parts = path.strip("/").split("/") if path.strip("/") else []
        if not parts or parts == [INDEX]:
            return self.index()
        if parts[0] != "g" or len(parts) < 2:
            return None
        view = self.catalog.group(parts[1])
        if view is None:
            return None
        rest = parts[2:]
        if not rest or rest == [INDEX]:
            return self.group(view)
        if len(rest) != 2 or not rest[1].endswith(".html"):
            return None
        kind, name = rest[0], rest[1].removesuffix(".html")
        if kind == "runs":
            run = view.run(name)
            return self.run(view, run, read_run(run)) if run is not None else None
        if kind == "tasks":
            task_id = _task_ids(view).get(name)
            if task_id is None:
                return None
            members = [*view.runs, *view.partial]
            return self.task(view, task_id, [(run, self._rows.rows(run.path, task_id)) for run in members])
        if kind == "compare":
            pair = compare_pair(view, name)
            return self.compare(view, *pair, read_run(pair[0]), read_run(pair[1])) if pair is not None else None
        return None

    def index(self) -> str:
        from ._html_index import render_view_index

        return render_view_index(self.catalog, self.live())

    def group(self, view: GroupView, compare: Optional[set[str]] = None) -> str:
        from ._html_group import render_view_group

        catalog = self.catalog
        return render_view_group(
            view, self.live(), catalog.generation, resamples=catalog.resamples, seed=catalog.seed, compare=compare
        )

    def run(self, view: GroupView, run: RunFile, report: RunReport) -> str:
        from ..reports._html_report import render_report_html
        from ..sweep._leaderboard_markdown import group_title
        from ._benchmarks import installed, task_index
        from ._html_common import VIEW_CSS, trail

        here = run_page(view.id, run.slug)
        steps = [(group_title(view.group), group_page(view.id)), (run.label, None)]
        bench = installed(report.benchmark)
        tasks = list(task_index(report.benchmark).values())
        return render_report_html(
            report,
            bench,
            tasks,
            trail=VIEW_CSS + trail(here, steps),
            task_href=lambda task_id: relative(here, task_page(view.id, task_id)),
        )

    def task(self, view: GroupView, task_id: str, rows: Sequence[tuple[RunFile, Sequence[RunRow]]]) -> str:
        from ._benchmarks import task_index
        from ._html_task import render_view_task

        return render_view_task(view, task_id, task_index(view.group.benchmark).get(task_id), rows)

    def compare(self, view: GroupView, first: RunFile, second: RunFile, a: RunReport, b: RunReport) -> str:
        return compare_html(view, (first, a), (second, b), resamples=self.catalog.resamples, seed=self.catalog.seed)


def compare_pair(view: GroupView, name: str) -> Optional[tuple[RunFile, RunFile]]:
    """The two runs a compare page's name (`<first slug>--<second slug>`) stands for, if any."""
    return next(((a, b) for a, b in _comparable(view) if f"{a.slug}--{b.slug}" == name), None)


def render_compare(view: GroupView, first: RunFile, second: RunFile, resamples: int, seed: int) -> str:
    """A compare page from its two runs' files: what `view` renders in a process of its own."""
    return compare_html(view, (first, read_run(first)), (second, read_run(second)), resamples=resamples, seed=seed)


def compare_html(
    view: GroupView, one: tuple[RunFile, RunReport], other: tuple[RunFile, RunReport], *, resamples: int, seed: int
) -> str:
    from ..reports._html_page import e
    from ..stats._compare import compare_reports
    from ..stats._compare_html import render_comparison_html
    from ..sweep._leaderboard_markdown import group_title
    from ._html_common import VIEW_CSS, trail

    (first, a), (second, b) = one, other
    here = compare_page(view.id, first.slug, second.slug)
    partial = {run.slug for run in view.partial}
    stopped = next((run for run in (first, second) if run.slug in partial), None)
    comparison = compare_reports(
        [a, b],
        labels=[first.label, second.label],
        allow_different_tasks=stopped is not None,
        resamples=resamples,
        seed=seed,
    )
    steps = [(group_title(view.group), group_page(view.id)), (f"{first.label} vs {second.label}", None)]
    withheld, banner = "", ""
    if stopped is not None:
        withheld = f"No verdict: {stopped.label} is a partial run (not ranked)."
        banner = (
            f'<p class="banner partial"><b>Partial run.</b> {e(stopped.label)} stopped after '
            f"{len(stopped.status)} of the group's {view.group.tasks} tasks: this compares those tasks "
            "only, says nothing of the others, and gives no verdict.</p>"
        )
    return render_comparison_html(
        comparison,
        trail=VIEW_CSS + trail(here, steps) + banner,
        extra=_flipped(here, view, one, other),
        withheld=withheld,
    )


def _task_ids(view: GroupView) -> dict[str, str]:
    return {slug(task_id): task_id for task_id in view.task_ids}


def _flipped(here: str, view: GroupView, one: tuple[RunFile, RunReport], other: tuple[RunFile, RunReport]) -> str:
    """The tasks one run passes and the other does not, each linking to its page, with both runs'
    reasons (an errored row's error code and message)."""
    from ..reports._html_page import e

    (first, a), (second, b) = one, other
    reasons = [_reasons(a), _reasons(b)]

    def items(ids: list[str]) -> str:
        if not ids:
            return '<p class="note">None.</p>'
        links = "".join(
            f'<li data-task="{e(task_id)}"><a href="{e(relative(here, task_page(view.id, task_id)))}">'
            f'<code>{e(task_id)}</code></a><dl class="reasons"><dt>{e(first.label)}</dt>'
            f"<dd>{e(reasons[0].get(task_id, '-'))}</dd><dt>{e(second.label)}</dt>"
            f"<dd>{e(reasons[1].get(task_id, '-'))}</dd></dl></li>"
            for task_id in ids
        )
        return f"<ul>{links}</ul>"

    shared = [t for t in view.task_ids if t in first.status and t in second.status]
    gained = [t for t in shared if first.status[t] != "p" and second.status[t] == "p"]
    lost = [t for t in shared if first.status[t] == "p" and second.status[t] != "p"]
    return (
        f'<section id="flipped"><h2>Tasks that flipped</h2>'
        f'<h3 id="gained">Passed by {e(second.label)} only ({len(gained)})</h3>{items(gained)}'
        f'<h3 id="lost">Passed by {e(first.label)} only ({len(lost)})</h3>{items(lost)}</section>'
    )


def _reasons(report: RunReport) -> dict[str, str]:
    """Task id -> its rows' reasons (errors as "CODE: message"), epochs joined."""
    found: dict[str, list[str]] = {}
    for row in report.rows:
        said = f"{row.error_code or 'error'}: {row.error}" if row.error is not None else row.reason
        found.setdefault(row.task_id, []).append(said)
    return {task_id: " | ".join(said) for task_id, said in found.items()}


def _comparable(view: GroupView) -> Iterator[tuple[RunFile, RunFile]]:
    """Every pair with a compare page on the server: any two ranked runs, and a ranked run against a
    partial one (on the tasks the partial run has)."""
    yield from itertools.permutations(view.runs, 2)
    yield from ((a, b) for a in view.runs for b in view.partial)


def _compare_pairs(view: GroupView) -> Iterator[tuple[RunFile, RunFile]]:
    """The compare pages a static site writes: every pair of ranked runs in a small group, else each
    against the top; and the top against each partial run."""
    top = view.runs[0]
    if len(view.runs) <= ALL_PAIRS_UP_TO:
        yield from itertools.permutations(view.runs, 2)
    else:
        yield from ((top, run) for run in view.runs[1:])
    yield from ((top, run) for run in view.partial)


def write_site(catalog: ResultsCatalog, out: Path) -> int:
    """Write every page under `out`; returns how many. Reports are read one group at a time."""
    from ..runs._files import read_report, write_text

    site = Site(catalog, static=True)
    written = 0

    def put(path: str, html: str) -> None:
        nonlocal written
        write_text(out / path, html)
        written += 1

    put(INDEX, site.index())
    for view in catalog.groups:
        members = [*view.runs, *view.partial]  # the partial runs listed and marked on each page too
        reports = {run.slug: read_report(run.path) for run in members}
        pairs = list(_compare_pairs(view))
        compare = {compare_page(view.id, a.slug, b.slug) for a, b in pairs}
        put(group_page(view.id), site.group(view, compare))
        for run in members:
            put(run_page(view.id, run.slug), site.run(view, run, reports[run.slug]))
        by_task: dict[str, dict[str, list[RunRow]]] = {}
        for run in members:
            for row in reports[run.slug].rows:
                by_task.setdefault(row.task_id, {}).setdefault(run.slug, []).append(row)
        for task_id in view.task_ids:
            rows = [(run, by_task.get(task_id, {}).get(run.slug, [])) for run in members]
            put(task_page(view.id, task_id), site.task(view, task_id, rows))
        for a, b in pairs:
            put(compare_page(view.id, a.slug, b.slug), site.compare(view, a, b, reports[a.slug], reports[b.slug]))
    return written
