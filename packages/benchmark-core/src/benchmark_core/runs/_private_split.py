"""Private splits that exist only in memory (`run --hidden-seed-env NAME`).

A lab that keeps its final comparisons private draws a hidden split from a seed it never writes
down. The split is rendered here, in the runner's memory, by the benchmark's own generator
(`define_benchmark(render_split=...)`, the function `python -m <benchmark>.generator` writes files
with), so no task file exists for an agent, a log or a backup to find. The seed is read from the
environment variable the caller names, and nothing here puts it in a message: an error names the
variable only. What the report keeps is `PrivateSplitRecord`, the split's name and its task-set
digest: two runs with the same seed have the same digest (and the same `RunIdentity`), a
different seed gives other tasks and another digest. The run's journal names the split and the
variable (`journal_header`), so `run --resume` draws the same split again without being told.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from attrs import frozen

from .._model import JsonObject, PrivateSplitRecord, Task
from .._util.lazy import Deferred
from ..data._taskfiles import parse_task_text
from ..errors._base import UsageError
from ..stats._identity import task_set_digest

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..data._splits import SplitRenderer


@frozen
class PrivateSplit:
    """A hidden split generated in memory: its tasks and what the report records of it."""

    tasks: tuple[Task, ...]
    record: PrivateSplitRecord


def private_split(
    benchmark: Benchmark, split: Optional[str], variable: str, environ: Optional[Mapping[str, str]] = None
) -> PrivateSplit:
    """The hidden split `split` (default: the benchmark's first hidden split) drawn from the integer
    in the environment variable `variable`. A `UsageError` (exit 1) when the benchmark has no
    generator, the split is not one of its hidden splits, or the variable is unset or no integer."""
    renderer = _renderer(benchmark)
    name = split if split is not None else benchmark.hidden_splits[0]
    if name not in benchmark.hidden_splits:
        raise UsageError(
            f"with --hidden-seed-env, --tasks names a hidden split of {benchmark.id} "
            f"({', '.join(benchmark.hidden_splits)}), not {name!r}"
        )
    seed = _seed(variable, os.environ if environ is None else environ)
    jsonl = [text for file, text in renderer(name, seed).items() if file.endswith(".jsonl")]
    if len(jsonl) != 1:
        raise UsageError(f"{benchmark.id}'s render_split gave {len(jsonl)} task files for {name!r}, not one")
    tasks = tuple(parse_task_text(jsonl[0], f"the private {name} split"))
    return PrivateSplit(tasks, PrivateSplitRecord(split=name, task_set_digest=task_set_digest(tasks)))


def journal_header(split: PrivateSplitRecord, variable: str) -> JsonObject:
    """What a run's journal header records of its private split: the split and the variable holding
    the seed, never the seed itself."""
    return {"privateSplit": {"split": split.split, "seedEnv": variable}}


def journaled_split(journal: Path) -> Optional[tuple[str, str]]:
    """The (split, variable) a run's journal names, or None when it holds no run on a private split."""
    from ._journal import read_journal
    from ._output_lock import holds_a_run

    if not holds_a_run(journal):
        return None
    recorded = read_journal(journal)[0].get("privateSplit")
    if (
        isinstance(recorded, dict)
        and isinstance(recorded.get("split"), str)
        and isinstance(recorded.get("seedEnv"), str)
    ):
        return recorded["split"], recorded["seedEnv"]
    return None


def _renderer(benchmark: Benchmark) -> SplitRenderer:
    renderer = benchmark.split_renderer
    if renderer is None:
        raise UsageError(
            f"benchmark {benchmark.id!r} declares no generator (define_benchmark(render_split=...)): "
            "it has no hidden split to draw in memory"
        )
    if isinstance(renderer, Deferred):
        resolved: SplitRenderer = renderer.resolve()
        return resolved
    return renderer


def _seed(variable: str, environ: Mapping[str, str]) -> int:
    """The seed in `variable`. The messages name the variable, never its value: a value mistyped
    into the wrong variable would otherwise land in a terminal log."""
    value = environ.get(variable, "").strip()
    if not value:
        raise UsageError(f"--hidden-seed-env {variable}: the variable {variable} is not set (export the private seed)")
    try:
        return int(value)
    except ValueError:
        raise UsageError(f"--hidden-seed-env {variable}: the variable {variable} does not hold an integer") from None
