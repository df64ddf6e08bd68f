"""The full split: its composition, its generator, and the validity proofs (oracle, shortcuts, the
decline format, drift episodes), as for the public split."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import GradeContext, Task, TaskScore, ToolCall, ToolLogEntry, Trace, mock_adapter
from benchmark_core.data import load_task_file
from benchmark_core.testing import AlwaysGoodMock
from benchmark_core.wire import first_difference, first_violation
from benchmark_schema_mutation import ALL_KINDS, PUBLIC_SEED, benchmark, generate_tasks, render_tasks
from benchmark_schema_mutation.generator import main

FULL = "tasks-full.jsonl"
#: The committed public and extended splits: they stay byte for byte as they were released.
FROZEN = {
    "tasks.jsonl": "191abc156cc3d84291da10e50a954e119ab7e184a392bc7048fc18d0708a7b91",
    "tasks-extended.jsonl": "cf3fafa10ce76ac56c5c75d290a4017ce3ed51d0c34ede5f691b9d8ede9edeb9",
}
DECLINE = '{"decline": "the request cannot be carried out"}'


def _data(name: str) -> Path:
    assert benchmark.data_dir is not None
    return benchmark.data_dir / name


@pytest.fixture(scope="module")
def full() -> list[Task]:
    return benchmark.tasks("full")


def _grade(task: Task, trace: Trace) -> TaskScore:
    return benchmark.grader(task, trace, benchmark.grade_context())  # type: ignore[return-value]


def _log(*calls: dict[str, Any]) -> list[ToolLogEntry]:
    return [ToolLogEntry(name=c["name"], arguments=c["arguments"], call_id=f"c{i}") for i, c in enumerate(calls)]


def test_the_generator_writes_the_committed_full_split_byte_for_byte() -> None:
    assert render_tasks(PUBLIC_SEED, "full").encode("utf-8") == _data(FULL).read_bytes()
    assert benchmark.task_file("full") == _data(FULL)


@pytest.mark.parametrize("name", sorted(FROZEN))
def test_the_public_and_extended_files_are_unchanged(name: str) -> None:
    assert hashlib.sha256(_data(name).read_bytes()).hexdigest() == FROZEN[name]


def test_composition(full: list[Task]) -> None:
    from benchmark_schema_mutation._full import DRIFT_KINDS, FULL_REQUESTS
    from benchmark_schema_mutation._schemas.catalogue import ALL_SCHEMAS

    bases = [base.id for base in ALL_SCHEMAS]
    assert len({t.id for t in full}) == len(full)
    assert {t.metadata["baseSchema"] for t in full} == set(bases)
    kinds = Counter((t.metadata["baseSchema"], t.metadata["mutationKind"]) for t in full)
    for base in bases:
        for kind in ALL_KINDS:
            assert kinds[(base, kind)] == FULL_REQUESTS, (base, kind)
        assert kinds[(base, "noCall")] >= 1
        assert kinds[(base, "drift")] == len(DRIFT_KINDS)
    # Two requests of a kind differ in the call they need.
    by_pair: dict[tuple[str, str], list[str]] = {}
    for t in full:
        if t.kind == "single" and t.metadata["mutationKind"] != "noCall":
            by_pair.setdefault((t.metadata["baseSchema"], t.metadata["mutationKind"]), []).append(
                json.dumps(t.expected)
            )
    assert all(len(set(calls)) == len(calls) for calls in by_pair.values())
    episodes = [t for t in full if t.kind == "episode"]
    assert all(t.metadata["mutationKind"] == "drift" and t.metadata["driftOf"] in DRIFT_KINDS for t in episodes)


def test_the_full_split_is_large_enough_to_tell_models_apart(full: list[Task]) -> None:
    """Issue 17's sizes: at least 500 tasks from at least 36 base schemas, a noCall request for every
    base schema, and at least 120 drift episodes."""
    bases = {t.metadata["baseSchema"] for t in full}
    assert len(full) >= 500 and len(bases) >= 36
    assert {t.metadata["baseSchema"] for t in full if t.metadata["mutationKind"] == "noCall"} == bases
    assert sum(1 for t in full if t.kind == "episode") >= 120


def test_every_single_prompt_offers_the_decline_and_the_public_ones_do_not(full: list[Task]) -> None:
    from benchmark_schema_mutation._prompt import DECLINE_SENTENCE

    for task in full:
        if task.kind == "single":
            assert task.prompt.endswith(DECLINE_SENTENCE) and task.metadata["declineOffered"] is True, task.id
    for task in benchmark.tasks() + benchmark.tasks("extended"):
        assert "decline" not in task.prompt and "declineOffered" not in task.metadata
    # docs/grading.md states the same format the prompt offers and the grader reads.
    grading = (Path(__file__).parents[1] / "docs" / "grading.md").read_text(encoding="utf-8")
    assert (
        '{"decline": "<why, in one sentence>"}' in grading
        and '{"decline": "<why, in one sentence>"}' in DECLINE_SENTENCE
    )


# -- validity proofs ---------------------------------------------------------------------------------


def _oracle(task: Task) -> Trace:
    if task.kind == "episode":
        return Trace(tool_log=_log(task.metadata["staleCall"], task.expected))
    return Trace(answer=json.dumps(task.expected))


def _stale_only(task: Task) -> Trace:
    stale = task.metadata["staleCall"]
    if task.kind == "episode":
        return Trace(tool_log=_log(stale, stale, stale))
    return Trace(answer=json.dumps(stale))


def _always_decline(task: Task) -> Trace:
    return Trace(answer="The API cannot do this.") if task.kind == "episode" else Trace(answer=DECLINE)


SHORTCUTS: dict[str, Callable[[Task], Trace]] = {
    "stale-only": _stale_only,
    "do-nothing": lambda task: Trace(),
    "empty native": lambda task: Trace(answer="", tool_calls=[]),
    "garbage": lambda task: Trace(answer='Sure! {not json} I cannot tell {"name": 3}'),
    "prose refusal": lambda task: Trace(answer="I'm sorry, I can't do that with these tools."),
}


def test_the_oracle_scores_one_on_every_full_task(full: list[Task]) -> None:
    for task in full:
        verdict = _grade(task, _oracle(task))
        assert verdict.score == 1.0, (task.id, verdict.reason)
    drift = [t for t in full if t.kind == "episode"]
    assert all(_grade(t, _oracle(t)).details["adaptedAfterError"] is True for t in drift)
    # Native mode: the expected call as a tool call, and no tool call (with words) on noCall tasks.
    for task in full:
        if task.kind != "single":
            continue
        if task.metadata["mutationKind"] == "noCall":
            trace = Trace(answer="That tool was removed, so I cannot do it.", tool_calls=[])
        else:
            trace = Trace(tool_calls=[ToolCall(name=task.expected["name"], arguments=task.expected["arguments"])])
        assert _grade(task, trace).score == 1.0, task.id


@pytest.mark.parametrize("name", sorted(SHORTCUTS))
def test_shortcuts_score_zero(full: list[Task], name: str) -> None:
    for task in full:
        verdict = _grade(task, SHORTCUTS[name](task))
        assert verdict.score == 0.0, (name, task.id, verdict.reason)
        # In prompt mode nothing but the decline object declines (an episode's words are a native
        # answer without a call, which counts as declining there).
        if task.kind == "single":
            assert verdict.details.get("declined") is not True, (name, task.id)


def test_always_decline_scores_exactly_the_no_call_share(full: list[Task]) -> None:
    scores = [_grade(task, _always_decline(task)).score for task in full]
    no_call = sum(1 for task in full if task.metadata["mutationKind"] == "noCall")
    assert sum(scores) == no_call and no_call >= len({t.metadata["baseSchema"] for t in full})


def test_every_expected_call_is_valid_and_differs_from_the_stale_one(full: list[Task]) -> None:
    for task in full:
        stale = task.metadata["staleCall"]
        if task.metadata["mutationKind"] == "noCall":
            tools = {tool.name: tool for tool in task.tools}
            reason = task.metadata["noCallReason"]
            if reason == "removed":
                assert stale["name"] not in tools, task.id
            elif reason == "missingRequired":
                assert first_violation(stale["arguments"], tools[stale["name"]].parameters) is not None, task.id
            continue
        (tool,) = [t for t in task.tools if t.name == task.expected["name"]]
        assert first_violation(task.expected["arguments"], tool.parameters) is None, task.id
        assert stale != task.expected, task.id
        for element in task.metadata["mutatedElements"]:
            if element["signal"] == "oldEnumValue":
                assert not set(element["oldValues"]) & set(element["newValues"]), task.id
            if element["signal"] == "oldFieldName":
                assert element["field"] not in tool.parameters["properties"], task.id
            if element["signal"] == "oldUnit":  # the request's value in the old unit is not the answer
                new = task.expected["arguments"][element["field"]]
                assert first_difference(element["staleValue"], new, "") is not None, task.id


def test_drift_episodes_refuse_the_stale_call_with_a_real_api_error(full: list[Task]) -> None:
    from benchmark_schema_mutation._drift import DRIFT_CODES, DriftSimulator

    for task in (t for t in full if t.kind == "episode"):
        env = DriftSimulator()
        start = env.reset(task, 1)
        assert [tool.name for tool in start.tools] == [t["name"] for t in task.metadata["previousTools"]]
        refused = env.call_tool(task.metadata["staleCall"]["name"], dict(task.metadata["staleCall"]["arguments"]))
        assert refused.error is not None and refused.error.code in DRIFT_CODES, task.id
        assert task.metadata["schemaVersion"] in refused.error.message and not env.done()
        accepted = env.call_tool(task.expected["name"], dict(task.expected["arguments"]))
        assert accepted.error is None and env.done(), (task.id, accepted)
    renamed = next(t for t in full if t.metadata.get("driftOf") == "renamedField")
    element = renamed.metadata["mutatedElements"][0]
    env = DriftSimulator()
    env.reset(renamed, 1)
    error = env.call_tool(renamed.metadata["staleCall"]["name"], dict(renamed.metadata["staleCall"]["arguments"])).error
    assert error is not None
    assert error.message.startswith(
        f"400 Bad Request: unknown field '{element['field']}'; use '{element['replacement']}'"
    )


def test_drift_measures_count_turns_and_repeats(full: list[Task]) -> None:
    task = next(t for t in full if t.kind == "episode")
    stale, expected = task.metadata["staleCall"], task.expected
    verdict = _grade(task, Trace(tool_log=_log(stale, stale, stale, expected)))
    assert verdict.passed and verdict.details["turnsToAdapt"] == 3 and verdict.details["staleRepeats"] == 2
    assert verdict.details["outcome"] == "adapted"
    straight = _grade(task, Trace(tool_log=_log(expected)))
    assert straight.passed and straight.details["adaptedAfterError"] is False
    after = _grade(task, Trace(tool_log=_log(stale, expected, stale)))
    assert not after.passed, "the last call is graded"


# -- the mock, the report and the hidden split ---------------------------------------------------------


def test_the_mock_run_is_half_by_design_and_reports_abstention_and_drift(full: list[Task]) -> None:
    from benchmark_schema_mutation._schemas.catalogue import ALL_SCHEMAS

    for mode in ("prompt", "native"):
        report = benchmark.run(mock_adapter(), tasks="full", mode=mode)
        assert report.mean == 0.5 and len(report.rows) == len(full), mode
        assert (report.clustered_by, report.clusters) == ("baseSchema", len(ALL_SCHEMAS))
        assert report.summary["abstentionRate"] == 0.5 and report.summary["falseAbstentionRate"] == 0.0
        drift = report.summary["drift"]
        assert drift["episodes"] == sum(1 for t in full if t.kind == "episode")
        assert drift["adaptedAfterError"] * 2 == drift["episodes"] and drift["meanTurnsToAdapt"] == 1.0
        assert list(report.summary["perMutationKind"])[-2:] == ["noCall", "drift"]
        good = benchmark.run(AlwaysGoodMock(), tasks="full", mode=mode)
        assert good.mean == 1.0 and good.summary["abstentionRate"] == 1.0, mode


def _shown(task: Task) -> str:
    return json.dumps([[t.name, t.description, t.parameters] for t in task.tools], sort_keys=True)


def test_hidden_full_splits_share_at_most_a_tenth_of_their_current_schemas(full: list[Task]) -> None:
    committed = {_shown(task) for task in full}
    shares = {}
    for seed in (2, 3, 5, 7, 11, 48213):
        hidden = generate_tasks(seed, "hidden-full")
        assert all(t.id.startswith("hidfull-") and t.metadata["split"] == "hidden-full" for t in hidden)
        shares[seed] = sum(_shown(t) in committed for t in hidden) / len(hidden)
        assert shares[seed] <= 0.10, (seed, shares[seed])
    assert generate_tasks(2, "hidden-full") != generate_tasks(3, "hidden-full")


def test_hidden_full_is_written_under_dot_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["--split", "hidden-full", "--seed", "7"])
    written = load_task_file(tmp_path / ".hidden" / FULL)
    assert written and all(t.id.startswith("hidfull-") for t in written)
    assert (tmp_path / ".hidden" / ".gitignore").exists()
    with pytest.raises(SystemExit):
        main(["--split", "hidden-full", "--seed", str(PUBLIC_SEED)])


def test_grade_context_replays_with_the_benchmark_environment(full: list[Task]) -> None:
    task = next(t for t in full if t.kind == "episode")
    ctx = GradeContext(seed=3, environment=benchmark.environment)
    verdict = benchmark.grader(task, _oracle(task), ctx)
    assert isinstance(verdict, TaskScore) and verdict.passed


def test_the_markdown_and_html_reports_have_no_call_and_drift_rows(full: list[Task]) -> None:
    from benchmark_core.reports import render_markdown, render_report_html

    report = benchmark.run(mock_adapter(), tasks="full")
    text = render_markdown(report, benchmark)
    assert "| noCall | " in text and "| drift | " in text and "## Drift episodes" in text
    assert "| renamedField | " in text.split("## Drift episodes", 1)[1]
    assert "Abstention: 50.0% of the noCall requests were declined" in text
    page = render_report_html(report, benchmark, full)
    per_kind = page.split("per mutation kind", 1)[1].split("</table>", 1)[0]
    drift = page.split("drift per kind", 1)[1].split("</table>", 1)[0]
    assert '<th scope="row">noCall</th>' in per_kind and '<th scope="row">drift</th>' in per_kind
    assert '<th scope="row">typeChange</th>' in drift and "<th>adaptedAfterError</th>" in drift
