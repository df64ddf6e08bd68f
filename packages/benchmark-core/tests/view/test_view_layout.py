"""Every kind of page of the results browser laid out in headless Chromium at 1280 and 1920 px wide
(issue 33 §6), from `view` and from the static site: no box's content spills out of it or is cut off
(cards, table cells, code blocks, headings), no two sibling boxes overlap, the page is no wider than
the window, and every link on it leads to a page (HTTP 200 from the server; an existing file on the
static site). The results are real runs of both benchmarks by offline models of different skill,
under model names as long as real ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from benchmark_core import Benchmark, mock_adapter, run
from benchmark_core.testing import run_in_thread, serve_app_in_thread
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
LINKS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"


async def _save_runs(folder: Path) -> Path:
    benchmarks: tuple[Benchmark, ...] = (schema, rollback)
    for bench in benchmarks:
        for label, skill in MODELS.items():
            report = await run(bench, mock_adapter(skill=skill, model=label), cache=False)
            path = folder / bench.id / label.replace("/", "_") / "report.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(to_wire(report)), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_in_thread(_save_runs(tmp_path_factory.mktemp("layout") / "results"))


@pytest.fixture(scope="module")
def server(both: Path) -> Iterator[str]:
    with serve_app_in_thread(create_view_app([both], resamples=500)) as base:
        yield base


def _pages(views: list[GroupView]) -> list[str]:
    """Each kind of page, for each benchmark's group: its group page, a run, a task (rollback-recovery's
    are episodes), two runs compared; the index first."""
    pages = ["index.html"]
    for view in views:
        first, second = view.runs[0], view.runs[1]
        pages += [group_page(view.id), run_page(view.id, first.slug), task_page(view.id, view.task_ids[0])]
        pages.append(compare_page(view.id, first.slug, second.slug))
    return pages


def _views(both: Path) -> list[GroupView]:
    views = ResultsCatalog([both], resamples=500).groups
    assert sorted(v.group.benchmark for v in views) == sorted([schema.id, rollback.id])
    return views


def _check(page: Page, url: str, width: int) -> tuple[list[str], list[str]]:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    problems: list[str] = page.evaluate(LAYOUT_DEFECTS)
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
    assert pairs == 2  # one per benchmark's task page
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
