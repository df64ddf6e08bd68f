"""The light records of a report's rows (`_light_rows`, read by msgspec in `_light` or from plain
JSON values): the same `RunRow`s either way, the converter's values less the transcript, and a
row neither takes is read whole by the converter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from benchmark_core import RunReport, Trace, mock_adapter, run
from benchmark_core._model import RunRow
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import _light, _light_rows
from benchmark_core.sweep._leaderboard import read_result
from benchmark_core.wire import dumps, from_wire, to_wire

msgspec = pytest.importorskip("msgspec")

ROW: dict[str, Any] = {
    "taskId": "t-1",
    "epoch": 2,
    "score": 1,  # an integer where a float is declared: 1.0 for all three readers
    "passed": True,
    "reason": "ok",
    "attempts": 1,
    "latencyMs": 12,
    "usage": {"promptTokens": 3, "completionTokens": 4, "costUsd": 0.5, "cachedTokens": None, "cacheSavedUsd": 1},
    "error": None,
    "groups": {"kind": "a"},
    "details": {"nested": [1, 2.5, {"x": None}], "flag": False},
    "trace": {"answer": {"big": "x" * 1000}, "toolCalls": [{"name": "n", "arguments": {}}]},
    "episode": {"steps": "not even an episode: a transcript is never read"},
    "errorCode": "TIMEOUT",
    "cacheHits": 2,
    "cachedCostUsd": 0.25,
    "servedBy": [{"model": "m", "provider": None, "requests": 3}],
    "truncated": 1,
    "agent": {"label": "a", "unknownKey": True},
}


def _msgspec_rows(rows: list[Any], tmp_path: Path) -> Any:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"benchmark": "b", "rows": rows}), encoding="utf-8")
    document = _light.light_document(path)
    return None if document is None else document["rows"]


def _whole(row: dict[str, Any]) -> RunRow:
    """What the converter structures of `row` without its transcript."""
    kept = {key: value for key, value in row.items() if key not in _light_rows.TRANSCRIPT_KEYS}
    return from_wire(kept, RunRow)


def test_both_readers_give_the_converters_rows_without_transcripts(tmp_path: Path) -> None:
    minimal = {key: ROW[key] for key in ("taskId", "score", "passed", "reason", "attempts", "latencyMs")}
    rows = [ROW, minimal, {**minimal, "trace": ROW["trace"]}]
    plain = _light_rows.light_rows(rows)
    assert plain is not None
    assert plain == _msgspec_rows(rows, tmp_path)
    assert plain == [_whole(row) for row in rows]
    assert plain[0].score == 1.0 and type(plain[0].score) is float
    assert plain[0].usage.cache_saved_usd == 1.0 and type(plain[0].usage.cache_saved_usd) is float
    assert all(row.trace == Trace() and row.episode is None and row.agent is None for row in plain)
    assert plain[0].served_by[0].requests == 3 and plain[0].details == ROW["details"]


@pytest.mark.parametrize(
    "change",
    [
        {"taskId": 5},  # the converter would make it "5"
        {"attempts": True},  # a boolean is no integer
        {"latencyMs": 12.0},  # nor a float with no fraction
        {"passed": 1},
        {"score": "1"},
        {"error": 3},
        {"groups": {"kind": 1}},
        {"groups": []},
        {"details": "text"},
        {"usage": {"promptTokens": 1, "bogus": 2}},
        {"usage": {"promptTokens": 1.5}},
        {"servedBy": [{"model": "m", "requests": 1}]},  # a required key missing
        {"servedBy": {"model": "m"}},
        {"bogus": 1},  # a key no run row has
    ],
)
def test_rows_neither_reader_takes_are_refused_by_both(change: dict[str, Any], tmp_path: Path) -> None:
    rows = [ROW, {**ROW, **change}]
    assert _light_rows.light_rows(rows) is None
    assert _msgspec_rows(rows, tmp_path) is None


@pytest.mark.parametrize("rows", [[{k: v for k, v in ROW.items() if k != "reason"}], [5], {"taskId": "t"}])
def test_rows_missing_a_key_or_not_objects_are_refused(rows: Any, tmp_path: Path) -> None:
    assert _light_rows.light_rows(rows) is None
    assert _msgspec_rows(rows, tmp_path) is None


async def test_a_refused_row_leaves_the_report_to_the_converter(tmp_path: Path) -> None:
    report = await run(example, mock_adapter(model="m"), cache=False)
    document = to_wire(report)
    document["rows"][0]["taskId"] = 7  # the converter makes it "7"; the light readers refuse it
    path = tmp_path / "report.json"
    path.write_text(dumps(document), encoding="utf-8")
    assert _light.light_document(path) is None
    read = read_result(path, "report.json", transcripts=False)
    assert isinstance(read, RunReport)
    assert read.rows[0].task_id == "7"
    assert read.rows[1:] == [attrs.evolve(row, trace=Trace(), episode=None, agent=None) for row in report.rows[1:]]


def test_the_record_names_every_attribute_of_its_class() -> None:
    assert [field.name for field in _light_rows.ROW_FIELDS] == [field.name for field in attrs.fields(RunRow)]
    with pytest.raises(TypeError, match="does not name its attributes"):
        _light_rows._fields(RunRow, {"task_id": "str"})


def test_the_collector_is_paused_while_reading_and_restored_after(tmp_path: Path) -> None:
    import gc

    from benchmark_core._util.collector import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it off and leaves it off
    assert gc.isenabled()
