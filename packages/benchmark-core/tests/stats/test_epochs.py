"""`--epochs K`: every task K times, rows carrying their epoch, pass@1, pass^k, pass@k and the flip
rate, an interval that resamples tasks, the cache keyed on the epoch, resume and compare epoch by
epoch, and `--epochs 1` giving exactly the report of a run without epochs."""

from __future__ import annotations

import json
from pathlib import Path

from benchmark_core import mock_adapter, openai_compat_adapter, run
from benchmark_core.cli import create_cli
from benchmark_core.example import benchmark as example
from benchmark_core.reports._card import render_card
from benchmark_core.reports._report import render_markdown, render_summary
from benchmark_core.stats import cluster_bootstrap_ci, compare_reports
from benchmark_core.testing import FakeOpenAI, FakeResponse, stable_report
from benchmark_core.wire._converter import to_wire
from click.testing import CliRunner


def test_one_epoch_is_exactly_a_run_without_epochs() -> None:
    plain = example.run(mock_adapter())
    one = example.run(mock_adapter(), epochs=1)
    assert stable_report(to_wire(one)) == stable_report(to_wire(plain))
    assert "epochs" not in to_wire(one) and all("epoch" not in row for row in to_wire(one)["rows"])


def test_epochs_figures_match_a_hand_count() -> None:
    report = example.run(mock_adapter(), epochs=3)
    ids = [t.id for t in example.tasks()]
    assert [(r.task_id, r.epoch) for r in report.rows] == [(t, e) for t in ids for e in (1, 2, 3)]
    verdicts: dict[str, list[bool]] = {}
    for row in report.rows:
        verdicts.setdefault(row.task_id, []).append(row.passed)
    n = len(verdicts)
    assert report.epochs == 3 and report.totals.tasks == 3 * n
    assert report.pass_at1 == sum(sum(v) / 3 for v in verdicts.values()) / n
    assert report.pass_hat_k == sum(all(v) for v in verdicts.values()) / n
    assert report.pass_at_k == sum(any(v) for v in verdicts.values()) / n
    assert report.flip_rate == sum(any(v) and not all(v) for v in verdicts.values()) / n
    # The mock varies by epoch (30% of tasks flip in each later epoch), so the figures differ.
    assert report.pass_hat_k < report.pass_at1 < report.pass_at_k and report.flip_rate > 0
    # Epoch 1 is the run without epochs, row for row.
    plain = example.run(mock_adapter())
    assert [r.score for r in report.rows if r.epoch == 1] == [r.score for r in plain.rows]
    # The interval resamples tasks with all their epochs, not rows.
    by_task = [[r.score for r in report.rows if r.task_id == t] for t in ids]
    assert report.confidence_interval95 == cluster_bootstrap_ci(by_task, seed=report.seed)


def test_the_summary_markdown_and_card_show_pass_hat_k_and_the_flip_rate() -> None:
    report = example.run(mock_adapter(), epochs=3)
    k_line = (
        f"- Epochs: pass@1 {report.pass_at1 * 100:.1f}%, pass^3 {report.pass_hat_k * 100:.1f}%, "  # type: ignore[operator]
        f"pass@3 {report.pass_at_k * 100:.1f}%, flip rate {report.flip_rate * 100:.1f}%"  # type: ignore[operator]
    )
    for text in (render_summary(report, example), render_markdown(report, example)):
        assert k_line in text
        assert "- Tasks: 21 × 3 epochs = 63 rows" in text
    card = render_card(report, example)
    assert ">pass^3<" in card and ">flip rate<" in card and "tasks × 3" in card
    assert "pass^" not in render_summary(example.run(mock_adapter()), example)


async def test_the_cache_keys_on_the_epoch(tmp_path: Path) -> None:
    async with FakeOpenAI(default=FakeResponse.text("4")) as server:
        adapter = openai_compat_adapter(server.base_url, "m", "sk-test")
        first = await run(example, adapter, task_ids=["arith-01", "arith-02"], epochs=2, cache=str(tmp_path))
        assert server.received == 4  # each epoch is its own sample, not a cache hit of the first
        again = await run(example, adapter, task_ids=["arith-01", "arith-02"], epochs=2, cache=str(tmp_path))
        assert server.received == 4
    assert again.cache is not None and again.cache.hits == 4
    assert [r.epoch for r in first.rows] == [1, 2, 1, 2]


async def test_resume_keeps_rows_per_task_and_epoch(tmp_path: Path) -> None:
    full = await run(example, mock_adapter(), epochs=2)
    journal = tmp_path / "j.jsonl"
    stopped = await run(example, mock_adapter(), epochs=2, journal=journal)
    lines = journal.read_text(encoding="utf-8").split("\n")
    # Keep the header and the rows of epoch 1 only, as a run killed half-way would leave them.
    rows = [json.loads(line) for line in lines[1:] if line]
    kept = [lines[0]] + [json.dumps(r) for r in rows if "row" in r and r["row"].get("epoch") == 1]
    journal.write_text("\n".join(kept) + "\n", encoding="utf-8")
    resumed = await run(example, mock_adapter(), epochs=2, journal=journal, resume=True)
    assert stable_report(to_wire(resumed)) == stable_report(to_wire(full)) == stable_report(to_wire(stopped))


def test_compare_matches_epoch_by_epoch_and_skips_mcnemar(tmp_path: Path) -> None:
    a = example.run(mock_adapter(), epochs=3, seed=1)
    b = example.run(mock_adapter(), epochs=3, seed=2)
    comparison = compare_reports([a, b], labels=["a", "b"], resamples=2_000)
    assert (comparison.tasks, comparison.epochs) == (21, 3)
    [difference] = comparison.differences
    assert difference.mcnemar is None
    assert difference.mean_difference == sum(y.score - x.score for x, y in zip(a.rows, b.rows)) / 63
    paths = []
    for name, report in (("a", a), ("b", b)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(to_wire(report)), encoding="utf-8")
        paths.append(str(path))
    result = CliRunner().invoke(create_cli(example, "benchmark-core"), ["compare", *paths])
    assert result.exit_code == 0, result.output
    assert "- Tasks compared: 21 × 3 epochs, matched epoch by epoch" in result.stdout
    assert "no McNemar test" in result.stdout


def test_score_regrades_each_epoch_with_its_own_seed(tmp_path: Path) -> None:
    report = example.run(mock_adapter(), epochs=3)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(to_wire(report)), encoding="utf-8")
    result = CliRunner().invoke(create_cli(example, "benchmark-core"), ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["count"], data["changed"]) == (63, 0)
