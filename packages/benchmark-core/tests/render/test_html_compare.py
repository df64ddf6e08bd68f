"""The comparison page in headless Chromium: the runs with their intervals drawn (a leaderboard for
three or more), each run against the first with its verdict line, paired interval, McNemar test and
per-group differences; and the two ways to it (`html COMPARISON.json`, `compare --html`) give the
same page. Chromium must be installed (tools/gate.sh installs it); Playwright drives it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmark_core import RunReport, run
from benchmark_core.adapters.mock import MockAdapter
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.stats import Comparison, compare_reports
from benchmark_core.stats._compare_html import render_comparison_html
from benchmark_core.testing import AlwaysGoodMock, run_in_thread
from benchmark_core.wire import to_wire
from click.testing import CliRunner
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[4] / "artifacts"


async def _reports() -> list[RunReport]:
    plain = await run(example, MockAdapter(model="plain"))
    stronger = await run(example, AlwaysGoodMock(model="stronger"))
    same = await run(example, MockAdapter(model="plain-again"))
    return [plain, stronger, same]


def _open(page: Page, comparison: Comparison, tmp_path: Path) -> None:
    path = tmp_path / "comparison.html"
    path.write_text(render_comparison_html(comparison), encoding="utf-8")
    page.goto(path.as_uri())


_READ = """(() => ({
    heading: document.querySelector('h2').textContent,
    runs: Array.from(document.querySelectorAll('#run-table tbody tr')).map(tr => ({
        run: tr.dataset.run, mean: tr.querySelector('.mean').textContent,
        drawn: tr.querySelectorAll('svg.ci-chart rect.interval').length})),
    pairs: Array.from(document.querySelectorAll('section.pair')).map(s => ({
        second: s.dataset.second,
        verdict: s.querySelector('.verdict-line').textContent,
        kind: s.querySelector('.verdict-line').dataset.verdict,
        drawn: s.querySelectorAll(':scope > svg.ci-chart').length,
        mcnemar: s.querySelector('.mcnemar') ? s.querySelector('.mcnemar').textContent : null,
        groups: Array.from(s.querySelectorAll('table.groups tbody tr')).map(tr => [tr.dataset.group,
            tr.querySelector('.difference').textContent, tr.querySelectorAll('svg.ci-chart').length]),
    })),
}))()"""


def test_a_comparison_of_three_runs(page: Page, tmp_path: Path) -> None:
    reports = run_in_thread(_reports())
    comparison = compare_reports(reports, labels=["A", "B", "C"], resamples=2000)
    _open(page, comparison, tmp_path)
    shown: dict[str, Any] = page.evaluate(_READ)
    assert shown["heading"] == "Leaderboard"
    assert comparison.leaderboard is not None
    assert [r["run"] for r in shown["runs"]] == comparison.leaderboard == ["B", "A", "C"]
    by_label = {run.label: run for run in comparison.runs}
    assert [r["mean"] for r in shown["runs"]] == [f"{by_label[r['run']].mean * 100:.1f}%" for r in shown["runs"]]
    assert all(r["drawn"] == 1 for r in shown["runs"])

    better, same = comparison.differences
    assert better.verdict == "better" and same.verdict == "no detectable difference"
    first, second = shown["pairs"]
    assert first["second"] == "B" and first["verdict"] == better.summary and first["kind"] == "better"
    assert first["verdict"].startswith("B - A = +")
    assert second["verdict"] == same.summary and second["verdict"].endswith("no detectable difference")
    assert first["drawn"] == 1 and second["drawn"] == 1
    assert better.mcnemar is not None
    assert first["mcnemar"] == (
        f"McNemar: {better.mcnemar.only_first} task(s) passed only in A, "
        f"{better.mcnemar.only_second} only in B; " + first["verdict"].split(", ")[-1].split(":")[0]
    )
    expected_groups = [
        [f"{dimension}={group}", f"{g.mean_difference * 100:+.1f}".replace("-0.0", "+0.0"), 1]
        for dimension, groups in better.groups.items()
        for group, g in groups.items()
    ]
    assert first["groups"] == expected_groups  # the example declares no groups; see the benchmarks
    page.screenshot(path=ARTIFACTS / "html-comparison.png", full_page=True)


def test_two_runs_have_no_leaderboard(page: Page, tmp_path: Path) -> None:
    plain, stronger, _ = run_in_thread(_reports())
    comparison = compare_reports([stronger, plain], labels=["B", "A"], resamples=2000)
    _open(page, comparison, tmp_path)
    shown: dict[str, Any] = page.evaluate(_READ)
    assert shown["heading"] == "Runs"
    assert [r["run"] for r in shown["runs"]] == ["B", "A"]
    assert shown["pairs"][0]["kind"] == "worse" and shown["pairs"][0]["verdict"].endswith("A is worse")


def test_html_and_compare_html_give_the_same_page(tmp_path: Path) -> None:
    cli = create_cli(example, "benchmark-core")
    runner = CliRunner()
    paths = []
    for name, seed in (("a.json", "1"), ("b.json", "2")):
        path = tmp_path / name
        done = runner.invoke(
            cli, ["run", "--model", "offline", "--provider", "mock", "--seed", seed, "--output", str(path)]
        )
        assert done.exit_code == 0, done.output
        paths.append(str(path))
    direct = tmp_path / "direct.html"
    compared = runner.invoke(cli, ["compare", *paths, "--json", "--html", str(direct)])
    assert compared.exit_code == 0, compared.output
    (tmp_path / "comparison.json").write_text(compared.stdout, encoding="utf-8")
    rendered = tmp_path / "rendered.html"
    written = runner.invoke(cli, ["html", str(tmp_path / "comparison.json"), str(rendered), "--json"])
    assert written.exit_code == 0, written.output
    page = rendered.read_text(encoding="utf-8")
    assert page == direct.read_text(encoding="utf-8")
    assert json.loads(written.stdout) == {"path": str(rendered), "bytes": len(page.encode()), "runs": 2}
    assert "no detectable difference" in page and "Comparison: benchmark-core-example" in page

    document = json.loads(compared.stdout)
    document["benchmark"] = "someone-else"
    (tmp_path / "other.json").write_text(json.dumps(document), encoding="utf-8")
    refused = runner.invoke(cli, ["html", str(tmp_path / "other.json")])
    assert refused.exit_code == 1
    assert "is a comparison of 'someone-else', not 'benchmark-core-example'" in refused.stderr
    document = json.loads(compared.stdout)
    del document["runs"]
    (tmp_path / "broken.json").write_text(json.dumps(document), encoding="utf-8")
    broken = runner.invoke(cli, ["html", str(tmp_path / "broken.json")])
    assert broken.exit_code == 1 and "invalid comparison" in broken.stderr


def test_the_comparison_page_is_deterministic_and_escaped() -> None:
    import asyncio

    reports = asyncio.run(_reports())
    hostile = '<img src=x onerror="alert(1)">'
    comparison = compare_reports(reports[:2], labels=[hostile, "B"], resamples=500)
    page = render_comparison_html(comparison)
    assert page == render_comparison_html(comparison)
    assert hostile not in page and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page
    assert to_wire(comparison)["differences"][0]["summary"].startswith("B - <img")
