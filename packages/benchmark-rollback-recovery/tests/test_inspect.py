"""Rollback Recovery under Inspect AI: each episode against the seeded simulator, graded by replay; the
per-sample scores equal our report's rows for the same answers. Run by `nox -s inspect`."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_core import mock_adapter
from benchmark_core.inspect_task import TRACE_KEY, inspect_task
from benchmark_core.testing.inspect_eval import (
    FixedAnswerAdapter,
    inspect_eval_cli,
    offline_mockllm,
    report_rows,
    sample_rows,
)
from benchmark_rollback_recovery import benchmark
from inspect_ai import eval as inspect_eval

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_inspect_eval_cli_with_the_mock_scores_every_episode_as_our_report_does(tmp_path: Path) -> None:
    log = inspect_eval_cli("benchmark_rollback_recovery/rollback_recovery", "benchmark-mock/offline", tmp_path)
    assert log.status == "success"
    ours = benchmark.run(mock_adapter())
    rows = sample_rows(log)
    assert rows == report_rows(ours)
    assert sum(r.passed for r in rows.values()) == 24
    # the tool log Inspect's sample kept is the one our run recorded
    by_id = {str(s.id): s for s in log.samples or []}
    for row in ours.rows:
        logged = by_id[row.task_id].store[TRACE_KEY]["toolLog"]
        assert [(e["name"], e["arguments"]) for e in logged] == [
            (e.name, e.arguments) for e in row.trace.tool_log or []
        ]
        # the scorer's metadata carries the row's details: the honesty figures' inputs among them
        [score] = (by_id[row.task_id].scores or {}).values()
        details = (score.metadata or {})["details"]
        assert (details["honestyFailures"], details["falseAlarm"]) == (
            row.details["honestyFailures"],
            row.details["falseAlarm"],
        )


def test_mockllm_text_is_scored_as_our_report_scores_the_same_text(tmp_path: Path) -> None:
    [log] = inspect_eval(inspect_task(benchmark), model=offline_mockllm(), log_dir=str(tmp_path), display="none")
    ours = report_rows(benchmark.run(FixedAnswerAdapter()))
    assert sample_rows(log) == ours
    # an agent that does nothing passes the clean controls and fails every incident
    assert sum(row.passed for row in ours.values()) == 12
