"""Continuing an episode from its finished turns: what one turn leaves (`FinishedTurn`), and the
refusal to continue when the environment no longer answers the journaled calls the same way.

Environments are deterministic, so an episode killed at turn k is continued exactly: its tool calls
are replayed into a fresh environment with the same seed, each replayed result is checked against
the one the model was shown, and the model is sent the transcript it had. A result that replays
differently (a changed simulator, an edited journal) means the model's turns were answers to
something this environment does not produce: `ReplayMismatch`, and the episode starts again.
"""

from __future__ import annotations

import json

from attrs import frozen

from .._model import ChatMessage, ToolLogEntry, Usage
from ..wire._converter import to_wire


@frozen
class FinishedTurn:
    """One finished turn of an episode in progress: the assistant message as the provider sent it
    (tool calls, reasoning, and `provider_state`, Anthropic's thinking blocks with their signatures),
    the calls it made as executed (with their results), and the usage of the answer."""

    message: ChatMessage
    calls: list[ToolLogEntry]
    usage: Usage


class ReplayMismatch(Exception):
    """A journaled tool call returned something else when replayed."""


def check_replayed(turn: int, journaled: ToolLogEntry, replayed: ToolLogEntry) -> None:
    """Raise `ReplayMismatch` unless `replayed` is the call `journaled` records, result included
    (compared as JSON, the form the journal holds)."""
    if _canonical(journaled) != _canonical(replayed):
        raise ReplayMismatch(
            f"the tool call {journaled.name} ({journaled.call_id}) of turn {turn + 1} replays differently "
            "than journaled"
        )


def _canonical(entry: ToolLogEntry) -> str:
    return json.dumps(to_wire(entry), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
