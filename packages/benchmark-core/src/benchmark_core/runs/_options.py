"""The one declaration of run options.

`RunOptions` is what `run(benchmark, adapter, options)` takes. Each field carries an `OptionSpec`
(help text, bounds, choices, which surfaces show it, whether it is part of the run's identity), and
the CLI's `run` options (`cli_options`) and the MCP `run_benchmark` parameters (`mcp_parameters`) are
generated from those fields, so names, types, defaults and help agree on every surface. `RunTarget`
(`target.py`: the model at its endpoint) is declared the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Optional, Union, get_args, get_origin

import attrs
from attrs import frozen

from .._model import JsonObject
from ..adapters.base import GenerationSettings
from ..adapters.catalog import PROVIDER_NAMES
from ..episodes._episode import EpisodeLimits
from ..errors._usage import ConfigurationError
from ._option_values import check_value, json_object
from ._shards import Shard

#: Reasoning effort levels providers accept (OpenAI's `reasoning_effort`, OpenRouter's `reasoning.effort`).
REASONING_EFFORTS: tuple[str, ...] = ("none", "minimal", "low", "medium", "high", "xhigh")
#: Providers the surfaces can build an adapter for: the names of the one provider table.
PROVIDERS: tuple[str, ...] = PROVIDER_NAMES


@frozen
class OptionSpec:
    """How one option shows on the surfaces.

    `cli` is the flag (None: not on the CLI), `mcp` whether `run_benchmark` takes it, `recorded`
    whether it is part of the run's identity (journal header, `--resume` check, report). `parse`
    turns the CLI's text into the value (for JSON and number-or-fraction options).
    """

    help: str
    cli: Optional[str] = None
    mcp: bool = True
    recorded: bool = False
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    min_open: bool = False
    choices: Optional[tuple[str, ...]] = None
    metavar: Optional[str] = None
    multiple: bool = False
    required: bool = False
    parse: Optional[Callable[[str], Any]] = None
    #: The CLI's wording, where the flag's value differs in shape from the field's (`--cache DIR`).
    cli_help: Optional[str] = None
    #: A recorded option left out of the identity while unset, so that runs without it keep their bytes.
    recorded_when_set: bool = False


def option(default: Any, spec: OptionSpec) -> Any:
    """An attrs field declared as a run option (`attrs.NOTHING`: no default, required)."""
    if isinstance(default, (list, dict)):
        raise TypeError("use an immutable default")
    return attrs.field(default=default, metadata={"option": spec})


@frozen
class RunOptions:
    """Options of `run`. See each field's `OptionSpec` (`option_specs(RunOptions)`) for its meaning;
    the CLI's `run --help` prints the same text."""

    mode: Optional[str] = option(
        None,
        OptionSpec(
            "Answer mode of single tasks: prompt, or native (tool calling); default: the benchmark's first.",
            cli="--mode",
            choices=("prompt", "native"),
        ),
    )
    seed: int = option(
        1,
        OptionSpec(
            "Benchmark seed: the mock's choices, episode simulators and the bootstrap interval.",
            cli="--seed",
            recorded=True,
        ),
    )
    task_ids: Optional[tuple[str, ...]] = option(
        None,
        OptionSpec("Run only these tasks (default: all).", cli="--task", metavar="ID", multiple=True),
    )
    shard: Optional[str] = option(
        None,
        OptionSpec(
            "Run only shard I of N (counted from 1): the tasks at positions I-1, I-1+N, I-1+2N, ... of the "
            "task list, every epoch of each, so every machine picks the same ones; the report records the "
            "shard, and `merge` joins the shards' reports into the whole run's.",
            cli="--shard",
            metavar="I/N",
        ),
    )
    epochs: int = option(
        1,
        OptionSpec(
            "Send every task this many times (K). With K > 1 rows carry their epoch, the report gains "
            "pass@1, pass^k, pass@k and the flip rate, and the interval resamples tasks.",
            cli="--epochs",
            minimum=1,
            recorded=True,
        ),
    )
    concurrency: int = option(
        4,
        OptionSpec(
            "Most requests in flight. Lowered on 429 rate limits, raised again while requests succeed.",
            cli="--concurrency",
            minimum=1,
        ),
    )
    timeout: float = option(60.0, OptionSpec("Seconds per model request.", cli="--timeout", minimum=0, min_open=True))
    retries: Optional[int] = option(
        None,
        OptionSpec(
            "Most extra attempts per request after transient faults (429, 5xx, timeouts, malformed "
            "replies); default: no count limit, only the retry budget.",
            cli="--retries",
            minimum=0,
        ),
    )
    retry_budget: float = option(
        600.0,
        OptionSpec(
            "Seconds a task may spend retrying transient faults (backoff waits and failed attempts) "
            "before it is recorded as errored.",
            cli="--retry-budget",
            minimum=0,
        ),
    )
    max_errors: Optional[float] = option(
        None,
        OptionSpec(
            "End the run early once this many rows errored (a whole number), or this share of the "
            "tasks (a fraction below 1).",
            cli="--max-errors",
            minimum=0,
            min_open=True,
            metavar="N",
        ),
    )
    max_turns: int = option(
        20,
        OptionSpec(
            "Episodes: model turns before the episode is aborted as over budget.",
            cli="--max-turns",
            minimum=1,
            recorded=True,
        ),
    )
    max_tool_calls: int = option(
        50,
        OptionSpec(
            "Episodes: executed tool calls before the episode is aborted as over budget.",
            cli="--max-tool-calls",
            minimum=0,
            recorded=True,
        ),
    )
    max_dollars: Optional[float] = option(
        None,
        OptionSpec(
            "Episodes: provider-reported dollars before the episode is aborted as over budget.",
            cli="--max-dollars",
            minimum=0,
            recorded=True,
        ),
    )
    temperature: Optional[float] = option(
        None,
        OptionSpec(
            "Sampling temperature sent to the provider (sent only when given).",
            cli="--temperature",
            minimum=0,
            recorded=True,
        ),
    )
    top_p: Optional[float] = option(
        None,
        OptionSpec(
            "Nucleus sampling top_p sent to the provider (sent only when given).",
            cli="--top-p",
            minimum=0,
            maximum=1,
            recorded=True,
        ),
    )
    max_tokens: Optional[int] = option(
        None,
        OptionSpec(
            "Most completion tokens per request (sent only when given).", cli="--max-tokens", minimum=1, recorded=True
        ),
    )
    sampling_seed: Optional[int] = option(
        None,
        OptionSpec(
            "The provider's sampling seed (the request's `seed`), apart from the benchmark --seed; "
            "sent only when given.",
            cli="--sampling-seed",
            recorded=True,
        ),
    )
    reasoning_effort: Optional[str] = option(
        None,
        OptionSpec(
            "Reasoning effort for reasoning models (sent only when given).",
            cli="--reasoning-effort",
            choices=REASONING_EFFORTS,
            recorded=True,
        ),
    )
    extra_body: Optional[Mapping[str, Any]] = option(
        None,
        OptionSpec(
            "Provider-specific request fields as a JSON object, merged into every request body "
            "(model and messages cannot be overridden).",
            cli="--extra-body",
            metavar="JSON",
            recorded=True,
            parse=json_object,
        ),
    )
    cache: Union[bool, str] = option(
        True,
        OptionSpec(
            "Response cache: a rerun of the same requests is answered from disk and costs nothing. "
            "True: the user's cache directory ($BENCHMARK_CORE_CACHE, else ~/.cache/benchmark-core/responses); "
            "a path: that directory; False: off. Never used for the mock.",
            cli="--cache",
            metavar="DIR",
            cli_help="Response cache directory: a rerun of the same requests is answered from disk and costs "
            "nothing (default: $BENCHMARK_CORE_CACHE, else ~/.cache/benchmark-core/responses; never used "
            "for the mock). --no-cache switches it off.",
        ),
    )
    batch: bool = option(
        False,
        OptionSpec(
            "Send single tasks through the provider's batch API (openai, anthropic) at half price: submit, poll "
            "until the batch ends, fetch and grade; failed items go again, and a resumed run polls its batches "
            "again, never submitting a task twice. Episodes are refused.",
            cli="--batch",
            recorded=True,
        ),
    )
    batch_poll: float = option(
        5.0, OptionSpec("Batch: seconds to the first poll, doubling to 60.", cli="--batch-poll", minimum=0.01)
    )
    mock_skill: Optional[float] = option(
        None,
        OptionSpec(
            "The mock only: the share P (0 to 1) of tasks it answers with its good policy, which tasks drawn from "
            "a hash of the model name and the task id; default: good on even task positions, bad on odd ones.",
            cli="--mock-skill",
            minimum=0,
            maximum=1,
            metavar="P",
            recorded=True,
            recorded_when_set=True,
        ),
    )
    #: Pause before the n-th retry: backoff_base * 2**(n-1), at most backoff_max, times jitter in [0.5, 1.5).
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    #: A provider's Retry-After is honoured up to this many seconds, so one answer cannot stall a run.
    max_retry_after: float = 120.0

    @property
    def limits(self) -> EpisodeLimits:
        return EpisodeLimits(max_turns=self.max_turns, max_tool_calls=self.max_tool_calls, max_dollars=self.max_dollars)

    def generation(self) -> JsonObject:
        """The generation settings that were given, in wire spelling (what the report records)."""
        from ..wire._converter import camel

        names = ("temperature", "top_p", "max_tokens", "sampling_seed", "reasoning_effort", "extra_body")
        return {camel(n): _plain(getattr(self, n)) for n in names if getattr(self, n) is not None}

    def generation_settings(self) -> GenerationSettings:
        """What every request of a run with these options sends besides its messages."""
        return GenerationSettings(
            temperature=self.temperature,
            top_p=self.top_p,
            max_tokens=self.max_tokens,
            seed=self.sampling_seed,
            reasoning_effort=self.reasoning_effort,
            extra_body=dict(self.extra_body or {}),
        )

    def recorded(self) -> JsonObject:
        """The options that are part of the run's identity, in wire spelling, defaults included."""
        from ..wire._converter import camel

        return {
            camel(name): _plain(getattr(self, name))
            for name, spec in option_specs(RunOptions).items()
            if spec.recorded and not (spec.recorded_when_set and getattr(self, name) is None)
        }

    def error_limit(self, tasks: int) -> Optional[int]:
        """How many errored rows end the run, for a run of `tasks` tasks (None: no limit)."""
        if self.max_errors is None:
            return None
        if self.max_errors < 1:
            return max(1, math.ceil(self.max_errors * tasks))
        return int(self.max_errors)

    def sharding(self) -> Optional[Shard]:
        """The shard this run is (None: the whole run); `ConfigurationError` if `shard` is not I/N."""
        return Shard.parse(self.shard) if self.shard is not None else None

    def validate(self) -> None:
        """`ConfigurationError` for a value out of range (the CLI and MCP check the same bounds first)."""
        for name, spec in option_specs(RunOptions).items():
            check_value(name, getattr(self, name), spec)
        self.sharding()
        if self.max_errors is not None and self.max_errors >= 1 and self.max_errors != int(self.max_errors):
            raise ConfigurationError("max_errors must be a whole number, or a fraction below 1")


def with_overrides(options: Optional[RunOptions], overrides: Mapping[str, Any]) -> RunOptions:
    """`options` (default: `RunOptions()`) with the keyword options `run()` was given; a name that is
    no run option is a `ConfigurationError`, and `task_ids` may be any sequence."""
    unknown = sorted(set(overrides) - set(attrs.fields_dict(RunOptions)))
    if unknown:
        raise ConfigurationError(f"unknown run option(s): {', '.join(unknown)}")
    changes = dict(overrides)
    if changes.get("task_ids") is not None:
        changes["task_ids"] = tuple(changes["task_ids"])
    return attrs.evolve(options or RunOptions(), **changes)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def option_specs(cls: type[Any]) -> dict[str, OptionSpec]:
    """The declared options of `RunOptions` or `RunTarget`, in declaration order."""
    return {a.name: a.metadata["option"] for a in attrs.fields(cls) if "option" in a.metadata}


def option_type(cls: type[Any], name: str) -> Any:
    """The declared type of an option, with `Optional[...]` removed."""
    attrs.resolve_types(cls)
    field_type = attrs.fields_dict(cls)[name].type
    if get_origin(field_type) is Union:
        args = [a for a in get_args(field_type) if a is not type(None)]
        field_type = args[0]
    return field_type
