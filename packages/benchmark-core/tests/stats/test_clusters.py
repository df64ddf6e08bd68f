"""Clustered intervals: a benchmark names a group dimension (`cluster_by`) whose tasks are correlated;
the report's interval then resamples those groups with all their tasks and epochs, says so, and
`compare` pairs the same way."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Optional

import attrs
import pytest
from benchmark_core import Benchmark, RunReport, define_benchmark, mock_adapter
from benchmark_core._model import Provenance, Task, TaskScore, Trace
from benchmark_core.errors import DefinitionError
from benchmark_core.reports import render_markdown, render_report_html
from benchmark_core.stats import (
    cluster_bootstrap_ci,
    compare_reports,
    paired_bootstrap_ci,
    render_comparison,
    render_comparison_html,
)
from benchmark_core.wire import dumps

Labeler = Callable[[Task], dict[str, str]]


def _family(task: Task) -> dict[str, str]:
    return {"family": str(task.metadata["family"]), "half": "early" if int(task.id[1:]) < 6 else "late"}


def _grade(task: Task, trace: Trace, ctx: object) -> TaskScore:
    ok = trace.answer == task.expected
    return TaskScore(1.0 if ok else 0.0, ok, "")


def _bench(groups: Optional[Labeler] = _family, cluster_by: Optional[str] = "family", n: int = 12) -> Benchmark:
    # The mock answers even positions well, so families f0 and f2 pass every task and f1 and f3
    # fail every one: tasks of one family are perfectly correlated.
    tasks = [
        Task(id=f"q{i}", kind="single", prompt=f"say {i}", expected=str(i), metadata={"family": f"f{i % 4}"})
        for i in range(n)
    ]
    return define_benchmark(
        id="clustered",
        name="Clustered",
        tagline="t",
        tags=[],
        category="c",
        what_it_measures="w",
        version="1",
        status="alpha",
        grade=_grade,
        provenance=[Provenance("n", "synthetic", "u", "MIT", "h", "r", "c", "f")],
        grading_method="g",
        tasks=tasks,
        groups=groups,
        cluster_by=cluster_by,
    )


def _by_family(report: RunReport) -> list[list[float]]:
    families: dict[str, list[float]] = {}
    for row in report.rows:
        families.setdefault(row.groups["family"], []).append(row.score)
    return list(families.values())


def test_the_interval_resamples_clusters_and_the_report_says_so() -> None:
    report = _bench().run(mock_adapter())
    assert (report.clustered_by, report.clusters) == ("family", 4)
    assert report.confidence_interval95 == cluster_bootstrap_ci(_by_family(report), seed=report.seed)
    plain = _bench(cluster_by=None).run(mock_adapter())
    assert plain.clustered_by is None and plain.clusters is None
    # Correlated tasks: four clusters carry less information than twelve independent tasks.
    width = report.confidence_interval95.high - report.confidence_interval95.low
    assert width > plain.confidence_interval95.high - plain.confidence_interval95.low
    document = json.loads(dumps(report))
    assert document["clusteredBy"] == "family" and document["clusters"] == 4
    assert "clusteredBy" not in json.loads(dumps(plain)) and "clusters" not in json.loads(dumps(plain))
    assert "(resampling 4 family clusters, each with all its tasks)" in render_markdown(report)
    assert "resampling" not in render_markdown(plain)
    assert 'id="interval-method">resampling 4 family clusters, each with all its tasks<' in render_report_html(report)
    assert 'id="interval-method"' not in render_report_html(plain)


def test_epochs_of_a_cluster_are_resampled_with_it() -> None:
    report = _bench().run(mock_adapter(), epochs=3)
    assert report.clusters == 4 and len(report.rows) == 36
    assert report.confidence_interval95 == cluster_bootstrap_ci(_by_family(report), seed=report.seed)


@pytest.mark.parametrize(
    ("groups", "n"),
    [
        (lambda task: {"family": "f0"} if task.id != "q3" else {}, 12),  # a row without the label
        (lambda task: {"family": "one"}, 12),  # one cluster has no spread to resample
    ],
)
def test_tasks_are_resampled_when_the_labels_cannot_cluster(groups: Labeler, n: int) -> None:
    report = _bench(groups=groups, n=n).run(mock_adapter())
    assert report.clustered_by is None and report.clusters is None
    tasks = [[row.score] for row in report.rows]
    assert report.confidence_interval95 == cluster_bootstrap_ci(tasks, seed=report.seed)


def test_cluster_by_needs_a_group_dimension() -> None:
    with pytest.raises(DefinitionError, match="declares no groups"):
        _bench(groups=None)
    with pytest.raises(DefinitionError, match="cluster_by must name a group dimension"):
        _bench(cluster_by="")


def test_compare_pairs_clusters_and_drops_mcnemar() -> None:
    bench = _bench()
    first = bench.run(mock_adapter())
    # The second run passes one more task of a failing family.
    rows = [attrs.evolve(r, score=1.0, passed=True) if r.task_id == "q1" else r for r in first.rows]
    second = attrs.evolve(first, rows=rows, model="n")
    comparison = compare_reports([first, second], seed=3, resamples=500)
    assert (comparison.clustered_by, comparison.clusters) == ("family", 4)
    diff = comparison.differences[0]
    a = [row.score for row in first.rows]
    b = [row.score for row in second.rows]
    keys = [row.groups["family"] for row in first.rows]
    assert diff.confidence_interval95 == paired_bootstrap_ci(a, b, clusters=keys, seed=3, resamples=500)
    assert diff.mcnemar is None
    # Each run's own interval is its report's.
    assert comparison.runs[0].confidence_interval95 == first.confidence_interval95
    # Within a group spanning several clusters, clusters are paired; a group of the clustering
    # dimension itself is one cluster, so its tasks are.
    early = [i for i, row in enumerate(first.rows) if row.groups["half"] == "early"]
    assert diff.groups["half"]["early"].confidence_interval95 == paired_bootstrap_ci(
        [a[i] for i in early], [b[i] for i in early], clusters=[keys[i] for i in early], seed=3, resamples=500
    )
    f1 = [i for i, key in enumerate(keys) if key == "f1"]
    assert diff.groups["family"]["f1"].confidence_interval95 == paired_bootstrap_ci(
        [a[i] for i in f1], [b[i] for i in f1], clusters=[first.rows[i].task_id for i in f1], seed=3, resamples=500
    )
    text = render_comparison(comparison)
    assert "- Paired bootstrap over 4 family clusters: 500 resamples, seed 3; no McNemar test" in text
    assert "(the tasks of one family are not independent pairs)" in text
    assert "500 resamples over 4 family clusters, seed 3" in render_comparison_html(comparison)
    assert "clusteredBy" in json.loads(dumps(comparison))


def test_compare_without_clusters_is_unchanged() -> None:
    first = _bench(cluster_by=None).run(mock_adapter())
    comparison = compare_reports([first, first], resamples=200)
    assert comparison.clustered_by is None and comparison.differences[0].mcnemar is not None
    assert "Paired bootstrap over tasks: 200 resamples" in render_comparison(comparison)
    assert "clusteredBy" not in json.loads(dumps(comparison))
