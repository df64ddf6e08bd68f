"""`sweep --shard I/N` and `sweep --merge`: every cell cut the same way, each shard's report in the
cell's folder, then joined into the report the unsharded sweep writes (timestamps and latencies
aside), and the leaderboard ranking only whole runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.testing import stable_report
from click.testing import CliRunner

CLI = create_cli(example, "benchmark-core", umbrella=True)
SWEEP = """
results = "{results}"

[[models]]
label = "plain"
provider = "mock"
model = "offline"

[[models]]
label = "second"
provider = "mock"
model = "second"

[[benchmarks]]
id = "benchmark-core-example"
epochs = 2
"""
CELLS = ("benchmark-core-example/plain", "benchmark-core-example/second")


def _sweep(tmp_path: Path, results: str, *args: str, exit_code: int = 0) -> Any:
    sweep = tmp_path / f"{results}.toml"
    sweep.write_text(SWEEP.format(results=results), encoding="utf-8")
    result = CliRunner().invoke(CLI, ["sweep", str(sweep), *args], catch_exceptions=False)
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    return result


def _stable(path: Path) -> str:
    return json.dumps(stable_report(json.loads(path.read_text(encoding="utf-8"))), indent=1)


def test_sharded_sweep_merges_into_the_unsharded_sweeps_reports(tmp_path: Path) -> None:
    _sweep(tmp_path, "whole")
    for index in (3, 1, 2):
        _sweep(tmp_path, "sharded", "--shard", f"{index}/3")
    for cell in CELLS:
        folder = tmp_path / "sharded" / cell
        assert sorted(p.name for p in folder.glob("*.json")) == [f"report.shard-{i}-of-3.json" for i in (1, 2, 3)]
        shard = json.loads((folder / "report.shard-2-of-3.json").read_text(encoding="utf-8"))
        assert shard["shard"]["index"] == 2 and len(shard["rows"]) == 7 * 2
    leaderboard = json.loads(CliRunner().invoke(CLI, ["leaderboard", str(tmp_path / "sharded"), "--json"]).stdout)
    assert not leaderboard["groups"]  # shards are never ranked as runs
    merged = _sweep(tmp_path, "sharded", "--merge", "--json")
    document = json.loads(merged.stdout)
    assert [c["status"] for c in document["cells"]] == ["done", "done"]
    for cell in CELLS:
        assert _stable(tmp_path / "sharded" / cell / "report.json") == _stable(
            tmp_path / "whole" / cell / "report.json"
        )
    assert (tmp_path / "sharded" / "leaderboard.md").is_file()


def test_merge_refuses_a_cell_with_a_missing_shard(tmp_path: Path) -> None:
    _sweep(tmp_path, "results", "--shard", "1/2")
    result = _sweep(tmp_path, "results", "--merge", exit_code=1)
    assert "benchmark-core-example/plain: missing shard(s) 2/2" in result.stderr
    assert not list((tmp_path / "results").rglob("report.json"))
    both = _sweep(tmp_path, "results", "--merge", "--shard", "1/2", exit_code=1)
    assert "give one or the other" in both.stderr
