"""The results browser in headless Chromium (issue 26), through Playwright: the matrix's filters and
counts, a click from the leaderboard to a model's run and on to one task, the side-by-side task page,
a live run gaining rows while its page is open (a real `run` process writing its journal), and the
static site from file://. No page loads anything from another origin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmark_core.example import benchmark as example
from benchmark_core.testing import FakeOpenAI, mock_handler, serve_app_in_thread
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import GroupView, ResultsCatalog
from benchmark_core.view._paths import group_page, task_page
from benchmark_core.view._site import write_site
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"


@pytest.fixture
def server(results: Path) -> Iterator[str]:
    with serve_app_in_thread(create_view_app([results], resamples=500)) as base:
        yield base


@pytest.fixture
def requested(page: Page) -> list[str]:
    """Every URL the page asks for, in order."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def _only_from(requested: list[str], *origins: str) -> None:
    assert requested, "no request seen"
    strangers = [url for url in requested if not url.startswith((*origins, "data:"))]
    assert not strangers, strangers


def _group(results: Path) -> GroupView:
    return next(v for v in ResultsCatalog([results], resamples=500).groups if len(v.runs) == 4)


def _until(page: Page, expression: str) -> None:
    # As a function: a bare expression would be eval'd in the page, which its CSP refuses.
    page.wait_for_function(f"() => {expression}", timeout=30_000)


def _follow(page: Page, script: str) -> None:
    """Run JavaScript that navigates (a click on a link) and wait for the next page's load."""
    with page.expect_navigation():
        page.evaluate(script)


def _expected_counts(view: GroupView) -> dict[str, int]:
    passes = [sum(run.status.get(t) == "p" for run in view.runs) for t in view.task_ids]
    errored = [any(run.status.get(t) == "e" for run in view.runs) for t in view.task_ids]
    models = len(view.runs)
    return {
        "all": len(passes),
        "disagree": sum(0 < n < models for n in passes),
        "all-fail": passes.count(0),
        "one-pass": passes.count(1),
        "errored": sum(errored),
    }


def _check_matrix(page: Page, view: GroupView) -> None:
    _until(page, "document.getElementById('matrix').dataset.ready === '1'")
    expected = _expected_counts(view)
    assert expected["disagree"] > 0 and expected["all"] > expected["disagree"]  # the filters have work to do
    for name, count in expected.items():
        shown = page.evaluate(
            f"(function(){{var f=document.getElementById('matrix-filter');f.value='{name}';"
            "f.dispatchEvent(new Event('change'));"
            "return [document.getElementById('matrix-count').textContent,"
            "document.querySelectorAll('#matrix tbody tr').length];})()"
        )
        assert shown == [f"{count} of {expected['all']} tasks", min(count, 100)], name
    # Search narrows what the filter shows; sorting by passes puts the hardest task first.
    found = page.evaluate(
        "(function(){document.getElementById('matrix-filter').value='all';"
        "var s=document.getElementById('matrix-search');s.value='add';s.dispatchEvent(new Event('input'));"
        "return [document.getElementById('matrix-count').textContent,"
        "Array.from(document.querySelectorAll('#matrix tbody th.task')).map(function(a){return a.textContent;})];})()"
    )
    text = {t: (t + " " + ", ".join(view.task_groups.get(t, {}).values())).lower() for t in view.task_ids}
    matching = [t for t in view.task_ids if "add" in text[t]]
    assert found == [f"{len(matching)} of {len(view.task_ids)} tasks", matching]
    order = page.evaluate(
        "(function(){var s=document.getElementById('matrix-search');s.value='';s.dispatchEvent(new Event('input'));"
        "var o=document.getElementById('matrix-sort');o.value='fewest';o.dispatchEvent(new Event('change'));"
        "return Array.from(document.querySelectorAll('#matrix tbody tr')).map(function(r){return +r.dataset.n;});})()"
    )
    assert order == sorted(order) and len(order) == len(view.task_ids)


def test_the_matrix_filters_and_counts(page: Page, requested: list[str], server: str, results: Path) -> None:
    view = _group(results)
    page.goto(f"{server}/{group_page(view.id)}")
    _check_matrix(page, view)
    # The per-dimension table: one row per model, a shaded cell per group.
    rows = page.evaluate("document.querySelectorAll('table.dimension tbody tr').length")
    assert rows == len(view.runs) * len(view.dimensions)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "view-group.png")
    _only_from(requested, server)


def test_from_the_leaderboard_to_a_run_to_a_task(page: Page, requested: list[str], server: str, results: Path) -> None:
    view = _group(results)
    top = view.runs[0]
    page.goto(f"{server}/")
    _follow(page, f'document.querySelector(\'[id="{view.id}"] a.run[href*="/runs/{top.slug}.html"]\').click()')
    assert page.evaluate("location.pathname") == f"/g/{view.id}/runs/{top.slug}.html"
    assert page.evaluate("document.querySelector('[data-fact=model] dd').textContent") == top.model
    task_id = page.evaluate("document.querySelector('tbody.task').dataset.id")
    _follow(page, "document.querySelector('tbody.task a.task-page').click()")
    assert page.evaluate("location.pathname") == "/" + task_page(view.id, task_id)
    assert page.evaluate("document.querySelector('h1').textContent") == task_id
    _only_from(requested, server)


def test_any_two_runs_of_a_group_compare(page: Page, requested: list[str], server: str, results: Path) -> None:
    view = _group(results)
    first, second = view.runs[-1], view.runs[1]
    page.goto(f"{server}/{group_page(view.id)}")
    _follow(
        page,
        f"(function(){{var a=document.getElementById('compare-first'),b=document.getElementById('compare-second');"
        f"a.value='{first.slug}';a.dispatchEvent(new Event('change'));b.value='{second.slug}';"
        "b.dispatchEvent(new Event('change'));document.getElementById('compare-link').click();})()",
    )
    assert page.evaluate("location.pathname") == f"/g/{view.id}/compare/{first.slug}--{second.slug}.html"
    verdict = page.evaluate("document.querySelector('.verdict-line').dataset.verdict")
    assert verdict in ("better", "worse", "no detectable difference")
    gained = [t for t in view.task_ids if first.status.get(t) != "p" and second.status.get(t) == "p"]
    heading = page.evaluate("document.getElementById('gained').textContent")
    assert heading == f"Passed by {second.label} only ({len(gained)})"
    _only_from(requested, server)


def test_the_task_page_shows_every_model_side_by_side(
    page: Page, requested: list[str], server: str, results: Path
) -> None:
    view = _group(results)
    # The episode, which some models pass and some fail: their graders' details differ.
    task_id = next(t.id for t in example.tasks() if t.kind == "episode")
    assert len({run.status.get(task_id) for run in view.runs}) > 1
    page.goto(f"{server}/{task_page(view.id, task_id)}")
    columns = page.evaluate(
        "Array.from(document.querySelectorAll('.pair section.model')).map(function(s){return [s.dataset.label,"
        "s.querySelector('.verdict-row').dataset.status, s.getBoundingClientRect().top];})"
    )
    assert [c[0] for c in columns] == [run.label for run in view.runs]
    words = {"p": "passed", "f": "failed", "e": "errored"}
    assert [c[1] for c in columns] == [words[run.status[task_id]] for run in view.runs]
    # Two at a time, side by side: the first two share a row, the next two start below them.
    assert round(columns[0][2]) == round(columns[1][2]) < round(columns[2][2]) == round(columns[3][2])
    task = next(t for t in example.tasks() if t.id == task_id)
    assert page.evaluate("document.querySelector('pre.prompt').textContent") == task.prompt
    from benchmark_core.runs._files import read_report

    details = [next(r for r in read_report(run.path).rows if r.task_id == task_id).details for run in view.runs]
    keys = {k for d in details for k in d}
    differing = sorted(k for k in keys if len({json.dumps(d.get(k), sort_keys=True) for d in details}) > 1)
    marked = page.evaluate(
        "Array.from(new Set(Array.from(document.querySelectorAll('tr.differs')).map(function(r){"
        "return r.dataset.field;}))).sort()"
    )
    assert marked == differing and differing
    # An episode's column is its timeline: calls inline with their arguments, the verdict at the end,
    # no internal call ids and no empty expected answer.
    assert page.evaluate("document.querySelectorAll('.pair section.model .timeline').length") == 4
    assert page.evaluate("document.querySelectorAll('.timeline .call pre.json').length") > 0
    assert page.evaluate("document.querySelectorAll('.timeline .verdict-end').length") == 4
    text = page.evaluate("document.body.innerText")
    assert "call_0" not in text and "(to " not in text and "Expected answer" not in text
    # ?a=&b= puts the two named models first; the overview's links carry those parameters.
    last, first = view.runs[-1].label, view.runs[0].label
    link = page.evaluate(f"document.querySelector('#overview tr[data-label=\"{last}\"] a.pair-link').href")
    page.goto(link)
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('.pair section.model')).slice(0,2).map(function(s){"
        "return s.dataset.label;})"
    )
    assert shown == [first, last]
    # Every JSON block is coloured on the page (keys as spans), with its text unchanged.
    assert page.evaluate("document.querySelectorAll('.timeline pre.json span.k').length") > 0
    _only_from(requested, server)


def test_a_live_run_gains_rows_while_the_page_is_open(
    page: Page, requested: list[str], server: str, results: Path
) -> None:
    output = results / example.id / "late" / "report.json"
    with FakeOpenAI(handler=mock_handler(example, delay=0.25), record=False).in_thread() as fake:
        command = [
            sys.executable, "-m", "benchmark_core", "run", "--provider", "openai", "--base-url", fake.base_url,
            "--model", "late", "--output", str(output), "--concurrency", "1", "--no-cache",
        ]  # fmt: skip
        page.goto(f"{server}/")
        page.evaluate("window.unreloaded = true")
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE)
        try:
            seen: list[int] = []
            rows = "(function(){var c=document.querySelector('#live tr td.rows');return c?c.textContent:'';})()"
            deadline = time.monotonic() + 60
            while process.poll() is None and time.monotonic() < deadline:
                text = page.evaluate(rows)
                if text and page.evaluate("window.unreloaded === true"):
                    done = int(text.split()[0])
                    if not seen or done != seen[-1]:
                        seen.append(done)
                    assert text.endswith(f"of {len(example.tasks())}")
                page.wait_for_timeout(200)
            _, stderr = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert process.returncode == 0, stderr.decode()
    assert len(seen) >= 3 and seen == sorted(seen) and seen[0] < seen[-1], seen
    # The finished run turns into its report: the page reloads and ranks it in its group.
    late = "Array.from(document.querySelectorAll('a.run')).some(function(a){return a.textContent==='late';})"
    _until(page, late)
    assert page.evaluate("document.getElementById('live').hidden") is True
    _only_from(requested, server)


def test_the_static_site_from_file(page: Page, requested: list[str], results: Path, tmp_path: Path) -> None:
    catalog = ResultsCatalog([results], resamples=500)
    out = tmp_path / "site"
    pages = write_site(catalog, out)
    view = _group(results)
    assert pages == 1 + 1 + len(view.runs) + len(view.task_ids) + len(view.runs) * (len(view.runs) - 1)
    page.goto((out / "index.html").as_uri())
    _follow(page, f"document.querySelector('[id=\"{view.id}\"] a.group-link').click()")
    _check_matrix(page, view)
    _follow(page, "document.querySelector('a.compare').click()")
    assert page.evaluate("document.getElementById('flipped') !== null")
    _follow(page, "document.querySelector('nav.trail a:nth-of-type(2)').click()")
    _follow(page, "document.querySelector('a.run').click()")
    _follow(page, "document.querySelector('tbody.task a.task-page').click()")
    assert page.evaluate("document.querySelectorAll('.pair section.model').length") == len(view.runs)
    _follow(page, "document.querySelector('nav.trail a').click()")
    assert page.evaluate("document.querySelector('h1').textContent") == "Results"
    _only_from(requested, out.as_uri().rsplit("/", 1)[0])
