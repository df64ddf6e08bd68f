"""The leaderboard reads rows without their transcripts (`read_results(transcripts=False)`): its
Markdown and HTML must be byte for byte those of the reports read whole, with msgspec decoding
the files (the `analysis` extra) and without it (the standard library's json)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from benchmark_core import Trace, mock_adapter, resolve_benchmark, run
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import build_leaderboard, render_leaderboard, render_leaderboard_html
from benchmark_core.sweep._leaderboard import rank_reports, read_results
from benchmark_core.wire import dumps


@pytest.mark.parametrize("decoder", ["msgspec", "json"])
async def test_light_rows_give_the_same_leaderboard_bytes(
    decoder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if decoder == "json":
        monkeypatch.setitem(sys.modules, "msgspec", None)  # `import msgspec` raises ImportError
    else:
        pytest.importorskip("msgspec")
    episodes = resolve_benchmark("benchmark-rollback-recovery")
    for label, skill in (("strong", 0.8), ("weak", 0.3)):
        for bench in (example, episodes):
            report = await run(bench, mock_adapter(model=label, skill=skill), cache=False)
            path = tmp_path / bench.id / label / "report.json"
            path.parent.mkdir(parents=True)
            path.write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    # Files msgspec refuses are read again by read_json: the same skips, the same messages.
    (tmp_path / "broken.json").write_text('{"benchmark": ', encoding="utf-8")
    (tmp_path / "nan.json").write_text('{"benchmark": "x", "mean": NaN}', encoding="utf-8")
    (tmp_path / "bom.json").write_text('\ufeff{"hello": 1}', encoding="utf-8")
    whole, skipped = read_results(tmp_path)
    assert len(skipped) == 3
    light, light_skipped = read_results(tmp_path, transcripts=False)
    assert light_skipped == skipped
    assert any(row.episode is not None for _, report in whole for row in report.rows)
    assert all(row.episode is None and row.trace == Trace() for _, report in light for row in report.rows)
    before = rank_reports(str(tmp_path), whole, skipped, resamples=500)
    after = build_leaderboard(tmp_path, resamples=500)
    assert len(after.groups) == 2
    assert render_leaderboard(after) == render_leaderboard(before)
    assert render_leaderboard_html(after) == render_leaderboard_html(before)
