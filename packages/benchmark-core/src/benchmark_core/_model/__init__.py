"""The data model shared by every surface.

Every class here is an attrs class with snake_case attributes; `benchmark_core.wire._converter` turns them into
the camelCase JSON documents that the CLI, the HTTP API and the MCP server all emit. Value classes are
frozen; their collection fields are still plain lists and dicts so that cattrs can structure them
without custom hooks, and code must treat them as read-only.

The classes live in four modules by what they describe, each imported when one of its names is first
asked for here (`benchmark_core._util.lazy`): defining an attrs class compiles its methods, and `list`, which
needs only the tasks' classes, should not pay for the reports'.

- `tasks`: `Task`, `ToolSpec`, `Provenance`, the JSON aliases and field metadata;
- `traces`: `ToolCall`, `ToolError`, `ToolResult`, `ToolLogEntry`, `Trace`, `TaskScore`;
- `chat`: `Usage`, `ChatMessage`, `ChatRequest`, `ServedBy`, `ChatResult`, `CompletionResult`, `Episode`;
- `reports`: `ConfidenceInterval`, `Totals`, `ServedCount`, `CacheStats`, `BatchStats`, `GroupMean`, `ShardInfo`,
  `PrivateSplitRecord`, `RunRow`,  `RunReport`, `IndexEntry`.

`RunIdentity` (what makes a run the run it is, and two runs comparable) lives with the comparisons, in
`benchmark_core.stats._identity`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

if TYPE_CHECKING:
    from .chat import (
        AbortReason,
        ChatMessage,
        ChatRequest,
        ChatResult,
        ChatRole,
        CompletionResult,
        Episode,
        ServedBy,
        Usage,
    )
    from .reports import (
        AgentRecord,
        BatchStats,
        CacheStats,
        ConfidenceInterval,
        GroupMean,
        IndexEntry,
        PrivateSplitRecord,
        RunReport,
        RunRow,
        ServedCount,
        ShardInfo,
        Totals,
    )
    from .tasks import (
        BENCHMARK_STATUSES,
        FLATTENED,
        MAY_BE_JSON_STRING,
        OMIT_IF_DEFAULT,
        PROVENANCE_KINDS,
        TASK_KINDS,
        BenchmarkStatus,
        JsonObject,
        JsonValue,
        Provenance,
        ProvenanceKind,
        Task,
        TaskKind,
        ToolSpec,
        optional_field,
    )
    from .traces import TaskScore, ToolCall, ToolError, ToolLogEntry, ToolResult, Trace

_EXPORTS = {
    ".tasks": (
        "BENCHMARK_STATUSES",
        "FLATTENED",
        "MAY_BE_JSON_STRING",
        "OMIT_IF_DEFAULT",
        "PROVENANCE_KINDS",
        "TASK_KINDS",
        "BenchmarkStatus",
        "JsonObject",
        "JsonValue",
        "Provenance",
        "ProvenanceKind",
        "Task",
        "TaskKind",
        "ToolSpec",
        "optional_field",
    ),
    ".traces": ("TaskScore", "ToolCall", "ToolError", "ToolLogEntry", "ToolResult", "Trace"),
    ".chat": (
        "AbortReason",
        "ChatMessage",
        "ChatRequest",
        "ChatResult",
        "ChatRole",
        "CompletionResult",
        "Episode",
        "ServedBy",
        "Usage",
    ),
    ".reports": (
        "AgentRecord",
        "BatchStats",
        "CacheStats",
        "ConfidenceInterval",
        "GroupMean",
        "IndexEntry",
        "PrivateSplitRecord",
        "RunReport",
        "RunRow",
        "ServedCount",
        "ShardInfo",
        "Totals",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

__all__ = [
    "AbortReason",
    "AgentRecord",
    "BENCHMARK_STATUSES",
    "BenchmarkStatus",
    "BatchStats",
    "CacheStats",
    "ChatMessage",
    "ChatRequest",
    "ChatResult",
    "ChatRole",
    "CompletionResult",
    "ConfidenceInterval",
    "Episode",
    "FLATTENED",
    "GroupMean",
    "IndexEntry",
    "JsonObject",
    "JsonValue",
    "MAY_BE_JSON_STRING",
    "OMIT_IF_DEFAULT",
    "PROVENANCE_KINDS",
    "PrivateSplitRecord",
    "Provenance",
    "ProvenanceKind",
    "RunReport",
    "RunRow",
    "ServedBy",
    "ServedCount",
    "ShardInfo",
    "TASK_KINDS",
    "Task",
    "TaskKind",
    "TaskScore",
    "ToolCall",
    "ToolError",
    "ToolLogEntry",
    "ToolResult",
    "ToolSpec",
    "Totals",
    "Trace",
    "Usage",
    "optional_field",
]
