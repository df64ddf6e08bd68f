"""Discovery of installed benchmarks through the entry-point group `benchmark_core.benchmarks`.

Entry points are read once per process and loaded lazily, one at a time: a plugin that fails to
import is reported by name (distribution, entry point, cause) and the others keep working. Set
BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD=1 to skip entry points altogether; the bundled example is
then still available.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any, Optional

from attrs import define, field

from ..errors._base import describe_error
from ..errors._failures import PluginLoadError
from ..errors._usage import BenchmarkNotFoundError
from .definition import Benchmark

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "benchmark_core.benchmarks"
AUTOLOAD_ENV = "BENCHMARK_CORE_DISABLE_PLUGIN_AUTOLOAD"
EXAMPLE_ID = "benchmark-core-example"


@define
class BenchmarkEntry:
    """One installed benchmark, not yet loaded. `load()` imports it once and caches the outcome."""

    id: str
    distribution: Optional[str]
    version: Optional[str]
    target: str
    _entry_point: Optional[EntryPoint] = field(default=None, repr=False)
    _loaded: Optional[Benchmark] = field(default=None, repr=False)
    _error: Optional[PluginLoadError] = field(default=None, repr=False)

    def load(self) -> Benchmark:
        if self._loaded is not None:
            return self._loaded
        if self._error is not None:
            raise self._error
        try:
            value = self._entry_point.load() if self._entry_point is not None else bundled_example()
            if not isinstance(value, Benchmark):
                raise TypeError(f"{self.target} is a {type(value).__name__}, not a benchmark_core.Benchmark")
            if value.id != self.id:
                raise ValueError(f"entry point is named {self.id!r} but the benchmark's id is {value.id!r}")
        except Exception as exc:
            origin = f"distribution {self.distribution!r}, " if self.distribution else ""
            self._error = PluginLoadError(
                f"benchmark plugin {self.id!r} ({origin}entry point {self.target!r}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            )
            raise self._error from None
        self._loaded = value
        return value

    @property
    def error(self) -> Optional[PluginLoadError]:
        """The load error, after a failed `load()`."""
        return self._error


def bundled_example() -> Benchmark:
    """The bundled example, what `benchmark-core` addresses without `--benchmark`: imported directly,
    without reading the installed distributions' entry points."""
    from ..example import benchmark

    return benchmark


@functools.lru_cache(maxsize=1)
def _entries() -> tuple[BenchmarkEntry, ...]:
    # Imported here: reading every installed distribution's metadata (and importing `email` to parse
    # it) is what only listing or naming installed benchmarks needs.
    from importlib.metadata import entry_points

    found: dict[str, BenchmarkEntry] = {}
    if os.environ.get(AUTOLOAD_ENV, "").strip() not in ("1", "true", "yes"):
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = ep.dist
            found.setdefault(
                ep.name,
                BenchmarkEntry(
                    id=ep.name,
                    distribution=dist.name if dist is not None else None,
                    version=dist.version if dist is not None else None,
                    target=ep.value,
                    entry_point=ep,
                ),
            )
    if EXAMPLE_ID not in found:
        from ..__about__ import __version__

        found[EXAMPLE_ID] = BenchmarkEntry(
            id=EXAMPLE_ID, distribution="benchmark-core", version=__version__, target="benchmark_core.example:benchmark"
        )
    return tuple(sorted(found.values(), key=lambda e: e.id))


def discover_benchmarks() -> list[BenchmarkEntry]:
    """Every installed benchmark (and the bundled example), sorted by id, none loaded yet."""
    return list(_entries())


def load_benchmark(benchmark_id: str) -> Benchmark:
    """Load one installed benchmark by id; `UsageError` when no such benchmark is installed."""
    for entry in _entries():
        if entry.id == benchmark_id:
            return entry.load()
    known = ", ".join(e.id for e in _entries())
    raise BenchmarkNotFoundError(f"no installed benchmark {benchmark_id!r}; installed: {known}")


def resolve_benchmark(spec: str) -> Benchmark:
    """What `--benchmark` names: an installed benchmark's id, or a benchmark defined in one Python
    file (`path/to/file.py:benchmark`, see `benchmark_files`)."""
    from .benchmark_files import is_benchmark_file_spec, load_benchmark_file

    if is_benchmark_file_spec(spec):
        return load_benchmark_file(spec)
    return load_benchmark(spec)


def installed_benchmarks_document() -> dict[str, Any]:
    """`{benchmarks: [{id, distribution, version, tasks, error}]}`: every installed benchmark, loaded
    to count its tasks; one that fails to load has `tasks` null and its `error`, and does not hide the
    others."""
    listing: list[dict[str, Any]] = []
    for entry in discover_benchmarks():
        item: dict[str, Any] = {"id": entry.id, "distribution": entry.distribution, "version": entry.version}
        try:
            item["tasks"] = len(entry.load().tasks())
            item["error"] = None
        except Exception as exc:  # one broken plugin must not hide the others
            item["tasks"] = None
            item["error"] = describe_error(exc)
        listing.append(item)
    return {"benchmarks": listing}
