from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from benchmark_core import Task
from benchmark_core.data import load_task_file
from benchmark_core.graders import json_schema_match
from benchmark_schema_mutation import (
    BASE_SCHEMAS,
    EXTENDED_KINDS,
    HELD_OUT,
    MUTATION_KINDS,
    PUBLIC_SEED,
    benchmark,
    generate_tasks,
    render_tasks,
)
from benchmark_schema_mutation.generator import main, render_provenance

#: Every kind of split the generator writes: the committed ones and hidden splits of a few seeds.
SPLITS = [("public", PUBLIC_SEED), ("extended", PUBLIC_SEED), ("hidden", 3), ("hidden", 7), ("hidden", 48213)]


@pytest.fixture(params=SPLITS, ids=[f"{split}-{seed}" for split, seed in SPLITS], scope="module")
def split_tasks(request: pytest.FixtureRequest) -> list[Task]:
    split, seed = request.param
    return generate_tasks(seed, split)


def _data_dir() -> Path:
    assert benchmark.data_dir is not None
    return benchmark.data_dir


def test_generator_reproduces_the_committed_tasks_byte_for_byte() -> None:
    committed = (_data_dir() / "tasks.jsonl").read_bytes()
    assert render_tasks(PUBLIC_SEED).encode("utf-8") == committed


def test_provenance_is_rendered_from_code_byte_for_byte() -> None:
    committed = (_data_dir() / "PROVENANCE.md").read_bytes()
    text = render_provenance()
    assert text.encode("utf-8") == committed
    for needle in ("Licence: MIT", "Hidden-split plan", "Refresh:", "seed 20261015"):
        assert needle in text


def test_generator_main_writes_the_public_split(tmp_path: Path) -> None:
    main(["--out", str(tmp_path)])
    assert (tmp_path / "tasks.jsonl").read_bytes() == (_data_dir() / "tasks.jsonl").read_bytes()
    assert (tmp_path / "PROVENANCE.md").read_bytes() == (_data_dir() / "PROVENANCE.md").read_bytes()


def test_sixty_tasks_twelve_per_kind_unique_ids(tasks: list[Task]) -> None:
    assert len(tasks) == 60
    assert len({t.id for t in tasks}) == 60
    assert Counter(t.metadata["mutationKind"] for t in tasks) == dict.fromkeys(MUTATION_KINDS, 12)
    pairs = Counter((t.metadata["baseSchema"], t.metadata["mutationKind"]) for t in tasks)
    assert len(BASE_SCHEMAS) == 12
    assert set(pairs) == {(b.id, k) for b in BASE_SCHEMAS for k in MUTATION_KINDS}
    assert all(t.kind == "single" and t.id.startswith("sm-") for t in tasks)


def test_the_base_schemas_are_everyday_saas_tools() -> None:
    titles = {base.title for base in BASE_SCHEMAS}
    assert {"Issue tracker", "Payments", "Calendar", "CRM", "Object storage", "Team chat"} <= titles
    assert len({base.tool for base in BASE_SCHEMAS}) == 12


def test_a_new_required_field_is_required_and_the_request_gives_its_value(tasks: list[Task]) -> None:
    bases = {base.id: base for base in BASE_SCHEMAS}
    for task in tasks:
        if task.metadata["mutationKind"] != "newRequired":
            continue
        spec = bases[task.metadata["baseSchema"]].new_required
        value = task.expected["arguments"][spec.field]
        (tool,) = task.tools
        assert spec.field in tool.parameters["required"], task.id
        assert spec.field not in task.metadata["previousTools"][0]["parameters"]["properties"], task.id
        # The request ends with the sentence authored for exactly this value (False is not 0).
        (sentence,) = [said for option, said in spec.choices if option == value and type(option) is type(value)]
        assert task.metadata["request"].endswith(" " + sentence), task.id


def test_each_task_records_what_the_issue_asks_for(split_tasks: list[Task]) -> None:
    for task in split_tasks:
        meta = task.metadata
        for key in ("schemaVersion", "previousVersion", "request", "staleCall", "mutationKind", "mutatedElements"):
            assert key in meta, (task.id, key)
        assert meta["schemaVersion"] != meta["previousVersion"]
        assert task.expected != meta["staleCall"], task.id
        assert meta["request"] in task.prompt
        assert f"schema_version {meta['schemaVersion']}" in task.prompt
        replaced = [e for e in meta["mutatedElements"] if e["signal"] == "oldUnsplitTool"]
        expected_tools = len(replaced[0]["replacements"]) if replaced else 1
        expected_tools += meta["mutationKind"] == "deprecation"  # the deprecated tool is still listed
        assert len(task.tools) == expected_tools, task.id


def test_expected_calls_are_valid_against_the_current_schema(split_tasks: list[Task]) -> None:
    for task in split_tasks:
        tool = next(t for t in task.tools if t.name == task.expected["name"])
        verdict = json_schema_match(tool.parameters, task.expected["arguments"])
        assert verdict.passed, (task.id, verdict.reason)


def test_stale_calls_are_valid_against_the_previous_schema(split_tasks: list[Task]) -> None:
    for task in split_tasks:
        previous = task.metadata["previousTools"][0]
        stale = task.metadata["staleCall"]
        assert stale["name"] == previous["name"]
        assert json_schema_match(previous["parameters"], stale["arguments"]).passed, task.id


def test_prompt_shows_only_the_current_schema(split_tasks: list[Task]) -> None:
    for task in split_tasks:
        schema_block = task.prompt.split("```json\n", 1)[1].split("\n```", 1)[0]
        shown = json.loads(schema_block)
        assert shown == [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in task.tools]
        assert task.prompt.count("```json") == 1
        for element in task.metadata["mutatedElements"]:
            for tool in shown:
                properties = tool["parameters"]["properties"]
                if element["signal"] in ("oldFieldName", "oldPaginationField"):
                    assert element["field"] not in properties, task.id
                if element["signal"] in ("missingScope", "missingNewRequired"):
                    assert element["field"] in tool["parameters"]["required"], task.id
                if element["signal"] == "deprecatedTool" and tool["name"] == element["tool"]:
                    assert tool["description"].startswith(f"Deprecated: use {element['replacement']} instead"), task.id
                if element["signal"] == "oldUnsplitTool":
                    assert tool["name"] != element["tool"], task.id
                if element["signal"] == "oldEnumValue":
                    assert properties[element["field"]]["enum"] == element["newValues"], task.id
                    assert not set(element["oldValues"]) & set(element["newValues"]), task.id
                if element["signal"] == "oldUnit":
                    assert properties[element["field"]] == element["currentSchema"] != element["previousSchema"]


def test_generation_is_deterministic_and_seeded() -> None:
    assert render_tasks(PUBLIC_SEED) == render_tasks(PUBLIC_SEED)
    assert render_tasks(7, "hidden") != render_tasks(8, "hidden")


def test_hidden_split_writes_hid_ids_under_dot_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["--split", "hidden", "--seed", "7"])
    written = load_task_file(tmp_path / ".hidden" / "tasks.jsonl")
    assert len(written) == 60
    assert all(t.id.startswith("hid-") for t in written)
    assert all(t.metadata["split"] == "hidden" and t.metadata["seed"] == 7 for t in written)
    assert not (tmp_path / ".hidden" / "PROVENANCE.md").exists()
    ignore = (tmp_path / ".hidden" / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "*" in ignore  # the folder keeps itself out of any git repository it is written in
    public = {t.id: t for t in generate_tasks()}
    differing = sum(1 for t in written if public["sm-" + t.id[len("hid-") :]].expected != t.expected)
    assert differing > 30


@pytest.mark.parametrize(
    "argv",
    [["--split", "hidden"], ["--split", "hidden", "--seed", str(PUBLIC_SEED)], ["--seed", "7", "--out", "public"]],
)
def test_a_split_is_written_only_with_its_own_kind_of_seed(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "seed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_unknown_split_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown split"):
        generate_tasks(split="private")


def test_the_extended_split_is_committed_byte_for_byte_and_reproduced(tmp_path: Path) -> None:
    committed = (_data_dir() / "tasks-extended.jsonl").read_bytes()
    assert render_tasks(PUBLIC_SEED, "extended").encode("utf-8") == committed
    main(["--split", "extended", "--out", str(tmp_path)])
    assert (tmp_path / "tasks-extended.jsonl").read_bytes() == committed
    assert (tmp_path / "PROVENANCE.md").read_bytes() == (_data_dir() / "PROVENANCE.md").read_bytes()


def test_the_extended_split_has_twelve_tasks_of_each_new_kind() -> None:
    tasks = load_task_file(_data_dir() / "tasks-extended.jsonl")
    assert len(tasks) == 36 and len({t.id for t in tasks}) == 36
    assert Counter(t.metadata["mutationKind"] for t in tasks) == dict.fromkeys(EXTENDED_KINDS, 12)
    assert {t.metadata["baseSchema"] for t in tasks} == {b.id for b in BASE_SCHEMAS}
    assert all(t.id.startswith("ext-") and t.metadata["split"] == "extended" for t in tasks)
    # The extended split adds kinds: it leaves the 60 public tasks and their bytes alone.
    assert not {t.id for t in tasks} & {t.id for t in generate_tasks()}


def test_the_extended_split_is_written_only_with_the_public_seed(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--split", "extended", "--seed", "7", "--out", str(tmp_path)])
    assert list(tmp_path.iterdir()) == []


def test_pagination_requests_say_what_to_fetch() -> None:
    tasks = [t for t in generate_tasks(PUBLIC_SEED, "extended") if t.metadata["mutationKind"] == "paginationChange"]
    styles = Counter(tuple(sorted(t.metadata["staleCall"]["arguments"])) for t in tasks)
    assert len(styles) >= 3  # page/per_page -> cursor/limit, offset/limit -> page/page_size, page -> offset
    for task in tasks:
        new, old = task.expected["arguments"], task.metadata["staleCall"]["arguments"]
        size = new.get("limit", new.get("page_size"))
        assert size in (old.get("per_page"), old.get("limit")), task.id
        if "offset" in old:  # "results 41 to 60"
            said = f"results {old['offset'] + 1} to {old['offset'] + size}"
        else:  # "the first 25", "page 3, 20 per page"
            said = (
                f"the first {size}"
                if old["page"] == 1 and "cursor" in task.tools[0].parameters["properties"]
                else (f"page {old['page']}, {size} per page")
            )
        assert said in task.metadata["request"], task.id


def _shown(task: Task) -> str:
    """The current schema as the model is shown it: the task's tools."""
    return json.dumps([[t.name, t.description, t.parameters] for t in task.tools], sort_keys=True)


def _shared(first: list[Task], second: list[Task]) -> float:
    return sum(_shown(a) == _shown(b) for a, b in zip(first, second, strict=True)) / len(first)


def test_hidden_splits_hold_out_the_current_schemas() -> None:
    """A hidden split shares at most 10% of its current schemas with the public split, and two hidden
    seeds at most 40% with each other (the figures for seeds 2 to 11: 0% and at most 31.7%)."""
    public = generate_tasks()
    hidden = {seed: generate_tasks(seed, "hidden") for seed in range(2, 12)}
    for seed, tasks in hidden.items():
        assert _shared(public, tasks) <= 0.10, seed
    seeds = sorted(hidden)
    pairs = [(a, b) for i, a in enumerate(seeds) for b in seeds[i + 1 :]]
    for a, b in pairs:
        assert _shared(hidden[a], hidden[b]) <= 0.40, (a, b)
    # Every kind varies with the seed, not only the request values.
    for kind in MUTATION_KINDS:
        shapes = {_shown(t) for tasks in hidden.values() for t in tasks if t.metadata["mutationKind"] == kind}
        assert len(shapes) >= 12 * 3, kind


def test_every_base_schema_has_four_held_out_migrations_per_kind() -> None:
    for base in BASE_SCHEMAS:
        alternatives = HELD_OUT[base.id]
        for group in ("renames", "new_requireds", "enum_changes", "splits", "type_changes"):
            assert len(getattr(alternatives, group)) >= 4, (base.id, group)
        assert base.rename not in alternatives.renames and base.split not in alternatives.splits
        assert base.enum_change not in alternatives.enum_changes
