"""Triage on the group page's matrix: pairwise filters ("A fails, B passes", "A passes, B fails",
"both fail") with A and B in the URL like the other filters, and a search that reads every model's
reasons and error codes. The markup is checked against the real server; the filtering itself in
Chromium (Playwright, the system browser), when Playwright is installed."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from benchmark_core import openai_compat_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.runs._files import read_report
from benchmark_core.testing.browser import launch_options
from benchmark_core.testing.fake_openai import FakeOpenAI, FakeResponse
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import GroupView, ResultsCatalog
from benchmark_core.view._paths import group_page
from benchmark_core.wire import dumps, to_wire

ERRORED_TASK = "order-refund-01"


async def _with_an_errored_run(results: Path) -> GroupView:
    """Adds a run whose provider refuses one task (an errored row, ADAPTER_ERROR) and answers the
    rest with text that fails them."""

    def answer(request: Any) -> FakeResponse:
        return FakeResponse.error(422, "content filter") if "refund" in request.prompt else FakeResponse.text("no idea")

    async with FakeOpenAI(handler=answer) as server:
        report = await run(example, openai_compat_adapter(server.base_url, "m", "sk-test"), retries=0, cache=False)
    assert [row.error_code for row in report.rows if row.error is not None] == ["ADAPTER_ERROR"]
    path = results / example.id / "refuser" / "report.json"
    path.parent.mkdir(parents=True)
    path.write_text(dumps(to_wire(report)), encoding="utf-8")
    return next(v for v in ResultsCatalog([results], resamples=200).groups if len(v.runs) == 5)


async def test_the_matrix_holds_the_pairwise_filters_and_every_reason_and_code(results: Path) -> None:
    view = await _with_an_errored_run(results)
    client = TestClient(TestServer(create_view_app([results], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{group_page(view.id)}")).text()
    finally:
        await client.close()
    for value, words in (
        ("a-fails-b-passes", "A fails, B passes"),
        ("a-passes-b-fails", "A passes, B fails"),
        ("both-fail", "A and B both fail"),
    ):
        assert f'<option value="{value}">{words}</option>' in text
    labels = [run.label for run in view.runs]
    for pick, default in (("a", labels[0]), ("b", labels[1])):
        select = re.search(rf'<select id="matrix-{pick}">(.*?)</select>', text)
        assert select is not None
        assert re.findall(r'<option value="([^"]+)"', select.group(1)) == labels
        assert f'<option value="{default}" selected>' in select.group(1)
    # Each row's data-r holds its rows' reasons and error codes, lowercased, for the search.
    reports = {run.label: read_report(run.path) for run in view.runs}
    for task_id in view.task_ids:
        pattern = r'<tr data-s="[^"]*" data-n="\d+" data-q="[^"]*" data-r="([^"]*)"><th class="task" scope="row">'
        row = re.search(pattern + rf'<a href="tasks/{re.escape(task_id)}\.html">', text)
        assert row is not None, task_id
        notes = html.unescape(row.group(1))
        for report in reports.values():
            for r in report.rows:
                if r.task_id == task_id:
                    assert r.reason.lower() in notes and (r.error_code or "").lower() in notes
    errored = re.search(rf'data-r="([^"]*)"><th class="task" scope="row"><a href="tasks/{ERRORED_TASK}\.html"', text)
    assert errored is not None and "adapter_error" in errored.group(1)


async def test_pairwise_filters_and_the_reason_search_in_chromium(results: Path) -> None:
    playwright = pytest.importorskip("playwright.async_api")
    view = await _with_an_errored_run(results)
    a, b = view.runs[-1], view.runs[0]  # the refuser fails where the top passes
    expected = sorted(t for t in view.task_ids if a.status.get(t) in ("f", "e") and b.status.get(t) == "p")
    both = sorted(t for t in view.task_ids if a.status.get(t) in ("f", "e") and b.status.get(t) in ("f", "e"))
    assert expected and both
    server = TestServer(create_view_app([results], resamples=200), host="127.0.0.1")
    await server.start_server()
    try:
        async with playwright.async_playwright() as p:
            browser = await p.chromium.launch(**launch_options())
            page = await browser.new_page()
            query = f"?filter=a-fails-b-passes&a={a.label}&b={b.label}"
            await page.goto(f"{server.make_url('/' + group_page(view.id))}{query}")
            await page.wait_for_selector("#matrix[data-ready]")
            shown = await page.eval_on_selector_all("#matrix tbody th.task a", "as => as.map(a => a.textContent)")
            assert sorted(shown) == expected
            # Each task link opens its page on the same pair.
            links = await page.eval_on_selector_all("#matrix tbody th.task a", "as => as.map(a => a.search)")
            assert all(link == f"?a={a.label}&b={b.label}" for link in links)
            await page.select_option("#matrix-filter", "both-fail")
            assert (
                sorted(await page.eval_on_selector_all("#matrix tbody th.task a", "as => as.map(a => a.textContent)"))
                == both
            )
            assert "filter=both-fail" in page.url and f"a={a.label}" in page.url
            # The search reads error codes and reasons.
            await page.select_option("#matrix-filter", "all")
            await page.fill("#matrix-search", "adapter_error")
            assert await page.eval_on_selector_all("#matrix tbody th.task a", "as => as.map(a => a.textContent)") == [
                ERRORED_TASK
            ]
            assert "a=" not in page.url and "q=adapter_error" in page.url
            await browser.close()
    finally:
        await server.close()


async def test_every_page_states_the_one_rule_for_errored_rows_and_its_figures_follow_it(results: Path) -> None:
    from benchmark_core.reports._html_page import percent
    from benchmark_core.view._html_common import ERRORED_RULE
    from benchmark_core.view._paths import INDEX, compare_page, run_page, task_page

    view = await _with_an_errored_run(results)
    refuser = next(run for run in view.runs if run.label == "refuser")
    report = read_report(refuser.path)
    pages = [
        INDEX,
        group_page(view.id),
        run_page(view.id, refuser.slug),
        task_page(view.id, ERRORED_TASK),
        compare_page(view.id, view.runs[0].slug, refuser.slug),
    ]
    client = TestClient(TestServer(create_view_app([results], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        texts = {path: await (await client.get(f"/{path}")).text() for path in pages}
        missing = await (await client.get("/g/nothing/index.html")).text()
    finally:
        await client.close()
    rule = html.escape(ERRORED_RULE)
    assert {path: text.count(rule) for path, text in texts.items()} == dict.fromkeys(pages, 1)
    assert rule not in missing
    # What the pages show of the refuser follows the rule: its errored row is a 0 in its mean
    # (the report's own), a fail in the matrix and in its pass count.
    scores = [row.score for row in report.rows]
    assert report.mean == sum(scores) / len(scores)
    group = texts[group_page(view.id)]
    cell = re.search(r'<tr data-label="refuser"[^>]*>.*?<td class="num mean">([^<]+)</td>', group, re.S)
    assert cell is not None and cell.group(1) == percent(report.mean)
    assert refuser.status[ERRORED_TASK] == "e"
    row = re.search(
        rf'<tr data-s="([a-z]+)" data-n="(\d+)"[^>]*><th class="task" scope="row"><a href="tasks/{ERRORED_TASK}', group
    )
    assert row is not None and row.group(1)[view.runs.index(refuser)] == "e"
    assert int(row.group(2)) == sum(run.status[ERRORED_TASK] == "p" for run in view.runs)
