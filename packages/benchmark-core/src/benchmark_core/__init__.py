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
imports the same names under `TYPE_CHECKING` and sets `__all__`. A name that left the root for a
subpackage (`_compat/moved.py`) still resolves, to the same object, with a DeprecationWarning
naming its new path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .__about__ import __version__
from ._util import lazy as _lazy

#: The public names, by the module that defines them: the one list (see the module docstring).
_EXPORTS = {
    # Defining a benchmark: the definition, its records and its provenance.
    "._benchmark.definition": ("Benchmark", "define_benchmark"),
    "._benchmark.hooks": ("GradeContext",),
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
    "._episode.environment": ("Environment", "EnvironmentStart"),
    "._episode.toolbox": ("ToolRefusal", "Toolbox"),
    "._episode.episode": ("replay",),
    # Seeded randomness, for generators and environments.
    "._util.rng": ("Mulberry32", "mulberry32"),
    # Installed benchmarks (the `benchmark_core.benchmarks` entry point).
    "._benchmark.plugins": ("BenchmarkEntry", "discover_benchmarks", "load_benchmark", "resolve_benchmark"),
    # Running: `run` and its options (the report types are above, with the model).
    "._agents.entry": ("run",),
    "._run.options": ("RunOptions",),
    "._run.target": ("RunTarget",),
    # Models: building an adapter, the offline mock and its policies, the adapter protocol.
    ".adapters.registry": ("make_adapter",),
    ".adapters.mock": ("MockPolicies", "ScriptedTurn", "mock_adapter"),
    ".adapters.base": ("AdapterContext", "GenerationSettings", "ModelAdapter"),
    ".adapters._providers.openai": ("openai_compat_adapter",),
    ".adapters._toolnames": ("ToolNameCodec", "provider_safe_name"),
}

__getattr__ = _lazy.lazy_attributes(__name__, _EXPORTS, moved="._compat.moved")

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._agents.entry import run
    from ._benchmark.definition import Benchmark, define_benchmark
    from ._benchmark.hooks import GradeContext
    from ._benchmark.plugins import BenchmarkEntry, discover_benchmarks, load_benchmark, resolve_benchmark
    from ._episode.environment import Environment, EnvironmentStart
    from ._episode.episode import replay
    from ._episode.toolbox import Toolbox, ToolRefusal
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
    from ._run.options import RunOptions
    from ._run.target import RunTarget
    from ._util.lazy import Deferred
    from ._util.rng import Mulberry32, mulberry32
    from .adapters._providers.openai import openai_compat_adapter
    from .adapters._toolnames import ToolNameCodec, provider_safe_name
    from .adapters.base import AdapterContext, GenerationSettings, ModelAdapter
    from .adapters.mock import MockPolicies, ScriptedTurn, mock_adapter
    from .adapters.registry import make_adapter
# The names that left the root: type checkers accept them, the runtime warns (_compat/moved.py).
if TYPE_CHECKING:
    from .adapters import MockAdapter as MockAdapter
    from .adapters import OpenAICompatAdapter as OpenAICompatAdapter
    from .adapters import openrouter_adapter as openrouter_adapter
    from .cache import *  # noqa: F403
    from .chat import *  # noqa: F403
    from .cli import create_cli as create_cli
    from .cli import run_cli as run_cli
    from .data import *  # noqa: F403
    from .episodes import CONFLICT as CONFLICT
    from .episodes import INVALID_ARGUMENTS as INVALID_ARGUMENTS
    from .episodes import NOT_FOUND as NOT_FOUND
    from .episodes import UNKNOWN_TOOL as UNKNOWN_TOOL
    from .episodes import Episode as Episode
    from .episodes import EpisodeError as EpisodeError
    from .episodes import EpisodeLimits as EpisodeLimits
    from .episodes import EpisodeResult as EpisodeResult
    from .episodes import Replay as Replay
    from .episodes import Tool as Tool
    from .episodes import run_episode as run_episode
    from .errors import EXIT_FAILURE as EXIT_FAILURE
    from .errors import EXIT_OK as EXIT_OK
    from .errors import EXIT_SIGINT as EXIT_SIGINT
    from .errors import EXIT_SIGTERM as EXIT_SIGTERM
    from .errors import EXIT_USAGE as EXIT_USAGE
    from .errors import AdapterError as AdapterError
    from .errors import AuthenticationFailedError as AuthenticationFailedError
    from .errors import BadRequestError as BadRequestError
    from .errors import BatchItemFailedError as BatchItemFailedError
    from .errors import BenchmarkError as BenchmarkError
    from .errors import BenchmarkFileError as BenchmarkFileError
    from .errors import BenchmarkNotFoundError as BenchmarkNotFoundError
    from .errors import ConfigurationError as ConfigurationError
    from .errors import ConnectionFailedError as ConnectionFailedError
    from .errors import DefinitionError as DefinitionError
    from .errors import EventLoopRunningError as EventLoopRunningError
    from .errors import GraderError as GraderError
    from .errors import IncomparableReportsError as IncomparableReportsError
    from .errors import InternalError as InternalError
    from .errors import InvalidArgumentsError as InvalidArgumentsError
    from .errors import InvalidJsonError as InvalidJsonError
    from .errors import InvalidScoreRequestError as InvalidScoreRequestError
    from .errors import InvalidSubmissionError as InvalidSubmissionError
    from .errors import JournalError as JournalError
    from .errors import JournalExistsError as JournalExistsError
    from .errors import ListenError as ListenError
    from .errors import MalformedResponseError as MalformedResponseError
    from .errors import MaxErrorsError as MaxErrorsError
    from .errors import MethodNotAllowedError as MethodNotAllowedError
    from .errors import MissingExtraError as MissingExtraError
    from .errors import MissingFileError as MissingFileError
    from .errors import ModelNotFoundError as ModelNotFoundError
    from .errors import OutputLockedError as OutputLockedError
    from .errors import OutputWriteError as OutputWriteError
    from .errors import PluginLoadError as PluginLoadError
    from .errors import ProviderError as ProviderError
    from .errors import RateLimitedError as RateLimitedError
    from .errors import RequestTimeoutError as RequestTimeoutError
    from .errors import RequestTooLargeError as RequestTooLargeError
    from .errors import RouteNotFoundError as RouteNotFoundError
    from .errors import RunStoppedError as RunStoppedError
    from .errors import ScaffoldError as ScaffoldError
    from .errors import ShardMergeError as ShardMergeError
    from .errors import TaskFileError as TaskFileError
    from .errors import TaskNotFoundError as TaskNotFoundError
    from .errors import TasksNotAllowedError as TasksNotAllowedError
    from .errors import UnknownToolError as UnknownToolError
    from .errors import UnreadableFileError as UnreadableFileError
    from .errors import UsageError as UsageError
    from .graders import *  # noqa: F403
    from .hooks import *  # noqa: F403
    from .packaging import *  # noqa: F403
    from .reports import BatchStats as BatchStats
    from .reports import CacheStats as CacheStats
    from .reports import ConfidenceInterval as ConfidenceInterval
    from .reports import GroupMean as GroupMean
    from .reports import IndexEntry as IndexEntry
    from .reports import ServedBy as ServedBy
    from .reports import ServedCount as ServedCount
    from .reports import Totals as Totals
    from .reports import Usage as Usage
    from .reports import build_report as build_report
    from .reports import index_entry as index_entry
    from .reports import render_card as render_card
    from .reports import render_markdown as render_markdown
    from .reports import render_report_html as render_report_html
    from .reports import render_summary as render_summary
    from .reports import render_task_browser_html as render_task_browser_html
    from .runs import *  # noqa: F403
    from .servers import *  # noqa: F403
    from .stats import ComparedRun as ComparedRun
    from .stats import Comparison as Comparison
    from .stats import Difference as Difference
    from .stats import GroupDifference as GroupDifference
    from .stats import McNemarTest as McNemarTest
    from .stats import bootstrap_ci as bootstrap_ci
    from .stats import clopper_pearson_ci as clopper_pearson_ci
    from .stats import cluster_bootstrap_ci as cluster_bootstrap_ci
    from .stats import compare_reports as compare_reports
    from .stats import group_means as group_means
    from .stats import mcnemar_exact as mcnemar_exact
    from .stats import paired_bootstrap_ci as paired_bootstrap_ci
    from .stats import render_comparison as render_comparison
    from .stats import render_comparison_html as render_comparison_html
    from .sweep import Cell as Cell
    from .sweep import CellOutcome as CellOutcome
    from .sweep import Leaderboard as Leaderboard
    from .sweep import LeaderboardEntry as LeaderboardEntry
    from .sweep import LeaderboardGroup as LeaderboardGroup
    from .sweep import SkippedFile as SkippedFile
    from .sweep import SweepBenchmark as SweepBenchmark
    from .sweep import SweepModel as SweepModel
    from .sweep import SweepObserver as SweepObserver
    from .sweep import SweepOutcome as SweepOutcome
    from .sweep import SweepPlan as SweepPlan
    from .sweep import build_leaderboard as build_leaderboard
    from .sweep import execute_sweep as execute_sweep
    from .sweep import plan_sweep as plan_sweep
    from .sweep import render_leaderboard as render_leaderboard
    from .sweep import render_leaderboard_html as render_leaderboard_html
    from .sweep import run_cell as run_cell
    from .sweep import run_sweep as run_sweep
    from .sweep import run_sweep_async as run_sweep_async
    from .sweep import write_leaderboard as write_leaderboard
    from .wire import *  # noqa: F403
__all__ = [
    "AdapterContext",
    "Benchmark",
    "BenchmarkEntry",
    "Deferred",
    "Environment",
    "EnvironmentStart",
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
