"""The HTML report and the `serve` task browser, rendered by headless Chromium: the DOM it builds
(row counts, filters, sorting, an episode unfolded), escaping of hostile model output, the page
without JavaScript, and scoring from the task browser through `/v1/score`. Screenshots go to
artifacts/. Chromium must be installed (`.ci/run` installs it): these tests fail, not skip, without it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.html_report import render_report_html, render_task_browser_html
from benchmark_core.testing import serve_benchmark
from benchmark_core.testing.chromium import Chromium

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
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
    await browser.evaluate(f"document.querySelector({selector}).querySelector('details.task-detail > summary').click()")
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
    assert found == {"pwned": None, "images": 0, "scripts": 1, "bold": 0, "answer": HOSTILE, "reason": HOSTILE}
    await browser.screenshot(ARTIFACTS / "html-report.png")


async def test_the_report_reads_without_javascript(browser: Chromium, report: RunReport, tmp_path: Path) -> None:
    await browser.send("Emulation.setScriptExecutionDisabled", {"value": True})
    await _open_report(browser, report, tmp_path)
    assert await browser.evaluate("document.querySelectorAll('tbody.task').length") == len(report.rows)
    assert await browser.evaluate("document.getElementById('filters').hidden") is True
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
