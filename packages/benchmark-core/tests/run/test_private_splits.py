"""`run --hidden-seed-env NAME`: a hidden split generated in the runner's memory from a private seed,
for both benchmarks, model and agent runs. The seed is in no file of the output folder and in no
line the run prints; no task file is written; the same seed gives the same task set (digest and
run identity), another seed other tasks; an interrupted run resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from benchmark_core import RunOptions, load_benchmark, mock_adapter
from benchmark_core.errors._base import UsageError
from benchmark_core.example import benchmark as example
from benchmark_core.runs import journal_path
from benchmark_core.runs._private_split import private_split
from benchmark_core.runs._runner import Run
from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report

#: Distinctive digits, so that finding them anywhere means the seed leaked.
SEED = "730461982"
OTHER_SEED = "511873264"
VARIABLE = "LAB_PRIVATE_SEED"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _cli(module: str, cwd: Path, *args: str, seed: str = SEED, **env: str) -> subprocess.Popen[str]:
    environ = {**os.environ, VARIABLE: seed, **env}
    command = [sys.executable, "-m", module, "run", "--hidden-seed-env", VARIABLE, *args]
    return subprocess.Popen(command, cwd=cwd, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finished(child: subprocess.Popen[str]) -> tuple[int, str]:
    stdout, stderr = child.communicate(timeout=300)
    return child.returncode, stdout + stderr


def _no_seed_anywhere(folder: Path, printed: str) -> None:
    for name, data in _files(folder).items():
        assert SEED.encode() not in data, f"the seed is in {name}"
    assert SEED not in printed


@pytest.mark.parametrize(
    ("module", "split", "prefix"),
    [
        ("benchmark_schema_mutation", "hidden", "hid-"),
        ("benchmark_schema_mutation", "hidden-full", "hidfull-"),
        ("benchmark_rollback_recovery", "hidden", "hid-"),
    ],
)
def test_a_model_run_on_a_private_split_writes_only_its_report(
    tmp_path: Path, module: str, split: str, prefix: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    before = _files(tmp_path)
    args = ["--provider", "mock", "--model", "mock", "--tasks", split, "--output", "out/report.json"]
    code, printed = _finished(_cli(module, work, *args, "--markdown", "out/report.md"))
    assert code == 0, printed
    after = _files(tmp_path)
    assert set(after) - set(before) == {"work/out/report.json", "work/out/report.md"}  # no task file
    _no_seed_anywhere(tmp_path, printed)
    report = json.loads((work / "out/report.json").read_text(encoding="utf-8"))
    assert report["privateSplit"]["split"] == split
    assert report["privateSplit"]["taskSetDigest"].startswith("sha256:")
    assert all(row["taskId"].startswith(prefix) for row in report["rows"])
    assert "the private split" in (work / "out/report.md").read_text(encoding="utf-8")


def test_the_same_seed_is_the_same_task_set_and_another_seed_another(tmp_path: Path) -> None:
    bench = load_benchmark("benchmark-rollback-recovery")
    first = private_split(bench, None, VARIABLE, {VARIABLE: SEED})
    again = private_split(bench, "hidden", VARIABLE, {VARIABLE: f" {SEED}\n"})
    other = private_split(bench, None, VARIABLE, {VARIABLE: OTHER_SEED})
    assert first == again
    assert other.record.task_set_digest != first.record.task_set_digest
    assert [t.prompt for t in other.tasks] != [t.prompt for t in first.tasks]

    async def identity(tasks: Any) -> Any:
        run = Run(bench, mock_adapter(), RunOptions(), tasks=tasks)
        await run.load()
        return run.identity()

    import asyncio

    same = [asyncio.run(identity(split.tasks)) for split in (first, again, other)]
    assert same[0] == same[1] and not same[0].difference(same[1])
    assert [d.field for d in same[0].difference(same[2])] == ["task_set"]


@pytest.mark.parametrize(
    ("environ", "split", "message"),
    [
        ({}, None, f"the variable {VARIABLE} is not set"),
        ({VARIABLE: "seven"}, None, f"the variable {VARIABLE} does not hold an integer"),
        ({VARIABLE: SEED}, "public", "names a hidden split of benchmark-core-example (hidden), not 'public'"),
    ],
)
def test_bad_private_split_requests_are_usage_errors_that_never_echo_the_value(
    environ: dict[str, str], split: Any, message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        private_split(example, split, VARIABLE, environ)
    assert message in caught.value.message
    assert "seven" not in caught.value.message and SEED not in caught.value.message


def test_a_private_run_stopped_by_sigterm_resumes_to_the_uninterrupted_report(tmp_path: Path) -> None:
    tasks = list(private_split(example, None, VARIABLE, {VARIABLE: SEED}).tasks)
    with FakeOpenAI(handler=mock_handler(example, delay=0.05, tasks=tasks), record=False).in_thread() as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test-private-0123456789"}
        flags = ["--provider", "openai", "--model", "m", "--no-cache", "--concurrency", "1"]
        code, printed = _finished(_cli("benchmark_core", tmp_path, *flags, "--output", "whole.json", **env))
        assert code == 0, printed
        out = tmp_path / "report.json"
        start = server.received
        child = _cli("benchmark_core", tmp_path, *flags, "--output", str(out), **env)
        deadline = time.monotonic() + 60
        while server.received < start + 8 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        child.send_signal(signal.SIGTERM)
        code, first = _finished(child)
        assert code == 143, first
        assert journal_path(out).exists()
        _no_seed_anywhere(tmp_path, first)
        header = json.loads(journal_path(out).read_text(encoding="utf-8").splitlines()[0])
        assert header["privateSplit"] == {"split": "hidden", "seedEnv": VARIABLE}
        # Another seed is another task set: the journal refuses to continue with it.
        child = _cli("benchmark_core", tmp_path, *flags, "--output", str(out), "--resume", seed=OTHER_SEED, **env)
        code, refused = _finished(child)
        assert code == 1 and "the task set" in refused, refused
        assert OTHER_SEED not in refused
        # The journal names the variable, so the resume needs no --hidden-seed-env.
        environ = {**os.environ, VARIABLE: SEED, **env}
        command = [sys.executable, "-m", "benchmark_core", "run", *flags, "--output", str(out), "--resume"]
        code, resumed = _finished(
            subprocess.Popen(
                command, cwd=tmp_path, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
        assert code == 0 and f"seeded from ${VARIABLE}" in resumed, resumed
        _no_seed_anywhere(tmp_path, resumed)
        whole = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))
        final = json.loads(out.read_text(encoding="utf-8"))
        assert stable_report(final) == stable_report(whole)


def test_an_agent_run_on_a_private_split(tmp_path: Path) -> None:
    agent = f"{sys.executable} -c \"import os,sys; sys.stdin.read(); print(os.environ['BENCHMARK_TASK_ID'])\""
    picks = ["--task", "hid-001", "--task", "hid-002"]
    before = _files(tmp_path)
    code, printed = _finished(
        _cli("benchmark_rollback_recovery", tmp_path, "--agent", agent, "--model", "echo", "--output", "a.json", *picks)
    )
    assert code == 0, printed
    assert set(_files(tmp_path)) - set(before) == {"a.json"}
    _no_seed_anywhere(tmp_path, printed)
    report = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert [row["taskId"] for row in report["rows"]] == ["hid-001", "hid-002"]
    assert report["provider"] == "agent" and report["privateSplit"]["split"] == "hidden"


def test_compare_pairs_runs_of_one_private_split_and_refuses_two_seeds(tmp_path: Path) -> None:
    args = ["--provider", "mock", "--model", "mock"]
    for name, seed in (("a", SEED), ("b", SEED), ("c", OTHER_SEED)):
        code, printed = _finished(_cli("benchmark_core", tmp_path, *args, "--output", f"{name}.json", seed=seed))
        assert code == 0, printed
    same = subprocess.run(
        [sys.executable, "-m", "benchmark_core", "compare", "a.json", "b.json"], cwd=tmp_path, capture_output=True
    )
    assert same.returncode == 0, same.stderr
    other = subprocess.run(
        [sys.executable, "-m", "benchmark_core", "compare", "a.json", "c.json"], cwd=tmp_path, capture_output=True
    )
    assert other.returncode == 1
    assert b"are runs of different task sets" in other.stderr and b"Traceback" not in other.stderr
