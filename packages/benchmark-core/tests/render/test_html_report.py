"""The HTML report, the comparison page and the `serve` task browser, rendered by headless Chromium:
the DOM it builds (row counts, filters by status, group and text, sorting, an episode unfolded,
shared values put back in place), escaping of hostile model output, the page without JavaScript,
incomplete and errored runs, real reports of every benchmark, comparisons through the CLI, and
scoring from the task browser through `/v1/score`. Screenshots go to artifacts/. Chromium must be
installed (`.ci/run` installs it): these tests fail, not skip, without it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, mock_adapter, run
from benchmark_core._model import CacheStats, ServedCount
from benchmark_core.example import benchmark as example
from benchmark_core.reports._html_browser import render_task_browser_html
from benchmark_core.reports._html_report import render_report_html
from benchmark_core.testing import serve_benchmark
from benchmark_core.testing.chromium import Chromium

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"
HOSTILE = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b> & "q"'


@pytest.fixture
async def browser() -> AsyncIterator[Chromium]:
    async with Chromium.launch() as chromium:
        yield chromium


@pytest.fixture
async def report() -> RunReport:
    """The example's mock run, its first row's answer and reason replaced by hostile markup."""
    done = await run(example, mock_adapter())
    first = done.rows[0]
    hostile = attrs.evolve(first, trace=attrs.evolve(first.trace, answer=HOSTILE), reason=HOSTILE)
    return attrs.evolve(done, rows=[hostile, *done.rows[1:]])


async def _open_report(browser: Chromium, report: RunReport, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_report_html(report, example, await example.load_tasks()), encoding="utf-8")
    await browser.open(page.as_uri())


async def _visible_ids(browser: Chromium) -> list[str]:
    ids: list[str] = await browser.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).filter(b => !b.hidden).map(b => b.dataset.id)"
    )
    return ids


async def _unfold(browser: Chromium, index: int) -> None:
    """Click a row's task link, as a reader unfolds it."""
    await browser.evaluate(f"document.querySelector('tbody.task[data-index=\"{index}\"] a.open').click()")


async def _choose(browser: Chromium, select_id: str, value: str) -> None:
    await browser.evaluate(
        f"(() => {{ const s = document.getElementById({json.dumps(select_id)}); s.value = {json.dumps(value)};"
        " s.dispatchEvent(new Event('change')); })()"
    )


async def test_report_rows_filters_and_sorting(browser: Chromium, report: RunReport, tmp_path: Path) -> None:
    await _open_report(browser, report, tmp_path)
    ids = [row.task_id for row in report.rows]
    assert await _visible_ids(browser) == ids
    assert await browser.evaluate("document.getElementById('shown').textContent") == f"{len(ids)} of {len(ids)} tasks"
    assert await browser.evaluate("document.getElementById('mean').textContent") == f"{report.mean * 100:.1f}%"
    assert await browser.evaluate("document.querySelectorAll('svg.ci-chart circle.point').length") == 1

    failed = [row.task_id for row in report.rows if not row.passed and row.error is None]
    await _choose(browser, "status-filter", "failed")
    assert await _visible_ids(browser) == failed
    assert (
        await browser.evaluate("document.getElementById('shown').textContent") == f"{len(failed)} of {len(ids)} tasks"
    )

    await _choose(browser, "status-filter", "")
    await _choose(browser, "group-filter", "kind=episode")
    assert await _visible_ids(browser) == ["order-refund-01"]

    await _choose(browser, "group-filter", "")
    await browser.evaluate(
        "(() => { const t = document.getElementById('text-filter'); t.value = 'ARITH-07';"
        " t.dispatchEvent(new Event('input')); })()"
    )
    assert await _visible_ids(browser) == ["arith-07"]
    await browser.evaluate(
        "(() => { const t = document.getElementById('text-filter'); t.value = '';"
        " t.dispatchEvent(new Event('input')); })()"
    )

    await browser.evaluate("document.querySelector('th[data-key=score] button').click()")
    ascending = await browser.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).map(b => parseFloat(b.dataset.score))"
    )
    assert ascending == sorted(row.score for row in report.rows)
    await browser.evaluate("document.querySelector('th[data-key=score] button').click()")
    assert await browser.evaluate("document.querySelector('th[data-key=score]').getAttribute('aria-sort')") == (
        "descending"
    )
    first_shown = await _visible_ids(browser)
    assert [next(r.score for r in report.rows if r.task_id == i) for i in first_shown] == sorted(
        (row.score for row in report.rows), reverse=True
    )


async def test_an_episode_unfolds_to_transcript_tool_log_and_verdict(
    browser: Chromium, report: RunReport, tmp_path: Path
) -> None:
    row = next(r for r in report.rows if r.episode is not None)
    assert row.episode is not None
    await _open_report(browser, report, tmp_path)
    selector = json.dumps(f'tbody.task[data-id="{row.task_id}"]')
    assert await browser.evaluate("document.querySelectorAll('details.task-detail').length") == 0
    await browser.evaluate(f"document.querySelector({selector}).querySelector('a.open').click()")
    opened: dict[str, Any] = await browser.evaluate(
        f"""(() => {{
        const body = document.querySelector({selector});
        const detail = body.querySelector('details.task-detail');
        const log = detail.querySelector('details.tool-log');
        const rect = log.getBoundingClientRect();
        detail.querySelector('details.transcript > summary').click();
        return {{
            open: detail.open,
            logVisible: rect.height > 0,
            calls: Array.from(log.querySelectorAll('table.log > tbody > tr')).map(tr => tr.cells[1].textContent),
            firstResult: log.querySelector('table.log > tbody > tr').cells[3].textContent,
            messages: detail.querySelectorAll('details.transcript .message').length,
            replay: detail.querySelector('p.replay').textContent,
            prompt: detail.querySelector('pre.prompt').textContent,
        }};
    }})()"""
    )
    assert opened["open"] is True and opened["logVisible"] is True
    assert opened["calls"] == [entry.name for entry in row.episode.tool_log]
    first = row.episode.tool_log[0]
    assert first.error is not None  # the example's order service fails the first lookup
    assert opened["firstResult"] == f"{first.error.code} {first.error.message}"
    assert opened["messages"] == len(row.episode.transcript)
    assert opened["replay"].startswith(f"Replay verdict: passed, score 1.00: {row.reason}")
    assert opened["prompt"] == (await example.get_task(row.task_id)).prompt
    shot = ARTIFACTS / "html-report-episode.png"
    await browser.evaluate(f"document.querySelector({selector}).scrollIntoView()")
    await browser.screenshot(shot)
    assert shot.read_bytes().startswith(b"\x89PNG")


async def test_model_output_is_text_never_markup(browser: Chromium, report: RunReport, tmp_path: Path) -> None:
    await _open_report(browser, report, tmp_path)
    await _unfold(browser, 0)
    found: dict[str, Any] = await browser.evaluate(
        """(() => {
        const body = document.querySelector('tbody.task');
        return {
            pwned: window.__pwned === undefined ? null : window.__pwned,
            images: document.images.length,
            scripts: document.scripts.length,
            bold: document.querySelectorAll('main b').length
                - document.querySelectorAll('.counts b, .tool-error b').length,
            answer: body.querySelector('pre.answer').textContent,
            reason: body.rows[0].cells[7].textContent,
        };
    })()"""
    )
    assert found == {"pwned": None, "images": 0, "scripts": 2, "bold": 0, "answer": HOSTILE, "reason": HOSTILE}
    await browser.screenshot(ARTIFACTS / "html-report.png")


async def test_the_report_reads_without_javascript(browser: Chromium, report: RunReport, tmp_path: Path) -> None:
    await browser.send("Emulation.setScriptExecutionDisabled", {"value": True})
    await _open_report(browser, report, tmp_path)
    assert await browser.evaluate("document.querySelectorAll('tbody.task').length") == len(report.rows)
    assert await browser.evaluate("document.getElementById('filters').hidden") is True
    # Every task's details are markup here, folded, and an episode's tool log is in it.
    assert await browser.evaluate("document.querySelectorAll('details.task-detail').length") == len(report.rows)
    assert await browser.evaluate("document.querySelectorAll('details.task-detail table.log').length") == 1
    assert await browser.evaluate("getComputedStyle(document.querySelector('tr.detail')).display") == "table-row"
    assert await browser.evaluate("document.querySelectorAll('table.bars, svg.ci-chart').length") >= 1


async def test_summary_tables_and_groups(browser: Chromium, tmp_path: Path) -> None:
    """A benchmark's per-kind breakdown and counts become bar tables; `groups` (per-group macro means,
    when a report carries them) become one table per dimension."""
    done = await run(example, mock_adapter())
    summary = {"perKind": {"easy": {"tasks": 4, "passed": 3}, "hard": {"tasks": 4, "passed": 1}}, "noticed": {"a": 7}}
    page = render_report_html(attrs.evolve(done, summary=summary), example, await example.load_tasks())
    path = tmp_path / "summary.html"
    path.write_text(page, encoding="utf-8")
    await browser.open(path.as_uri())
    tables = await browser.evaluate(
        "Array.from(document.querySelectorAll('table.bars')).map(t => [t.caption.textContent,"
        " Array.from(t.tBodies[0].rows).map(r => r.textContent)])"
    )
    assert tables == [["per kind", ["easy43 75.0%", "hard41 25.0%"]], ["noticed", ["a7 33.3%"]]]


async def test_task_browser_scores_through_the_api(browser: Chromium) -> None:
    tasks = await example.load_tasks()
    async with serve_benchmark(example) as base:
        await browser.open(base + "/")
        assert await browser.evaluate("document.querySelectorAll('section.task').length") == len(tasks)
        first = tasks[0]

        async def score(task_id: str, field: str, value: str) -> str:
            form = json.dumps(f'form.score[data-task-id="{task_id}"]')
            await browser.evaluate(
                f"(() => {{ const f = document.querySelector({form}); f.elements.{field}.value = {json.dumps(value)};"
                " f.querySelector('output').textContent = ''; f.requestSubmit(); })()"
            )
            for _ in range(200):
                text: str = await browser.evaluate(
                    f"document.querySelector({form}).querySelector('output').textContent"
                )
                if text and text != "scoring...":
                    return text
                await asyncio.sleep(0.05)
            raise AssertionError("no verdict shown")

        assert (await score(first.id, "answer", str(first.expected))).startswith("passed, score 1:")
        assert (await score(first.id, "answer", "not a number")).startswith("failed, score 0:")
        episode = next(t for t in tasks if t.kind == "episode")
        assert (await score(episode.id, "submission", "{nope")).startswith("not JSON:")
        unknown_key = await score(episode.id, "submission", '{"answr": 1}')
        assert unknown_key.startswith("INVALID_SUBMISSION: ")
        await browser.evaluate(
            "(() => { const s = document.getElementById('search'); s.value = 'order';"
            " s.dispatchEvent(new Event('input')); })()"
        )
        assert await browser.evaluate("document.getElementById('shown').textContent") == f"1 of {len(tasks)} tasks"
        await browser.screenshot(ARTIFACTS / "task-browser.png")


def test_pages_are_self_contained_and_deterministic() -> None:
    done = asyncio.run(run(example, mock_adapter()))
    page = render_report_html(done, example, example.tasks())
    assert page == render_report_html(done, example, example.tasks())
    browser_page = render_task_browser_html(example, example.tasks())
    for html in (page, browser_page):
        assert "http://" not in html.replace('href="/', "") and "https://" not in html
        assert "<link" not in html and " src=" not in html


async def test_an_incomplete_errored_run_says_so(browser: Chromium, tmp_path: Path) -> None:
    """A partial report carries a banner with the reason; an errored row shows its error code in the
    table and the error in its details; generation settings, what served the run and the cache are in
    the header."""
    done = await run(example, mock_adapter())
    first = done.rows[0]
    errored = attrs.evolve(
        first, score=0.0, passed=False, error="rate limited after 3 attempts", error_code="RATE_LIMITED"
    )
    partial = attrs.evolve(
        done,
        rows=[errored, *done.rows[1:5]],
        complete=False,
        stopped="interrupted (SIGTERM) after 5 of 21 tasks",
        generation={"temperature": 0.2, "max_tokens": 256},
        served_by=[ServedCount(model="gpt-x-2026", provider="Azure", requests=4)],
        cache=CacheStats(hits=3, saved_cost_usd=0.0125),
    )
    await _open_report(browser, partial, tmp_path)
    await _unfold(browser, 0)
    found: dict[str, Any] = await browser.evaluate(
        """(() => {
        const facts = {};
        document.querySelectorAll('header [data-fact]').forEach(
            d => facts[d.dataset.fact] = d.querySelector('dd').textContent);
        const first = document.querySelector('tbody.task');
        return {
            banner: document.getElementById('incomplete').textContent,
            bannerAboveResult: document.getElementById('incomplete').compareDocumentPosition(
                document.querySelector('section.headline')) === Node.DOCUMENT_POSITION_FOLLOWING,
            facts: facts,
            status: first.rows[0].cells[3].textContent,
            error: first.querySelector('p.error').textContent,
            rows: document.querySelectorAll('tbody.task').length,
        };
    })()"""
    )
    assert found["banner"] == (
        "Incomplete run: interrupted (SIGTERM) after 5 of 21 tasks. This report holds the 5 rows that finished; "
        "tasks that never ran are in neither the table nor the mean."
    )
    assert found["bannerAboveResult"] is True
    assert found["facts"]["generation"] == "temperature 0.2, max_tokens 256"
    assert found["facts"]["served by"] == "gpt-x-2026 via Azure (4 requests)"
    assert found["facts"]["cache"] == "3 requests answered from the cache ($0.0125 not spent)"
    assert found["status"] == "errored RATE_LIMITED"
    assert found["error"] == "RATE_LIMITED rate limited after 3 attempts"
    assert found["rows"] == 5
    await _choose(browser, "status-filter", "errored")
    assert await _visible_ids(browser) == [first.task_id]
    await browser.screenshot(ARTIFACTS / "html-report-incomplete.png")


async def test_epochs_share_long_values_and_search_reads_details(browser: Chromium, tmp_path: Path) -> None:
    """With epochs, a task's long prompt and an episode's long values appear in several rows: the
    page writes each once and a row that unfolds shows it in place; search finds text that only a
    task's details hold (a tool result), and the epoch line is in the headline."""
    done = await run(example, mock_adapter(), epochs=3)
    tasks = await example.load_tasks()
    # A long prompt, so that the three epochs of a task share it.
    long_prompt = "Compute carefully. " * 40 + "What is 6 * 7?"
    tasks = [attrs.evolve(task, prompt=long_prompt) if task.id == "arith-07" else task for task in tasks]
    page = render_report_html(done, example, tasks)
    assert page.count(long_prompt) == 1  # written once, under Shared values
    path = tmp_path / "epochs.html"
    path.write_text(page, encoding="utf-8")
    await browser.open(path.as_uri())
    indices = [i for i, row in enumerate(done.rows) if row.task_id == "arith-07"]
    assert len(indices) == 3
    for index in indices:
        await _unfold(browser, index)
    prompts = await browser.evaluate(
        "Array.from(document.querySelectorAll('tbody.task[data-id=\"arith-07\"] pre.prompt')).map(p => p.textContent)"
    )
    assert prompts == [long_prompt] * 3
    assert await browser.evaluate("document.querySelectorAll('#task-table .shared-ref').length") == 0
    assert "pass@1" in await browser.evaluate("document.getElementById('epochs').textContent")
    assert await browser.evaluate("getComputedStyle(document.getElementById('shared-values')).display") == "none"

    episode = next(row for row in done.rows if row.episode is not None)
    assert episode.episode is not None
    needle = next(entry.error.message for entry in episode.episode.tool_log if entry.error is not None)
    await browser.evaluate(
        f"(() => {{ const t = document.getElementById('text-filter'); t.value = {json.dumps(needle)};"
        " t.dispatchEvent(new Event('input')); })()"
    )
    shown = await _visible_ids(browser)
    assert shown and set(shown) == {episode.task_id}
    assert await browser.evaluate("document.getElementById('shown').textContent") == (
        f"{len(shown)} of {len(done.rows)} rows"
    )


async def test_shared_values_read_without_javascript(browser: Chromium, tmp_path: Path) -> None:
    done = await run(example, mock_adapter(), epochs=2)
    tasks = [
        attrs.evolve(task, prompt="A long prompt. " * 60) if i == 0 else task
        for i, task in enumerate(await example.load_tasks())
    ]
    path = tmp_path / "nojs.html"
    path.write_text(render_report_html(done, example, tasks), encoding="utf-8")
    await browser.send("Emulation.setScriptExecutionDisabled", {"value": True})
    await browser.open(path.as_uri())
    linked: dict[str, Any] = await browser.evaluate(
        """(() => {
        const link = document.querySelector('tbody.task .shared-ref a');
        const target = document.querySelector(link.getAttribute('href'));
        return {visible: target.offsetHeight > 0, text: target.querySelector('pre').textContent};
    })()"""
    )
    assert linked == {"visible": True, "text": "A long prompt. " * 60}
