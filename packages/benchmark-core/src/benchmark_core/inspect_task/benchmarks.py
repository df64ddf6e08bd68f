"""Which `Benchmark` an Inspect solver or scorer works for.

Solvers and scorers take the benchmark's id, not the object, because Inspect writes their arguments
into the log. `inspect_task` records the object it was given; an id it never saw is looked up among
the installed benchmarks (`benchmark_core.benchmarks` entry points).
"""

from __future__ import annotations

from .._benchmark.definition import Benchmark
from .._benchmark.plugins import load_benchmark

_known: dict[str, Benchmark] = {}


def remember_benchmark(benchmark: Benchmark) -> None:
    _known[benchmark.id] = benchmark


def resolve_benchmark(benchmark_id: str) -> Benchmark:
    known = _known.get(benchmark_id)
    return known if known is not None else load_benchmark(benchmark_id)
