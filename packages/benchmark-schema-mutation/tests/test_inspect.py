"""Schema Mutation under Inspect AI: per-sample scores equal our report's rows for the same answers,
in prompt and native mode. Run by `nox -s inspect`."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_core import mock_adapter
from benchmark_core.inspect_task import inspect_task
from benchmark_core.testing.inspect_eval import (
    FixedAnswerAdapter,
    inspect_eval_cli,
    offline_mockllm,
    report_rows,
    sample_rows,
)
from benchmark_schema_mutation import benchmark
from inspect_ai import eval as inspect_eval

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_inspect_eval_cli_with_the_mock_scores_every_sample_as_our_report_does(tmp_path: Path) -> None:
    log = inspect_eval_cli("benchmark_schema_mutation/schema_mutation", "benchmark-mock/offline", tmp_path)
    assert log.status == "success"
    ours = benchmark.run(mock_adapter())
    rows = sample_rows(log)
    assert rows == report_rows(ours)
    assert sum(r.passed for r in rows.values()) == 30


def test_native_mode_offers_the_schema_as_tools_and_scores_the_calls_as_our_report_does(tmp_path: Path) -> None:
    log = inspect_eval_cli(
        "benchmark_schema_mutation/schema_mutation", "benchmark-mock/offline", tmp_path, "-T", "mode=native"
    )
    assert log.status == "success"
    assert log.eval.task_args["mode"] == "native"
    ours = benchmark.run(mock_adapter(), mode="native")
    assert sample_rows(log) == report_rows(ours)
    stale = [
        s
        for s in log.samples or []
        if s.scores and "staleSchemaUsed" in (s.scores["benchmark_scorer"].explanation or "")
    ]
    assert stale, "the mock's bad half includes stale calls"


@pytest.mark.parametrize("mode", ["prompt", "native"])
def test_mockllm_text_is_scored_as_our_report_scores_the_same_text(tmp_path: Path, mode: str) -> None:
    [log] = inspect_eval(
        inspect_task(benchmark, mode=mode), model=offline_mockllm(), log_dir=str(tmp_path), display="none"
    )
    ours = report_rows(benchmark.run(FixedAnswerAdapter(), mode=mode))
    assert sample_rows(log) == ours
    assert not any(row.passed for row in ours.values())
