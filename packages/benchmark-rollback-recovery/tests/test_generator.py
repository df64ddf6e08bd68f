"""The committed data is the generator's output, balanced as documented, and hidden splits work."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib.resources import files
from pathlib import Path

import pytest
from benchmark_core import Task, mock_adapter
from benchmark_core.data import dump_task_file, load_task_file, provenance_markdown
from benchmark_core.wire import to_wire
from benchmark_rollback_recovery import benchmark, generate, record_diffs, task_spec
from benchmark_rollback_recovery._full import generate_full
from benchmark_rollback_recovery._world import KINDS_BY_STORE, PROMPT_FORMS, STORES, snapshot_of, target_of
from benchmark_rollback_recovery.generator import SEED, main


def _data(name: str) -> str:
    return files("benchmark_rollback_recovery").joinpath("data").joinpath(name).read_text(encoding="utf-8")


def test_committed_tasks_are_the_generators_output() -> None:
    assert benchmark.data_dir is not None
    assert (benchmark.data_dir / "tasks.jsonl").read_text(encoding="utf-8") == _data("tasks.jsonl")
    assert dump_task_file(generate(SEED)) == _data("tasks.jsonl")


def test_committed_provenance_is_rendered_from_the_definition() -> None:
    assert provenance_markdown(benchmark) == _data("PROVENANCE.md")


def test_seed_is_the_documented_one() -> None:
    assert SEED == 20261015
    assert dump_task_file(generate(SEED + 1)) != _data("tasks.jsonl")


def test_48_episodes_36_incidents_and_12_controls(tasks: list[Task]) -> None:
    assert len(tasks) == 48
    assert [t.id for t in tasks] == [f"rrb-{n:03d}" for n in range(1, 49)]
    assert all(t.kind == "episode" and t.expected is None for t in tasks)
    specs = [task_spec(t) for t in tasks]
    incidents = Counter((s.incident.store, s.incident.what_happened) for s in specs if s.incident is not None)
    assert incidents == {(store, kind): 4 for store in STORES for kind in KINDS_BY_STORE[store]}
    assert sum(incidents.values()) == 36
    controls = Counter(s.focus.store for s in specs if s.incident is None)
    assert controls == {store: 4 for store in STORES}
    assert set(Counter(s.incident.what_happened for s in specs if s.incident is not None)) == {
        "overwritten",
        "wrong_value",
        "wrong_recipient",
        "deleted",
        "other",
    }


def test_prompt_forms_are_drawn_alike_for_incidents_and_controls(tasks: list[Task]) -> None:
    specs = [task_spec(t) for t in tasks]
    by_kind = Counter(
        (s.incident.store, s.incident.what_happened, s.prompt_form) for s in specs if s.incident is not None
    )
    assert set(by_kind.values()) == {1}
    assert len(by_kind) == 36
    controls = Counter((s.focus.store, s.prompt_form) for s in specs if s.incident is None)
    assert controls == {(store, form): 1 for store in STORES for form in PROMPT_FORMS}


#: What varies inside a prompt's template: quoted text, ids, paths, lists, names, the record's values.
_MASKS = (
    (r'"[^"]*"', '"<text>"'),
    (r"\bR-\d+", "<run>"),
    (r"\b[cm]-\d+", "<id>"),
    (r"\b[\w-]+(/[\w.-]*\w)+", "<path>"),
    (r"\S+@\S+", "<list>"),
    (r"should read: .*\. Please", "should read: <record>. Please"),
    (r"number of .+ \(", "number of <name> ("),
    (r"saying: .*\.$", "saying: <text>."),
    (r"the (CRM|file store|mailing lists)", "<store>"),
)


def _shape(prompt: str) -> str:
    for pattern, mask in _MASKS:
        prompt = re.sub(pattern, mask, prompt)
    return prompt


def test_prompts_read_the_same_with_and_without_damage(tasks: list[Task]) -> None:
    """Per form and store, incident and control prompts share one template: the prompt alone never
    says whether anything is damaged."""
    shapes: dict[tuple[str, str], set[str]] = {}
    kinds: dict[tuple[str, str], set[bool]] = {}
    for task in tasks:
        spec = task_spec(task)
        key = (spec.prompt_form, spec.focus.store)
        shapes.setdefault(key, set()).add(_shape(task.prompt))
        kinds.setdefault(key, set()).add(spec.incident is None)
    assert len(shapes) == 12
    assert all(len(found) == 1 for found in shapes.values()), shapes
    assert all(found == {True, False} for found in kinds.values())
    for form in ("job_ran", "hedge"):
        assert len({shape for (f, _), shape_set in shapes.items() if f == form for shape in shape_set}) == 1, form


def test_prompts_that_name_a_record_name_the_focus(tasks: list[Task]) -> None:
    for task in tasks:
        spec = task_spec(task)
        if spec.prompt_form in ("names_value", "work_request") and spec.focus.store != "messages":
            assert spec.focus.object_id in task.prompt, task.id
        if spec.incident is not None:
            assert spec.focus.object_id == spec.incident.object_id


def test_targets_differ_from_the_world_exactly_at_the_damage(tasks: list[Task]) -> None:
    for task in tasks:
        spec = task_spec(task)
        diffs = record_diffs(snapshot_of(spec.world), target_of(spec))
        if spec.incident is None:
            assert diffs == [], task.id
        else:
            assert [(d.store, d.object_id) for d in diffs] == [(spec.incident.store, spec.incident.object_id)]


def test_metadata_round_trips_through_the_typed_spec(tasks: list[Task]) -> None:
    for task in tasks:
        assert to_wire(task_spec(task)) == task.metadata


def test_hidden_split_needs_an_explicit_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--split", "hidden"])
    assert exc.value.code == 2
    assert "--seed" in capsys.readouterr().err


def test_hidden_split_refuses_the_public_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the public seed would write the public tasks again under hid- ids
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["--split", "hidden", "--seed", str(SEED)])
    assert exc.value.code == 2
    assert f"cannot use the public seed {SEED}" in capsys.readouterr().err
    assert not (tmp_path / ".hidden").exists()


def test_the_committed_data_is_never_overwritten_with_another_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--seed", "5"])
    assert exc.value.code == 2
    assert "use --split hidden for another seed" in capsys.readouterr().err
    assert dump_task_file(generate(SEED)) == _data("tasks.jsonl")


def test_hidden_split_writes_hid_tasks_under_dot_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["--split", "hidden", "--seed", "424242"])
    path = tmp_path / ".hidden" / "tasks.jsonl"
    hidden = load_task_file(path)
    assert len(hidden) == 48
    assert all(t.id.startswith("hid-") for t in hidden)
    assert {t.prompt for t in hidden} != {t.prompt for t in benchmark.tasks()}
    assert path.read_text(encoding="utf-8") == dump_task_file(generate(424242, prefix="hid"))
    assert not (tmp_path / "data").exists()
    ignore = tmp_path / ".hidden" / ".gitignore"
    assert ignore.read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_a_hidden_full_split_works_like_the_committed_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["--split", "hidden-full", "--seed", "424242"])
    path = tmp_path / ".hidden" / "tasks-full.jsonl"
    hidden = load_task_file(path)
    # the full design: 272 episodes over five stores, none of them a committed world
    assert len(hidden) == 272 and all(t.id.startswith("hidfull-") for t in hidden)
    assert sum(1 for t in hidden if task_spec(t).incident is None) == 80
    committed = {json.dumps(t.metadata["world"], sort_keys=True) for t in benchmark.tasks("full")}
    assert not any(json.dumps(t.metadata["world"], sort_keys=True) in committed for t in hidden)
    assert path.read_text(encoding="utf-8") == dump_task_file(generate_full(424242, prefix="hidfull"))
    assert (tmp_path / ".hidden" / ".gitignore").exists() and not (tmp_path / "data").exists()
    # it runs like the committed split: the oracle's mock passes exactly the even positions
    report = benchmark.run(mock_adapter(), tasks=str(path))
    assert report.totals.tasks == 272 and report.mean == 0.5
    with pytest.raises(SystemExit):
        main(["--split", "hidden-full", "--seed", str(SEED)])


def test_public_split_can_be_written_elsewhere(tmp_path: Path) -> None:
    main(["--out", str(tmp_path)])
    assert (tmp_path / "tasks.jsonl").read_text(encoding="utf-8") == _data("tasks.jsonl")
    assert (tmp_path / "PROVENANCE.md").read_text(encoding="utf-8") == _data("PROVENANCE.md")
