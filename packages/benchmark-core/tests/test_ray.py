"""Ray (needs the `ray` extra; `nox -s ray` runs this file): a local Ray cluster (two CPUs) runs a
run's shards as Ray tasks against a loopback OpenAI-compatible server playing the mock, and the
merged report equals the unsharded run's, timestamps and latencies aside."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from benchmark_core import RunOptions, RunTarget, openai_compat_adapter
from benchmark_core.distributed import run_on_ray
from benchmark_core.errors import ConfigurationError
from benchmark_core.example import benchmark as example
from benchmark_core.testing import FakeOpenAI, mock_handler, stable_report
from benchmark_core.wire import to_wire

KEY_ENV = "BENCHMARK_CORE_RAY_TEST_KEY"
KEY = "sk-test-ray-0123456789"
TARGET = RunTarget(model="m", provider="openai")
NO_CACHE = RunOptions(cache=False)
#: A cluster that cannot start its workers fails the test instead of hanging the session.
TIMEOUT = 300.0


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[FakeOpenAI, Any]]:
    handler = mock_handler(example)
    server = FakeOpenAI(handler=handler, record=False)
    with server.in_thread():
        yield server, handler


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray cluster of this process (workers inherit the key's variable); its address. Its
    temporary folder is under /tmp: nox points TMPDIR into the session's virtualenv, where Ray's
    workers refuse to start ("temp_dir must not be child directory of virtualenv root")."""
    os.environ[KEY_ENV] = KEY
    temp = tempfile.mkdtemp(prefix="bc-ray-", dir="/tmp")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024**2, log_to_driver=False, _temp_dir=temp)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()
        os.environ.pop(KEY_ENV, None)
        shutil.rmtree(temp, ignore_errors=True)


def _stable(report: Any) -> str:
    return json.dumps(stable_report(to_wire(report)), indent=1)


def test_shards_on_ray_merge_into_the_unsharded_report(
    served: tuple[FakeOpenAI, Any], cluster: str, tmp_path: Path
) -> None:
    server, handler = served
    whole = example.run(openai_compat_adapter(server.base_url, "m", KEY), cache=False)
    sent = dict(handler.requests_per_task)
    handler.requests_per_task.clear()
    output = tmp_path / "report.json"
    shards = functools.partial(
        run_on_ray,
        example.id,
        TARGET,
        NO_CACHE,
        shards=3,
        base_url=server.base_url,
        api_key_env=KEY_ENV,
        workdir=tmp_path / "work",
        timeout=TIMEOUT,
    )
    merged = shards(output=output)
    assert _stable(merged) == _stable(whole)
    assert json.loads(output.read_text(encoding="utf-8")) == to_wire(merged)
    assert dict(handler.requests_per_task) == sent  # every task once, from its one shard
    assert sorted(p.name for p in (tmp_path / "work").glob("*.json")) == [
        f"report.shard-{i}-of-3.json" for i in (1, 2, 3)
    ]
    # Called again, every shard resumes from its journal in the workdir: nothing is sent twice.
    again = shards()
    assert dict(handler.requests_per_task) == sent
    assert _stable(again) == _stable(whole)


def test_a_failing_shard_raises_its_own_error(served: tuple[FakeOpenAI, Any], cluster: str) -> None:
    server, _ = served
    with pytest.raises(ConfigurationError, match="BENCHMARK_CORE_RAY_UNSET is not set on this node"):
        run_on_ray(
            example.id, TARGET, NO_CACHE, shards=2, base_url=server.base_url, api_key_env="BENCHMARK_CORE_RAY_UNSET"
        )


def test_a_driver_joins_the_cluster_by_its_address(
    served: tuple[FakeOpenAI, Any], cluster: str, tmp_path: Path
) -> None:
    """Another process, as a user's script on a cluster node would: `ray.init(address=...)`."""
    server, _ = served
    script = (
        "import sys\n"
        "from benchmark_core import RunOptions, RunTarget\n"
        "from benchmark_core.distributed import run_on_ray\n"
        "target = RunTarget(model='m', provider='openai')\n"
        "report = run_on_ray('benchmark-core-example', target, RunOptions(cache=False), shards=2,"
        " base_url=sys.argv[2], api_key_env=sys.argv[3], address=sys.argv[1], output=sys.argv[4], timeout=300)\n"
        "print(report.totals.tasks, report.complete)\n"
    )
    output = tmp_path / "driver.json"
    command = [sys.executable, "-c", script, cluster, server.base_url, KEY_ENV, str(output)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == [str(len(example.tasks())), "True"]
    whole = example.run(openai_compat_adapter(server.base_url, "m", KEY), cache=False)
    assert json.dumps(stable_report(json.loads(output.read_text(encoding="utf-8"))), indent=1) == _stable(whole)


def test_a_sweeps_cells_and_their_shards_on_ray(cluster: str, tmp_path: Path) -> None:
    """Two models x one benchmark as Ray tasks, whole and in two shards per cell: the same reports as
    the sweep run in one process, and the leaderboard written."""
    from benchmark_core.distributed import run_sweep_on_ray
    from benchmark_core.sweep import run_sweep

    body = (
        '[[models]]\nlabel = "plain"\nprovider = "mock"\nmodel = "offline"\n\n'
        '[[models]]\nlabel = "second"\nprovider = "mock"\nmodel = "second"\n\n'
        '[[benchmarks]]\nid = "benchmark-core-example"\nepochs = 2\n\n[limits]\nmock = 4\n'
    )
    files = {}
    for name in ("local", "cells", "shards"):
        files[name] = tmp_path / f"{name}.toml"
        files[name].write_text(f'results = "{name}"\n\n{body}', encoding="utf-8")
    assert run_sweep(files["local"]).completed
    assert run_sweep_on_ray(files["cells"], timeout=TIMEOUT).completed
    sharded = run_sweep_on_ray(files["shards"], shards=2, timeout=TIMEOUT)
    assert sharded.completed and [c.status for c in sharded.cells] == ["done", "done"]
    for label in ("plain", "second"):
        expected = json.dumps(
            stable_report(
                json.loads((tmp_path / "local" / "benchmark-core-example" / label / "report.json").read_text())
            ),
            indent=1,
        )
        for name in ("cells", "shards"):
            found = tmp_path / name / "benchmark-core-example" / label / "report.json"
            assert json.dumps(stable_report(json.loads(found.read_text())), indent=1) == expected
    assert (tmp_path / "shards" / "leaderboard.md").is_file()
