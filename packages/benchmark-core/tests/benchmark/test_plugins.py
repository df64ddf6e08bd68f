"""Plugin discovery through real entry points of (fake) installed distributions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GOOD_PLUGIN = """
from benchmark_core import Provenance, Task, TaskScore, define_benchmark

benchmark = define_benchmark(
    id="good-plugin", name="Good plugin", tagline="Loads.", tags=[], category="test",
    what_it_measures="Nothing.", version="1.2.3", status="alpha", grading_method="Always 1.",
    provenance=[Provenance("p", "synthetic", "u", "MIT", "h", "2026", "c", "r")],
    tasks=[Task(id="only", kind="single", prompt="Say hi.", expected="hi")],
    grade=lambda task, trace, ctx: TaskScore(1.0, True, "always"),
)
"""


def _distribution(site: Path, name: str, entry_points: str, modules: dict[str, str]) -> None:
    info = site / f"{name.replace('-', '_')}-1.2.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.2.3\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[benchmark_core.benchmarks]\n{entry_points}\n", encoding="utf-8")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(source, encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    _distribution(tmp_path, "good-plugin", "good-plugin = good_plugin:benchmark", {"good_plugin": GOOD_PLUGIN})
    _distribution(
        tmp_path,
        "broken-plugin",
        "broken-plugin = broken_plugin:benchmark",
        {"broken_plugin": "raise ImportError('missing dependency frobnitz')\n"},
    )
    _distribution(
        tmp_path, "wrong-plugin", "wrong-plugin = wrong_plugin:benchmark", {"wrong_plugin": "benchmark = 42\n"}
    )
    return tmp_path


def _cli(site: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(site), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "benchmark_core", *args], capture_output=True, text=True, env=environment, check=False
    )


def test_broken_plugins_are_listed_with_their_error_and_the_rest_work(site: Path) -> None:
    done = _cli(site, "benchmarks", "--json")
    # Listed, and still a failure a script can see.
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: 2 benchmark(s) failed to load: broken-plugin, wrong-plugin\n"
    listing = {b["id"]: b for b in json.loads(done.stdout)["benchmarks"]}
    assert listing["good-plugin"]["tasks"] == 1 and listing["good-plugin"]["error"] is None
    assert listing["good-plugin"]["distribution"] == "good-plugin" and listing["good-plugin"]["version"] == "1.2.3"
    broken = listing["broken-plugin"]["error"]
    assert "broken-plugin" in broken and "broken_plugin:benchmark" in broken
    assert "ImportError: missing dependency frobnitz" in broken
    assert "not a benchmark_core.Benchmark" in listing["wrong-plugin"]["error"]
    assert listing["benchmark-core-example"]["tasks"] == 21


def test_the_text_listing_shows_every_benchmark_and_exits_2_when_one_failed(site: Path) -> None:
    done = _cli(site, "benchmarks")
    assert done.returncode == 2
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert lines.keys() >= {"benchmark-core-example", "broken-plugin", "good-plugin", "wrong-plugin"}
    assert lines["good-plugin"].endswith(" 1 tasks")
    assert "LOAD ERROR: " in lines["broken-plugin"]
    assert "Traceback" not in done.stderr


def test_address_a_plugin_with_benchmark_option(site: Path) -> None:
    done = _cli(site, "--benchmark", "good-plugin", "run", "--model", "m", "--provider", "mock", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["benchmark"] == "good-plugin"
    failed = _cli(site, "--benchmark", "broken-plugin", "list")
    assert failed.returncode == 2
    assert "ImportError: missing dependency frobnitz" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_autoload_can_be_switched_off(site: Path) -> None:
    done = _cli(site, "benchmarks", "--json", env={"BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert (done.returncode, done.stderr) == (0, "")
    ids = [b["id"] for b in json.loads(done.stdout)["benchmarks"]]
    assert ids == ["benchmark-core-example"]
