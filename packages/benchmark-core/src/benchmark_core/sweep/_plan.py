"""A sweep's plan: the file read and checked, then one `Cell` per model x benchmark.

A cell is an ordinary run spelled out: which benchmark (an installed id, or a file spec), which model
at which endpoint, the run options, the task source and the output path. Nothing in a cell is live
(no benchmark object, no adapter, no key), so a cell can be pickled, sent to another process or
machine and run there (`sweep.run_cell`), as a whole or as a shard of its tasks.

Every check happens here, before anything is sent: the keys and types of the file (each mistake
reported with its line), the benchmarks (installed, loadable, their task sources and answer modes),
the labels (one folder per model), the limits (each naming a provider or base URL the file uses) and
the environment variables holding the keys (set, and never read into the plan).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Union

import attrs
from attrs import frozen

from ..agents._command import AgentCommand
from ..errors._base import BenchmarkError
from ..runs._files import RunFiles
from ..runs._options import PROVIDERS, RunOptions, option_specs, option_type
from ..runs._shards import Shard
from ..runs._target import RunTarget
from ._agents_table import agent_tables, has_episodes
from ._keys import key_variable
from ._sweep_file import KeyPath, SweepFile

__all__ = ["Cell", "SweepBenchmark", "SweepModel", "SweepPlan", "endpoint_of", "plan_sweep"]

#: Generation settings a model entry may carry (and `[options]` may give every model).
GENERATION = ("temperature", "top_p", "max_tokens", "sampling_seed", "reasoning_effort", "extra_body")
#: Run options given per benchmark, or set by the sweep itself, and so not in `[options]`.
_NOT_IN_OPTIONS = {
    "mode": "give it per benchmark ([[benchmarks]] mode)",
    "epochs": "give it per benchmark ([[benchmarks]] epochs)",
    "task_ids": "give it per benchmark ([[benchmarks]] task)",
    "concurrency": "requests in flight are set per endpoint in [limits]",
    "mock_skill": "give it per model ([[models]] mock_skill)",
}
_MODEL_KEYS = ("label", "provider", "model", "base_url", "api_key_env", *GENERATION, "mock_skill")
_BENCHMARK_KEYS = ("id", "file", "tasks", "mode", "epochs", "task")
_TOP_KEYS = ("results", "models", "agents", "benchmarks", "limits", "options")
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


@frozen
class SweepModel:
    """One `[[models]]` entry: its label (its results folder) and the model at its endpoint, whose
    `api_key_env` names the variable holding the key; or an `[[agents]]` one (provider `agent`)."""

    label: str
    target: RunTarget
    agent: Optional[AgentCommand] = None


@frozen
class SweepBenchmark:
    """One `[[benchmarks]]` entry: `spec` is what `--benchmark` takes (an id, or `/abs/file.py:NAME`),
    `id` the benchmark's own id. `folder` is its results folder: the id, or for a further entry of
    a benchmark listed with several task sets `<id>@<task set>` (see `folder_names`). `episodes`:
    whether its tasks hold any (the only tasks an `[[agents]]` entry plays)."""

    spec: str
    id: str
    tasks: Optional[str] = None
    episodes: bool = True
    folder: str = ""

    @property
    def results_folder(self) -> str:
        return self.folder or self.id


@frozen
class Cell:
    """One model x benchmark: an ordinary run whose report goes to `output`
    (`<results>/<benchmark folder>/<model label>/report.json`), journaled beside it."""

    benchmark: SweepBenchmark
    model: SweepModel
    options: RunOptions
    output: Path
    #: What its agent must not read besides its run's files: the sweep file, every file it names.
    secret: tuple[Path, ...] = ()

    @property
    def name(self) -> str:
        """`<benchmark id>/<model label>`, how progress and the summary name the cell."""
        return f"{self.benchmark.results_folder}/{self.model.label}"

    @property
    def files(self) -> RunFiles:
        return RunFiles(self.output)

    @property
    def journal(self) -> Path:
        return self.files.journal

    @property
    def endpoint(self) -> str:
        return endpoint_of(self.model)


@frozen
class SweepPlan:
    """The checked sweep: its file, results folder, the cells in file order (benchmark by benchmark,
    model by model) and the requests in flight allowed per endpoint."""

    path: Path
    results: Path
    cells: list[Cell]
    limits: dict[str, int]
    cache: Union[bool, str] = True

    def sharded(self, shard: str) -> SweepPlan:
        """The plan with every cell cut to shard `I/N` of its tasks (`sweep --shard`), the same way on
        every machine; each shard's report is `report.shard-I-of-N.json` in the cell's folder, with its
        journal beside it, so machines sharing the results folder never write the same file."""
        parsed = Shard.parse(shard)
        cells = [
            attrs.evolve(
                cell, options=attrs.evolve(cell.options, shard=str(parsed)), output=cell.files.shard(parsed).report
            )
            for cell in self.cells
        ]
        return attrs.evolve(self, cells=cells)

    def with_cache(self, cache: Union[bool, str]) -> SweepPlan:
        """The plan with every cell's response cache set to `cache` (False: off; a path: that folder)."""
        cells = [attrs.evolve(cell, options=attrs.evolve(cell.options, cache=cache)) for cell in self.cells]
        return attrs.evolve(self, cells=cells, cache=cache)


def endpoint_of(model: SweepModel) -> str:
    """An endpoint is a provider plus base URL: `openai https://api.openai.com/v1`, `mock`."""
    target = model.target
    return target.provider if target.base_url is None else f"{target.provider} {target.base_url}"


def plan_sweep(path: Union[str, Path]) -> SweepPlan:
    """Read and check the sweep file at `path` (see docs/sweeps.md); `ConfigurationError` names the line
    and key of the first mistake. Nothing is sent and no key is read."""
    source = SweepFile(Path(path))
    data = source.data
    _known_keys(source, (), data, _TOP_KEYS)
    base = source.path.resolve().parent
    results = base / _string(source, ("results",), data.get("results", "results"))
    options = _options(source, data.get("options", {}))
    models = _models(source, _tables(source, "models", data)) if "models" in data or "agents" not in data else []
    agents = agent_tables(source, data, {model.label for model, _ in models})
    models += [(SweepModel(label, RunTarget(model=label, provider="agent"), agent=cmd), {}) for label, cmd in agents]
    limits = _limits(source, data.get("limits", {}), models)
    entries = [
        _benchmark(source, i, entry, base, options) for i, entry in enumerate(_tables(source, "benchmarks", data))
    ]
    written = [table.get("tasks") for table in _tables(source, "benchmarks", data)]
    folders = folder_names(source, [(b, name, opts.task_ids) for (b, opts), name in zip(entries, written)])
    named = [path for b, _ in entries for path in (b.tasks, b.spec.partition(":")[0] if b.spec != b.id else None)]
    secret = (source.path.absolute(), *(Path(path).absolute() for path in named if path))
    cells = []
    for (benchmark, bench_options), folder in zip(entries, folders):
        benchmark = attrs.evolve(benchmark, folder=folder)
        for model, settings in models:
            if model.agent is not None and not benchmark.episodes:  # an agent plays episodes only
                continue
            cell_options = attrs.evolve(bench_options, **settings, concurrency=limits[endpoint_of(model)])
            output = results / folder / model.label / "report.json"
            cells.append(Cell(benchmark, model, cell_options, output, secret))
    return SweepPlan(path=source.path, results=results, cells=cells, limits=limits, cache=options.cache)


def folder_names(
    source: SweepFile, entries: list[tuple[SweepBenchmark, Optional[str], Optional[tuple[str, ...]]]]
) -> list[str]:
    """The results folder of each `[[benchmarks]]` entry (with its `tasks` as written and its `task`
    ids, if any): a benchmark's
    first entry writes to `<id>`, where a sweep has always written it, so a results folder stays
    valid when an entry is added after it; each further entry of the same benchmark, with another
    task set, to `<id>@<task set>` (the split or file name, `full`; plus a digest of its task ids
    when it lists some). The same benchmark and task set twice is an error."""
    folders: list[str] = []
    seen: dict[tuple[str, Optional[str], Optional[tuple[str, ...]]], int] = {}
    for index, (benchmark, written, task_ids) in enumerate(entries):
        key = (benchmark.id, benchmark.tasks, task_ids)
        name = _task_set_name(written, task_ids)
        if key in seen:
            raise source.error(
                ("benchmarks", index),
                f"benchmark {benchmark.id!r} is listed twice with the same task set ({name}); "
                "each benchmark and task set gets one folder",
            )
        seen[key] = index
        first = all(other.id != benchmark.id for other, _, _ in entries[:index])
        folder = benchmark.id if first else f"{benchmark.id}@{name}"
        if folder in folders:
            raise source.error(("benchmarks", index), f"{folder!r} would hold two task sets; name the task files apart")
        folders.append(folder)
    return folders


def _task_set_name(written: Optional[str], task_ids: Optional[tuple[str, ...]]) -> str:
    """`full` for `tasks = "full"`, `my-tasks` for `tasks = "data/my-tasks.jsonl"`, `default` without
    `tasks`; then `+<8 hex digits>` of the task ids when the entry lists some."""
    import hashlib

    name = Path(written).stem if written is not None else "default"
    if task_ids:
        name += "+" + hashlib.sha256("\n".join(sorted(task_ids)).encode()).hexdigest()[:8]
    return name


def _tables(source: SweepFile, name: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    tables = data.get(name)
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise source.error((name,), f"give at least one [[{name}]] table")
    return tables


def _known_keys(source: SweepFile, at: KeyPath, table: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for key in table:
        if key not in known:
            raise source.error((*at, key), f"unknown key; expected one of {', '.join(known)}")


def _string(source: SweepFile, key: KeyPath, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise source.error(key, f"must be a non-empty string, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r}" if not isinstance(value, (dict, list)) else type(value).__name__


def _options(source: SweepFile, table: Any) -> RunOptions:
    """`[options]`: run options every cell shares (seed, timeout, retries, cache, ...)."""
    if not isinstance(table, dict):
        raise source.error(("options",), "must be a table")
    specs = option_specs(RunOptions)
    values: dict[str, Any] = {}
    for name, value in table.items():
        if name in _NOT_IN_OPTIONS:
            raise source.error(("options", name), f"not a sweep-wide option: {_NOT_IN_OPTIONS[name]}")
        if name not in specs:
            known = ", ".join(n for n in specs if n not in _NOT_IN_OPTIONS)
            raise source.error(("options", name), f"unknown run option; expected one of {known}")
        values[name] = _option_value(source, ("options", name), name, value)
    return _checked(source, ("options",), RunOptions(**values))


def _option_value(source: SweepFile, key: KeyPath, name: str, value: Any) -> Any:
    """`value` as the run option `name` takes it, or an error naming the type it must have."""
    if name == "cache":
        if isinstance(value, bool) or (isinstance(value, str) and value.strip()):
            return value
        raise source.error(key, f"must be true, false or a folder, not {_shown(value)}")
    wanted = option_type(RunOptions, name)
    if wanted is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if wanted is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if wanted is str and isinstance(value, str):
        return value
    if name == "extra_body" and isinstance(value, dict):
        return value
    kind = {float: "a number", int: "a whole number", str: "a string"}.get(wanted, "a table")
    raise source.error(key, f"must be {kind}, not {_shown(value)}")


def _checked(source: SweepFile, at: KeyPath, options: RunOptions) -> RunOptions:
    try:
        options.validate()
    except BenchmarkError as exc:
        name = exc.message.split(" ", 1)[0]
        raise source.error((*at, name) if at else (name,), exc.message.split(" ", 1)[1]) from None
    return options


def _models(source: SweepFile, tables: list[dict[str, Any]]) -> list[tuple[SweepModel, dict[str, Any]]]:
    models: list[tuple[SweepModel, dict[str, Any]]] = []
    labels: set[str] = set()
    for index, table in enumerate(tables):
        at: KeyPath = ("models", index)
        _known_keys(source, at, table, _MODEL_KEYS)
        for required in ("label", "provider", "model"):
            if required not in table:
                raise source.error((*at, required), "missing (every model needs label, provider and model)")
        label = _string(source, (*at, "label"), table["label"])
        if not _LABEL.match(label):
            raise source.error((*at, "label"), f"{label!r} must be a folder name: letters, digits, '.', '_', '-'")
        if label in labels:
            raise source.error((*at, "label"), f"{label!r} is used by another model; labels name folders")
        labels.add(label)
        provider = _string(source, (*at, "provider"), table["provider"])
        if provider not in PROVIDERS:
            raise source.error((*at, "provider"), f"{provider!r} is not one of {', '.join(PROVIDERS)}")
        base_url = table.get("base_url")
        if base_url is not None:
            base_url = _string(source, (*at, "base_url"), base_url).rstrip("/")
        given = table.get("api_key_env")
        key_env = key_variable(
            source, at, provider, None if given is None else _string(source, (*at, "api_key_env"), given)
        )
        name = _string(source, (*at, "model"), table["model"])
        target = RunTarget(model=name, provider=provider, base_url=base_url, api_key_env=key_env)
        settings = {n: _option_value(source, (*at, n), n, table[n]) for n in (*GENERATION, "mock_skill") if n in table}
        if "mock_skill" in table and provider != "mock":
            raise source.error((*at, "mock_skill"), f"only a mock model has a skill, not provider {provider!r}")
        _checked(source, at, RunOptions(**settings))
        models.append((SweepModel(label, target), settings))
    return models


def _limits(source: SweepFile, table: Any, models: list[tuple[SweepModel, dict[str, Any]]]) -> dict[str, int]:
    """Requests in flight per endpoint: a base URL's limit, else its provider's, else `run`'s default."""
    if not isinstance(table, dict):
        raise source.error(("limits",), "must be a table of provider or base URL = requests in flight")
    given: dict[str, int] = {}
    for key, value in table.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise source.error(("limits", key), f"must be a whole number of requests, at least 1, not {_shown(value)}")
        named = key.rstrip("/")
        if not any(named in (model.target.provider, model.target.base_url) for model, _ in models):
            raise source.error(("limits", key), "names no provider or base_url of a [[models]] entry")
        given[named] = value
    default = RunOptions().concurrency
    limits: dict[str, int] = {}
    for model, _ in models:
        target = model.target
        by_url = given.get(target.base_url) if target.base_url is not None else None
        limits[endpoint_of(model)] = by_url or given.get(target.provider, default)
    return limits


def _benchmark(
    source: SweepFile, index: int, table: dict[str, Any], base: Path, options: RunOptions
) -> tuple[SweepBenchmark, RunOptions]:
    """The benchmark of one entry, loaded now so that a wrong id, file, task source or mode stops the
    sweep before anything is sent; and the options of its cells."""
    from .._benchmark.plugins import resolve_benchmark

    at: KeyPath = ("benchmarks", index)
    _known_keys(source, at, table, _BENCHMARK_KEYS)
    if ("id" in table) == ("file" in table):
        raise source.error((*at, "id"), "give either id (an installed benchmark) or file (path.py:NAME)")
    if "id" in table:
        spec = _string(source, (*at, "id"), table["id"])
    else:
        spec = _string(source, (*at, "file"), table["file"])
        path, _, name = spec.partition(":")
        spec = f"{(base / path).resolve()}{':' + name if name else ''}"
    key: KeyPath = (*at, "id" if "id" in table else "file")
    try:
        bench = resolve_benchmark(spec)
    except BenchmarkError as exc:
        raise source.error(key, exc.message) from None
    tasks = _task_source(source, (*at, "tasks"), table.get("tasks"), base, bench)
    values: dict[str, Any] = {}
    for name in ("mode", "epochs"):
        if name in table:
            values[name] = _option_value(source, (*at, name), name, table[name])
    if "task" in table:
        ids = table["task"]
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            raise source.error((*at, "task"), "must be a list of task ids")
        values["task_ids"] = tuple(ids)
    mode = values.get("mode")
    if mode is not None and mode not in bench.answer_modes:
        modes = ", ".join(bench.answer_modes)
        raise source.error((*at, "mode"), f"benchmark {bench.id!r} supports answer modes {modes}, not {mode!r}")
    bench_options = _checked(source, at, attrs.evolve(options, **values))
    return SweepBenchmark(spec=spec, id=bench.id, tasks=tasks, episodes=has_episodes(bench, tasks)), bench_options


def _task_source(source: SweepFile, key: KeyPath, value: Any, base: Path, bench: Any) -> Optional[str]:
    """A task file relative to the sweep file, or a split the benchmark ships (`tasks-extended`)."""
    if value is None:
        return None
    name = _string(source, key, value)
    relative = base / name
    if relative.is_file():
        return str(relative)
    shipped = bench.task_file(name)
    if not Path(shipped).is_file():
        splits = sorted(p.stem for p in bench.data_dir.glob("*.jsonl")) if bench.data_dir is not None else []
        ships = f"; it ships {', '.join(splits)}" if splits else ""
        raise source.error(
            key, f"{name!r} is neither a file (relative to the sweep file) nor a split of {bench.id}{ships}"
        )
    try:
        bench.tasks(shipped)
    except BenchmarkError as exc:
        raise source.error(key, exc.message) from None
    return str(shipped)
