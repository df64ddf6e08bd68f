"""The data model shared by every surface.

Every class here is an attrs class with snake_case attributes; `benchmark_core._wire` turns them into
the camelCase JSON documents that the CLI, the HTTP API and the MCP server all emit. Value classes are
frozen; their collection fields are still plain lists and dicts so that cattrs can structure them
without custom hooks, and code must treat them as read-only.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, TypeVar

from attrs import Factory, field, frozen

#: Any JSON value (null, bool, number, string, array, object). Kept as `Any` because a recursive
#: alias cannot be structured by cattrs and buys nothing at the JSON boundary.
JsonValue = Any
#: A JSON object.
JsonObject = dict[str, Any]

#: Field metadata for attributes that are left out of the wire form while they hold their default,
#: so that a document gains a key only where it has something to say (and older reports keep their bytes).
OMIT_IF_DEFAULT = {"omit_if_default": True}


def _optional(default: Any = None) -> Any:
    return field(default=default, metadata=OMIT_IF_DEFAULT)


TaskKind = Literal["single", "episode"]
TASK_KINDS: tuple[str, ...] = ("single", "episode")


@frozen
class ToolSpec:
    """A tool offered to a model: a name, what it does, and a JSON Schema for its arguments."""

    name: str
    description: str = ""
    parameters: JsonObject = Factory(lambda: {"type": "object", "properties": {}})


@frozen
class ToolCall:
    """One call a model asked for."""

    name: str
    arguments: JsonObject = Factory(dict)
    id: str = ""


@frozen
class ToolError:
    """A tool failure returned to the agent (never raised): unknown id, bad arguments, outages."""

    code: str
    message: str


@frozen
class ToolResult:
    """What an environment answers to a tool call: a result, or an error."""

    result: JsonValue = None
    error: Optional[ToolError] = None


@frozen
class ToolLogEntry:
    """One executed tool call, in order, with what the environment answered."""

    name: str
    arguments: JsonObject = Factory(dict)
    result: JsonValue = None
    error: Optional[ToolError] = None
    call_id: str = ""


@frozen
class Task:
    """One benchmark task.

    `expected` is what a single task's grader compares against; `tools` are offered to the model
    (episodes always get theirs from the environment instead); `metadata` holds the benchmark's own
    typed fields, which its grader and generator own.
    """

    id: str
    kind: TaskKind
    prompt: str
    expected: JsonValue = None
    tools: list[ToolSpec] = Factory(list)
    metadata: JsonObject = Factory(dict)


@frozen
class Trace:
    """The universal submission: a final answer, the tool calls a model made, and the state it left.

    `tool_calls` carries calls a model made through native tool calling on a single task; episodes
    put executed calls in `tool_log` instead.
    """

    answer: JsonValue = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_log: Optional[list[ToolLogEntry]] = None
    final_state: JsonValue = None


@frozen
class TaskScore:
    """A grader's verdict on one trace. `score` is in [0, 1]; `details` is benchmark-defined."""

    score: float
    passed: bool
    reason: str
    details: JsonObject = Factory(dict)


@frozen
class Usage:
    """Token and cost accounting. `cost_usd` stays None when no provider reported a cost."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: Optional[float] = None
    #: Reasoning tokens (part of the completion) and prompt tokens served from the provider's prompt
    #: cache, when the provider's usage object reports them.
    reasoning_tokens: Optional[int] = _optional()
    cached_tokens: Optional[int] = _optional()

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=_add_optional(self.cost_usd, other.cost_usd),
            reasoning_tokens=_add_optional(self.reasoning_tokens, other.reasoning_tokens),
            cached_tokens=_add_optional(self.cached_tokens, other.cached_tokens),
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


N = TypeVar("N", int, float)


def _add_optional(a: Optional[N], b: Optional[N]) -> Optional[N]:
    """A sum that stays None while neither side was reported."""
    if a is None:
        return b
    return a if b is None else a + b


ChatRole = Literal["system", "user", "assistant", "tool"]


@frozen
class ChatMessage:
    """One chat message in OpenAI's shape (content, tool calls, tool results)."""

    role: ChatRole
    content: Optional[str] = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_call_id: Optional[str] = None


@frozen
class ChatRequest:
    messages: list[ChatMessage]
    tools: list[ToolSpec] = Factory(list)


@frozen
class ServedBy:
    """What the provider says answered a request: the response's `model`, and the upstream provider
    when a router (OpenRouter) names one."""

    model: Optional[str] = None
    provider: Optional[str] = None


@frozen
class ChatResult:
    """A model turn. `cached` is true when it came from the run's response cache, not the provider."""

    message: ChatMessage
    usage: Usage = Factory(Usage)
    served_by: Optional[ServedBy] = None
    cached: bool = False


@frozen
class CompletionResult:
    text: str
    usage: Usage = Factory(Usage)
    served_by: Optional[ServedBy] = None
    cached: bool = False


AbortReason = Literal["budget"]


@frozen
class Episode:
    """A finished tool-use episode. `aborted` is "budget" when a turn, tool-call or dollar limit was
    hit; `abort_detail` says which."""

    transcript: list[ChatMessage]
    tool_log: list[ToolLogEntry]
    final_state: JsonValue = None
    aborted: Optional[AbortReason] = None
    abort_detail: Optional[str] = None


@frozen
class ConfidenceInterval:
    low: float
    high: float


@frozen
class Totals:
    """`failed` counts rows that errored (the model could not be reached), not rows that scored 0."""

    tasks: int
    passed: int
    failed: int


@frozen
class ServedCount:
    """How many requests of a run one model (and upstream provider) answered."""

    model: Optional[str]
    provider: Optional[str]
    requests: int


@frozen
class CacheStats:
    """Requests answered from the response cache, and the provider-reported dollars they did not cost."""

    hits: int
    saved_cost_usd: Optional[float] = None


@frozen
class GroupMean:
    """One task group's macro mean: the mean over its tasks of each task's mean score."""

    mean: float
    tasks: int


@frozen(kw_only=True)
class RunRow:
    """One task's outcome. `groups` holds the task's group labels (dimension -> value) as the
    benchmark declares them, so a report alone can be split and compared by group."""

    task_id: str
    #: Which of the run's K epochs this row is (1..K); absent in runs of one epoch.
    epoch: Optional[int] = _optional()
    score: float
    passed: bool
    reason: str
    attempts: int
    latency_ms: int
    usage: Usage = Factory(Usage)
    error: Optional[str] = None
    groups: dict[str, str] = Factory(dict)
    details: JsonObject = Factory(dict)
    trace: Trace = Factory(Trace)
    episode: Optional[Episode] = None
    #: The error's stable code (`RATE_LIMITED`, `TIMEOUT`, `GRADER_ERROR`, ...) when the row errored.
    error_code: Optional[str] = _optional()
    #: Model requests of this row answered from the response cache, and the provider-reported
    #: dollars those answers had cost when they were first fetched.
    cache_hits: int = _optional(0)
    cached_cost_usd: Optional[float] = _optional()
    #: What served this row's requests, per model and upstream provider.
    served_by: list[ServedCount] = _optional(Factory(list))


@frozen(kw_only=True, repr=False)
class RunReport:
    """A whole run. `summary` holds the benchmark's own headline fields; on the wire they sit at the
    top level of the document, between `usage` and `rows` (see `benchmark_core._wire`)."""

    benchmark: str
    version: str
    model: str
    provider: str
    mode: str = "prompt"
    seed: int
    started_at: str = ""
    finished_at: str = ""
    mean: float
    #: With K > 1 epochs: pass@1 (mean over tasks of the share of passing epochs), pass^k (share of
    #: tasks passing in every epoch), pass@k (in at least one) and the flip rate (share of tasks whose
    #: verdict differs between epochs). Absent in runs of one epoch.
    epochs: int = _optional(1)
    pass_at1: Optional[float] = _optional()
    pass_hat_k: Optional[float] = _optional()
    pass_at_k: Optional[float] = _optional()
    flip_rate: Optional[float] = _optional()
    confidence_interval95: ConfidenceInterval
    totals: Totals
    usage: Usage
    #: Macro means per task group: dimension -> group -> mean, dimensions in the order the benchmark
    #: declares them, groups sorted by name.
    groups: dict[str, dict[str, GroupMean]] = Factory(dict)
    #: False when the run ended before every task had a row (SIGTERM, Ctrl+C, a fatal provider error,
    #: --max-errors); `stopped` then says why.
    complete: bool = True
    stopped: Optional[str] = _optional()
    #: Generation settings the requests carried (only those given), and what served them.
    generation: JsonObject = _optional(Factory(dict))
    served_by: list[ServedCount] = _optional(Factory(list))
    cache: Optional[CacheStats] = _optional()
    summary: JsonObject = Factory(dict)
    rows: list[RunRow]

    def __repr__(self) -> str:
        # Short on purpose: Python 3.11's asyncio.run formats the main task's result while it
        # restores the SIGINT handler, and a full repr of a 20,000-row report costs 15 us a row.
        rows = f"{len(self.rows)} rows"
        return f"RunReport(benchmark={self.benchmark!r}, model={self.model!r}, mean={self.mean!r}, {rows})"


ProvenanceKind = Literal["synthetic", "human-written", "derived", "scraped", "licensed"]
PROVENANCE_KINDS: tuple[str, ...] = ("synthetic", "human-written", "derived", "scraped", "licensed")


@frozen
class Provenance:
    name: str
    kind: ProvenanceKind
    url: str
    licence: str
    how_to_get: str
    retrieved_at: str
    contamination_notes: str
    refresh: str


BenchmarkStatus = Literal["alpha", "beta", "stable", "deprecated"]
BENCHMARK_STATUSES: tuple[str, ...] = ("alpha", "beta", "stable", "deprecated")


@frozen
class IndexEntry:
    """The benchmark's record for a directory of benchmarks."""

    id: str
    name: str
    tagline: str
    version: str
    status: BenchmarkStatus
    category: str
    tags: list[str]
    what_it_measures: str
    grading_method: str
    task_count: int
    task_kinds: list[str]
    provenance: list[Provenance]
