"""Every kind of page of the results browser laid out in headless Chromium at 1280 and 1920 px wide
(issue 33 §6), from `view` and from the static site: no box's content spills out of it or is cut off
(cards, table cells, code blocks, headings), no two sibling boxes overlap, the page is no wider than
the window, and every link on it leads to a page (HTTP 200 from the server; an existing file on the
static site). Inside the charts (SVG), no label is cut off by its chart's edge, none overlaps another,
no chart is wider than its box, and the scatter's names cover no point. The results are real runs
of both benchmarks by offline models of different skill, under model names as long as real ones,
and a run whose provider refused every other schema-mutation task with a long error (errored rows on
the matrix, run, task and compare pages); a crowd of six long names on one spot is the scatter's
worst case."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from benchmark_core import Benchmark, mock_adapter, openai_compat_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import build_leaderboard, render_leaderboard_html
from benchmark_core.testing import run_in_thread, serve_app_in_thread
from benchmark_core.testing.fake_openai import FakeOpenAI, FakeResponse
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import GroupView, ResultsCatalog
from benchmark_core.view._paths import compare_page, group_page, run_page, task_page
from benchmark_core.view._site import write_site
from benchmark_core.wire import dumps, to_wire
from benchmark_rollback_recovery import benchmark as rollback
from benchmark_schema_mutation import benchmark as schema
from playwright.sync_api import Page

WIDTHS = (1280, 1920)
MODELS = {
    "claude-sonnet-4-5-20250929": 0.85,
    "gpt-4.1-mini-2025-04-14": 0.6,
    "meta-llama/llama-3.3-70b-instruct": 0.35,
}

#: The page's layout defects, each as "what: the element (numbers)". Boxes are the elements that are
#: not inline; a box that scrolls (overflow auto or scroll) holds what is wider than it by design.
LAYOUT_DEFECTS = """() => {
  const problems = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.classList.length ? '.' + Array.from(el.classList).join('.') : '') +
    ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const shown = el => { const s = getComputedStyle(el); const r = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push('page wider than the window: ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  for (const el of document.querySelectorAll('section, td, th, pre, h1, h2, h3, dd, dt, li, p, figure, summary')) {
    const s = getComputedStyle(el);
    if (s.display.startsWith('inline') || !shown(el)) continue;
    const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
    const x = s.overflowX, y = s.overflowY;
    if (wide && x === 'visible')
      problems.push('overflows: ' + name(el) + ' (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
    if ((wide && (x === 'hidden' || x === 'clip')) || (tall && (y === 'hidden' || y === 'clip')))
      problems.push('clipped: ' + name(el) + ' (' + el.scrollWidth + 'x' + el.scrollHeight + ' in ' +
        el.clientWidth + 'x' + el.clientHeight + ')');
  }
  for (const parent of document.querySelectorAll('body, main, section, div, article, details')) {
    const boxes = Array.from(parent.children).filter(el => {
      const s = getComputedStyle(el);
      return shown(el) && !s.display.startsWith('inline') && !s.display.startsWith('table-') &&
        (s.position === 'static' || s.position === 'relative') && s.transform === 'none' &&
        !['SCRIPT', 'STYLE', 'TEMPLATE'].includes(el.tagName);
    }).map(el => [el, el.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, q] = boxes[j];
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 1 && h > 1)
        problems.push('overlap: ' + name(a) + ' and ' + name(b) + ' (' + Math.round(w) + 'x' + Math.round(h) + ')');
    }
  }
  return problems;
}"""
#: The defects inside the page's charts (interval charts, the score-vs-cost scatter): a label outside
#: its SVG's drawn box (the SVG clips it), two labels of one chart overlapping, an SVG wider than the
#: box that holds it. Rectangles are the rendered ones (getBoundingClientRect), so the viewBox's
#: scaling and the real font's widths count; the first entry is how many charts were looked at.
SVG_DEFECTS = """() => {
  const problems = [];
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
    getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden'; };
  const svgs = Array.from(document.querySelectorAll('svg')).filter(shown);
  for (const [k, svg] of svgs.entries()) {
    const what = 'svg ' + k + ' "' + (svg.getAttribute('aria-label') || '').slice(0, 50) + '"';
    const box = svg.getBoundingClientRect();
    let holder = svg.parentElement;
    while (holder && getComputedStyle(holder).display.startsWith('inline')) holder = holder.parentElement;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(holder).overflowX);
    const inner = holder.getBoundingClientRect(), s = getComputedStyle(holder);
    const innerLeft = inner.left + parseFloat(s.borderLeftWidth);
    const innerRight = inner.right - parseFloat(s.borderRightWidth);
    if (!scrolls && (box.left < innerLeft - 1 || box.right > innerRight + 1))
      problems.push(what + ' overflows its ' + holder.tagName.toLowerCase() + ' (' + Math.round(box.left) + '..' +
        Math.round(box.right) + ' in ' + Math.round(innerLeft) + '..' + Math.round(innerRight) + ')');
    const texts = Array.from(svg.querySelectorAll('text')).filter(shown).map(t => [t, t.getBoundingClientRect()]);
    for (const [t, r] of texts)
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(what + ': label "' + t.textContent + '" cut off (' +
          [r.left, r.top, r.right, r.bottom].map(Math.round) + ' in ' +
          [box.left, box.top, box.right, box.bottom].map(Math.round) + ')');
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const [a, r] = texts[i], [b, q] = texts[j];
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 0.5 && h > 0.5)
        problems.push(what + ': labels "' + a.textContent + '" and "' + b.textContent + '" overlap (' +
          Math.round(w) + 'x' + Math.round(h) + ')');
    }
  }
  return [String(svgs.length)].concat(problems);
}"""
#: The scatter's names that cover a point, as "name over point's title".
NAMES_ON_POINTS = """() => {
  const problems = [];
  const points = Array.from(document.querySelectorAll('.scatter .point'));
  for (const t of document.querySelectorAll('.scatter .name')) for (const c of points) {
    const r = t.getBoundingClientRect(), q = c.getBoundingClientRect();
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    if (w > 0.5 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 0.5)
      problems.push(t.textContent + ' over ' + c.querySelector('title').textContent);
  }
  return problems;
}"""
LINKS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"


async def _save_runs(folder: Path, benchmarks: tuple[Benchmark, ...], models: dict[str, float]) -> Path:
    for bench in benchmarks:
        for label, skill in models.items():
            report = await run(bench, mock_adapter(skill=skill, model=label), cache=False)
            path = folder / bench.id / label.replace("/", "_") / "report.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(to_wire(report)), encoding="utf-8")
    return folder


#: A provider's refusal as long as real ones, so the pages' error cells and texts are at their widest.
REFUSAL = (
    "The server had an error while processing your request. Sorry about that! You can retry your request, "
    "or contact us through our help center at help.openai.com if the error persists. (Please include the "
    "request ID req_5f0c1d9a7b2e4c3f8a6d0e1b2c3d4e5f in your message.)"
)


async def _save_refusing_run(folder: Path) -> None:
    """A schema-mutation run whose provider fails every other request (by its prompt, so the same
    tasks each time; no retries) and answers the rest with text that fails them: errored rows among
    failed ones."""
    answered = 0

    def answer(request: Any) -> FakeResponse:
        nonlocal answered
        answered += 1
        return FakeResponse.error(500, REFUSAL) if len(request.prompt) % 2 == 0 else FakeResponse.text("no idea")

    async with FakeOpenAI(handler=answer) as server:
        adapter = openai_compat_adapter(server.base_url, "openai/gpt-4o-2024-11-20", "sk-test")
        report = await run(schema, adapter, retries=0, cache=False)
    assert answered == len(report.rows) and 0 < sum(row.error is not None for row in report.rows) < answered
    path = folder / schema.id / "openai_gpt-4o-2024-11-20" / "report.json"
    path.parent.mkdir(parents=True)
    path.write_text(dumps(to_wire(report)), encoding="utf-8")


async def _layout_runs(folder: Path) -> Path:
    await _save_runs(folder, (schema, rollback), MODELS)
    await _save_refusing_run(folder)
    return folder


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_in_thread(_layout_runs(tmp_path_factory.mktemp("layout") / "results"))


@pytest.fixture(scope="module")
def server(both: Path) -> Iterator[str]:
    with serve_app_in_thread(create_view_app([both], resamples=500)) as base:
        yield base


def _pages(views: list[GroupView]) -> list[str]:
    """Each kind of page, for each benchmark's group: its group page, a run, a task (rollback-recovery's
    are episodes), two runs compared; the index first. A run with errored rows adds its run page, a
    task page where it errored and its comparison with the first run."""
    pages = ["index.html"]
    for view in views:
        first, second = view.runs[0], view.runs[1]
        pages += [group_page(view.id), run_page(view.id, first.slug), task_page(view.id, view.task_ids[0])]
        pages.append(compare_page(view.id, first.slug, second.slug))
        for errored in (r for r in view.runs if "e" in r.status.values()):
            task = next(t for t in view.task_ids if errored.status.get(t) == "e")
            pages += [run_page(view.id, errored.slug), task_page(view.id, task)]
            pages.append(compare_page(view.id, first.slug, errored.slug))
    return pages


def _views(both: Path) -> list[GroupView]:
    views = ResultsCatalog([both], resamples=500).groups
    assert sorted(v.group.benchmark for v in views) == sorted([schema.id, rollback.id])
    assert sum("e" in run.status.values() for view in views for run in view.runs) == 1  # the refusing run
    return views


def _check(page: Page, url: str, width: int) -> tuple[list[str], list[str]]:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    problems: list[str] = page.evaluate(LAYOUT_DEFECTS)
    charts, *inside = page.evaluate(SVG_DEFECTS)
    problems += inside
    # Each page with charts has them drawn: the index's and a run's intervals, the group's scatter,
    # the comparison's intervals; a task page has none.
    if ("/tasks/" in url) == (int(charts) > 0):
        problems.append(f"{charts} charts drawn")
    links: list[str] = page.evaluate(LINKS)
    return [f"{url} at {width}px: {p}" for p in problems], links


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_kind_lays_out_and_its_links_resolve(page: Page, server: str, both: Path, width: int) -> None:
    urls = [f"{server}/{p}" for p in _pages(_views(both))]
    problems: list[str] = []
    links: set[str] = set()
    pairs = 0
    for url in urls:
        found, hrefs = _check(page, url, width)
        problems += found
        links.update(h.split("#")[0] for h in hrefs if h.startswith(server))
        # The pair view: a task page with two models chosen (?a=&b=), as the overview links it.
        pair = page.evaluate("(() => { const a = document.querySelector('a.pair-link'); return a ? a.href : null; })()")
        if pair is not None:
            problems += _check(page, pair, width)[0]
            pairs += 1
    assert pairs == 3  # one per task page: each benchmark's first, and one where the refusing run errored
    assert problems == [], "\n".join(problems)
    broken = {link: status for link in sorted(links) if (status := page.request.get(link).status) != 200}
    assert broken == {}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_static_site_lays_out_and_its_links_resolve(page: Page, both: Path, tmp_path: Path, width: int) -> None:
    out = tmp_path / "site"
    write_site(ResultsCatalog([both], resamples=500), out)
    problems: list[str] = []
    links: set[str] = set()
    for relative in _pages(_views(both)):
        found, hrefs = _check(page, (out / relative).as_uri(), width)
        problems += found
        links.update(h for h in hrefs if h.startswith("file:"))
    assert problems == [], "\n".join(problems)
    missing = [link for link in sorted(links) if not Path(unquote(urlsplit(link).path)).is_file()]
    assert missing == []


#: Real model names, long and of wide letters, all at one skill: their points fall together, the
#: scatter's worst case for placing names (the estimate of a name's width is from its length).
CROWD = (
    "claude-sonnet-4-5-20250929",
    "gpt-4.1-mini-2025-04-14",
    "meta-llama/llama-3.3-70b-instruct",
    "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
    "WWW-MMM-wide-glyphs-model-name",
    "google/gemini-2.5-flash-preview-05-20",
)


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_in_thread(
        _save_runs(tmp_path_factory.mktemp("crowd") / "results", (example,), dict.fromkeys(CROWD, 0.5))
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_a_crowded_scatter_keeps_names_apart_and_inside(page: Page, crowd: Path, tmp_path: Path, width: int) -> None:
    """On the results browser's group page (static site) and the static leaderboard alike."""
    catalog = ResultsCatalog([crowd], resamples=200)
    write_site(catalog, tmp_path / "site")
    board = tmp_path / "leaderboard.html"
    board.write_text(render_leaderboard_html(build_leaderboard(crowd, resamples=200)), encoding="utf-8")
    page.set_viewport_size({"width": width, "height": 900})
    problems: list[str] = []
    for url in ((tmp_path / "site" / group_page(catalog.groups[0].id)).as_uri(), board.as_uri()):
        page.goto(url)
        names = page.evaluate("() => Array.from(document.querySelectorAll('.scatter .name')).map(t => t.textContent)")
        assert sorted(names) == sorted(name.replace("/", "_") for name in CROWD)  # labelled by their folders
        found = page.evaluate(SVG_DEFECTS)[1:] + page.evaluate(NAMES_ON_POINTS)
        problems += [f"{url} at {width}px: {p}" for p in found]
    assert problems == [], "\n".join(problems)
