"""The mock's skill (`run --mock-skill P`, a sweep model's `mock_skill`): a share P of the tasks gets the
good policy, which tasks drawn from the model name and the task id; without it, today's alternation."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Optional

import pytest
from benchmark_core import Benchmark, RunOptions, Task, mock_adapter
from benchmark_core.cli import create_cli
from benchmark_core.errors import ConfigurationError
from benchmark_core.example import benchmark as example
from benchmark_core.sweep import plan_sweep, run_sweep
from benchmark_core.testing import FakeOpenAI
from click.testing import CliRunner

TASKS = [Task(id=f"t{n:04d}", kind="single", prompt=f"Say {n}.", expected=str(n)) for n in range(2000)]


#: The `make_benchmark` fixture (conftest.py): a benchmark of the given tasks, graded by equality.
BenchmarkFactory = Callable[..., Benchmark]
Passed = Callable[..., list[bool]]


@pytest.fixture
def passed(make_benchmark: BenchmarkFactory) -> Passed:
    """Which tasks a mock of `model` and `skill` answers well."""

    def outcomes(model: str, skill: Optional[float], tasks: list[Task] = TASKS) -> list[bool]:
        report = make_benchmark(tasks).run(mock_adapter(model=model), mock_skill=skill, concurrency=64)
        return [row.passed for row in report.rows]

    return outcomes


def test_without_a_skill_the_mock_alternates(passed: Passed) -> None:
    assert passed("offline", None, TASKS[:9]) == [n % 2 == 0 for n in range(9)]


@pytest.mark.parametrize("skill", [0.0, 0.1, 0.5, 0.73, 1.0])
def test_a_share_p_of_the_tasks_is_answered_well(passed: Passed, skill: float) -> None:
    good = passed("offline", skill)
    assert abs(sum(good) / len(good) - skill) <= 0.03
    if skill in (0.0, 1.0):
        assert set(good) == {bool(skill)}


def test_the_tasks_depend_on_the_model_name_and_the_task_id_not_on_positions(passed: Passed) -> None:
    first, again, other = passed("alpha", 0.5), passed("alpha", 0.5), passed("beta", 0.5)
    assert first == again  # deterministic
    assert first != other and sum(a != b for a, b in zip(first, other)) > 500  # equal skill, other tasks
    # The same task gets the same verdict wherever it stands in the list.
    shuffled = list(reversed(TASKS))
    assert passed("alpha", 0.5, shuffled) == list(reversed(first))
    # A higher skill keeps every task a lower one answers well.
    better = passed("alpha", 0.8)
    assert all(b for a, b in zip(first, better) if a)


def test_the_skill_is_for_the_mock_only_and_is_recorded_only_when_given() -> None:
    with FakeOpenAI(api_key="sk-test").in_thread() as server:
        from benchmark_core import openai_compat_adapter

        adapter = openai_compat_adapter(server.base_url, "m", api_key="sk-test")
        with pytest.raises(ConfigurationError, match="mock_skill is for the mock provider only, not openai"):
            example.run(adapter, mock_skill=0.5)
    with pytest.raises(ConfigurationError, match="between 0 and 1"):
        mock_adapter(skill=1.5)

    # Part of the run's identity (a journal of another skill is refused on resume), absent when unset.
    assert "mockSkill" not in RunOptions().recorded()
    assert RunOptions(mock_skill=0.25).recorded()["mockSkill"] == 0.25

    cli = create_cli(example, "benchmark-core", umbrella=True)
    means = []
    for skill in ("0", "1"):
        args = ["run", "--model", "m", "--provider", "mock", "--mock-skill", skill, "--json"]
        done = CliRunner().invoke(cli, args)
        assert done.exit_code == 0, done.output
        means.append(json.loads(done.stdout)["mean"])
    assert means == [0.0, 1.0]
    refused = CliRunner().invoke(cli, ["run", "--model", "m", "--provider", "mock", "--mock-skill", "2"])
    assert refused.exit_code == 1 and "0<=x<=1" in refused.output


def test_a_sweep_model_takes_a_skill_and_only_a_mock_one(tmp_path: Path) -> None:
    models = "".join(
        f'[[models]]\nlabel = "{label}"\nprovider = "mock"\nmodel = "{label}"\nmock_skill = {skill}\n\n'
        for label, skill in (("strong", 0.9), ("weak", 0.2))
    )
    path = tmp_path / "sweep.toml"
    path.write_text(f'results = "results"\n\n{models}[[benchmarks]]\nid = "benchmark-core-example"\n', encoding="utf-8")
    plan = plan_sweep(path)
    assert [cell.options.mock_skill for cell in plan.cells] == [0.9, 0.2]
    outcome = run_sweep(path)
    means = {cell.cell.model.label: cell.report.mean for cell in outcome.cells if cell.report is not None}
    assert means["strong"] > means["weak"]

    path.write_text('[[models]]\nlabel = "x"\nprovider = "ollama"\nmodel = "m"\nmock_skill = 0.5\n', encoding="utf-8")
    with pytest.raises(
        ConfigurationError, match=r"sweep.toml:5: models\[0\].mock_skill: only a mock model has a skill"
    ):
        plan_sweep(path)
    path.write_text("[options]\nmock_skill = 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"options.mock_skill: not a sweep-wide option: give it per model"):
        plan_sweep(path)
