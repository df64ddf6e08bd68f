"""benchmark-core: one benchmark definition, four surfaces (SDK, CLI, HTTP API, MCP server).

The root holds what a benchmark's author and a runner of benchmarks use: the definition and its
records (`define_benchmark`, `Task`, `Trace`, `TaskScore`, `GradeContext`, `Provenance`), episodes'
basics (`Environment`, `Toolbox`, `replay`), loading installed benchmarks, `run` and its report, and
the model adapters a run needs. The rest lives in subpackages by concept: `errors`, `graders`,
`hooks` (the hook types), `episodes`, `data` (task files and generators), `reports` (report parts
and rendering), `runs` (the run object, journals, shards), `sweep` (sweeps and leaderboards),
`stats` (intervals, tests, comparisons), `servers` (HTTP and MCP), `cache`, `chat`, `wire`,
`packaging`, besides `adapters`, `cli`, `analysis`, `distributed` and `testing`.

Each package lists its public names once, in `_EXPORTS` (source module -> names), and imports a name
on first access: `import benchmark_core` loads no implementation module, and `from benchmark_core
import Task` loads only the module that defines `Task`, so a benchmark's `list --json` starts without
asyncio, aiohttp, mcp or the runner. Type checkers, IDEs and the API docs cannot run that table: the
block at the end of the file, written from it by `python tools/sync_exports.py` (a test checks it),
imports the same names under `TYPE_CHECKING` and sets `__all__`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .__about__ import __version__
from ._util import lazy as _lazy

#: The public names, by the module that defines them: the one list (see the module docstring).
_EXPORTS = {
    # Defining a benchmark: the definition, its records and its provenance.
    "._benchmark.definition": ("Benchmark", "define_benchmark"),
    ".hooks._hooks": ("EpisodeContext", "GradeContext"),
    "._util.lazy": ("Deferred",),
    "._model": (
        "JsonObject",
        "JsonValue",
        "Provenance",
        "ProvenanceKind",
        "RunReport",
        "RunRow",
        "Task",
        "TaskScore",
        "ToolCall",
        "ToolError",
        "ToolLogEntry",
        "ToolResult",
        "ToolSpec",
        "Trace",
    ),
    # Episodes: the environment a task runs in, its tools, and replaying a tool log to grade it.
    ".episodes._environment": ("Environment", "EnvironmentStart"),
    ".episodes._toolbox": ("ToolRefusal", "Toolbox"),
    ".episodes._episode": ("replay",),
    # Seeded randomness, for generators and environments.
    "._util.rng": ("Mulberry32", "mulberry32"),
    # Installed benchmarks (the `benchmark_core.benchmarks` entry point).
    "._benchmark.plugins": ("BenchmarkEntry", "discover_benchmarks", "load_benchmark", "resolve_benchmark"),
    # Running: `run` and its options (the report types are above, with the model).
    ".agents._entry": ("run",),
    ".runs._options": ("RunOptions",),
    ".runs._target": ("RunTarget",),
    # Models: building an adapter, the offline mock and its policies, the adapter protocol.
    ".adapters.registry": ("make_adapter",),
    ".adapters.mock": ("MockPolicies", "ScriptedTurn", "mock_adapter"),
    ".adapters.base": ("AdapterContext", "GenerationSettings", "ModelAdapter"),
    ".adapters._providers.openai": ("openai_compat_adapter",),
    ".adapters._toolnames": ("ToolNameCodec", "provider_safe_name"),
}

__getattr__ = _lazy.lazy_attributes(__name__, _EXPORTS)


def __dir__() -> list[str]:
    """The public names, so that `dir(benchmark_core)` and completion show what `__all__` lists."""
    return sorted({*globals(), *__all__})


# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._benchmark.definition import Benchmark, define_benchmark
    from ._benchmark.plugins import BenchmarkEntry, discover_benchmarks, load_benchmark, resolve_benchmark
    from ._model import (
        JsonObject,
        JsonValue,
        Provenance,
        ProvenanceKind,
        RunReport,
        RunRow,
        Task,
        TaskScore,
        ToolCall,
        ToolError,
        ToolLogEntry,
        ToolResult,
        ToolSpec,
        Trace,
    )
    from ._util.lazy import Deferred
    from ._util.rng import Mulberry32, mulberry32
    from .adapters._providers.openai import openai_compat_adapter
    from .adapters._toolnames import ToolNameCodec, provider_safe_name
    from .adapters.base import AdapterContext, GenerationSettings, ModelAdapter
    from .adapters.mock import MockPolicies, ScriptedTurn, mock_adapter
    from .adapters.registry import make_adapter
    from .agents._entry import run
    from .episodes._environment import Environment, EnvironmentStart
    from .episodes._episode import replay
    from .episodes._toolbox import Toolbox, ToolRefusal
    from .hooks._hooks import EpisodeContext, GradeContext
    from .runs._options import RunOptions
    from .runs._target import RunTarget
__all__ = [
    "AdapterContext",
    "Benchmark",
    "BenchmarkEntry",
    "Deferred",
    "Environment",
    "EnvironmentStart",
    "EpisodeContext",
    "GenerationSettings",
    "GradeContext",
    "JsonObject",
    "JsonValue",
    "MockPolicies",
    "ModelAdapter",
    "Mulberry32",
    "Provenance",
    "ProvenanceKind",
    "RunOptions",
    "RunReport",
    "RunRow",
    "RunTarget",
    "ScriptedTurn",
    "Task",
    "TaskScore",
    "ToolCall",
    "ToolError",
    "ToolLogEntry",
    "ToolNameCodec",
    "ToolRefusal",
    "ToolResult",
    "ToolSpec",
    "Toolbox",
    "Trace",
    "__version__",
    "define_benchmark",
    "discover_benchmarks",
    "load_benchmark",
    "make_adapter",
    "mock_adapter",
    "mulberry32",
    "openai_compat_adapter",
    "provider_safe_name",
    "replay",
    "resolve_benchmark",
    "run",
]
# End of the generated block.
