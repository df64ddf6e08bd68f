"""benchmark-core: one benchmark definition, four surfaces (SDK, CLI, HTTP API, MCP server).

Everything public is importable from here. What only some programs need (the HTTP API, the MCP
server, the OpenAI-compatible adapter, the CLI, the graders, plugin discovery and the renderers) is
imported on first attribute access, so that `import benchmark_core` stays quick and never imports
aiohttp or mcp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .__about__ import __version__
from .adapters.base import AdapterContext, GenerationSettings, ModelAdapter
from .adapters.mock import MockAdapter, mock_adapter
from .adapters.toolnames import ToolNameCodec, provider_safe_name
from .cache import ResponseCache
from .compare import (
    ComparedRun,
    Comparison,
    Difference,
    GroupDifference,
    compare_reports,
    render_comparison,
)
from .definition import (
    AnswerPolicy,
    Benchmark,
    CallPolicy,
    GradeContext,
    Grader,
    GroupLabeler,
    MockPolicies,
    NativeMessages,
    ScriptedTurn,
    ScriptPolicy,
    Summarizer,
    SummaryMarkdown,
    TaskLoader,
    define_benchmark,
    validate_tasks,
)
from .environment import Environment, EnvironmentFactory, EnvironmentStart
from .episode import EpisodeError, EpisodeLimits, EpisodeResult, Replay, replay, run_episode
from .errors import (
    AdapterError,
    BenchmarkError,
    BenchmarkFileError,
    ConfigurationError,
    DefinitionError,
    GraderError,
    IncomparableReportsError,
    InvalidJsonError,
    InvalidSubmissionError,
    JournalError,
    PluginLoadError,
    RunStoppedError,
    ScaffoldError,
    TaskFileError,
    TaskNotFoundError,
    TasksNotAllowedError,
    UsageError,
)
from .groups import group_means
from .journal import journal_path
from .json_values import loads
from .lazy import lazy_attributes
from .model import (
    CacheStats,
    ChatMessage,
    ChatRequest,
    ChatResult,
    CompletionResult,
    ConfidenceInterval,
    Episode,
    GroupMean,
    IndexEntry,
    JsonObject,
    JsonValue,
    Provenance,
    RunReport,
    RunRow,
    ServedBy,
    ServedCount,
    Task,
    TaskScore,
    ToolCall,
    ToolError,
    ToolLogEntry,
    ToolResult,
    ToolSpec,
    Totals,
    Trace,
    Usage,
)
from .options import RunOptions, RunTarget
from .rng import Mulberry32, mulberry32
from .runner import Run, build_report, run
from .stats import McNemarTest, bootstrap_ci, cluster_bootstrap_ci, mcnemar_exact, paired_bootstrap_ci
from .taskfiles import dump_task_file, load_task_file, resolve_remote_tasks
from .toolbox import CONFLICT, INVALID_ARGUMENTS, NOT_FOUND, UNKNOWN_TOOL, Tool, Toolbox, ToolRefusal
from .wire import dumps, from_wire, to_wire

if TYPE_CHECKING:
    from .adapters.openai_compat import OpenAICompatAdapter, openai_compat_adapter, openrouter_adapter
    from .adapters.registry import make_adapter
    from .card import render_card
    from .cli import create_cli, run_cli
    from .graders import (
        DEFAULT_JUDGE_PROMPT,
        exact_match,
        json_schema_match,
        judge_with_llm,
        numeric_within,
        regex_match,
    )
    from .html_browser import render_task_browser_html
    from .html_compare import render_comparison_html
    from .html_report import render_report_html
    from .http import create_app, serve
    from .mcp import create_mcp_server, start_mcp
    from .plugins import BenchmarkEntry, discover_benchmarks, load_benchmark, resolve_benchmark
    from .report import index_entry, provenance_markdown, render_markdown, render_summary
    from .scaffold import scaffold_package

_LAZY = {
    "OpenAICompatAdapter": ".adapters.openai_compat",
    "openai_compat_adapter": ".adapters.openai_compat",
    "openrouter_adapter": ".adapters.openai_compat",
    "make_adapter": ".adapters.registry",
    "render_card": ".card",
    "create_cli": ".cli",
    "run_cli": ".cli",
    "DEFAULT_JUDGE_PROMPT": ".graders",
    "exact_match": ".graders",
    "json_schema_match": ".graders",
    "judge_with_llm": ".graders",
    "numeric_within": ".graders",
    "regex_match": ".graders",
    "render_report_html": ".html_report",
    "render_task_browser_html": ".html_browser",
    "render_comparison_html": ".html_compare",
    "create_app": ".http",
    "serve": ".http",
    "create_mcp_server": ".mcp",
    "start_mcp": ".mcp",
    "BenchmarkEntry": ".plugins",
    "discover_benchmarks": ".plugins",
    "load_benchmark": ".plugins",
    "resolve_benchmark": ".plugins",
    "scaffold_package": ".scaffold",
    "index_entry": ".report",
    "provenance_markdown": ".report",
    "render_markdown": ".report",
    "render_summary": ".report",
}


__getattr__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "CONFLICT",
    "DEFAULT_JUDGE_PROMPT",
    "INVALID_ARGUMENTS",
    "NOT_FOUND",
    "UNKNOWN_TOOL",
    "AdapterContext",
    "AdapterError",
    "AnswerPolicy",
    "Benchmark",
    "BenchmarkEntry",
    "BenchmarkError",
    "BenchmarkFileError",
    "CallPolicy",
    "ChatMessage",
    "ChatRequest",
    "ChatResult",
    "ComparedRun",
    "Comparison",
    "CompletionResult",
    "ConfidenceInterval",
    "ConfigurationError",
    "DefinitionError",
    "Difference",
    "Environment",
    "EnvironmentFactory",
    "EnvironmentStart",
    "Episode",
    "EpisodeError",
    "EpisodeLimits",
    "EpisodeResult",
    "GradeContext",
    "Grader",
    "GraderError",
    "GroupDifference",
    "GroupLabeler",
    "GroupMean",
    "IncomparableReportsError",
    "IndexEntry",
    "InvalidJsonError",
    "InvalidSubmissionError",
    "JsonObject",
    "JsonValue",
    "McNemarTest",
    "MockAdapter",
    "MockPolicies",
    "ModelAdapter",
    "Mulberry32",
    "NativeMessages",
    "OpenAICompatAdapter",
    "PluginLoadError",
    "Provenance",
    "Replay",
    "RunOptions",
    "RunTarget",
    "Run",
    "RunStoppedError",
    "JournalError",
    "ResponseCache",
    "GenerationSettings",
    "ServedBy",
    "ServedCount",
    "CacheStats",
    "journal_path",
    "RunReport",
    "RunRow",
    "ScaffoldError",
    "ScriptPolicy",
    "ScriptedTurn",
    "Summarizer",
    "SummaryMarkdown",
    "Task",
    "TaskFileError",
    "TaskLoader",
    "TaskNotFoundError",
    "TaskScore",
    "TasksNotAllowedError",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolLogEntry",
    "ToolNameCodec",
    "ToolResult",
    "ToolRefusal",
    "ToolSpec",
    "Toolbox",
    "Totals",
    "Trace",
    "Usage",
    "UsageError",
    "__version__",
    "bootstrap_ci",
    "build_report",
    "cluster_bootstrap_ci",
    "compare_reports",
    "create_app",
    "create_cli",
    "create_mcp_server",
    "define_benchmark",
    "discover_benchmarks",
    "dump_task_file",
    "dumps",
    "exact_match",
    "from_wire",
    "group_means",
    "index_entry",
    "json_schema_match",
    "judge_with_llm",
    "lazy_attributes",
    "load_benchmark",
    "load_task_file",
    "loads",
    "make_adapter",
    "mcnemar_exact",
    "mock_adapter",
    "mulberry32",
    "numeric_within",
    "openai_compat_adapter",
    "openrouter_adapter",
    "paired_bootstrap_ci",
    "provenance_markdown",
    "provider_safe_name",
    "regex_match",
    "render_card",
    "render_comparison",
    "render_comparison_html",
    "render_markdown",
    "render_report_html",
    "render_summary",
    "render_task_browser_html",
    "replay",
    "resolve_benchmark",
    "resolve_remote_tasks",
    "run",
    "run_cli",
    "run_episode",
    "scaffold_package",
    "serve",
    "start_mcp",
    "to_wire",
    "validate_tasks",
]
