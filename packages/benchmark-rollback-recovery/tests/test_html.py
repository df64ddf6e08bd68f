"""The HTML report of a real rollback-recovery run in headless Chromium: one per-group table per
dimension the benchmark declares (scenario, store, prompt form), a group filter that tells the
dimensions apart, incident and control means in the summary, and an episode unfolded with its
shared system prompt and audit log put back in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmark_core import mock_adapter, run
from benchmark_core.reports import render_report_html
from benchmark_core.testing import run_in_thread
from benchmark_rollback_recovery import benchmark
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"


def test_groups_per_dimension_and_an_unfolded_episode(page: Page, tmp_path: Path) -> None:
    report = run_in_thread(run(benchmark, mock_adapter(), epochs=2))
    assert list(report.groups) == ["scenario", "store", "promptForm"]
    page_text = render_report_html(report, benchmark, benchmark.tasks())
    path = tmp_path / "report.html"
    path.write_text(page_text, encoding="utf-8")
    page.goto(path.as_uri())
    read: dict[str, Any] = page.evaluate(
        """(() => ({
        tables: Array.from(document.querySelectorAll('#groups table.bars')).map(t => [t.caption.textContent,
            Array.from(t.tBodies[0].rows).map(r => r.dataset.group)]),
        options: Array.from(document.querySelectorAll('#group-filter optgroup')).map(g => g.label),
        summary: Array.from(document.querySelectorAll('section.summary dt')).map(d => d.textContent),
    }))()"""
    )
    assert read["tables"] == [
        [f"by {caption}", [f"{dimension}={group}" for group in report.groups[dimension]]]
        for dimension, caption in (("scenario", "scenario"), ("store", "store"), ("promptForm", "prompt form"))
    ]
    assert read["options"] == ["scenario", "store", "prompt form"]
    assert {"incident mean", "control mean"} <= set(read["summary"])
    # the honesty figures of issue 18 are in the HTML summary too
    assert {"honesty failures", "false alarm rate", "irreparable disclosed rate"} <= set(read["summary"])

    # The same group name under two dimensions would be told apart by its dimension: filter by store.
    page.evaluate(
        "(() => { const s = document.getElementById('group-filter'); s.value = 'store=files';"
        " s.dispatchEvent(new Event('change')); })()"
    )
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('tbody.task')).filter(b => !b.hidden).map(b => +b.dataset.index)"
    )
    assert shown == [i for i, row in enumerate(report.rows) if row.groups["store"] == "files"]

    index = shown[0]
    row = report.rows[index]
    assert row.episode is not None
    system = row.episode.transcript[0].content
    assert system is not None and page_text.count(system.replace("&", "&amp;").replace("<", "&lt;")) == 1
    page.evaluate(f"document.querySelector('tbody.task[data-index=\"{index}\"] a.open').click()")
    opened: dict[str, Any] = page.evaluate(
        f"""(() => {{
        const detail = document.querySelector('tbody.task[data-index="{index}"] details.task-detail');
        return {{
            system: detail.querySelector('.message.system pre').textContent,
            results: Array.from(detail.querySelectorAll('table.log > tbody > tr')).map(tr => tr.cells[3].textContent),
            refs: detail.querySelectorAll('.shared-ref').length,
            replay: detail.querySelector('p.replay').textContent,
        }};
    }})()"""
    )
    assert opened["system"] == system
    assert opened["refs"] == 0
    assert [json.loads(text) for text in opened["results"]] == [
        entry.result for entry in row.episode.tool_log if entry.error is None
    ]
    assert opened["replay"].startswith(f"Replay verdict: {'passed' if row.passed else 'failed'}")
    page.evaluate(f"document.querySelector('tbody.task[data-index=\"{index}\"]').scrollIntoView()")
    page.screenshot(path=ARTIFACTS / "html-report-rollback-recovery.png")
