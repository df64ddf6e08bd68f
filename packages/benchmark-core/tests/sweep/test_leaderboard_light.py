"""The leaderboard reads rows without their transcripts (`read_results(transcripts=False)`): its
Markdown and HTML must be byte for byte those of the reports read whole."""

from __future__ import annotations

from pathlib import Path

from benchmark_core import Trace, mock_adapter, resolve_benchmark, run
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import build_leaderboard, render_leaderboard, render_leaderboard_html
from benchmark_core.sweep._leaderboard import rank_reports, read_results
from benchmark_core.wire import dumps


async def test_light_rows_give_the_same_leaderboard_bytes(tmp_path: Path) -> None:
    episodes = resolve_benchmark("benchmark-rollback-recovery")
    for label, skill in (("strong", 0.8), ("weak", 0.3)):
        for bench in (example, episodes):
            report = await run(bench, mock_adapter(model=label, skill=skill), cache=False)
            path = tmp_path / bench.id / label / "report.json"
            path.parent.mkdir(parents=True)
            path.write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    whole, skipped = read_results(tmp_path)
    light, _ = read_results(tmp_path, transcripts=False)
    assert any(row.episode is not None for _, report in whole for row in report.rows)
    assert all(row.episode is None and row.trace == Trace() for _, report in light for row in report.rows)
    before = rank_reports(str(tmp_path), whole, skipped, resamples=500)
    after = build_leaderboard(tmp_path, resamples=500)
    assert len(after.groups) == 2
    assert render_leaderboard(after) == render_leaderboard(before)
    assert render_leaderboard_html(after) == render_leaderboard_html(before)
