"""Shards: a stable 1/N of a run's tasks, chosen by position, so that every machine given the same
task list (and `--task` selection) picks the same ones without talking to the others.

Shard I of N (1 <= I <= N) holds the tasks at positions I-1, I-1+N, I-1+2N, ... of the run's task
list, every epoch of each. Round-robin rather than blocks: task files are usually ordered by kind or
group, and dealing them out gives every shard a like share of each, so shards take about as long.
A task keeps its position in the whole list (the mock and the episode seeds read it), so a sharded
row is the row the unsharded run writes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional, TypeVar

from attrs import frozen

from .._model import ShardInfo, Task
from ..errors._usage import ConfigurationError

if TYPE_CHECKING:
    from ._options import RunOptions

T = TypeVar("T")

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@frozen
class Shard:
    """Shard `index` of `count`, counted from 1 (`Shard.parse("2/3")`)."""

    index: int
    count: int

    def __attrs_post_init__(self) -> None:
        if self.count < 1 or not 1 <= self.index <= self.count:
            raise ConfigurationError(f"shard must be I/N with 1 <= I <= N, not {self.index}/{self.count}")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`I/N` as `--shard` takes it; `ConfigurationError` for anything else."""
        match = _SHARD.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ConfigurationError(f"shard must be I/N (such as 2/8, counted from 1), not {text!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, position: int) -> bool:
        """Whether the task at `position` (from 0) of the whole list is this shard's."""
        return position % self.count == self.index - 1

    def select(self, items: Sequence[T]) -> tuple[list[int], list[T]]:
        """This shard's positions in `items` and the items at them, in order."""
        positions = list(range(self.index - 1, len(items), self.count))
        return positions, [items[p] for p in positions]


def shard_of(
    options: RunOptions, whole: list[Task], *, cache: bool
) -> tuple[Sequence[int], list[Task], Optional[ShardInfo]]:
    """What a run of `whole` with `options` sends: the positions and tasks of its shard (all of them
    without `shard`), and the record its report and journal keep of the shard."""
    shard = options.sharding()
    if shard is None:
        return range(len(whole)), whole, None
    from ..stats._identity import task_set_digest

    positions, tasks = shard.select(whole)
    record = ShardInfo(
        index=shard.index,
        count=shard.count,
        tasks=len(whole),
        task_set_digest=task_set_digest(whole),
        options=options.recorded(),
        task_ids=list(options.task_ids) if options.task_ids is not None else None,
        cache=cache,
    )
    return positions, tasks, record
