"""The model adapter protocol: every provider answers single prompts and tool-using chats."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from attrs import frozen

from ..model import ChatRequest, ChatResult, CompletionResult, Task


@frozen
class AdapterContext:
    """Which task a request belongs to. `task_index` is the task's position in the run, `attempt`
    counts from 1, `seed` is the run seed."""

    task: Task
    task_index: int = 0
    attempt: int = 1
    seed: int = 1


@runtime_checkable
class ModelAdapter(Protocol):
    """A model behind some provider.

    `complete` answers a single prompt; `chat` one turn of a conversation with tools. Both raise
    `benchmark_core.errors.AdapterError` on provider failures (retryable ones marked so) and must be
    cancellable: the runner cancels a request that exceeds its timeout. `aclose` releases
    connections; an adapter must work again after it (reopening lazily).
    """

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    async def complete(self, prompt: str, ctx: AdapterContext) -> CompletionResult: ...

    async def chat(self, request: ChatRequest, ctx: AdapterContext) -> ChatResult: ...

    async def aclose(self) -> None: ...
