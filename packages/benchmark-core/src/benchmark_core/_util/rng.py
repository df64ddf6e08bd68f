"""mulberry32: the small seeded generator every generator and simulator in the project draws from.

It is bit-for-bit the 32-bit generator of the original TypeScript packages, so a seed means the same
sequence on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Optional, TypeVar

T = TypeVar("T")

_MASK = 0xFFFFFFFF


class Mulberry32:
    """A seeded stream of floats in [0, 1) with the few helpers generators need."""

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> float:
        self._state = (self._state + 0x6D2B79F5) & _MASK
        t = self._state
        t = ((t ^ (t >> 15)) * (t | 1)) & _MASK
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & _MASK)) & _MASK
        return ((t ^ (t >> 14)) & _MASK) / 4294967296

    def __call__(self) -> float:
        return self.next()

    def randint(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("randint needs n > 0")
        return int(self.next() * n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(i + 1)
            items[i], items[j] = items[j], items[i]


def mulberry32(seed: int) -> Mulberry32:
    return Mulberry32(seed)


def epoch_seed(seed: int, epoch: Optional[int]) -> int:
    """The seed of one epoch of a run: the run seed itself for the first epoch (and for runs without
    epochs), another fixed seed for each later one, so that simulators and the mock vary from epoch
    to epoch and a saved report can still be regraded row by row."""
    if epoch is None or epoch <= 1:
        return seed
    return (seed * 1_000_003 + epoch * 7_919) & _MASK
