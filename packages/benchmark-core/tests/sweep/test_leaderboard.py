"""`leaderboard RESULTS` (issue 19): any run report in a folder counts; comparable reports (same
benchmark, version, mode, epochs and task set) are ranked together with compare's paired verdict
against the top one, others get groups of their own; `leaderboard.md`, `--json` and `index.html`
(checked in headless Chromium: the DOM a reader sees, the cost/score plot included)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, openai_compat_adapter, run
from benchmark_core.adapters.mock import MockAdapter
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.stats import compare_reports
from benchmark_core.sweep import build_leaderboard, render_leaderboard, render_leaderboard_html, write_leaderboard
from benchmark_core.sweep._leaderboard_markdown import rank_text
from benchmark_core.testing import (
    AlwaysGoodMock,
    FakeOpenAI,
    RecordedRequest,
    ScriptedResponse,
    mock_handler,
    run_in_thread,
)
from benchmark_core.wire import dumps, to_wire
from click.testing import CliRunner
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"
COST = 0.0005


async def _paid_run() -> RunReport:
    """The mock's answers through the OpenAI-compatible adapter, each reporting a cost (as OpenRouter's
    `usage.cost` does)."""
    mock = mock_handler(example)

    async def handler(request: RecordedRequest) -> ScriptedResponse:
        answer = await mock(request)
        if isinstance(answer.body, dict) and "usage" in answer.body:
            answer.body["usage"]["cost"] = COST
        return answer

    async with FakeOpenAI(handler=handler, record=False) as server:
        return await run(example, openai_compat_adapter(server.base_url, "paid-model", "sk-x"), cache=False)


def _save(folder: Path, relative: str, report: Any) -> None:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report if isinstance(report, str) else dumps(report, indent=2) + "\n", encoding="utf-8")


async def _results(folder: Path) -> dict[str, Any]:
    reports = {
        "plain": await run(example, MockAdapter(model="plain-model")),
        "strong": await run(example, AlwaysGoodMock(model="strong-model")),
        "paid": await _paid_run(),
        "subset": await run(example, MockAdapter(model="plain-model"), task_ids=["arith-01", "arith-02"]),
        "epochs": await run(example, MockAdapter(model="plain-model"), epochs=2),
    }
    for label in ("plain", "strong", "paid"):
        _save(folder, f"benchmark-core-example/{label}/report.json", reports[label])
    _save(folder, "elsewhere/subset.json", reports["subset"])
    _save(folder, "elsewhere/with-epochs.json", reports["epochs"])
    _save(folder, "notes.json", '{"hello": "not a report"}\n')
    printed = to_wire(reports["plain"])
    del printed["rows"]
    _save(folder, "printed.json", json.dumps(printed))
    return {"folder": folder, **reports}


@pytest.fixture
def results(tmp_path: Path) -> dict[str, Any]:
    """Built off the main thread, for the browser tests too."""
    return run_in_thread(_results(tmp_path / "results"))


def test_groups_ranks_and_verdicts(results: dict[str, Any]) -> None:
    board = build_leaderboard(results["folder"])
    assert [(g.tasks, g.epochs) for g in board.groups] == [(21, 1), (21, 2), (2, 1)]
    full = board.groups[0]
    comparison = compare_reports(
        [results["strong"], results["plain"], results["paid"]], labels=["strong", "plain", "paid"]
    )
    assert comparison.leaderboard is not None
    labels = ["strong", "plain", "paid"]
    assert [e.label for e in full.entries] == sorted(labels, key=lambda label: (-results[label].mean, label))
    top, *rest = full.entries
    assert (top.rank, top.verdict, top.mean) == (1, "top", results["strong"].mean)
    by_second = {d.second: d for d in comparison.differences}
    for entry in rest:
        # Three models: the simultaneous interval of all three pairwise differences, from the joint
        # bootstrap that pairs the runs as compare does; it holds compare's interval of the one pair
        # (up to bootstrap noise and the steps of 21 pass/fail tasks, one task's worth), so a
        # "worse" here is a "worse" in compare too, and the verdict follows the interval.
        difference = by_second[entry.label]
        ci = entry.difference_interval95
        assert entry.mean_difference == difference.mean_difference
        assert ci is not None and entry.adjusted_p_value is not None
        paired = difference.confidence_interval95
        assert ci.low < paired.low + 1 / 21 and ci.high > paired.high - 1 / 21
        assert (ci.low + ci.high) / 2 == pytest.approx(entry.mean_difference)
        assert entry.verdict == ("worse" if ci.high < 0 else "no detectable difference")
        assert entry.verdict != "worse" or difference.verdict == "worse"
        assert entry.p_value is None  # McNemar's test is compare's rule, for two models
    assert full.comparisons == 2 and full.clustered_by is None
    assert (full.adjustment, full.family, full.simultaneous_level) == ("max-t", 3, 0.95)
    assert full.critical_value is not None and full.critical_value > 1
    assert [e.rank_interval95 is not None for e in full.entries] == [True, True, True]
    assert top.rank_interval95 is not None and top.rank_interval95.low == 1
    paid = next(e for e in full.entries if e.label == "paid")
    assert paid.cost_usd == pytest.approx(COST * sum(r.attempts for r in results["paid"].rows))
    assert paid.total_tokens == results["paid"].usage.total_tokens
    assert paid.median_latency_ms is not None and paid.model == "paid-model"
    assert board.groups[1].entries[0].pass_hat_k == results["epochs"].pass_hat_k
    assert [e.label for e in board.groups[2].entries] == ["elsewhere/subset"]  # never ranked with the full runs
    assert [(s.path, s.reason.split(" (")[0]) for s in board.skipped] == [
        ("notes.json", "not a run report"),
        ("printed.json", "a run report without rows"),
    ]


def test_the_cli_writes_and_prints_it(results: dict[str, Any]) -> None:
    folder = results["folder"]
    cli = create_cli(example, "benchmark-core", umbrella=True)
    printed = CliRunner().invoke(cli, ["leaderboard", str(folder)])
    assert printed.exit_code == 0, printed.output
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert printed.stdout == markdown == render_leaderboard(build_leaderboard(folder))
    assert markdown.count("\n## ") == 4  # three groups and the skipped files
    top = build_leaderboard(folder).groups[0].entries[0]
    assert top.rank_interval95 is not None
    ranks = rank_text(top)
    assert f"| 1 | {ranks} | strong (mock/strong-model) |" in markdown
    assert "simultaneous 95% interval" in markdown.split("\n## ")[0] and "max-t" in markdown.split("\n## ")[0]
    group = build_leaderboard(folder).groups[0]
    assert group.critical_value is not None
    assert (
        "2 comparisons with the top, each judged by its simultaneous 95% interval: max-t adjustment over all 3 "
        f"pairwise differences of the 3 models, critical value {group.critical_value:.2f} standard errors." in markdown
    )
    assert markdown.count("simultaneous 95% CI") == 2  # the two verdicts' intervals, so labelled
    as_json = CliRunner().invoke(cli, ["leaderboard", str(folder), "--json"])
    assert as_json.exit_code == 0
    document = json.loads(as_json.stdout)
    assert document == to_wire(build_leaderboard(folder)) and document["adjustment"] == "max-t"
    said = document["groups"][0]
    assert (said["adjustment"], said["family"], said["simultaneousLevel"]) == ("max-t", 3, 0.95)
    assert said["criticalValue"] == group.critical_value and said["comparisons"] == 2
    assert [g["adjustment"] for g in document["groups"][1:]] == ["none", "none"]  # one report each
    first = document["groups"][0]["entries"][0]
    assert first["rankInterval95"] == {"low": top.rank_interval95.low, "high": top.rank_interval95.high}
    missing = CliRunner().invoke(cli, ["leaderboard", str(folder / "nope")])
    assert missing.exit_code == 1 and "no results folder" in missing.stderr


def test_the_page_is_deterministic_and_escaped(results: dict[str, Any]) -> None:
    folder = results["folder"]
    _save(folder, "benchmark-core-example/<img src=x onerror=alert(1)>/report.json", results["plain"])
    board = build_leaderboard(folder)
    html = render_leaderboard_html(board)
    assert html == render_leaderboard_html(build_leaderboard(folder))
    assert "<img" not in html and 'data-label="&lt;img src=x onerror=alert(1)&gt;"' in html


def test_a_report_with_a_task_twice_is_ranked_without_intervals(results: dict[str, Any], tmp_path: Path) -> None:
    folder = tmp_path / "twice"
    plain: RunReport = results["plain"]
    doubled = attrs.evolve(plain, rows=[*plain.rows, plain.rows[0]])
    _save(folder, "benchmark-core-example/strong/report.json", results["strong"])
    _save(folder, "benchmark-core-example/doubled/report.json", doubled)
    [group] = build_leaderboard(folder).groups
    assert [(e.label, e.rank, e.rank_interval95, e.verdict) for e in group.entries] == [
        ("strong", 1, None, "top"),
        ("doubled", 2, None, None),
    ]
    assert "| 2 | - | doubled" in render_leaderboard(build_leaderboard(folder))


_READ = """(() => Array.from(document.querySelectorAll('section.group')).map(s => ({
    title: s.querySelector('h2').textContent,
    rows: Array.from(s.querySelectorAll('table.leaderboard tbody tr')).map(tr => ({
        label: tr.dataset.label, rank: tr.querySelector('.rank').textContent,
        rankCi: tr.querySelector('.rank-ci').textContent, rankLow: tr.querySelector('.rank-ci').dataset.rankLow,
        mean: tr.querySelector('.mean').textContent, verdict: tr.querySelector('.vs-top').textContent,
        tasks: tr.querySelector('.tasks').textContent, errored: tr.querySelector('.errored').textContent,
        passK: tr.querySelector('.pass-k').textContent, cost: tr.querySelector('.cost').textContent,
        tokens: tr.querySelector('.tokens').textContent, drawn: tr.querySelectorAll('svg.ci-chart rect').length})),
    points: Array.from(s.querySelectorAll('svg.scatter g.entry')).map(g => [g.dataset.label,
        Number(g.querySelector('circle').getAttribute('cy'))]),
    axis: s.querySelector('svg.scatter').getAttribute('aria-label'),
})))()"""


def test_the_page_in_chromium(page: Page, results: dict[str, Any]) -> None:
    folder = results["folder"]
    board = build_leaderboard(folder)
    _, html = write_leaderboard(folder, board)
    page.goto(html.as_uri())
    groups: list[dict[str, Any]] = page.evaluate(_READ)
    assert [len(g["rows"]) for g in groups] == [3, 1, 1]
    full = groups[0]
    assert full["title"].startswith(f"benchmark-core-example {example.version} · prompt · 21 tasks")
    entries = board.groups[0].entries
    assert [r["label"] for r in full["rows"]] == [e.label for e in entries]
    assert [r["rank"] for r in full["rows"]] == [str(e.rank) for e in entries]
    assert [r["rankCi"] for r in full["rows"]] == [rank_text(e) for e in entries]
    assert [r["rankLow"] for r in full["rows"]] == [str(e.rank_interval95.low) for e in entries if e.rank_interval95]
    method = page.evaluate("document.querySelector('#method').textContent")
    assert "simultaneous 95% interval" in method and "max-t" in method
    note = page.evaluate("document.querySelector('#group-1 .resampled').textContent")
    assert "max-t adjustment over all 3 pairwise differences of the 3 models" in note
    assert [r["mean"] for r in full["rows"]] == [f"{e.mean * 100:.1f}%" for e in entries]
    assert full["rows"][0]["verdict"] == "top"
    assert all(r["verdict"].startswith(str(e.verdict)) for r, e in zip(full["rows"][1:], entries[1:]))
    assert all(r["drawn"] == 1 and r["tasks"] == "21" and r["errored"] == "0" for r in full["rows"])
    assert [r["cost"] for r in full["rows"]] == [f"${e.cost_usd:.4f}" if e.cost_usd else "n/a" for e in entries]
    assert groups[1]["rows"][0]["passK"] == f"{results['epochs'].pass_hat_k * 100:.1f}%"
    # One point per model; the higher the score, the higher on the page (smaller y).
    assert [label for label, _ in full["points"]] == [e.label for e in entries]
    heights = [y for _, y in full["points"]]
    assert heights == sorted(heights)
    assert full["axis"].endswith("tokens (no cost reported)")  # two of the three runs report no cost
    skipped = page.evaluate("Array.from(document.querySelectorAll('#skipped li code')).map(c => c.textContent)")
    assert skipped == ["notes.json", "printed.json"]
    page.screenshot(path=ARTIFACTS / "leaderboard.png", full_page=True)


def test_a_group_where_every_run_has_a_cost_is_plotted_by_cost(
    page: Page, tmp_path: Path, results: dict[str, Any]
) -> None:
    folder = tmp_path / "paid-only"
    _save(folder, "benchmark-core-example/paid/report.json", results["paid"])
    _, html = write_leaderboard(folder)
    page.goto(html.as_uri())
    [group] = page.evaluate(_READ)
    assert group["axis"].endswith("score against cost (USD)") and group["rows"][0]["verdict"] == "-"
