"""The real split (issue 32): its composition and traceability, the generator's bytes, and the
validity proofs over every task (oracle, stale, controls, shortcuts, drift with Twilio's errors), the
report's dimensions and year table, the hidden real split and the mock's skill ranking."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import Task, TaskScore, ToolCall, ToolLogEntry, Trace, mock_adapter
from benchmark_core.wire import first_violation
from benchmark_schema_mutation import PUBLIC_SEED, benchmark, generate_tasks, render_tasks
from benchmark_schema_mutation.generator import main

REAL = "tasks-real.jsonl"
ROOT_DIR = Path(__file__).resolve().parents[3]
BREAKING = ("removedField", "renamedField", "newRequired", "enumChange", "typeChange", "removedOperation")


@pytest.fixture(scope="module")
def real() -> list[Task]:
    return benchmark.tasks("real")


@pytest.fixture(scope="module")
def changes() -> dict[str, Any]:
    assert benchmark.data_dir is not None
    data = json.loads((benchmark.data_dir / "real-changes.json").read_text(encoding="utf-8"))
    return {change["id"]: change for change in data["changes"]}


def _grade(task: Task, trace: Trace) -> TaskScore:
    return benchmark.grader(task, trace, benchmark.grade_context())  # type: ignore[return-value]


def _log(*calls: dict[str, Any]) -> list[ToolLogEntry]:
    return [ToolLogEntry(name=c["name"], arguments=c["arguments"], call_id=f"c{i}") for i, c in enumerate(calls)]


def test_the_generator_writes_the_committed_real_split_byte_for_byte() -> None:
    assert benchmark.data_dir is not None
    assert render_tasks(PUBLIC_SEED, "real").encode("utf-8") == (benchmark.data_dir / REAL).read_bytes()
    assert benchmark.task_file("real") == benchmark.data_dir / REAL


def test_composition(real: list[Task], changes: dict[str, Any]) -> None:
    kinds = Counter(task.metadata["mutationKind"] for task in real)
    breaking = [t for t in real if t.metadata["changeKind"] in BREAKING]
    assert len(breaking) >= 200, len(breaking)
    used = {t.metadata["changeId"] for t in breaking}
    assert len(used) >= 60, len(used)
    assert len({changes[c]["product"] for c in used}) >= 10
    assert kinds["control"] >= 40 and kinds["noCall"] >= 15 and kinds["drift"] >= 20, kinds
    assert {t.metadata["driftOf"] for t in real if t.kind == "episode"} == {"removedField", "newRequired"}
    # Every change of the data file gives tasks, but an operation withdrawn with its whole API (no
    # current tool to show); and the ids are unique.
    withdrawn = {i for i, c in changes.items() if c["kind"] == "removedOperation" and not c["remaining"]}
    assert {t.metadata["changeId"] for t in real} == set(changes) - withdrawn
    assert len({t.id for t in real}) == len(real)


def test_every_task_traces_to_a_release_tag_and_a_changelog_entry(real: list[Task], changes: dict[str, Any]) -> None:
    for task in real:
        meta = task.metadata
        change = changes[meta["changeId"]]
        assert meta["releaseTags"] == [change["fromTag"], change["toTag"]], task.id
        assert meta["changelog"] == {
            "file": "CHANGES.md",
            "release": change["toTag"],
            "position": change["changelog"]["position"],
        }
        assert isinstance(meta["changelog"]["position"], int) and meta["changelog"]["position"] >= 1
        assert meta["releaseDate"] == change["releaseDate"] and meta["changeYear"] == change["releaseDate"][:4]
        assert meta["changeKind"] == change["kind"] and meta["product"] == change["product"]
        assert meta["operation"] == f"{change['api']}.{change['operationId']}" == meta["baseSchema"]
        assert len(meta["commits"]) == 2 and all(len(c) == 40 for c in meta["commits"])
        # The tools come from the release after the change; the stale call from the one before.
        assert meta["schemaVersion"] == change["toTag"] and meta["previousVersion"] == change["fromTag"]


def _tool(task: Task, name: str) -> Any:
    return next((t for t in task.tools if t.name == name), None)


def test_expected_is_valid_after_and_stale_fails_except_on_controls(real: list[Task]) -> None:
    for task in real:
        stale = task.metadata["staleCall"]
        previous = {t["name"]: t for t in task.metadata["previousTools"]}
        assert first_violation(stale["arguments"], previous[stale["name"]]["parameters"]) is None, task.id
        current = _tool(task, stale["name"])
        stale_fails = current is None or first_violation(stale["arguments"], current.parameters) is not None
        if task.metadata["mutationKind"] == "noCall":
            continue
        tool = _tool(task, task.expected["name"])
        assert tool is not None and first_violation(task.expected["arguments"], tool.parameters) is None, task.id
        if task.metadata["mutationKind"] == "control":
            assert stale == task.expected and not stale_fails, task.id
        else:
            assert stale != task.expected and stale_fails, task.id


def test_no_call_tasks_need_what_the_change_removed(real: list[Task]) -> None:
    for task in (t for t in real if t.metadata["mutationKind"] == "noCall"):
        stale = task.metadata["staleCall"]
        current = _tool(task, stale["name"])
        if task.metadata["changeKind"] == "removedOperation":
            assert current is None, task.id
        else:
            assert current is not None and first_violation(stale["arguments"], current.parameters) is not None, task.id


def _oracle(task: Task) -> Trace:
    if task.kind == "episode":
        return Trace(tool_log=_log(task.metadata["staleCall"], task.expected))
    return Trace(answer=json.dumps(task.expected))


def _stale(task: Task) -> Trace:
    stale = task.metadata["staleCall"]
    return Trace(tool_log=_log(stale, stale)) if task.kind == "episode" else Trace(answer=json.dumps(stale))


def test_the_oracle_scores_one_and_the_stale_answer_zero_with_stale_schema_used(real: list[Task]) -> None:
    for task in real:
        assert _grade(task, _oracle(task)).score == 1.0, (task.id, _grade(task, _oracle(task)).reason)
        if task.kind == "single" and task.metadata["mutationKind"] != "noCall":
            native = Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=task.expected["arguments"])])
            assert _grade(task, native).score == 1.0, task.id
        verdict = _grade(task, _stale(task))
        if task.metadata["mutationKind"] == "control":
            assert verdict.score == 1.0, task.id  # the old call is still right after an additive change
        elif task.metadata["mutationKind"] == "noCall":
            assert verdict.score == 0.0 and verdict.details["outcome"] == "unexpectedCall", task.id
        else:
            assert verdict.score == 0.0 and verdict.details["staleSchemaUsed"] is True, (task.id, verdict.reason)


def _replayed(task: Task) -> Trace:
    """Another task's right answer, replayed."""
    other = next(t for t in benchmark.tasks("real") if t.metadata["operation"] != task.metadata["operation"])
    return _oracle(other) if task.kind == other.kind else Trace(answer=json.dumps(other.expected))


SHORTCUTS: dict[str, Callable[[Task], Trace]] = {
    "empty": lambda task: Trace(),
    "empty native": lambda task: Trace(answer="", tool_calls=[]),
    "junk": lambda task: Trace(answer='Sure! {not json} {"name": 3}'),
    "replayed": _replayed,
}


@pytest.mark.parametrize("name", sorted(SHORTCUTS))
def test_empty_junk_and_replayed_answers_score_zero(real: list[Task], name: str) -> None:
    for task in real:
        verdict = _grade(task, SHORTCUTS[name](task))
        assert verdict.score == 0.0, (name, task.id, verdict.reason)


def test_a_control_fails_when_the_model_invents_the_new_parameter(real: list[Task]) -> None:
    from benchmark_schema_mutation._policies import over_adapted_call

    for task in (t for t in real if t.metadata["mutationKind"] == "control"):
        call = over_adapted_call(task)
        assert task.metadata["addedField"] in call["arguments"]
        assert _grade(task, Trace(answer=json.dumps(call))).score == 0.0, task.id


def test_drift_episodes_answer_with_twilios_error_shape(real: list[Task]) -> None:
    from benchmark_schema_mutation._drift import DRIFT_CODES, DriftSimulator

    for task in (t for t in real if t.kind == "episode"):
        env = DriftSimulator()
        env.reset(task, 1)
        stale = task.metadata["staleCall"]
        error = env.call_tool(stale["name"], dict(stale["arguments"])).error
        assert error is not None and error.code in DRIFT_CODES, task.id
        status, body = error.message.split(": ", 1)
        payload = json.loads(body)
        assert status == "400 Bad Request" and payload["code"] == 20001 and payload["status"] == 400
        assert payload["more_info"] == "https://www.twilio.com/docs/errors/20001"
        field = task.metadata["mutatedElements"][0]["field"]
        wording = "Missing required parameter" if task.metadata["driftOf"] == "newRequired" else "Unknown parameter"
        assert payload["message"].startswith(f"{wording} {field} "), payload
        accepted = env.call_tool(task.expected["name"], dict(task.expected["arguments"]))
        assert accepted.error is None and env.done(), task.id


@pytest.fixture(scope="module")
def mock_report() -> Any:
    return benchmark.run(mock_adapter(), tasks="real", concurrency=16)


def test_the_report_has_the_real_dimensions_and_ends_with_the_score_by_year(real: list[Task], mock_report: Any) -> None:
    from benchmark_core.reports import render_markdown

    report = mock_report
    assert report.totals.tasks == len(real) and report.totals.failed == 0
    assert {"product", "changeKind", "changeYear", "baseSchema", "mutationKind"} <= set(report.groups)
    years = report.summary["perChangeYear"]
    assert sum(entry["tasks"] for entry in years.values()) == len(real)
    markdown = render_markdown(report, benchmark)
    tail = markdown[markdown.index("## Score by release year of the change") :]
    assert tail.count("\n## ") == 0, "the year table ends the report"
    for year, entry in years.items():
        assert f"| {year} | {entry['tasks']} | {entry['passed']} |" in tail
    assert "95% Wilson interval" in tail


def test_the_interval_resamples_operations(real: list[Task], mock_report: Any) -> None:
    from benchmark_core.reports import render_markdown

    operations = {t.metadata["operation"] for t in real}
    assert f"resampling {len(operations)} baseSchema clusters" in render_markdown(mock_report, benchmark)


def test_mock_skills_rank_in_order_on_the_real_split() -> None:
    means = [
        benchmark.run(mock_adapter(model="mock-real"), tasks="real", mock_skill=skill, concurrency=32).mean
        for skill in (0.5, 0.6, 0.7)
    ]
    assert means == sorted(means) and len(set(means)) == 3, means


def test_the_hidden_real_split_draws_other_requests_over_the_same_changes(
    real: list[Task], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hidden = generate_tasks(48213, "hidden-real")
    assert [t.metadata["changeId"] for t in hidden] == [t.metadata["changeId"] for t in real]
    assert all(t.id.startswith("hidreal-") for t in hidden)
    same = sum(h.metadata["request"] == r.metadata["request"] for h, r in zip(hidden, real))
    assert same <= len(real) // 10, same
    monkeypatch.chdir(tmp_path)
    main(["--split", "hidden-real", "--seed", "48213"])
    assert (tmp_path / ".hidden" / REAL).read_text(encoding="utf-8") == render_tasks(48213, "hidden-real")
    with pytest.raises(SystemExit):
        main(["--split", "hidden-real"])


def test_the_live_subset_keeps_the_changes_released_since_a_date(real: list[Task], tmp_path: Path) -> None:
    from benchmark_schema_mutation.live import live_tasks
    from benchmark_schema_mutation.live import main as live_main

    live = live_tasks(real, "2025-01-01")
    assert live and all(t.metadata["releaseDate"] >= "2025-01-01" for t in live)
    assert len(live) == sum(t.metadata["releaseDate"] >= "2025-01-01" for t in real) < len(real)
    out = tmp_path / "live.jsonl"
    assert live_main(["--since", "2025-01-01", "--out", str(out)]) == 0
    assert [t.id for t in benchmark.tasks(str(out))] == [t.id for t in live]
    with pytest.raises(SystemExit):
        live_main(["--since", "2099-01-01", "--out", str(out)])
    with pytest.raises(SystemExit):
        live_main(["--since", "January", "--out", str(out)])


def real_split_tables(tasks: list[Task]) -> str:
    """The tables of docs/benchmarks/schema-mutation.md: the real split's tasks by kind, product and year."""
    sections = []
    for title, key in (("change kind", "changeKind"), ("task kind", "mutationKind"), ("product", "product")):
        counts = Counter(t.metadata[key] for t in tasks)
        changes = {k: len({t.metadata["changeId"] for t in tasks if t.metadata[key] == k}) for k in counts}
        rows = [f"| {k} | {changes[k]} | {n} |" for k, n in sorted(counts.items())]
        sections.append("\n".join([f"| {title.capitalize()} | Changes | Tasks |", "| --- | ---: | ---: |", *rows]))
    years = Counter(t.metadata["changeYear"] for t in tasks)
    kinds = sorted({t.metadata["mutationKind"] for t in tasks})
    head = "| Release year | " + " | ".join(kinds) + " | all |"
    rows = []
    for year in sorted(years):
        of_year = [t for t in tasks if t.metadata["changeYear"] == year]
        cells = " | ".join(str(sum(t.metadata["mutationKind"] == k for t in of_year)) for k in kinds)
        rows.append(f"| {year} | {cells} | {len(of_year)} |")
    sections.append("\n".join([head, "| --- |" + " ---: |" * (len(kinds) + 1), *rows]))
    return "\n\n".join(sections) + "\n"


def test_the_docs_table_counts_the_committed_split(real: list[Task]) -> None:
    page = (ROOT_DIR / "docs" / "benchmarks" / "schema-mutation.md").read_text(encoding="utf-8")
    shown = page.split("<!-- real-split tables: start -->\n", 1)[1].split("<!-- real-split tables: end -->", 1)[0]
    assert shown == real_split_tables(real)


def test_a_sweep_of_three_mock_skills_ranks_them_and_the_view_shows_the_year(tmp_path: Path) -> None:
    """The leaderboard ranks the skills in order on the real split, and the results browser's group
    page has a table by release year (the `changeYear` dimension), as it has one per dimension."""
    from benchmark_core.sweep import build_leaderboard, run_sweep
    from benchmark_core.view import ResultsCatalog, write_site

    models = "".join(
        f'[[models]]\nlabel = "skill-{skill}"\nprovider = "mock"\nmodel = "mock-real"\nmock_skill = 0.{skill}\n'
        for skill in (5, 6, 7)
    )
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(
        f'results = "results"\n[options]\ncache = false\n{models}'
        f'[[benchmarks]]\nid = "{benchmark.id}"\ntasks = "real"\n',
        encoding="utf-8",
    )
    assert run_sweep(sweep).completed
    results = tmp_path / "results"
    (group,) = build_leaderboard(results).groups
    assert [entry.label for entry in group.entries] == ["skill-7", "skill-6", "skill-5"]
    catalog = ResultsCatalog([results], resamples=200)
    (view,) = catalog.groups
    assert {"product", "changeKind", "changeYear"} <= set(view.dimensions)
    cells = view.dimension_cells("changeYear")
    assert all(set(row) == {"2021", "2022", "2023", "2024", "2025", "2026"} for row in cells.values())
    site = tmp_path / "site"
    write_site(catalog, site)
    pages = "".join(path.read_text(encoding="utf-8") for path in site.rglob("*.html"))
    assert 'data-dimension="changeYear"' in pages and "by change year" in pages


def test_the_real_split_runs_in_native_mode(real: list[Task]) -> None:
    assert all(task.tools for task in real if task.kind == "single")
    report = benchmark.run(mock_adapter(), tasks="real", mode="native", concurrency=16)
    assert report.totals.tasks == len(real) and report.totals.failed == 0 and 0.4 < report.mean < 0.6
