"""The bundled example: committed data reproduced byte for byte, and a deterministic mock run."""

from __future__ import annotations

from benchmark_core import mock_adapter
from benchmark_core.data import dump_task_file, provenance_markdown
from benchmark_core.example import benchmark
from benchmark_core.example.generator import SEED, generate


def test_generator_reproduces_the_committed_tasks() -> None:
    assert benchmark.data_dir is not None
    committed = (benchmark.data_dir / "tasks.jsonl").read_text(encoding="utf-8")
    assert dump_task_file(generate(SEED)) == committed
    assert dump_task_file(generate(SEED + 1)) != committed


def test_provenance_file_is_rendered_from_the_definition() -> None:
    assert benchmark.data_dir is not None
    committed = (benchmark.data_dir / "PROVENANCE.md").read_text(encoding="utf-8")
    assert provenance_markdown(benchmark) == committed


def test_twenty_arithmetic_tasks_and_one_episode() -> None:
    tasks = benchmark.tasks()
    assert [t.kind for t in tasks].count("single") == 20
    assert [t.kind for t in tasks].count("episode") == 1
    assert all(isinstance(t.expected, int) for t in tasks if t.kind == "single")


def test_mock_run_mean_is_strictly_between_zero_and_one() -> None:
    report = benchmark.run(mock_adapter())  # a plain mock plays the benchmark's own episode scripts
    assert report.totals.tasks == 21
    assert report.totals.passed == 11
    assert report.totals.failed == 0
    assert 0 < report.mean < 1
    assert report.mean == 11 / 21
    again = benchmark.run(mock_adapter())
    assert again.confidence_interval95 == report.confidence_interval95
    assert [r.score for r in again.rows] == [r.score for r in report.rows]
