"""The public API, pinned: the names each public package exports (as httpx's
tests/test_exported_members.py does), so that adding, moving or removing one is a decision made here
too. Also: each package's generated block (its TYPE_CHECKING imports and `__all__`) agrees with its
one table `_EXPORTS` (`python tools/sync_exports.py` rewrites it), and the root stays narrow: a name
that lives in a subpackage is not also reachable from the root."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import benchmark_core
import pytest

#: Every name each package exports (its `__all__`).
EXPORTED: dict[str, set[str]] = {
    "benchmark_core": {
        "AdapterContext",
        "Benchmark",
        "BenchmarkEntry",
        "Deferred",
        "Environment",
        "EnvironmentStart",
        "GenerationSettings",
        "EpisodeContext",
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
    },
    "benchmark_core.cache": {"CacheInfo", "CacheRemoval", "ResponseCache", "cache_info", "clear_cache", "prune_cache"},
    "benchmark_core.chat": {"ChatMessage", "ChatRequest", "ChatResult", "CompletionResult"},
    "benchmark_core.data": {
        "SplitRenderer",
        "dump_task_file",
        "load_task_file",
        "provenance_markdown",
        "resolve_remote_tasks",
        "split_generator_main",
        "validate_tasks",
    },
    "benchmark_core.agents": {"AgentCommand"},
    "benchmark_core.view": {"ResultsCatalog", "create_view_app", "write_site"},
    "benchmark_core.episodes": {
        "CONFLICT",
        "Episode",
        "EpisodeError",
        "EpisodeLimits",
        "EpisodeResult",
        "INVALID_ARGUMENTS",
        "NOT_FOUND",
        "Replay",
        "Tool",
        "UNKNOWN_TOOL",
        "run_episode",
        "EpisodeSession",
        "open_session",
    },
    "benchmark_core.errors": {
        "AdapterError",
        "AuthenticationFailedError",
        "BadRequestError",
        "BatchItemFailedError",
        "BenchmarkError",
        "BenchmarkFileError",
        "BenchmarkNotFoundError",
        "ConfigurationError",
        "ConnectionFailedError",
        "DefinitionError",
        "EXIT_FAILURE",
        "EXIT_OK",
        "EXIT_SIGINT",
        "EXIT_SIGTERM",
        "EXIT_USAGE",
        "EventLoopRunningError",
        "GraderError",
        "IncomparableReportsError",
        "InternalError",
        "InvalidArgumentsError",
        "InvalidJsonError",
        "InvalidScoreRequestError",
        "InvalidSubmissionError",
        "JournalError",
        "JournalExistsError",
        "ListenError",
        "MalformedResponseError",
        "MaxErrorsError",
        "MethodNotAllowedError",
        "MissingExtraError",
        "MissingFileError",
        "ModelNotFoundError",
        "OutputLockedError",
        "OutputWriteError",
        "PluginLoadError",
        "ProviderError",
        "RateLimitedError",
        "RequestTimeoutError",
        "RequestTooLargeError",
        "RouteNotFoundError",
        "RunStoppedError",
        "ScaffoldError",
        "ShardMergeError",
        "TaskFileError",
        "TaskNotFoundError",
        "TasksNotAllowedError",
        "UnknownToolError",
        "UnreadableFileError",
        "UsageError",
        "AgentFailedError",
        "InvalidSessionRequestError",
        "NotAnEpisodeError",
        "SessionFinishedError",
        "SessionNotFoundError",
        "SessionUnauthorizedError",
        "TooManySessionsError",
    },
    "benchmark_core.graders": {
        "DEFAULT_JUDGE_PROMPT",
        "exact_match",
        "json_schema_match",
        "judge_with_llm",
        "numeric_within",
        "regex_match",
    },
    "benchmark_core.hooks": {
        "AnswerPolicy",
        "CallPolicy",
        "EnvironmentFactory",
        "Grader",
        "EpisodeContextHook",
        "GroupLabeler",
        "NativeMessages",
        "ScriptPolicy",
        "Summarizer",
        "SummaryMarkdown",
        "TaskLoader",
    },
    "benchmark_core.packaging": {"lazy_attributes", "scaffold_package"},
    "benchmark_core.reports": {
        "BatchStats",
        "CacheStats",
        "ConfidenceInterval",
        "GroupMean",
        "IndexEntry",
        "ServedBy",
        "ServedCount",
        "Totals",
        "Usage",
        "build_report",
        "index_entry",
        "render_card",
        "render_markdown",
        "render_report_html",
        "render_summary",
        "render_task_browser_html",
        "AgentRecord",
    },
    "benchmark_core.runs": {"Run", "Shard", "ShardInfo", "ShardSource", "journal_path", "merge_shards"},
    "benchmark_core.servers": {"create_app", "create_mcp_server", "serve", "start_mcp"},
    "benchmark_core.stats": {
        "ComparedRun",
        "Comparison",
        "Difference",
        "GroupDifference",
        "JointBootstrap",
        "McNemarTest",
        "RankInterval",
        "ReferenceDifference",
        "bootstrap_ci",
        "clopper_pearson_ci",
        "cluster_bootstrap_ci",
        "compare_reports",
        "group_means",
        "holm_adjusted",
        "joint_bootstrap",
        "mcnemar_exact",
        "paired_bootstrap_ci",
        "render_comparison",
        "render_comparison_html",
        "wilson_ci",
    },
    "benchmark_core.sweep": {
        "Cell",
        "CellOutcome",
        "Leaderboard",
        "LeaderboardEntry",
        "LeaderboardGroup",
        "SkippedFile",
        "SweepBenchmark",
        "SweepModel",
        "SweepObserver",
        "SweepOutcome",
        "SweepPlan",
        "build_leaderboard",
        "rank_reports",
        "execute_sweep",
        "plan_sweep",
        "render_leaderboard",
        "render_leaderboard_html",
        "run_cell",
        "run_sweep",
        "run_sweep_async",
        "write_leaderboard",
    },
    "benchmark_core.wire": {
        "SchemaError",
        "decode_prefix",
        "dumps",
        "first_difference",
        "first_violation",
        "from_wire",
        "is_number",
        "json_equal",
        "key_path",
        "loads",
        "show",
        "to_wire",
    },
    "benchmark_schema_mutation": {
        "ADDED_SCHEMAS",
        "ALL_KINDS",
        "ALL_SCHEMAS",
        "Alternatives",
        "Authored",
        "BASE_SCHEMAS",
        "BaseSchema",
        "Deprecation",
        "EXTENDED",
        "EXTENDED_KINDS",
        "EXTENDED_TASKS_FILE",
        "Endpoint",
        "EnumChange",
        "Extended",
        "FULL_TASKS_FILE",
        "HELD_OUT",
        "MOCK_POLICIES",
        "MUTATION_KINDS",
        "Migration",
        "NO_CALLS",
        "NO_CALL_REASONS",
        "NewRequired",
        "NoCall",
        "OUTCOMES",
        "Option",
        "PROVENANCE",
        "PUBLIC_SEED",
        "Pagination",
        "Rename",
        "STALE_SIGNALS",
        "Scope",
        "Split",
        "SubmittedCall",
        "TASKS_ALLOW_ENV",
        "TASKS_FILE",
        "TypeChange",
        "__version__",
        "bad_call",
        "benchmark",
        "distinct_calls",
        "extract_call",
        "extract_calls",
        "generate_tasks",
        "grade",
        "grade_call",
        "grade_no_call",
        "half_adapted_call",
        "migrate",
        "native_messages",
        "render_prompt",
        "render_split",
        "render_tasks",
        "run",
        "run_async",
        "schema_check",
        "score",
        "score_async",
        "stale_signals",
        "submitted_call",
        "submitted_calls",
        "summarize",
        "summary_markdown",
        "task_groups",
    },
    "benchmark_rollback_recovery": {
        "FULL_SYSTEM_PROMPT",
        "FULL_TASKS_FILE",
        "MOCK_POLICIES",
        "PROVENANCE",
        "PUBLIC_TOOLS",
        "RollbackSimulator",
        "SEED",
        "SYSTEM_PROMPT",
        "Snapshot",
        "TASKS_ALLOW_ENV",
        "TASKS_FILE",
        "TOOLS",
        "TaskSpec",
        "__version__",
        "bad_script",
        "benchmark",
        "generate",
        "good_script",
        "grade",
        "record_diffs",
        "run",
        "run_async",
        "score",
        "score_async",
        "summarize",
        "summary_markdown",
        "target_of",
        "task_groups",
        "task_spec",
    },
}

REPO = Path(__file__).resolve().parents[3]
BEGIN = "# Generated from _EXPORTS by `python tools/sync_exports.py`"


def _module(name: str) -> ModuleType:
    return pytest.importorskip(name) if not name.startswith("benchmark_core") else importlib.import_module(name)


@pytest.mark.parametrize("package", sorted(EXPORTED))
def test_the_exported_names_are_pinned(package: str) -> None:
    module = _module(package)
    assert set(module.__all__) == EXPORTED[package]
    assert len(module.__all__) == len(set(module.__all__))
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def test_the_root_is_narrow_and_lists_its_names() -> None:
    assert len(benchmark_core.__all__) <= 45
    assert set(benchmark_core.__all__) <= set(dir(benchmark_core))
    # Names of the subpackages are theirs alone: the root has no second, deprecated path to them.
    for package in ("benchmark_core.errors", "benchmark_core.stats", "benchmark_core.sweep"):
        for name in EXPORTED[package]:
            assert not hasattr(benchmark_core, name), f"benchmark_core.{name} shadows {package}.{name}"
    with pytest.raises(AttributeError, match="has no attribute 'UsageError'"):
        benchmark_core.UsageError  # noqa: B018


def _generated_packages() -> Iterator[tuple[str, Path]]:
    for init in sorted(REPO.glob("packages/*/src/**/__init__.py")):
        if BEGIN in init.read_text(encoding="utf-8"):
            src = next(parent for parent in init.parents if parent.name == "src")
            yield ".".join(init.parent.relative_to(src).parts), init


def _static_view(init: Path) -> tuple[dict[str, str], list[str]]:
    """What a type checker reads in `init`: the first TYPE_CHECKING block's imports (name -> module,
    relative as written) and the literal `__all__`."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    imports: dict[str, str] = {}
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            imports[alias.name] = "." * node.level + (node.module or "")
    exported = next(n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "__all__")
    return imports, list(ast.literal_eval(exported.value))


def test_every_generated_block_agrees_with_its_table() -> None:
    packages = dict(_generated_packages())
    assert {"benchmark_core", "benchmark_core.errors", "benchmark_core.analysis"} <= set(packages)
    for package, init in packages.items():
        table = importlib.import_module(package)._EXPORTS
        imports, exported = _static_view(init)
        by_name = {name: source for source, names in table.items() for name in names}
        assert imports == by_name, f"{init}: run python tools/sync_exports.py"
        assert exported == sorted({*by_name, *(["__version__"] if package == "benchmark_core" else [])}), init
