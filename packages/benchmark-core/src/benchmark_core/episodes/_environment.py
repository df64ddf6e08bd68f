"""The Environment protocol: a seeded, in-process simulator that an episode runs against."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from attrs import Factory, frozen

from .._model import JsonValue, Task, ToolResult, ToolSpec


@frozen
class EnvironmentStart:
    """What `Environment.reset` hands the agent: a system prompt and the tools it may call."""

    system: str
    tools: list[ToolSpec] = Factory(list)


class Environment(Protocol):
    """A deterministic simulator. Same task and seed, same calls: same results and state.

    `call_tool` never raises for an agent's mistake (unknown tool, bad arguments, unknown id): it
    returns a `ToolResult` with an `error`, which the agent sees.
    """

    def reset(self, task: Task, seed: int) -> EnvironmentStart: ...

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult: ...

    def state(self) -> JsonValue: ...

    def done(self) -> bool: ...


EnvironmentFactory = Callable[[], Environment]
