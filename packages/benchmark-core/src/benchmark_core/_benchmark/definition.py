"""`define_benchmark` and `Benchmark`: the one object from which the SDK, CLI, HTTP API and MCP
server are built. The rules it is held to are in `validation`, the types of its hooks and the
check of a grader's verdict in `hooks`."""

from __future__ import annotations

import inspect
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

import attrs
from attrs import Factory, field, frozen

from .._model import BenchmarkStatus, Provenance, Task
from .._util.lazy import Deferred
from ..data._taskfiles import file_version, load_task_file, shipped_file_names, shipped_splits
from ..data._validation import check_definition, validate_tasks
from ..errors._tasks import DefinitionError, TaskFileError, TaskNotFoundError
from ..errors._usage import EventLoopRunningError

if TYPE_CHECKING:
    # Imported where used: loading a Benchmark (all that `list` does) needs neither the adapters,
    # the episode loop, the submission checks nor the trace, chat and report classes.
    from .._model import ChatMessage, JsonObject, RunReport, TaskScore, Trace
    from ..adapters.base import ModelAdapter
    from ..adapters.mock import MockPolicies
    from ..data._splits import SplitRenderer
    from ..episodes._environment import EnvironmentFactory
    from ..episodes._episode import EpisodeLimits
    from ..hooks._hooks import (
        EpisodeContext,
        EpisodeContextHook,
        GradeContext,
        Grader,
        GroupLabeler,
        NativeMessages,
        Summarizer,
        SummaryMarkdown,
        TaskLoader,
    )

T = TypeVar("T")


def _strings(values: Iterable[str]) -> list[str]:
    return list(values)


def _modes(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _records(values: Iterable[Provenance]) -> list[Provenance]:
    return list(values)


def _optional_tuple(tasks: Optional[Sequence[Task]]) -> Optional[tuple[Task, ...]]:
    return tuple(tasks) if tasks is not None else None


def _optional_path(path: Optional[Union[str, Path]]) -> Optional[Path]:
    return Path(path) if path is not None else None


def _data_dir(benchmark: Benchmark) -> Optional[Path]:
    return benchmark._tasks_file.parent if benchmark._tasks_file is not None else None


@frozen(kw_only=True, eq=False)
class Benchmark:
    """A benchmark: its definition, validated on construction (a `DefinitionError` names the first
    problem), and what every surface asks of it (tasks, grading, running). Build it with
    `define_benchmark(...)`, which takes the same keyword arguments.

    Give exactly one of `tasks` (a list), `load_tasks` (an async loader) or `tasks_file` (a JSONL
    file; its folder becomes `data_dir`, where remote surfaces resolve bare task-file names).
    `render_split` (the generator's, usually a `Deferred`) and `hidden_splits` let `run
    --hidden-seed-env` generate a hidden split in memory. `tasks_allow_env` names the environment
    variable whose colon-separated paths remote surfaces may load besides `data_dir`.
    `native_messages(task)` gives the messages of a single task in native answer mode (default: one
    user message with the prompt). `groups` labels each task with its groups (dimension -> group);
    every report then carries the macro mean of each group, and
    `compare` the difference per group. `cluster_by` names one of those dimensions whose tasks are
    correlated (variants of one base item): the report's interval then resamples its groups, each
    with all its tasks and epochs, and `compare` pairs them the same way, whenever every row of the
    task set carries that label and there are at least two groups (`stats._groups.interval_units`).

    `episode_context(task)` tells the results browser what to show beside an episode task (the
    target state its final state is diffed against, the injected incident, a schema before and
    after): an `EpisodeContext`.

    Any hook (`grade`, `environment`, `summarize`, `summary_markdown`, `groups`, `native_messages`,
    `episode_context`)
    and `mock_policies` may be a `Deferred("package.module:name")`, imported on first use: a
    package's definition then loads without its grader and the rest, and `list` starts fast.
    """

    id: str
    name: str
    tagline: str
    tags: list[str] = field(converter=_strings)
    category: str
    what_it_measures: str
    version: str
    status: BenchmarkStatus
    grading_method: str
    provenance: list[Provenance] = field(converter=_records)
    grader: Grader = field(alias="grade")
    environment: Optional[EnvironmentFactory] = None
    _mock_policies: Union[MockPolicies, Deferred, None] = field(default=None, alias="mock_policies")
    summarize: Optional[Summarizer] = None
    summary_markdown: Optional[SummaryMarkdown] = None
    group_labeler: Optional[GroupLabeler] = field(default=None, alias="groups")
    cluster_by: Optional[str] = None
    answer_modes: tuple[str, ...] = field(default=("prompt",), converter=_modes)
    tasks_allow_env: Optional[str] = None
    distribution: Optional[str] = None
    #: The generator's `render_split(split, seed)` and the hidden splits it renders: what
    #: `run --hidden-seed-env` draws a private split from, in memory (`data._private`).
    split_renderer: Union[SplitRenderer, Deferred, None] = field(default=None, alias="render_split")
    hidden_splits: tuple[str, ...] = field(default=("hidden",), converter=_modes)
    _native_messages: Optional[NativeMessages] = field(default=None, alias="native_messages")
    _episode_context: Optional[EpisodeContextHook] = field(default=None, alias="episode_context")
    _static_tasks: Optional[tuple[Task, ...]] = field(default=None, alias="tasks", converter=_optional_tuple)
    _loader: Optional[TaskLoader] = field(default=None, alias="load_tasks")
    _tasks_file: Optional[Path] = field(default=None, alias="tasks_file", converter=_optional_path)
    data_dir: Optional[Path] = field(default=Factory(_data_dir, takes_self=True), converter=_optional_path)
    _cache: dict[str, _Loaded] = field(factory=dict, init=False)

    def __attrs_post_init__(self) -> None:
        check_definition(self)

    @property
    def mock_policies(self) -> MockPolicies:
        """How the offline mock answers this benchmark (imported now if the definition deferred it)."""
        from ..adapters.mock import MockPolicies

        policies = self._mock_policies
        if policies is None:
            return MockPolicies()
        if isinstance(policies, Deferred):
            policies = policies.resolve()
            if not isinstance(policies, MockPolicies):
                raise DefinitionError(
                    f"benchmark {self.id!r}: mock_policies {self._mock_policies!r} is a "
                    f"{type(policies).__name__}, not MockPolicies"
                )
        return policies

    # -- tasks -------------------------------------------------------------------------------

    async def load_tasks(self, source: Optional[Union[str, Path]] = None) -> list[Task]:
        """The benchmark's tasks, or those of an alternate JSONL file (`source`, a path).

        Tasks are validated (unique ids, known kinds, an environment for episodes) every time they
        are loaded, and cached per source.
        """
        return list((await self._loaded(source)).tasks)

    async def _loaded(self, source: Optional[Union[str, Path]]) -> _Loaded:
        if source is None and self._loader is not None:
            cached = self._cache.get("")
            return cached if cached is not None else self._checked("", "", await self._loader(), None)
        return self._read_tasks(source)

    def _read_tasks(self, source: Optional[Union[str, Path]]) -> _Loaded:
        """The tasks of a file or given in code: no event loop needed (nor imported) to read them."""
        path = self.task_file(source) if source is not None else None
        key, version = file_version(path if path is not None else self._tasks_file)
        cached = self._cache.get(key)
        if cached is not None and cached.version == version:
            return cached
        if path is None and self._static_tasks is not None:
            return self._checked(key, version, self._static_tasks, None)
        file = path if path is not None else self._tasks_file
        assert file is not None
        if path is not None and not path.exists() and self.data_dir is not None and len(path.parts) == 1:
            splits = shipped_splits(self.data_dir)
            raise TaskFileError(f"task file not found: {path} (nor a split of {self.id}, which ships: {splits})")
        return self._checked(key, version, load_task_file(file), path, parsed=True)

    def _checked(
        self, key: str, version: str, tasks: Sequence[Task], source: Optional[Path], *, parsed: bool = False
    ) -> _Loaded:
        try:
            checked = validate_tasks(tasks, has_environment=self.environment is not None, parsed=parsed)
        except DefinitionError as exc:
            origin = source if source is not None else self._tasks_file
            if origin is None:
                raise
            raise DefinitionError(f"{origin}: {exc.message}") from None
        loaded = _Loaded(version, checked)
        self._cache[key] = loaded
        return loaded

    def task_file(self, source: Union[str, Path]) -> Path:
        """The file a task source names. A path that exists is itself; a bare name (no directory
        part) that does not exist here is looked up in the benchmark's `data/` folder, `.jsonl`
        added when missing and the `tasks-` prefix when only that file exists, as remote surfaces
        resolve it: `--tasks tasks-extended` or `--tasks extended` picks a split the benchmark ships."""
        path = Path(source)
        if path.exists() or self.data_dir is None or len(path.parts) != 1 or path.name in (".", ".."):
            return path
        for name in shipped_file_names(path.name):
            shipped = self.data_dir / name
            if shipped.is_file():
                return shipped
        return path

    def tasks(self, source: Optional[Union[str, Path]] = None) -> list[Task]:
        """Synchronous `load_tasks` for scripts and the CLI (callable inside an event loop too, unless
        the benchmark loads its tasks with an async loader)."""
        if source is None and self._loader is not None:
            return _run_sync(self.load_tasks(), "tasks", "load_tasks")
        return list(self._read_tasks(source).tasks)

    def with_tasks_file(self, path: Union[str, Path]) -> Benchmark:
        """This benchmark with `path` as its own task list (what `serve --tasks` and `mcp --tasks`
        serve by default). Bare names given to remote surfaces still resolve in `data_dir`. Nothing
        is read until the tasks are first loaded."""
        return attrs.evolve(self, tasks_file=Path(path), tasks=None, load_tasks=None)

    async def get_task(self, task_id: str, source: Optional[Union[str, Path]] = None) -> Task:
        task = (await self._loaded(source)).by_id.get(task_id)
        if task is not None:
            return task
        raise TaskNotFoundError(f"unknown task id {task_id!r} in benchmark {self.id!r}")

    # -- answering ---------------------------------------------------------------------------

    def checked_tasks(self, tasks: Sequence[Task]) -> list[Task]:
        """`tasks` given in code (not read from a file), checked as `validate_tasks` checks a task list."""
        return list(validate_tasks(tasks, has_environment=self.environment is not None))

    def native_messages(self, task: Task) -> list[ChatMessage]:
        """The messages a single task sends in native answer mode, next to `task.tools`.

        By default one user message with the prompt; a benchmark whose prompt also spells out the
        tools as text (for prompt mode) supplies its own, so that native mode measures tool calling
        and not instruction following.
        """
        from .._model import ChatMessage

        if self._native_messages is None:
            return [ChatMessage(role="user", content=task.prompt)]
        messages = self._native_messages(task)
        if not messages or not all(isinstance(m, ChatMessage) for m in messages):
            raise DefinitionError(f"benchmark {self.id!r}: native_messages must return a non-empty list of ChatMessage")
        return list(messages)

    def task_groups(self, task: Task) -> dict[str, str]:
        """The groups `task` belongs to, dimension -> group, as the benchmark declares them (empty when
        it declares none). A labeler that returns anything but a mapping of non-empty strings to
        strings is a bug in the benchmark: `DefinitionError` naming the task."""
        if self.group_labeler is None:
            return {}
        labels = self.group_labeler(task)
        if not isinstance(labels, Mapping) or not all(
            isinstance(k, str) and k and isinstance(v, str) for k, v in labels.items()
        ):
            raise DefinitionError(
                f"benchmark {self.id!r}: groups of task {task.id!r} must map dimension names to group names "
                f"(strings), not {labels!r}"
            )
        return dict(labels)

    def episode_context(self, task: Task) -> EpisodeContext:
        """What the results browser shows beside `task`'s episodes (an empty context when the
        benchmark declares no `episode_context`). Anything but an `EpisodeContext` is a bug in the
        benchmark: `DefinitionError` naming the task."""
        from ..hooks._hooks import EpisodeContext

        if self._episode_context is None:
            return EpisodeContext()
        context = self._episode_context(task)
        if not isinstance(context, EpisodeContext):
            raise DefinitionError(
                f"benchmark {self.id!r}: episode_context of task {task.id!r} returned "
                f"{type(context).__name__}, not EpisodeContext"
            )
        return context

    # -- grading -----------------------------------------------------------------------------

    def grade_context(self, seed: int = 1, limits: Optional[EpisodeLimits] = None) -> GradeContext:
        from ..hooks._hooks import GradeContext, episode_limits

        return GradeContext(seed=seed, environment=self.environment, limits=limits or episode_limits())

    async def grade(self, task: Task, trace: Trace, ctx: Optional[GradeContext] = None) -> TaskScore:
        """Run the grader (sync or async) and check what it returned.

        A grader that returns anything but a TaskScore with a score in [0, 1], a bool `passed`, a str
        `reason` and JSON `details` is a bug in the benchmark: `GraderError`, which the runner turns
        into a zero-score row with the reason and the HTTP API into a 500 GRADER_ERROR. An exception
        the grader raises itself propagates unchanged (the runner records it the same way; the HTTP
        API answers a bare 500, since its message may expose the server's internals).
        """
        from ..hooks._hooks import check_verdict

        result: Any = self.grader(task, trace, ctx or self.grade_context())
        if inspect.isawaitable(result):
            result = await result
        return check_verdict(result)

    async def score_async(
        self,
        task_id: str,
        submission: Union[Trace, JsonObject],
        *,
        tasks: Optional[Union[str, Path]] = None,
        seed: int = 1,
    ) -> TaskScore:
        """Grade one submission (a Trace or its wire form) against one task. The submission is
        checked before anything else (`benchmark_core.wire._submission`): a bad one raises
        `InvalidSubmissionError` naming the JSON path of the problem."""
        from .._model import Trace
        from ..wire._submission import check_submission, parse_submission

        if isinstance(submission, Trace):
            check_submission(submission)
            trace = submission
        else:
            trace = parse_submission(submission)
        task = await self.get_task(task_id, tasks)
        return await self.grade(task, trace, self.grade_context(seed))

    def score(
        self,
        task_id: str,
        submission: Union[Trace, JsonObject],
        *,
        tasks: Optional[Union[str, Path]] = None,
        seed: int = 1,
    ) -> TaskScore:
        """Synchronous `score_async`."""
        return _run_sync(self.score_async(task_id, submission, tasks=tasks, seed=seed), "score", "score_async")

    # -- running -----------------------------------------------------------------------------

    async def run_async(self, adapter: ModelAdapter, **options: Any) -> RunReport:
        """`benchmark_core.run(self, adapter, **options)`."""
        from ..runs._runner import run  # here, not at the top: the runner imports this module

        return await run(self, adapter, **options)

    def run(self, adapter: ModelAdapter, **options: Any) -> RunReport:
        """Synchronous `run_async`, for scripts; use `run_async` inside an event loop."""
        return _run_sync(self.run_async(adapter, **options), "run", "run_async")


def _run_sync(coroutine: Coroutine[Any, Any, T], name: str, async_name: str, owner: str = "Benchmark.") -> T:
    """asyncio.run, with a clear error instead of asyncio's when a loop is already running
    (Jupyter, an async application)."""
    import asyncio  # here: reading tasks needs no event loop, and the CLI's `list` starts faster

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    coroutine.close()
    raise EventLoopRunningError(
        f"{owner}{name}() cannot run inside a running event loop; await {owner}{async_name}() instead"
    )


class _Loaded:
    """A validated task list as read at `version` (see `file_version`), with its tasks by id. A plain
    class: defining an attrs class compiles its methods, a cost every start-up would pay."""

    __slots__ = ("by_id", "tasks", "version")

    def __init__(self, version: str, tasks: tuple[Task, ...]) -> None:
        self.version = version
        self.tasks = tasks
        self.by_id = {task.id: task for task in tasks}


#: The public way to define a benchmark: `Benchmark`'s own constructor, which validates.
define_benchmark = Benchmark
