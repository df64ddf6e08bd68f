"""What a benchmark's hooks are given and what they must give back: `GradeContext` (what a grader
may use besides the task and the trace), `EpisodeContext` (what the results browser shows beside an
episode), the hook types (`Grader`, `TaskLoader`, `Summarizer`, `GroupLabeler`, `SummaryMarkdown`,
`NativeMessages`, `EpisodeContextHook`), and `check_verdict`, the check every grader's
result passes before a report or a surface uses it.

`Benchmark` names these types only in annotations, so loading a definition (all that `list` does)
imports neither this module nor the trace, chat and report classes the types are made of.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from attrs import Factory, define, frozen

from .._model import ChatMessage, JsonObject, JsonValue, RunReport, RunRow, Task, TaskScore, Trace
from ..episodes._environment import EnvironmentFactory
from ..errors._failures import GraderError
from ..wire._converter import check_json

if TYPE_CHECKING:
    from ..episodes._episode import EpisodeLimits


@functools.cache
def episode_limits() -> EpisodeLimits:
    """The default episode limits (imported here, not at the top: `episodes._episode` needs the adapters).
    Cached: a frozen value, and the import statement alone costs ~1 us per grade on the HTTP path."""
    from ..episodes._episode import EpisodeLimits

    return EpisodeLimits()


@define
class GradeContext:
    """What a grader may use besides the task and the trace: the run `seed`, a factory for a fresh
    environment (for replay), or None for benchmarks without episodes, and the episode `limits` the
    trace is held to (the run's own; the defaults when a submission is scored outside a run)."""

    seed: int = 1
    environment: Optional[EnvironmentFactory] = None
    limits: EpisodeLimits = Factory(episode_limits)


Grader = Callable[[Task, Trace, GradeContext], Union[TaskScore, Awaitable[TaskScore]]]
TaskLoader = Callable[[], Awaitable[Sequence[Task]]]


Summarizer = Callable[[Sequence[Task], Sequence[RunRow]], JsonObject]
#: A task's group labels: dimension -> group (e.g. {"store": "files", "promptForm": "hedge"}).
GroupLabeler = Callable[[Task], Mapping[str, str]]
SummaryMarkdown = Callable[[RunReport], str]
NativeMessages = Callable[[Task], list[ChatMessage]]


@frozen(kw_only=True)
class EpisodeContext:
    """What the results browser (`view`, `leaderboard --site`) shows of an episode task besides each
    model's timeline, from the task alone.

    `targets`: the states the grader accepts at the end, each in the shape of the episode's
    `final_state` (the environment's `state()`); a page shows each model's final state as the
    records that differ from the nearest one. A state that is an object of objects (store -> record
    id -> record) is compared record by record, any other shape as one value. `focus`: the records
    the task is about (store, record id), such as the damaged one, marked in that diff. `notes`:
    titled values shown once above the models (the incident that was injected). `sides`: two titled
    values shown side by side (a schema before and after it changed)."""

    targets: tuple[JsonValue, ...] = ()
    focus: tuple[tuple[str, str], ...] = ()
    notes: tuple[tuple[str, JsonValue], ...] = ()
    sides: Optional[tuple[tuple[str, JsonValue], tuple[str, JsonValue]]] = None


#: Given an episode task, what the results browser shows beside it.
EpisodeContextHook = Callable[[Task], EpisodeContext]


def check_verdict(result: Any) -> TaskScore:
    """`result` if it is what a grader must return: a TaskScore with a score in [0, 1], a bool
    `passed`, a str `reason` and JSON `details`. Anything else is a bug in the benchmark:
    `GraderError`, which the runner turns into a zero-score row with the reason and the HTTP API
    into a 500 GRADER_ERROR."""
    if not isinstance(result, TaskScore):
        raise GraderError(f"grader returned {type(result).__name__}, not TaskScore")
    if isinstance(result.score, bool):  # JSON would carry it as true/false, not as a number
        raise GraderError(f"grader returned score {result.score!r}, a bool, not a number")
    if not (isinstance(result.score, (int, float)) and math.isfinite(result.score)):
        raise GraderError(f"grader returned a non-finite score {result.score!r}")
    if not 0.0 <= result.score <= 1.0:
        raise GraderError(f"grader returned score {result.score!r} outside [0, 1]")
    if not isinstance(result.passed, bool) or not isinstance(result.reason, str):
        raise GraderError("grader returned a TaskScore whose passed is not a bool or whose reason is not a str")
    if not isinstance(result.details, dict):
        raise GraderError(f"grader returned details as {type(result.details).__name__}, not a dict")
    try:
        check_json(result.details)
    except (TypeError, ValueError) as exc:
        raise GraderError(f"grader returned details that are not JSON: {exc}") from None
    return result
