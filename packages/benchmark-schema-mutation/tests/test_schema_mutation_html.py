"""The HTML report and comparison page of real schema-mutation runs in headless Chromium: the
per-group table (by mutation kind) drawn from the report's `groups`, the task table's group filter
built from the rows' labels, and per-group differences on the comparison page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark_core import mock_adapter, run
from benchmark_core.reports import render_report_html
from benchmark_core.stats import compare_reports, render_comparison_html
from benchmark_core.testing import AlwaysGoodMock, run_in_thread
from benchmark_schema_mutation import benchmark
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"


def test_groups_table_and_group_filter(page: Page, tmp_path: Path) -> None:
    report = run_in_thread(run(benchmark, mock_adapter()))
    assert list(report.groups) == ["mutationKind", "baseSchema"]
    path = tmp_path / "report.html"
    path.write_text(render_report_html(report, benchmark, benchmark.tasks()), encoding="utf-8")
    page.goto(path.as_uri())
    read: dict[str, Any] = page.evaluate(
        """(() => {
        const table = document.querySelector('#groups table.bars');
        return {
            caption: table.caption.textContent,
            rows: Array.from(table.tBodies[0].rows).map(r => [r.dataset.group, r.cells[1].textContent,
                r.cells[2].textContent.trim()]),
            options: Array.from(document.querySelectorAll('#group-filter optgroup')).map(g =>
                [g.label, Array.from(g.children).map(o => o.value)]),
        };
    })()"""
    )
    groups = report.groups["mutationKind"]
    assert read["caption"] == "by mutation kind"
    assert read["rows"] == [
        [f"mutationKind={name}", str(g.tasks), f"{g.mean * 100:.1f}%"] for name, g in groups.items()
    ]
    assert read["options"] == [
        ["mutation kind", [f"mutationKind={name}" for name in sorted(groups)]],
        ["base schema", [f"baseSchema={name}" for name in sorted(report.groups["baseSchema"])]],
    ]
    kind = sorted(groups)[1]
    # A click on a group's row filters the task table to its tasks.
    page.evaluate(f"document.querySelector('#groups tr[data-group=\"mutationKind={kind}\"]').click()")
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).filter(b => !b.hidden).map(b => b.dataset.id)"
    )
    assert shown == [row.task_id for row in report.rows if row.groups["mutationKind"] == kind]
    assert len(shown) == groups[kind].tasks
    page.screenshot(path=ARTIFACTS / "html-report-schema-mutation.png")


def test_comparison_shows_per_group_differences(page: Page, tmp_path: Path) -> None:
    plain = run_in_thread(run(benchmark, mock_adapter()))
    good = run_in_thread(run(benchmark, AlwaysGoodMock(model="always-good")))
    comparison = compare_reports([plain, good], labels=["plain", "good"], resamples=2000)
    path = tmp_path / "comparison.html"
    path.write_text(render_comparison_html(comparison), encoding="utf-8")
    page.goto(path.as_uri())
    rows = page.evaluate(
        "Array.from(document.querySelectorAll('section.pair table.groups tbody tr')).map(tr => [tr.dataset.group,"
        " tr.cells[2].textContent, tr.querySelector('.difference').textContent,"
        " tr.querySelectorAll('svg.ci-chart rect.interval').length])"
    )
    diff = comparison.differences[0]
    assert rows == [
        [f"{dimension}={name}", str(g.tasks), f"{g.mean_difference * 100:+.1f}", 1]
        for dimension, groups in diff.groups.items()
        for name, g in groups.items()
    ]
    assert diff.verdict == "better"
    verdict = page.evaluate("document.querySelector('.verdict-line').textContent")
    assert verdict == diff.summary and verdict.endswith("good is better")
