"""The HTML report, the comparison page and the `serve` task browser, rendered by headless Chromium:
the DOM it builds (row counts, filters by status, group and text, sorting, an episode unfolded,
shared values put back in place), escaping of hostile model output, the page without JavaScript,
incomplete and errored runs, real reports of every benchmark, comparisons through the CLI, and
scoring from the task browser through `/v1/score`. Screenshots go to artifacts/. Chromium must be
installed (`.ci/run` installs it): these tests fail, not skip, without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, mock_adapter, run
from benchmark_core._model import CacheStats, ServedCount
from benchmark_core.example import benchmark as example
from benchmark_core.reports._html_browser import render_task_browser_html
from benchmark_core.reports._html_report import render_report_html
from benchmark_core.servers import create_app
from benchmark_core.testing import run_in_thread, serve_app_in_thread
from playwright.sync_api import Browser, Page

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"
HOSTILE = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b> & "q"'


@pytest.fixture
def report() -> RunReport:
    """The example's mock run, its first row's answer and reason replaced by hostile markup."""
    done = run_in_thread(run(example, mock_adapter()))
    first = done.rows[0]
    hostile = attrs.evolve(first, trace=attrs.evolve(first.trace, answer=HOSTILE), reason=HOSTILE)
    return attrs.evolve(done, rows=[hostile, *done.rows[1:]])


def _open_report(page: Page, report: RunReport, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(render_report_html(report, example, example.tasks()), encoding="utf-8")
    page.goto(path.as_uri())


def _visible_ids(page: Page) -> list[str]:
    ids: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).filter(b => !b.hidden).map(b => b.dataset.id)"
    )
    return ids


def _unfold(page: Page, index: int) -> None:
    """Click a row's task link, as a reader unfolds it."""
    page.evaluate(f"document.querySelector('tbody.task[data-index=\"{index}\"] a.open').click()")


def _choose(page: Page, select_id: str, value: str) -> None:
    page.evaluate(
        f"(() => {{ const s = document.getElementById({json.dumps(select_id)}); s.value = {json.dumps(value)};"
        " s.dispatchEvent(new Event('change')); })()"
    )


def test_report_rows_filters_and_sorting(page: Page, report: RunReport, tmp_path: Path) -> None:
    _open_report(page, report, tmp_path)
    ids = [row.task_id for row in report.rows]
    assert _visible_ids(page) == ids
    assert page.evaluate("document.getElementById('shown').textContent") == f"{len(ids)} of {len(ids)} tasks"
    assert page.evaluate("document.getElementById('mean').textContent") == f"{report.mean * 100:.1f}%"
    assert page.evaluate("document.querySelectorAll('svg.ci-chart circle.point').length") == 1

    failed = [row.task_id for row in report.rows if not row.passed and row.error is None]
    _choose(page, "status-filter", "failed")
    assert _visible_ids(page) == failed
    assert page.evaluate("document.getElementById('shown').textContent") == f"{len(failed)} of {len(ids)} tasks"

    _choose(page, "status-filter", "")
    _choose(page, "group-filter", "kind=episode")
    assert _visible_ids(page) == ["order-refund-01"]

    _choose(page, "group-filter", "")
    page.evaluate(
        "(() => { const t = document.getElementById('text-filter'); t.value = 'ARITH-07';"
        " t.dispatchEvent(new Event('input')); })()"
    )
    assert _visible_ids(page) == ["arith-07"]
    page.evaluate(
        "(() => { const t = document.getElementById('text-filter'); t.value = '';"
        " t.dispatchEvent(new Event('input')); })()"
    )

    page.evaluate("document.querySelector('th[data-key=score] button').click()")
    ascending = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).map(b => parseFloat(b.dataset.score))"
    )
    assert ascending == sorted(row.score for row in report.rows)
    page.evaluate("document.querySelector('th[data-key=score] button').click()")
    assert page.evaluate("document.querySelector('th[data-key=score]').getAttribute('aria-sort')") == ("descending")
    first_shown = _visible_ids(page)
    assert [next(r.score for r in report.rows if r.task_id == i) for i in first_shown] == sorted(
        (row.score for row in report.rows), reverse=True
    )


def test_an_episode_unfolds_to_transcript_tool_log_and_verdict(page: Page, report: RunReport, tmp_path: Path) -> None:
    row = next(r for r in report.rows if r.episode is not None)
    assert row.episode is not None
    _open_report(page, report, tmp_path)
    selector = json.dumps(f'tbody.task[data-id="{row.task_id}"]')
    assert page.evaluate("document.querySelectorAll('details.task-detail').length") == 0
    page.evaluate(f"document.querySelector({selector}).querySelector('a.open').click()")
    opened: dict[str, Any] = page.evaluate(
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
    assert opened["prompt"] == next(t for t in example.tasks() if t.id == row.task_id).prompt
    shot = ARTIFACTS / "html-report-episode.png"
    page.evaluate(f"document.querySelector({selector}).scrollIntoView()")
    page.screenshot(path=shot)
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_model_output_is_text_never_markup(page: Page, report: RunReport, tmp_path: Path) -> None:
    _open_report(page, report, tmp_path)
    _unfold(page, 0)
    found: dict[str, Any] = page.evaluate(
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
    page.screenshot(path=ARTIFACTS / "html-report.png")


def test_the_report_reads_without_javascript(browser: Browser, report: RunReport, tmp_path: Path) -> None:
    page = browser.new_context(java_script_enabled=False).new_page()
    _open_report(page, report, tmp_path)
    assert page.evaluate("document.querySelectorAll('tbody.task').length") == len(report.rows)
    assert page.evaluate("document.getElementById('filters').hidden") is True
    # Every task's details are markup here, folded, and an episode's tool log is in it.
    assert page.evaluate("document.querySelectorAll('details.task-detail').length") == len(report.rows)
    assert page.evaluate("document.querySelectorAll('details.task-detail table.log').length") == 1
    assert page.evaluate("getComputedStyle(document.querySelector('tr.detail')).display") == "table-row"
    assert page.evaluate("document.querySelectorAll('table.bars, svg.ci-chart').length") >= 1


def test_summary_tables_and_groups(page: Page, tmp_path: Path) -> None:
    """A benchmark's per-kind breakdown and counts become bar tables; `groups` (per-group macro means,
    when a report carries them) become one table per dimension."""
    done = run_in_thread(run(example, mock_adapter()))
    summary = {"perKind": {"easy": {"tasks": 4, "passed": 3}, "hard": {"tasks": 4, "passed": 1}}, "noticed": {"a": 7}}
    html = render_report_html(attrs.evolve(done, summary=summary), example, example.tasks())
    path = tmp_path / "summary.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri())
    tables = page.evaluate(
        "Array.from(document.querySelectorAll('table.bars')).map(t => [t.caption.textContent,"
        " Array.from(t.tBodies[0].rows).map(r => r.textContent)])"
    )
    assert tables == [["per kind", ["easy43 75.0%", "hard41 25.0%"]], ["noticed", ["a7 33.3%"]]]


def test_task_browser_scores_through_the_api(page: Page) -> None:
    tasks = example.tasks()
    with serve_app_in_thread(create_app(example)) as base:
        page.goto(base + "/")
        assert page.evaluate("document.querySelectorAll('section.task').length") == len(tasks)
        first = tasks[0]

        def score(task_id: str, field: str, value: str) -> str:
            form = json.dumps(f'form.score[data-task-id="{task_id}"]')
            page.evaluate(
                f"(() => {{ const f = document.querySelector({form}); f.elements.{field}.value = {json.dumps(value)};"
                " f.querySelector('output').textContent = ''; f.requestSubmit(); })()"
            )
            for _ in range(200):
                text: str = page.evaluate(f"document.querySelector({form}).querySelector('output').textContent")
                if text and text != "scoring...":
                    return text
                page.wait_for_timeout(50)
            raise AssertionError("no verdict shown")

        assert score(first.id, "answer", str(first.expected)).startswith("passed, score 1:")
        assert score(first.id, "answer", "not a number").startswith("failed, score 0:")
        episode = next(t for t in tasks if t.kind == "episode")
        assert score(episode.id, "submission", "{nope").startswith("not JSON:")
        unknown_key = score(episode.id, "submission", '{"answr": 1}')
        assert unknown_key.startswith("INVALID_SUBMISSION: ")
        page.evaluate(
            "(() => { const s = document.getElementById('search'); s.value = 'order';"
            " s.dispatchEvent(new Event('input')); })()"
        )
        assert page.evaluate("document.getElementById('shown').textContent") == f"1 of {len(tasks)} tasks"
        page.screenshot(path=ARTIFACTS / "task-browser.png")


def test_pages_are_self_contained_and_deterministic() -> None:
    done = run_in_thread(run(example, mock_adapter()))
    report_page = render_report_html(done, example, example.tasks())
    assert report_page == render_report_html(done, example, example.tasks())
    browser_page = render_task_browser_html(example, example.tasks())
    for html in (report_page, browser_page):
        assert "http://" not in html.replace('href="/', "") and "https://" not in html
        assert "<link" not in html and " src=" not in html


def test_an_incomplete_errored_run_says_so(page: Page, tmp_path: Path) -> None:
    """A partial report carries a banner with the reason; an errored row shows its error code in the
    table and the error in its details; generation settings, what served the run and the cache are in
    the header."""
    done = run_in_thread(run(example, mock_adapter()))
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
    _open_report(page, partial, tmp_path)
    _unfold(page, 0)
    found: dict[str, Any] = page.evaluate(
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
    _choose(page, "status-filter", "errored")
    assert _visible_ids(page) == [first.task_id]
    page.screenshot(path=ARTIFACTS / "html-report-incomplete.png")


def test_epochs_share_long_values_and_search_reads_details(page: Page, tmp_path: Path) -> None:
    """With epochs, a task's long prompt and an episode's long values appear in several rows: the
    page writes each once and a row that unfolds shows it in place; search finds text that only a
    task's details hold (a tool result), and the epoch line is in the headline."""
    done = run_in_thread(run(example, mock_adapter(), epochs=3))
    tasks = example.tasks()
    # A long prompt, so that the three epochs of a task share it.
    long_prompt = "Compute carefully. " * 40 + "What is 6 * 7?"
    tasks = [attrs.evolve(task, prompt=long_prompt) if task.id == "arith-07" else task for task in tasks]
    html = render_report_html(done, example, tasks)
    assert html.count(long_prompt) == 1  # written once, under Shared values
    path = tmp_path / "epochs.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri())
    indices = [i for i, row in enumerate(done.rows) if row.task_id == "arith-07"]
    assert len(indices) == 3
    for index in indices:
        _unfold(page, index)
    prompts = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.task[data-id=\"arith-07\"] pre.prompt')).map(p => p.textContent)"
    )
    assert prompts == [long_prompt] * 3
    assert page.evaluate("document.querySelectorAll('#task-table .shared-ref').length") == 0
    assert "pass@1" in page.evaluate("document.getElementById('epochs').textContent")
    assert page.evaluate("getComputedStyle(document.getElementById('shared-values')).display") == "none"

    episode = next(row for row in done.rows if row.episode is not None)
    assert episode.episode is not None
    needle = next(entry.error.message for entry in episode.episode.tool_log if entry.error is not None)
    page.evaluate(
        f"(() => {{ const t = document.getElementById('text-filter'); t.value = {json.dumps(needle)};"
        " t.dispatchEvent(new Event('input')); })()"
    )
    shown = _visible_ids(page)
    assert shown and set(shown) == {episode.task_id}
    assert page.evaluate("document.getElementById('shown').textContent") == (f"{len(shown)} of {len(done.rows)} rows")


def test_shared_values_read_without_javascript(browser: Browser, tmp_path: Path) -> None:
    done = run_in_thread(run(example, mock_adapter(), epochs=2))
    tasks = [
        attrs.evolve(task, prompt="A long prompt. " * 60) if i == 0 else task for i, task in enumerate(example.tasks())
    ]
    path = tmp_path / "nojs.html"
    path.write_text(render_report_html(done, example, tasks), encoding="utf-8")
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(path.as_uri())
    linked: dict[str, Any] = page.evaluate(
        """(() => {
        const link = document.querySelector('tbody.task .shared-ref a');
        const target = document.querySelector(link.getAttribute('href'));
        return {visible: target.offsetHeight > 0, text: target.querySelector('pre').textContent};
    })()"""
    )
    assert linked == {"visible": True, "text": "A long prompt. " * 60}
