"""The documentation site as a reader's browser shows it: headless Chromium opens the built site
(`mkdocs build --strict` into artifacts/site/, which `nox -s docs` runs first) from disk and the
tests check the rendered DOM: the home page's title and navigation, a link followed to the API
reference, real docstrings on the API pages and an entry for every name each package exports, the
grading documents included from the benchmark packages, and, served over loopback, nothing fetched
from anywhere else.
Chromium must be installed (tools/gate.sh installs it; Playwright drives it): these tests fail, not skip, without it."""

from __future__ import annotations

import importlib
import inspect
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from benchmark_core.testing import serve_app_in_thread
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("BENCHMARK_CORE_SITE", ROOT / "artifacts" / "site"))
#: Each API page and the package whose `__all__` it documents.
API_PAGES = {
    "benchmark_core": "benchmark_core",
    "adapters": "benchmark_core.adapters",
    "errors": "benchmark_core.errors",
    "graders": "benchmark_core.graders",
    "hooks": "benchmark_core.hooks",
    "episodes": "benchmark_core.episodes",
    "data": "benchmark_core.data",
    "reports": "benchmark_core.reports",
    "runs": "benchmark_core.runs",
    "sweep": "benchmark_core.sweep",
    "stats": "benchmark_core.stats",
    "servers": "benchmark_core.servers",
    "cache": "benchmark_core.cache",
    "chat": "benchmark_core.chat",
    "wire": "benchmark_core.wire",
    "packaging": "benchmark_core.packaging",
    "cli": "benchmark_core.cli",
    "testing": "benchmark_core.testing",
    "analysis": "benchmark_core.analysis",
    "distributed": "benchmark_core.distributed",
    "benchmark_schema_mutation": "benchmark_schema_mutation",
    "benchmark_rollback_recovery": "benchmark_rollback_recovery",
}


def _open(page: Page, name: str) -> None:
    page.goto((SITE / name).as_uri())


def _title(page: Page) -> str:
    """The page's first heading, without its permalink mark."""
    title: str = page.evaluate("document.querySelector('article h1').textContent.replace('\u00b6', '').trim()")
    return title


def _first_paragraph(obj: object) -> str:
    """A docstring's first paragraph as the page shows it as text: Markdown's backticks gone, one space."""
    doc = inspect.getdoc(obj)
    assert doc, f"{obj!r} has no docstring"
    return " ".join(doc.split("\n\n")[0].replace("`", "").split())


def _text_of(page: Page, anchor: str) -> str:
    """The rendered text of the documented object whose heading has this id."""
    text: str = page.evaluate(
        f"document.getElementById({anchor!r}).closest('.doc-object').innerText.replace(/\\s+/g, ' ')"
    )
    return text


def test_the_home_page_has_its_title_and_the_navigation(page: Page) -> None:
    _open(page, "index.html")
    assert page.evaluate("document.title") == "benchmark-core"
    assert _title(page) == "benchmark-core"
    nav = page.evaluate(
        "Array.from(document.querySelectorAll('nav.md-nav--primary .md-nav__link')).map(a => a.textContent.trim())"
    )
    for entry in ("Getting started", "The four surfaces", "Writing a benchmark", "Statistics", "API reference"):
        assert entry in nav
    page.screenshot(path=ROOT / "artifacts" / "docs" / "index.png")


def test_a_link_leads_from_the_home_page_to_the_api_reference(page: Page) -> None:
    _open(page, "index.html")
    with page.expect_navigation():
        page.evaluate("document.querySelector('article a[href=\"api/benchmark_core.html\"]').click()")
    assert page.evaluate("location.pathname.endsWith('/api/benchmark_core.html')")
    assert page.evaluate("document.title") == "benchmark_core - benchmark-core"


def test_the_api_page_shows_the_real_docstrings(page: Page) -> None:
    import benchmark_core

    _open(page, "api/benchmark_core.html")
    # The module's own docstring opens the page, then each exported name's docstring under its entry.
    intro = page.evaluate("document.querySelector('article').innerText.replace(/\\s+/g, ' ')")
    assert _first_paragraph(benchmark_core) in intro
    for name in ("Benchmark", "replay", "RunOptions"):
        assert _first_paragraph(getattr(benchmark_core, name)) in _text_of(page, f"benchmark_core.{name}")
    page.screenshot(path=ROOT / "artifacts" / "docs" / "api-benchmark_core.png")


def test_a_subpackage_page_shows_signatures(page: Page) -> None:
    from benchmark_core import stats

    _open(page, "api/stats.html")
    assert _first_paragraph(stats.bootstrap_ci) in _text_of(page, "benchmark_core.stats.bootstrap_ci")
    signature = page.evaluate(
        "document.getElementById('benchmark_core.stats.bootstrap_ci').closest('.doc-object')"
        ".querySelector('.doc-signature').innerText"
    )
    assert "bootstrap_ci(" in signature
    assert "resamples" in signature


@pytest.mark.parametrize("name", sorted(API_PAGES))
def test_every_exported_name_has_an_entry(page: Page, name: str) -> None:
    module = importlib.import_module(API_PAGES[name])
    _open(page, f"api/{name}.html")
    ids = [f"{module.__name__}.{name}" for name in module.__all__ if name != "__version__"]
    absent = page.evaluate(f"{ids!r}.filter(id => document.getElementById(id) === null)")
    assert absent == []


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("benchmarks/schema-mutation.html", "packages/benchmark-schema-mutation/docs/grading.md"),
        ("benchmarks/rollback-recovery.html", "packages/benchmark-rollback-recovery/docs/grading.md"),
        ("changelog.html", "CHANGELOG.md"),
    ],
)
def test_included_documents_show_their_own_text(page: Page, name: str, source: str) -> None:
    lines = (ROOT / source).read_text(encoding="utf-8").splitlines()
    # Every section of the file, in order: the whole file was included, not its start (a page may add
    # sections of its own after it: schema-mutation's page adds the real split's tables).
    sections = [re.sub(r"[`*\[\]]", "", line[3:]).strip() for line in lines if line.startswith("## ")]
    _open(page, name)
    assert _title(page) == lines[0][2:]
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('article h2')).map(h => h.textContent.replace('\u00b6', '').trim())"
    )
    assert shown[: len(sections)] == sections
    assert len(sections) >= 2


@pytest.fixture
def site_url() -> Iterator[str]:
    """The built site served as it would be hosted, by a static server on 127.0.0.1."""
    app = web.Application()
    app.router.add_static("/", SITE)
    with serve_app_in_thread(app) as base:
        yield base


def test_the_site_fetches_nothing_from_elsewhere(page: Page, site_url: str) -> None:
    # Over http, as hosted: Resource Timing lists every stylesheet, script and font a page loaded.
    for name in ("index.html", "api/benchmark_core.html"):
        page.goto(f"{site_url}/{name}")
        fetched = page.evaluate("performance.getEntriesByType('resource').map(r => r.name)")
        assert any(url.endswith(".css") for url in fetched), fetched
        assert [url for url in fetched if not url.startswith(f"{site_url}/")] == []


def test_search_finds_a_page(page: Page, site_url: str) -> None:
    # Material's search runs in a web worker over search/search_index.json, so it needs a server.
    page.goto(f"{site_url}/index.html")
    titles = page.evaluate(
        """new Promise((resolve, reject) => {
            const input = document.querySelector('input.md-search__input');
            input.focus();
            input.value = 'McNemar';
            input.dispatchEvent(new Event('input', {bubbles: true}));
            const started = Date.now();
            (function poll() {
                const found = document.querySelectorAll('.md-search-result__item h1');
                if (found.length) return resolve(Array.from(found).map(h => h.textContent.trim()));
                if (Date.now() - started > 30000) return reject(new Error('no search results'));
                setTimeout(poll, 100);
            })();
        })"""
    )
    assert "Statistics" in titles


def test_cross_references_in_the_pages_lead_to_api_entries(page: Page) -> None:
    _open(page, "surfaces.html")
    targets = page.evaluate(
        "Array.from(document.querySelectorAll('article a[href*=\"api/benchmark_core.html#\"]'))"
        ".map(a => a.getAttribute('href').split('#')[1])"
    )
    assert "benchmark_core.RunOptions" in targets
    with page.expect_navigation():
        page.evaluate("document.querySelector('article a[href$=\"#benchmark_core.RunOptions\"]').click()")
    assert page.evaluate("location.hash") == "#benchmark_core.RunOptions"
    assert page.evaluate("document.getElementById('benchmark_core.RunOptions') !== null")
