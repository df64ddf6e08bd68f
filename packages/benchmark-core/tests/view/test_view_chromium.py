"""The results browser in headless Chromium (issue 26): the matrix's filters and counts, a click
from the leaderboard to a model's run and on to one task, the side-by-side task page, a live run
gaining rows while its page is open (a real `run` process writing its journal), and the static
site from file://. No page loads anything from another origin."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from benchmark_core.example import benchmark as example
from benchmark_core.testing import FakeOpenAI, mock_handler
from benchmark_core.testing.chromium import Chromium
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import GroupView, ResultsCatalog
from benchmark_core.view._paths import group_page, task_page
from benchmark_core.view._site import write_site

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with Chromium.launch() as chromium:
        await chromium.send("Network.enable")
        yield chromium


@pytest.fixture
async def server(results: Path) -> AsyncIterator[str]:
    test_server = TestServer(create_view_app([results], resamples=500), host="127.0.0.1")
    await test_server.start_server()
    try:
        yield str(test_server.make_url("/")).rstrip("/")
    finally:
        await test_server.close()


def _only_from(browser: Chromium, *origins: str) -> None:
    urls = [event["params"]["request"]["url"] for event in browser.events("Network.requestWillBeSent")]
    assert urls, "no request seen"
    strangers = [url for url in urls if not url.startswith((*origins, "data:"))]
    assert not strangers, strangers


def _group(results: Path) -> GroupView:
    return next(v for v in ResultsCatalog([results], resamples=500).groups if len(v.runs) == 4)


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


async def _until(browser: Chromium, expression: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = await browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        await asyncio.sleep(0.1)


async def _check_matrix(browser: Chromium, view: GroupView) -> None:
    await _until(browser, "document.getElementById('matrix').dataset.ready === '1'")
    expected = _expected_counts(view)
    assert expected["disagree"] > 0 and expected["all"] > expected["disagree"]  # the filters have work to do
    for name, count in expected.items():
        shown = await browser.evaluate(
            f"(function(){{var f=document.getElementById('matrix-filter');f.value='{name}';"
            "f.dispatchEvent(new Event('change'));"
            "return [document.getElementById('matrix-count').textContent,"
            "document.querySelectorAll('#matrix tbody tr').length];})()"
        )
        assert shown == [f"{count} of {expected['all']} tasks", min(count, 100)], name
    # Search narrows what the filter shows; sorting by passes puts the hardest task first.
    found = await browser.evaluate(
        "(function(){document.getElementById('matrix-filter').value='all';"
        "var s=document.getElementById('matrix-search');s.value='add';s.dispatchEvent(new Event('input'));"
        "return [document.getElementById('matrix-count').textContent,"
        "Array.from(document.querySelectorAll('#matrix tbody th.task')).map(function(a){return a.textContent;})];})()"
    )
    text = {t: (t + " " + ", ".join(view.task_groups.get(t, {}).values())).lower() for t in view.task_ids}
    matching = [t for t in view.task_ids if "add" in text[t]]
    assert found == [f"{len(matching)} of {len(view.task_ids)} tasks", matching]
    order = await browser.evaluate(
        "(function(){var s=document.getElementById('matrix-search');s.value='';s.dispatchEvent(new Event('input'));"
        "var o=document.getElementById('matrix-sort');o.value='fewest';o.dispatchEvent(new Event('change'));"
        "return Array.from(document.querySelectorAll('#matrix tbody tr')).map(function(r){return +r.dataset.n;});})()"
    )
    assert order == sorted(order) and len(order) == len(view.task_ids)


async def test_the_matrix_filters_and_counts(browser: Chromium, server: str, results: Path) -> None:
    view = _group(results)
    await browser.open(f"{server}/{group_page(view.id)}")
    await _check_matrix(browser, view)
    # The per-dimension table: one row per model, a shaded cell per group.
    rows = await browser.evaluate("document.querySelectorAll('table.dimension tbody tr').length")
    assert rows == len(view.runs) * len(view.dimensions)
    ARTIFACTS.mkdir(exist_ok=True)
    await browser.screenshot(ARTIFACTS / "view-group.png")
    _only_from(browser, server)


async def test_from_the_leaderboard_to_a_run_to_a_task(browser: Chromium, server: str, results: Path) -> None:
    view = _group(results)
    top = view.runs[0]
    await browser.open(f"{server}/")
    await browser.follow(f'document.querySelector(\'[id="{view.id}"] a.run[href*="/runs/{top.slug}.html"]\').click()')
    assert await browser.evaluate("location.pathname") == f"/g/{view.id}/runs/{top.slug}.html"
    assert await browser.evaluate("document.querySelector('[data-fact=model] dd').textContent") == top.model
    task_id = await browser.evaluate("document.querySelector('tbody.task').dataset.id")
    await browser.follow("document.querySelector('tbody.task a.task-page').click()")
    assert await browser.evaluate("location.pathname") == "/" + task_page(view.id, task_id)
    assert await browser.evaluate("document.querySelector('h1').textContent") == task_id
    _only_from(browser, server)


async def test_any_two_runs_of_a_group_compare(browser: Chromium, server: str, results: Path) -> None:
    view = _group(results)
    first, second = view.runs[-1], view.runs[1]
    await browser.open(f"{server}/{group_page(view.id)}")
    await browser.follow(
        f"(function(){{var a=document.getElementById('compare-first'),b=document.getElementById('compare-second');"
        f"a.value='{first.slug}';a.dispatchEvent(new Event('change'));b.value='{second.slug}';"
        "b.dispatchEvent(new Event('change'));document.getElementById('compare-link').click();})()"
    )
    assert await browser.evaluate("location.pathname") == f"/g/{view.id}/compare/{first.slug}--{second.slug}.html"
    verdict = await browser.evaluate("document.querySelector('.verdict-line').dataset.verdict")
    assert verdict in ("better", "worse", "no detectable difference")
    gained = [t for t in view.task_ids if first.status.get(t) != "p" and second.status.get(t) == "p"]
    heading = await browser.evaluate("document.getElementById('gained').textContent")
    assert heading == f"Passed by {second.label} only ({len(gained)})"
    _only_from(browser, server)


async def test_the_task_page_shows_every_model_side_by_side(browser: Chromium, server: str, results: Path) -> None:
    view = _group(results)
    # The episode, which some models pass and some fail: their graders' details differ.
    task_id = next(t.id for t in example.tasks() if t.kind == "episode")
    assert len({run.status.get(task_id) for run in view.runs}) > 1
    await browser.open(f"{server}/{task_page(view.id, task_id)}")
    columns = await browser.evaluate(
        "Array.from(document.querySelectorAll('.pair section.model')).map(function(s){return [s.dataset.label,"
        "s.querySelector('.verdict-row').dataset.status, s.getBoundingClientRect().top];})"
    )
    assert [c[0] for c in columns] == [run.label for run in view.runs]
    words = {"p": "passed", "f": "failed", "e": "errored"}
    assert [c[1] for c in columns] == [words[run.status[task_id]] for run in view.runs]
    # Two at a time, side by side: the first two share a row, the next two start below them.
    assert round(columns[0][2]) == round(columns[1][2]) < round(columns[2][2]) == round(columns[3][2])
    task = next(t for t in example.tasks() if t.id == task_id)
    assert await browser.evaluate("document.querySelector('pre.prompt').textContent") == task.prompt
    from benchmark_core.runs._files import read_report

    details = [next(r for r in read_report(run.path).rows if r.task_id == task_id).details for run in view.runs]
    keys = {k for d in details for k in d}
    differing = sorted(k for k in keys if len({json.dumps(d.get(k), sort_keys=True) for d in details}) > 1)
    marked = await browser.evaluate(
        "Array.from(new Set(Array.from(document.querySelectorAll('tr.differs')).map(function(r){"
        "return r.dataset.field;}))).sort()"
    )
    assert marked == differing and differing
    # An episode's column is its timeline: calls inline with their arguments, the verdict at the end,
    # no internal call ids and no empty expected answer.
    assert await browser.evaluate("document.querySelectorAll('.pair section.model .timeline').length") == 4
    assert await browser.evaluate("document.querySelectorAll('.timeline .call pre.json').length") > 0
    assert await browser.evaluate("document.querySelectorAll('.timeline .verdict-end').length") == 4
    text = await browser.evaluate("document.body.innerText")
    assert "call_0" not in text and "(to " not in text and "Expected answer" not in text
    # ?a=&b= puts the two named models first; the overview's links carry those parameters.
    last, first = view.runs[-1].label, view.runs[0].label
    link = await browser.evaluate(f"document.querySelector('#overview tr[data-label=\"{last}\"] a.pair-link').href")
    await browser.open(link)
    shown = await browser.evaluate(
        "Array.from(document.querySelectorAll('.pair section.model')).slice(0,2).map(function(s){"
        "return s.dataset.label;})"
    )
    assert shown == [first, last]
    # Every JSON block is coloured on the page (keys as spans), with its text unchanged.
    assert await browser.evaluate("document.querySelectorAll('.timeline pre.json span.k').length") > 0
    _only_from(browser, server)


async def test_a_live_run_gains_rows_while_the_page_is_open(browser: Chromium, server: str, results: Path) -> None:
    output = results / example.id / "late" / "report.json"
    async with FakeOpenAI(handler=mock_handler(example, delay=0.25), record=False) as fake:
        command = [
            sys.executable, "-m", "benchmark_core", "run", "--provider", "openai", "--base-url", fake.base_url,
            "--model", "late", "--output", str(output), "--concurrency", "1", "--no-cache",
        ]  # fmt: skip
        await browser.open(f"{server}/")
        await browser.evaluate("window.unreloaded = true")
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        process = await asyncio.create_subprocess_exec(*command, env=env, stderr=asyncio.subprocess.PIPE)
        try:
            seen: list[int] = []
            rows = "(function(){var c=document.querySelector('#live tr td.rows');return c?c.textContent:'';})()"
            deadline = time.monotonic() + 60
            while process.returncode is None and time.monotonic() < deadline:
                text = await browser.evaluate(rows)
                if text and await browser.evaluate("window.unreloaded === true"):
                    done = int(text.split()[0])
                    if not seen or done != seen[-1]:
                        seen.append(done)
                    assert text.endswith(f"of {len(example.tasks())}")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), 0.2)
            _, stderr = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 0, stderr.decode()
    assert len(seen) >= 3 and seen == sorted(seen) and seen[0] < seen[-1], seen
    # The finished run turns into its report: the page reloads and ranks it in its group.
    late = "Array.from(document.querySelectorAll('a.run')).some(function(a){return a.textContent==='late';})"
    await _until(browser, late)
    assert await browser.evaluate("document.getElementById('live').hidden") is True
    _only_from(browser, server)


async def test_the_static_site_from_file(browser: Chromium, results: Path, tmp_path: Path) -> None:
    catalog = ResultsCatalog([results], resamples=500)
    out = tmp_path / "site"
    pages = write_site(catalog, out)
    view = _group(results)
    assert pages == 1 + 1 + len(view.runs) + len(view.task_ids) + len(view.runs) * (len(view.runs) - 1)
    await browser.open((out / "index.html").as_uri())
    await browser.follow(f"document.querySelector('[id=\"{view.id}\"] a.group-link').click()")
    await _check_matrix(browser, view)
    await browser.follow("document.querySelector('a.compare').click()")
    assert await browser.evaluate("document.getElementById('flipped') !== null")
    await browser.follow("document.querySelector('nav.trail a:nth-of-type(2)').click()")
    await browser.follow("document.querySelector('a.run').click()")
    await browser.follow("document.querySelector('tbody.task a.task-page').click()")
    assert await browser.evaluate("document.querySelectorAll('.pair section.model').length") == len(view.runs)
    await browser.follow("document.querySelector('nav.trail a').click()")
    assert await browser.evaluate("document.querySelector('h1').textContent") == "Results"
    _only_from(browser, out.as_uri().rsplit("/", 1)[0])
