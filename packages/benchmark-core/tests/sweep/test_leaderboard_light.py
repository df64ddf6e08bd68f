"""The leaderboard reads rows without their transcripts (`read_results(transcripts=False)`): its
Markdown and HTML must be byte for byte those of the reports read whole, with msgspec decoding
the files (the `analysis` extra) and without it (the standard library's json)."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest
from benchmark_core import Trace, mock_adapter, resolve_benchmark, run
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import _light, build_leaderboard, render_leaderboard, render_leaderboard_html
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
    # A fresh decoder cache, so that this test's decoder is the one it asks for.
    monkeypatch.setattr(_light, "_decoder", functools.lru_cache(maxsize=1)(_light._decoder.__wrapped__))
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
    # Rows msgspec's light records refuse are read whole: a key no run row has, a row not an object.
    document = json.loads((tmp_path / example.id / "weak" / "report.json").read_text(encoding="utf-8"))
    document["rows"][0]["bogus"] = 1
    (tmp_path / "extra.json").write_text(json.dumps(document), encoding="utf-8")
    document["rows"][0] = 5
    (tmp_path / "not-a-row.json").write_text(json.dumps(document), encoding="utf-8")
    light_document = _light.light_document(tmp_path / example.id / "weak" / "report.json")
    assert (light_document is None) == (decoder == "json")
    assert _light.light_document(tmp_path / "extra.json") is None
    whole, skipped = read_results(tmp_path)
    assert len(skipped) == 5
    light, light_skipped = read_results(tmp_path, transcripts=False)
    assert light_skipped == skipped
    assert any(row.episode is not None for _, report in whole for row in report.rows)
    assert all(row.episode is None and row.trace == Trace() for _, report in light for row in report.rows)
    before = rank_reports(str(tmp_path), whole, skipped, resamples=500)
    after = build_leaderboard(tmp_path, resamples=500)
    assert len(after.groups) == 2
    assert render_leaderboard(after) == render_leaderboard(before)
    assert render_leaderboard_html(after) == render_leaderboard_html(before)
