"""define_benchmark validation, task loading and grading checks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from benchmark_core import Benchmark, GradeContext, Provenance, Task, TaskScore, Trace
from benchmark_core.data import dump_task_file
from benchmark_core.data._taskfiles import remote_task_names, resolve_remote_tasks
from benchmark_core.errors import (
    DefinitionError,
    EventLoopRunningError,
    GraderError,
    TaskFileError,
    TaskNotFoundError,
    UsageError,
)

# The `make_benchmark` fixture (conftest.py) builds a Benchmark from keyword overrides.
BenchmarkFactory = Callable[..., Benchmark]


def test_defines_and_loads_tasks(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark()
    assert [t.id for t in bench.tasks()] == [f"t{i}" for i in range(6)]
    assert asyncio.run(bench.get_task("t2")).expected == "2"


def test_duplicate_ids_name_the_offender(make_benchmark: BenchmarkFactory) -> None:
    tasks = [Task(id="a", kind="single", prompt="p"), Task(id="a", kind="single", prompt="q")]
    with pytest.raises(DefinitionError, match=r"duplicate task id 'a' \(task #2\)"):
        make_benchmark(tasks)


def test_unknown_kind_names_the_task(make_benchmark: BenchmarkFactory) -> None:
    with pytest.raises(DefinitionError, match="task 'x' has unknown kind 'multi'"):
        make_benchmark([Task(id="x", kind="multi", prompt="p")])  # type: ignore[arg-type]


def test_episode_needs_an_environment(make_benchmark: BenchmarkFactory) -> None:
    with pytest.raises(DefinitionError, match="no environment"):
        make_benchmark([Task(id="e", kind="episode", prompt="p")])


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"id": "Bad Id"}, "invalid benchmark id"),
        ({"name": " "}, "name must be a non-empty string"),
        ({"status": "gold"}, "unknown status"),
        ({"provenance": []}, "provenance record"),
        ({"answer_modes": ("telepathy",)}, "unknown answer mode"),
        ({"grade": "not callable"}, "grade must be callable"),
    ],
)
def test_definition_errors(make_benchmark: BenchmarkFactory, override: dict[str, object], message: str) -> None:
    with pytest.raises(DefinitionError, match=message):
        make_benchmark(**override)


@pytest.mark.parametrize(
    ("override", "listed"),
    [
        ({"status": "gold"}, "unknown status 'gold'; expected one of alpha, beta, stable, deprecated"),
        ({"answer_modes": ("telepathy",)}, "unknown answer mode 'telepathy'; expected one of prompt, native"),
        (
            {"provenance": [Provenance("Conversion factors", "reference", "-", "MIT", "-", "-", "-", "-")]},  # type: ignore[arg-type]
            "provenance 'Conversion factors' has unknown kind 'reference'; "
            "expected one of synthetic, human-written, derived, scraped, licensed",
        ),
        ({"tasks": [Task(id="x", kind="multi", prompt="p")]}, "unknown kind 'multi'; expected one of single, episode"),  # type: ignore[arg-type]
    ],
)
def test_an_error_about_a_closed_set_lists_the_set(
    make_benchmark: BenchmarkFactory, override: dict[str, object], listed: str
) -> None:
    with pytest.raises(DefinitionError) as raised:
        make_benchmark(**override)
    assert raised.value.message.endswith(listed)


def test_the_provenance_kinds_are_exported_and_documented() -> None:
    import typing

    import benchmark_core
    from benchmark_core._model.tasks import PROVENANCE_KINDS

    assert typing.get_args(benchmark_core.ProvenanceKind) == PROVENANCE_KINDS
    assert "ProvenanceKind" in benchmark_core.__all__
    doc = Provenance.__doc__ or ""
    assert all(kind in doc for kind in PROVENANCE_KINDS)
    assert all(f"`{name}`" in doc for name in attrs.fields_dict(Provenance))


def test_exactly_one_task_source(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match="exactly one"):
        make_benchmark([], tasks_file=tmp_path / "x.jsonl")


def test_async_loader_is_validated_on_load(make_benchmark: BenchmarkFactory) -> None:
    async def loader() -> list[Task]:
        return [Task(id="d", kind="single", prompt="p"), Task(id="d", kind="single", prompt="p")]

    bench = make_benchmark(load_tasks=loader)
    with pytest.raises(DefinitionError, match="duplicate task id 'd'"):
        bench.tasks()


def test_tasks_file_and_alternate_file(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    main = tmp_path / "tasks.jsonl"
    main.write_text(dump_task_file([Task(id="m1", kind="single", prompt="p", expected="1")]), encoding="utf-8")
    other = tmp_path / "other.jsonl"
    other.write_text(dump_task_file([Task(id="o1", kind="single", prompt="p", expected="2")]), encoding="utf-8")
    bench = make_benchmark(tasks_file=main)
    assert bench.data_dir == tmp_path
    assert [t.id for t in bench.tasks()] == ["m1"]
    assert [t.id for t in bench.tasks(other)] == ["o1"]
    with pytest.raises(TaskNotFoundError, match="'o1'"):
        asyncio.run(bench.get_task("o1"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"id": "a", "kind": "single", "prompt": "p"}\nnot json\n', r":2: not JSON"),
        ('{"id": "a", "kind": "solo", "prompt": "p"}\n', r":1: invalid task: .*\$\.kind"),
        ('{"id": "a", "kind": "single", "prompt": "p", "typo": 1}\n', r":1: .*typo"),
        ("\n\n", "holds no tasks"),
    ],
)
def test_bad_task_files(make_benchmark: BenchmarkFactory, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    bench = make_benchmark()
    with pytest.raises(TaskFileError, match=message):
        bench.tasks(path)


def test_a_duplicate_id_in_the_benchmarks_own_data_file_names_the_file_and_line(
    make_benchmark: BenchmarkFactory, tmp_path: Path
) -> None:
    path = tmp_path / "data" / "tasks.jsonl"
    path.parent.mkdir()
    tasks = [Task(id="a", kind="single", prompt="p"), Task(id="b", kind="single", prompt="q")]
    path.write_text(dump_task_file(tasks) + "\n" + dump_task_file(tasks[:1]), encoding="utf-8")
    with pytest.raises(TaskFileError) as raised:
        make_benchmark(tasks_file=path).tasks()
    assert raised.value.message == f"{path}:4: duplicate task id 'a' (first on line 1)"


def test_other_problems_of_the_benchmarks_own_data_file_name_the_file(
    make_benchmark: BenchmarkFactory, tmp_path: Path
) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text(dump_task_file([Task(id="e", kind="episode", prompt="p")]), encoding="utf-8")
    with pytest.raises(DefinitionError) as raised:
        make_benchmark(tasks_file=path).tasks()
    assert raised.value.message == f"{path}: task 'e' is an episode but the benchmark has no environment"


def test_missing_task_file(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="not found"):
        make_benchmark().tasks(tmp_path / "nope.jsonl")


def test_score_accepts_wire_submissions(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark()
    assert bench.score("t3", {"answer": "3"}).passed
    assert not bench.score("t3", Trace(answer="4")).passed
    with pytest.raises(UsageError, match="invalid submission"):
        bench.score("t3", {"answer": "3", "surprise": True})
    with pytest.raises(TaskNotFoundError):
        bench.score("nope", {"answer": "3"})


@pytest.mark.parametrize("bad", [TaskScore(1.5, True, "x"), TaskScore(float("nan"), False, "x"), "yes"])
def test_grader_results_are_checked(make_benchmark: BenchmarkFactory, bad: object) -> None:
    bench = make_benchmark(grade=lambda task, trace, ctx: bad)
    with pytest.raises(GraderError):
        bench.score("t1", {"answer": "1"})


def test_async_grader(make_benchmark: BenchmarkFactory) -> None:
    async def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
        await asyncio.sleep(0)
        return TaskScore(1.0, True, f"seed {ctx.seed}")

    bench = make_benchmark(grade=grade)
    assert bench.score("t1", {}, seed=9).reason == "seed 9"


def test_an_edited_task_file_is_read_again(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_text(dump_task_file([Task(id="v1", kind="single", prompt="p")]), encoding="utf-8")
    bench = make_benchmark()
    assert [t.id for t in bench.tasks(path)] == ["v1"]
    path.write_text(dump_task_file([Task(id="v2-longer", kind="single", prompt="p")]), encoding="utf-8")
    assert [t.id for t in bench.tasks(path)] == ["v2-longer"]


def test_sync_methods_explain_themselves_inside_an_event_loop(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark()
    tasks = bench.tasks()

    async def load() -> list[Task]:
        return tasks

    loaded = make_benchmark(load_tasks=load)

    async def inside() -> None:
        # Tasks given in code or in a file need no event loop: `tasks()` works inside one too.
        assert bench.tasks() == tasks
        with pytest.raises(EventLoopRunningError, match=r"await Benchmark\.load_tasks\(\)"):
            loaded.tasks()
        with pytest.raises(UsageError, match=r"await Benchmark\.score_async\(\)"):
            bench.score("t1", {"answer": "1"})
        assert len(await bench.load_tasks()) == len(await loaded.load_tasks()) == 6

    asyncio.run(inside())


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_task_files_hold_only_real_json_numbers(make_benchmark: BenchmarkFactory, tmp_path: Path, value: str) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(f'{{"id": "a", "kind": "single", "prompt": "p", "expected": {value}}}\n', encoding="utf-8")
    with pytest.raises(TaskFileError, match=r"odd\.jsonl:1: not JSON"):
        make_benchmark().tasks(path)


def test_duplicate_ids_in_a_task_file_name_the_file(make_benchmark: BenchmarkFactory, tmp_path: Path) -> None:
    path = tmp_path / "twice.jsonl"
    path.write_text(dump_task_file([Task(id="a", kind="single", prompt="p")] * 2), encoding="utf-8")
    with pytest.raises(TaskFileError, match=r"twice\.jsonl:2: duplicate task id 'a' \(first on line 1\)"):
        make_benchmark().tasks(path)


def test_tasks_built_in_code_must_be_json(make_benchmark: BenchmarkFactory) -> None:
    with pytest.raises(DefinitionError, match="task 'n' is not JSON"):
        make_benchmark([Task(id="n", kind="single", prompt="p", expected=float("nan"))])
    with pytest.raises(DefinitionError, match="task 's' is not JSON"):
        make_benchmark([Task(id="s", kind="single", prompt="p", metadata={"tags": {"a"}})])


def test_task_files_round_trip_unusual_characters_and_tolerate_a_bom(
    make_benchmark: BenchmarkFactory, tmp_path: Path
) -> None:
    task = Task(id="u", kind="single", prompt="line\u2028separator\u0085next\x1c", expected="\u2029")
    path = tmp_path / "odd.jsonl"
    path.write_text(dump_task_file([task]), encoding="utf-8")
    assert make_benchmark().tasks(path) == [task]
    bom = tmp_path / "bom.jsonl"
    bom.write_text(dump_task_file([task]), encoding="utf-8-sig")
    assert make_benchmark().tasks(bom) == [task]


def test_a_boolean_score_is_a_grader_error(make_benchmark: BenchmarkFactory) -> None:
    bench = make_benchmark(grade=lambda task, trace, ctx: TaskScore(True, True, "yes"))
    with pytest.raises(GraderError):
        bench.score("t1", {"answer": "1"})


def test_a_bare_task_file_name_resolves_in_the_data_folder(
    make_benchmark: BenchmarkFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shipped = [Task(id="s1", kind="single", prompt="p", expected="1")]
    (data / "tasks-extra.jsonl").write_text(dump_task_file(shipped), encoding="utf-8")
    (data / "tasks.jsonl").write_text(dump_task_file(shipped), encoding="utf-8")
    bench = make_benchmark(tasks_file=data / "tasks.jsonl")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert [t.id for t in bench.tasks("tasks-extra")] == ["s1"]
    assert [t.id for t in bench.tasks("tasks-extra.jsonl")] == ["s1"]
    # A split may be named without its `tasks-` prefix, on every surface.
    assert bench.task_file("extra") == data / "tasks-extra.jsonl" == bench.task_file("extra.jsonl")
    assert resolve_remote_tasks(bench, "extra") == (data / "tasks-extra.jsonl").resolve()
    assert "extra" in remote_task_names(bench) and "tasks-extra" in remote_task_names(bench)
    # A file that exists where the caller is wins over the shipped one of the same name.
    local = [Task(id="local", kind="single", prompt="p", expected="1")]
    (elsewhere / "tasks-extra.jsonl").write_text(dump_task_file(local), encoding="utf-8")
    assert [t.id for t in bench.tasks("tasks-extra.jsonl")] == ["local"]
    with pytest.raises(TaskFileError, match="task file not found: nothing-here") as raised:
        bench.tasks("nothing-here")
    # A bare name is a split that is not there: the error lists the ones that are.
    assert raised.value.message.endswith(f"(nor a split of {bench.id}, which ships: tasks, tasks-extra)")
    with pytest.raises(TaskFileError) as remote:  # HTTP's ?tasks= and MCP's tasks, the same list
        resolve_remote_tasks(bench, "nothing-here")
    assert remote.value.message.endswith("data folder; it ships: tasks, tasks-extra")
