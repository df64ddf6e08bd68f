"""Runs spread over machines: a run's shards fanned out as Ray tasks and merged (`run_on_ray`), and
a sweep's cells (or their shards) likewise (`run_sweep_on_ray`).

    import ray
    from benchmark_core import RunTarget
    from benchmark_core.distributed import run_on_ray

    ray.init(address="auto")              # the cluster this machine belongs to (`ray start --head`)
    report = run_on_ray("benchmark-schema-mutation", RunTarget(model="gpt-4.1-mini", provider="openai"),
                        shards=8, workdir="/shared/run-1", output="report.json")

Needs the `ray` extra (`pip install "benchmark-core[ray]"`); importing this package does not import
Ray. There is no scheduler here: Ray places the shards, and each shard is an ordinary
`run --shard I/N`, so the same shard arithmetic works on a Slurm job array or a Kubernetes indexed
Job (see the README).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

_EXPORTS = {"._ray": ("ShardSpec", "run_on_ray", "run_shard", "run_sweep_on_ray")}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._ray import ShardSpec, run_on_ray, run_shard, run_sweep_on_ray
__all__ = [
    "ShardSpec",
    "run_on_ray",
    "run_shard",
    "run_sweep_on_ray",
]
# End of the generated block.
