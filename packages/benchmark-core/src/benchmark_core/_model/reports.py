"""What is reported: a run's outcome, one `RunRow` per task (and epoch) and the `RunReport` with its
interval, totals, usage, group means and the benchmark's own summary (and, for one shard of a run,
its `ShardInfo`); and the benchmark's `IndexEntry`, its record for a directory of benchmarks."""

from __future__ import annotations

from typing import Optional

from attrs import Factory, field, frozen

from .chat import Episode, Usage
from .tasks import FLATTENED, BenchmarkStatus, JsonObject, Provenance, optional_field
from .traces import Trace


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
class BatchStats:
    """A run through a provider's batch API (`--batch`): the share of the direct price the provider
    takes off (the rows' costs are already at the batch price), the batches used, in order, and
    the dollars saved against the direct price, when the costs are known."""

    discount: float
    batches: list[str]
    saved_cost_usd: Optional[float] = None


@frozen
class GroupMean:
    """One task group's macro mean: the mean over its tasks of each task's mean score."""

    mean: float
    tasks: int


@frozen(kw_only=True)
class ShardInfo:
    """Which part of a run a shard report (or journal) holds, and what `merge` needs to rebuild the
    whole run's report from its shards: the whole run's task count and task-set digest, the `--task`
    selection it was cut from, its recorded options, and whether the response cache was on."""

    index: int
    count: int
    tasks: int
    task_set_digest: str
    options: JsonObject = Factory(dict)
    task_ids: Optional[list[str]] = optional_field()
    cache: bool = optional_field(False)


@frozen(kw_only=True)
class PrivateSplitRecord:
    """What the report of a run on a private split (`run --hidden-seed-env`) keeps of it: the hidden
    split's name and its task-set digest. Never its seed, which only the lab holds."""

    split: str
    task_set_digest: str


@frozen(kw_only=True)
class AgentRecord:
    """How an agent command answered one episode (`run --agent`): its label, exit status (None when
    it was killed at its timeout, or when the agent is a Python callable), wall time, the tool calls
    its session executed, and the tail of its stderr."""

    label: str
    exit_status: Optional[int] = None
    wall_ms: int = 0
    tool_calls: int = 0
    stderr_tail: str = optional_field("")
    #: The seal it ran in: "bwrap" or "none" (unsealed; absent in reports from before seals).
    sandbox: str = optional_field("")


@frozen(kw_only=True)
class RunRow:
    """One task's outcome. `groups` holds the task's group labels (dimension -> value) as the
    benchmark declares them, so a report alone can be split and compared by group."""

    task_id: str
    #: Which of the run's K epochs this row is (1..K); absent in runs of one epoch.
    epoch: Optional[int] = optional_field()
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
    error_code: Optional[str] = optional_field()
    #: Model requests of this row answered from the response cache, and the provider-reported
    #: dollars those answers had cost when they were first fetched.
    cache_hits: int = optional_field(0)
    cached_cost_usd: Optional[float] = optional_field()
    #: What served this row's requests, per model and upstream provider.
    served_by: list[ServedCount] = optional_field(Factory(list))
    #: Answers of this row cut off at the request's token limit (the graded text may be incomplete).
    truncated: int = optional_field(0)
    #: The agent that played this episode, in a run of an agent (`run --agent`) rather than a model.
    agent: Optional[AgentRecord] = optional_field()


@frozen(kw_only=True, repr=False)
class RunReport:
    """A whole run. `summary` holds the benchmark's own headline fields; on the wire they sit at the
    top level of the document, between `usage` and `rows` (see `benchmark_core.wire._converter`)."""

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
    epochs: int = optional_field(1)
    pass_at1: Optional[float] = optional_field()
    pass_hat_k: Optional[float] = optional_field()
    pass_at_k: Optional[float] = optional_field()
    flip_rate: Optional[float] = optional_field()
    confidence_interval95: ConfidenceInterval
    #: When the benchmark declares `cluster_by` and every row carries that group label: the
    #: dimension whose groups the interval resampled (each with all its tasks and epochs), and how
    #: many groups there were. Absent when the interval resampled tasks.
    clustered_by: Optional[str] = optional_field()
    clusters: Optional[int] = optional_field()
    totals: Totals
    usage: Usage
    #: Macro means per task group: dimension -> group -> mean, dimensions in the order the benchmark
    #: declares them, groups sorted by name.
    groups: dict[str, dict[str, GroupMean]] = Factory(dict)
    #: False when the run ended before every task had a row (SIGTERM, Ctrl+C, a fatal provider error,
    #: --max-errors); `stopped` then says why.
    complete: bool = True
    stopped: Optional[str] = optional_field()
    #: Generation settings the requests carried (only those given), and what served them.
    generation: JsonObject = optional_field(Factory(dict))
    served_by: list[ServedCount] = optional_field(Factory(list))
    cache: Optional[CacheStats] = optional_field()
    batch: Optional[BatchStats] = optional_field()
    #: Rows with at least one answer cut off at the request's token limit.
    truncated_rows: int = optional_field(0)
    #: Set in the report of one shard of a run (`run --shard I/N`); `merge` leaves it out again.
    shard: Optional[ShardInfo] = optional_field()
    #: Set when the tasks were a hidden split generated in memory from a private seed.
    private_split: Optional[PrivateSplitRecord] = optional_field()
    #: In a run of an agent: the seal its rows ran in, "bwrap", or "none" when any row ran unsealed
    #: (a resumed run can mix them). Absent in model runs, and in agent reports from before seals.
    sandbox: Optional[str] = optional_field()
    summary: JsonObject = field(factory=dict, metadata=FLATTENED)
    rows: list[RunRow]

    @property
    def unsealed(self) -> bool:
        """An agent run whose agent could have read what grades it: not sealed throughout (a report
        from before seals names no sandbox, and its agents ran unsealed)."""
        return self.provider == "agent" and self.sandbox != "bwrap"

    def __repr__(self) -> str:
        # Short on purpose: Python 3.11's asyncio.run formats the main task's result while it
        # restores the SIGINT handler, and a full repr of a 20,000-row report costs 15 us a row.
        rows = f"{len(self.rows)} rows"
        return f"RunReport(benchmark={self.benchmark!r}, model={self.model!r}, mean={self.mean!r}, {rows})"


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
