"""Results as data (needs the `analysis` extra; `nox -s analysis` runs this file): `runs_frame`,
`rows_frame` and `export` over real run reports, checked against the reports themselves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from benchmark_core import mock_adapter
from benchmark_core.analysis import export_results, report_paths, rows_frame, runs_frame
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.testing import AlwaysGoodMock
from benchmark_core.wire import dumps, to_wire
from click.testing import CliRunner

CLI = create_cli(example, "benchmark-core", umbrella=True)


def _write(path: Path, report: Any) -> dict[str, Any]:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """A results folder as a sweep leaves it: two models, one with three epochs, a comparison and a
    journal beside them (neither is a run report), and schema-mutation's rows with their details."""
    folder = tmp_path / "results"
    _write(folder / "example" / "mock" / "report.json", example.run(mock_adapter(), epochs=3))
    _write(folder / "example" / "good" / "report.json", example.run(AlwaysGoodMock(1, example.mock_policies, "good")))
    (folder / "example" / "comparison.json").write_text('{"differences": []}', encoding="utf-8")
    (folder / "example" / "mock" / "report.json.journal.jsonl").write_text('{"journal": 1}\n', encoding="utf-8")
    return folder


def test_rows_frame_has_one_row_per_task_epoch_and_report(results: Path) -> None:
    frame = rows_frame([results])
    paths = report_paths([results])
    documents = [json.loads(p.read_text(encoding="utf-8")) for p in paths if p.name == "report.json"]
    assert len(frame) == sum(len(d["rows"]) for d in documents) == 21 * 3 + 21
    for document in documents:
        mine = frame[frame["model"] == document["model"]]
        assert list(mine["task"]) == [row["taskId"] for row in document["rows"]]
        assert list(mine["epoch"]) == [row.get("epoch", 1) for row in document["rows"]]
        assert list(mine["score"]) == [row["score"] for row in document["rows"]]
        assert list(mine["passed"]) == [row["passed"] for row in document["rows"]]
        assert mine["tokens"].sum() == document["usage"]["promptTokens"] + document["usage"]["completionTokens"]
        assert mine["score"].mean() == pytest.approx(document["mean"])
    assert set(frame["benchmark"]) == {example.id} and set(frame["provider"]) == {"mock"}
    assert frame.groupby(["model", "task"]).size().max() == 3


def test_rows_frame_flattens_group_labels_and_scalar_details(tmp_path: Path) -> None:
    from benchmark_schema_mutation import benchmark as schema_mutation

    document = _write(tmp_path / "sm.json", schema_mutation.run(mock_adapter()))
    frame = rows_frame([tmp_path / "sm.json"])
    first = document["rows"][0]
    assert frame.loc[0, "group.mutationKind"] == first["groups"]["mutationKind"]
    scalars = {k: v for k, v in first["details"].items() if v is None or isinstance(v, (str, int, float, bool))}
    assert scalars and all(frame.loc[0, f"detail.{k}"] == v or v is None for k, v in scalars.items())
    listed = [k for k, v in first["details"].items() if isinstance(v, list)]
    assert listed and not any(f"detail.{k}" in frame.columns for k in listed)


def test_runs_frame_has_one_row_per_report_with_its_figures(results: Path) -> None:
    runs = runs_frame([results]).set_index("model")
    assert sorted(runs.index) == ["good", "offline"]
    by_epochs = runs.sort_values("epochs")
    one, three = by_epochs.iloc[0], by_epochs.iloc[1]
    assert (one["epochs"], three["epochs"]) == (1, 3)
    assert (one["tasks"], three["tasks"], three["rows"]) == (21, 21, 63)
    assert pd.isna(one["pass_hat_k"]) and 0 <= three["pass_hat_k"] <= three["pass_at_k"] <= 1
    assert one["mean"] > three["mean"]  # the always-good mock against the mock's good and bad halves
    assert one["ci_low"] <= one["mean"] <= one["ci_high"]


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_export_writes_every_row_in_each_format(results: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"rows.{fmt}"
    result = CliRunner().invoke(CLI, ["export", str(results), "--format", fmt, "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("wrote 84 rows of 2 report(s), ")
    if fmt == "parquet":
        table = pq.read_table(out)
        assert table.num_rows == 84 and table.schema.field("score").type == "double"
        back = table.to_pandas()
    elif fmt == "csv":
        back = pd.read_csv(out)
    else:
        back = pd.read_json(out, lines=True)
    expected = rows_frame([results])
    assert list(back.columns) == list(expected.columns)
    assert list(back["task"]) == list(expected["task"]) and list(back["score"]) == list(expected["score"])


def test_export_writes_mixed_type_details_to_parquet(tmp_path: Path) -> None:
    report = to_wire(example.run(mock_adapter()))
    report["rows"][0]["details"] = {"value": 3}
    report["rows"][1]["details"] = {"value": "three"}
    (tmp_path / "r.json").write_text(json.dumps(report), encoding="utf-8")
    frame = export_results([tmp_path / "r.json"], tmp_path / "rows.parquet")
    back = pd.read_parquet(tmp_path / "rows.parquet")
    assert list(back["detail.value"][:2]) == ["3", "three"] and len(back) == len(frame)


def test_export_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    not_report = tmp_path / "other.json"
    not_report.write_text('{"differences": []}', encoding="utf-8")
    cases = [
        (["export", str(not_report), "--output", str(tmp_path / "x.csv")], f"{not_report} is not a run report"),
        (["export", str(tmp_path / "missing"), "--output", str(tmp_path / "x.csv")], "no such report or folder"),
        (["export", str(tmp_path), "--output", str(tmp_path / "x.txt")], "export format must be one of"),
    ]
    for args, message in cases:
        result = CliRunner().invoke(CLI, args)
        assert result.exit_code == 1 and message in result.stderr, result.output


def test_export_through_the_console_script(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.parquet"
    command = [sys.executable, "-m", "benchmark_core", "export", str(results), "--output", str(out), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["rows"], summary["reports"]) == (84, 2) and pd.read_parquet(out).shape[0] == 84


def test_a_shards_report_in_a_folder_is_passed_over_unless_named(tmp_path: Path) -> None:
    """A sharded sweep's folder holds the shards and their merged report: the rows count once."""
    folder = tmp_path / "results" / "cell"
    _write(folder / "report.json", example.run(mock_adapter()))
    for index in (1, 2):
        _write(folder / f"report.shard-{index}-of-2.json", example.run(mock_adapter(), shard=f"{index}/2"))
    assert len(rows_frame([tmp_path / "results"])) == 21 and len(runs_frame([tmp_path / "results"])) == 1
    named = rows_frame([folder / "report.shard-1-of-2.json"])
    assert len(named) == 11 and list(named["task"]) == [t.id for t in example.tasks()[::2]]
