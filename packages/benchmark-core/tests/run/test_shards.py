"""Shards and merge: `run --shard I/N` runs a stable 1/N of the tasks by position, and `merge` joins
the shards' reports (or journals) into the unsharded run's report, byte for byte apart from
timestamps and latencies; shards that do not make one run are refused with exit 1 and the reason.

The example benchmark has single tasks and an episode, so positions (the mock's good and bad
answers) and episode seeds are both checked; runs go through the mock in-process, through the real
OpenAI-compatible adapter against a loopback server playing the mock, and through the CLI.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import mcp
import pytest
from benchmark_core import mock_adapter, openai_compat_adapter, run
from benchmark_core.cli import create_cli
from benchmark_core.data import dump_task_file
from benchmark_core.errors import ConfigurationError, JournalError, ShardMergeError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import Shard, journal_path, merge_shards
from benchmark_core.servers._mcp import create_mcp_server
from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report, tool_data
from benchmark_core.wire import dumps, to_wire
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

CLI = create_cli(example, "benchmark-core", umbrella=True)


def stable_text(report: Any) -> str:
    """A report's JSON text, keys in their written order, with only timestamps and latencies left
    out: two reports that differ only there give the same text."""
    document = json.loads(report.read_text(encoding="utf-8")) if isinstance(report, Path) else to_wire(report)
    return json.dumps(stable_report(document), indent=1, ensure_ascii=False)


def cli(*args: str, exit_code: int = 0) -> Any:
    result = CliRunner().invoke(CLI, list(args), catch_exceptions=False)
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    return result


@given(total=st.integers(0, 200), count=st.integers(1, 40))
def test_every_position_belongs_to_exactly_one_shard_in_order(total: int, count: int) -> None:
    items = list(range(total))
    seen: list[int] = []
    for index in range(1, count + 1):
        shard = Shard(index, count)
        positions, chosen = shard.select(items)
        assert positions == chosen == sorted(chosen)
        assert all(shard.owns(p) for p in positions)
        seen += positions
    assert sorted(seen) == items


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "x", "1/", "2/3/4", "-1/3", ""])
def test_a_bad_shard_is_a_configuration_error(text: str) -> None:
    with pytest.raises(ConfigurationError, match="shard must be I/N"):
        Shard.parse(text)
    result = cli("run", "--model", "m", "--provider", "mock", "--shard", text, exit_code=1)
    assert "shard must be I/N" in result.stderr


def test_shards_pick_tasks_round_robin_and_record_it() -> None:
    tasks = example.tasks()
    reports = [example.run(mock_adapter(), shard=f"{i}/3") for i in (1, 2, 3)]
    for index, report in enumerate(reports, start=1):
        assert [r.task_id for r in report.rows] == [t.id for t in tasks[index - 1 :: 3]]
        assert report.shard is not None and (report.shard.index, report.shard.count) == (index, 3)
        assert report.shard.tasks == len(tasks) and report.complete
    assert "shard" not in to_wire(example.run(mock_adapter()))


@pytest.mark.parametrize(("count", "epochs"), [(3, 1), (2, 3), (7, 2), (40, 1)])
def test_merged_shards_are_the_unsharded_report_byte_for_byte(count: int, epochs: int) -> None:
    whole = example.run(mock_adapter(), epochs=epochs)
    shards = [example.run(mock_adapter(), epochs=epochs, shard=f"{i}/{count}") for i in range(count, 0, -1)]
    merged = merge_shards(example, shards)
    assert stable_text(merged) == stable_text(whole)
    assert merged.shard is None and merged.complete
    assert (merged.mean, merged.confidence_interval95, merged.groups) == (
        whole.mean,
        whole.confidence_interval95,
        whole.groups,
    )
    assert merged.started_at == min(s.started_at for s in shards)
    assert merged.finished_at == max(s.finished_at for s in shards)


async def test_shards_over_http_merge_into_the_unsharded_report(tmp_path: Path) -> None:
    """The real OpenAI-compatible adapter: the server sees each task once, from its one shard."""
    tasks = await example.load_tasks()
    handler = mock_handler(example, tasks=tasks)
    async with FakeOpenAI(handler=handler) as server:
        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
        whole = await run(example, adapter, cache=False, concurrency=3)
        sent = dict(handler.requests_per_task)
        handler.requests_per_task.clear()
        shards = [await run(example, adapter, cache=False, shard=f"{i}/3") for i in (1, 2, 3)]
    assert dict(handler.requests_per_task) == sent
    assert stable_text(merge_shards(example, shards)) == stable_text(whole)


def test_the_cli_merges_shard_files_and_journals(tmp_path: Path) -> None:
    mock = ("--model", "offline", "--provider", "mock")
    cli("run", *mock, "--output", str(tmp_path / "whole.json"))
    for index in (1, 2, 3):
        shard = cli("run", *mock, "--shard", f"{index}/3", "--output", str(tmp_path / f"s{index}.json"))
        assert f"- Shard: {index}/3 of a run of 21 tasks (join the shards with `merge`)\n" in shard.stdout
    shards = [str(tmp_path / f"s{i}.json") for i in (3, 1, 2)]
    result = cli("merge", *shards, "--output", str(tmp_path / "merged.json"))
    assert result.stdout == cli("run", *mock).stdout  # the same summary as the unsharded run's
    assert stable_text(tmp_path / "merged.json") == stable_text(tmp_path / "whole.json")
    as_json = json.loads(cli("merge", *shards, "--output", str(tmp_path / "again.json"), "--json").stdout)
    assert "rows" not in as_json and as_json["totals"]["tasks"] == len(example.tasks())


def test_a_shard_journal_merges_into_an_incomplete_report_then_a_complete_one(tmp_path: Path) -> None:
    whole = example.run(mock_adapter())
    s1, s3 = (tmp_path / "s1.json", tmp_path / "s3.json")
    for path, index in ((s1, 1), (s3, 3)):
        path.write_text(dumps(example.run(mock_adapter(), shard=f"{index}/3"), indent=2) + "\n", encoding="utf-8")
    journal = tmp_path / "s2.json.journal.jsonl"
    example.run(mock_adapter(), shard="2/3", journal=journal)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:3]), encoding="utf-8")  # the header and two rows: a shard killed early
    out = tmp_path / "merged.json"
    result = cli("merge", str(s1), str(journal), str(s3), "--output", str(out), exit_code=2)
    assert "the merged run is incomplete" in result.stderr
    partial = json.loads(out.read_text(encoding="utf-8"))
    assert partial["complete"] is False and "shard 2/3: read from its journal" in partial["stopped"]
    assert len(partial["rows"]) == len(whole.rows) - (len(lines) - 3)
    # The shard resumed from its journal finishes; merged again, the report is the whole run's.
    example.run(mock_adapter(), shard="2/3", journal=journal, resume=True)
    cli("merge", str(s1), str(journal), str(s3), "--output", str(out))
    assert stable_text(out) == stable_text(whole)


def test_a_shard_journal_resumes_only_as_the_same_shard(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    example.run(mock_adapter(), shard="1/3", journal=journal)
    with pytest.raises(JournalError, match="different run: shard is"):
        example.run(mock_adapter(), shard="2/3", journal=journal, resume=True)
    with pytest.raises(JournalError, match="different run: shard is"):
        example.run(mock_adapter(), journal=journal, resume=True)
    header = json.loads(journal.read_text(encoding="utf-8").split("\n")[0])
    assert header["shard"]["index"] == 1 and header["taskSetDigest"] == header["shard"]["taskSetDigest"]


def _shard_files(tmp_path: Path, count: int, *extra: str, prefix: str = "s") -> list[str]:
    paths = []
    for index in range(1, count + 1):
        path = tmp_path / f"{prefix}{index}.json"
        cli(
            "run",
            "--model",
            "offline",
            "--provider",
            "mock",
            "--shard",
            f"{index}/{count}",
            *extra,
            "--output",
            str(path),
        )
        paths.append(str(path))
    return paths


def test_merge_refuses_shards_that_are_not_one_run(tmp_path: Path) -> None:
    s1, s2, s3 = _shard_files(tmp_path, 3)
    other_model = tmp_path / "other.json"
    cli("run", "--model", "other", "--provider", "mock", "--shard", "3/3", "--output", str(other_model))
    hot = _shard_files(tmp_path, 3, "--temperature", "0.5", prefix="hot")
    halves = _shard_files(tmp_path, 2, prefix="half")
    unsharded = tmp_path / "whole.json"
    cli("run", "--model", "offline", "--provider", "mock", "--output", str(unsharded))
    summary_only = tmp_path / "summary.json"
    summary_only.write_text(cli("run", "--model", "offline", "--provider", "mock", "--shard", "3/3", "--json").stdout)
    cases = [
        ([s1, s2], "missing shard(s) 3/3: merge needs all 3 shards"),
        ([s1, s2, s2, s3], f"overlapping shards: {s2} and {s2} are both shard 2/3"),
        ([s1, s2, str(other_model)], f'shards disagree on model: "offline" in {s1}, "other" in {other_model}'),
        ([s1, s2, hot[2]], f"shards disagree on options.temperature: null in {s1}, 0.5 in {hot[2]}"),
        ([s1, s2, s3, halves[1]], f"shards of different splits: {s1} is shard 1/3, {halves[1]} is shard 2/2"),
        ([s1, s2, str(unsharded)], f"{unsharded} is not a shard: it was run without --shard"),
        ([s1, s2, str(summary_only)], "holds 0 of its 7 rows"),
    ]
    for shards, message in cases:
        result = cli("merge", *shards, "--output", str(tmp_path / "merged.json"), exit_code=1)
        assert message in result.stderr, (message, result.stderr)
        assert not (tmp_path / "merged.json").exists()
    refused = cli("merge", s1, s2, "--output", str(tmp_path / "m.json"), "--json", exit_code=1)
    assert json.loads(refused.stdout)["error"]["code"] == "SHARDS_MISMATCH"


def test_merge_checks_the_task_set_and_each_rows_shard(tmp_path: Path) -> None:
    tasks = example.tasks()
    reordered = tmp_path / "reordered.jsonl"
    reordered.write_text(dump_task_file(list(reversed(tasks))), encoding="utf-8")
    shards = _shard_files(tmp_path, 2, "--tasks", str(reordered))
    result = cli("merge", *shards, "--output", str(tmp_path / "m.json"), exit_code=1)
    assert "the shards ran another task set (21 tasks, sha256:" in result.stderr
    assert "than benchmark-core-example's own tasks (21 tasks, sha256:" in result.stderr
    cli("merge", *shards, "--tasks", str(reordered), "--output", str(tmp_path / "m.json"))
    # A shard whose rows are not its own (a report edited by hand, or another split's) is refused.
    first = example.run(mock_adapter(), shard="1/2")
    second = example.run(mock_adapter(), shard="2/2")
    moved = attrs.evolve(second, rows=[first.rows[0], *second.rows[1:]])
    stray = first.rows[0].task_id
    with pytest.raises(
        ShardMergeError, match=f"shard report 2 \\(shard 2/2\\) holds task '{stray}', which is shard 1/2's"
    ):
        merge_shards(example, [first, moved])


def test_a_task_selection_is_recorded_and_merged(tmp_path: Path) -> None:
    ids = [t.id for t in example.tasks()][1:6]
    whole = example.run(mock_adapter(), task_ids=ids)
    shards = [example.run(mock_adapter(), task_ids=ids, shard=f"{i}/2") for i in (1, 2)]
    assert shards[0].shard is not None and shards[0].shard.task_ids == ids
    assert stable_text(merge_shards(example, shards)) == stable_text(whole)


async def test_the_mcp_tool_runs_a_shard() -> None:
    async with mcp.Client(create_mcp_server(example)) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "shard" in listed["run_benchmark"].input_schema["properties"]
        result = tool_data(
            await client.call_tool("run_benchmark", {"model": "offline", "provider": "mock", "shard": "2/3"})
        )
    assert result["shard"]["index"] == 2 and [r["taskId"] for r in result["rows"]] == [
        t.id for t in example.tasks()[1::3]
    ]


def test_shards_and_merge_through_the_installed_console_script(tmp_path: Path) -> None:
    """The real process: `python -m benchmark_core` for each shard and the merge."""
    base = [sys.executable, "-m", "benchmark_core"]
    mock = ["--model", "offline", "--provider", "mock"]
    for index in (1, 2):
        out = str(tmp_path / f"s{index}.json")
        subprocess.run([*base, "run", *mock, "--shard", f"{index}/2", "--output", out], check=True, capture_output=True)
    subprocess.run([*base, "run", *mock, "--output", str(tmp_path / "whole.json")], check=True, capture_output=True)
    shards = [str(tmp_path / "s2.json"), str(tmp_path / "s1.json")]
    merged = subprocess.run([*base, "merge", *shards, "--output", str(tmp_path / "m.json")], capture_output=True)
    assert merged.returncode == 0, merged.stderr
    assert stable_text(tmp_path / "m.json") == stable_text(tmp_path / "whole.json")
    missing = subprocess.run(
        [*base, "merge", shards[0], "--output", str(tmp_path / "x.json")], capture_output=True, text=True
    )
    assert (
        missing.returncode == 1
        and missing.stderr == "error: missing shard(s) 1/2: merge needs all 2 shards of the run\n"
    )
    assert journal_path(tmp_path / "s1.json").exists() is False


def test_merge_refuses_shards_of_another_benchmark_or_version() -> None:
    from benchmark_schema_mutation import benchmark as schema_mutation

    shards = [example.run(mock_adapter(), shard=f"{i}/2") for i in (1, 2)]
    other = "is a shard of benchmark 'benchmark-core-example', not 'benchmark-schema-mutation'"
    with pytest.raises(ShardMergeError, match=re.escape(other)):
        merge_shards(schema_mutation, shards)
    older = [attrs.evolve(s, version="0.0.9") for s in shards]
    with pytest.raises(ShardMergeError, match=re.escape(f"version 0.0.9; this is version {example.version}")):
        merge_shards(example, older)
    mixed = [shards[0], attrs.evolve(shards[1], version="0.0.9")]
    disagree = f'shards disagree on version: "{example.version}" in shard report 1, "0.0.9" in shard report 2'
    with pytest.raises(ShardMergeError, match=re.escape(disagree)):
        merge_shards(example, mixed)
