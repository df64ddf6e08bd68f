"""The model adapter protocol: every provider answers single prompts and tool-using chats."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Protocol, runtime_checkable

from attrs import Factory, frozen

from .._model import ChatRequest, ChatResult, CompletionResult, Task

if TYPE_CHECKING:
    from ..cache._cache import ResponseCache
    from ._pacing import Pacer
    from ._ratelimits import RateLimits


@frozen
class GenerationSettings:
    """Sampling settings a request carries; None means "not sent" (the provider's default).
    `seed` is the provider's sampling seed, not the benchmark seed."""

    temperature: Optional[float] = None
    top_p: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    reasoning_effort: Optional[str] = None
    extra_body: Mapping[str, Any] = Factory(dict)


@frozen
class AdapterContext:
    """Which task a request belongs to and how to send it. `task_index` is the task's position in
    the run, `attempt` counts from 1, `seed` is the run seed, `sampling_index` tells apart the
    samples of one task sent several times (it keys the response cache), `settings` are the
    generation settings, and `cache` the run's response cache (None: off). Adapters that cannot
    honour settings or a cache ignore them. `pacer` is the run's `Pacer` and `pace_slot` this
    request's slot in it: an adapter that reads rate-limit headers reports them through
    `rate_limits_seen`, and the run paces its requests by them."""

    task: Task
    task_index: int = 0
    attempt: int = 1
    seed: int = 1
    sampling_index: int = 0
    settings: GenerationSettings = GenerationSettings()
    cache: Optional[ResponseCache] = None
    pacer: Optional[Pacer] = None
    pace_slot: int = 0

    def rate_limits_seen(self, headers: Mapping[str, str], used_tokens: Optional[int] = None) -> None:
        """Report an answer's headers (any status) and, when known, the tokens its request used."""
        if self.pacer is not None:
            self.pacer.observe_headers(self.pace_slot, headers, used_tokens)

    def limits_seen(self, limits: RateLimits, used_tokens: Optional[int] = None) -> None:
        """`rate_limits_seen` for headers the adapter has read already (in its provider's family)."""
        if self.pacer is not None:
            self.pacer.observe(self.pace_slot, limits, used_tokens)


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
