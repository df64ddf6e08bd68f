"""Turn checkpoints: every finished turn of an episode in progress goes to the run's journal, and a
resumed run continues each unfinished episode at its last finished turn instead of paying for it
again from turn 0.

A turn line holds the assistant message as the provider sent it (tool calls, reasoning, thinking
blocks with their signatures), the calls it made with their results, the usage of the answer, and
what the task's requests had cost so far (`Spent`), so that the finished row of a resumed episode is
the row the uninterrupted one would have written: the same transcript, tool log, score and usage.

On resume (`Checkpoints.play`), the turns are replayed into a fresh environment with the same seed
(`run_episode(resume_from=...)`); a result that replays differently starts that episode again from
turn 0, and the run says so. Turn lines are tagged with a digest of the journal's header line, so
lines that came from another run's journal are ignored (and said so), never continued. A torn last
line is cut off when the journal is opened, as for rows: the episode resumes at the turn before.

Runs without a journal (the MCP tool's runs without an output) keep no checkpoints; `--batch` runs
refuse episodes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Optional

from attrs import frozen

from .._model import ChatMessage, Task, ToolLogEntry, Usage
from ..episodes._environment import EnvironmentFactory
from ..episodes._episode import EpisodeLimits, EpisodeResult, run_episode
from ..episodes._resume import FinishedTurn, ReplayMismatch
from ..errors._base import BenchmarkError
from ..wire._converter import from_wire
from ._journal import Journal
from ._output_lock import is_holder_line
from ._requests import Spent, TaskRequests

EpisodeKey = tuple[str, Optional[int]]
Note = Callable[[str], None]


class RunNotes(list[str]):
    """What a run says about how it resumed (episodes continued, or started again and why; batches
    found again or submitted again): called with a note, it keeps it and tells `tell`."""

    def __init__(self, tell: Optional[Note] = None) -> None:
        super().__init__()
        self._tell = tell

    def __call__(self, text: str) -> None:
        self.append(text)
        if self._tell is not None:
            self._tell(text)


@frozen(kw_only=True)
class TurnRecord:
    """One `turn` line of the journal: turn number `turn` (from 0) of the episode of `task_id` in
    `epoch`, journaled by the run whose journal header digests to `run`."""

    run: str
    task_id: str
    epoch: Optional[int]
    turn: int
    message: ChatMessage
    calls: list[ToolLogEntry]
    usage: Usage
    spent: Spent

    @property
    def finished(self) -> FinishedTurn:
        return FinishedTurn(self.message, self.calls, self.usage)


class Checkpoints:
    """The turn checkpoints of one run: those its journal held when it was opened (with `resume`),
    and the appending of new ones. Until `open` (a run without a journal), or with `enabled=False`,
    nothing is kept."""

    def __init__(self, note: Note, *, enabled: bool = True) -> None:
        self._note = note
        self._enabled = enabled
        self._journal: Optional[Journal] = None
        self._run = ""
        self._turns: dict[EpisodeKey, list[TurnRecord]] = {}

    def open(self, journal: Journal, *, resume: bool, pending: Collection[EpisodeKey]) -> None:
        """Keep checkpoints in `journal`; with `resume`, read those it holds for the `pending`
        episodes (the others have their row) and say how many episodes continue from one."""
        self._journal = journal if self._enabled else None
        self._run = run_key(journal.path)
        if not resume:
            return
        self._turns = {key: turns for key, turns in self._load(journal.path).items() if key in pending}
        if self._turns:
            turns = sum(len(t) for t in self._turns.values())
            count = len(self._turns)
            self._note(
                f"resuming {count} episode{'s at their' if count != 1 else ' at its'} last finished turn "
                f"({turns} finished turn{'s' if turns != 1 else ''} not sent again)"
            )

    async def play(
        self,
        task: Task,
        requests: TaskRequests,
        environment: EnvironmentFactory,
        limits: EpisodeLimits,
    ) -> EpisodeResult:
        """Play `task`'s episode through `requests`, from its last finished turn if the journal
        holds one and it replays the same, else from turn 0; each finished turn is journaled."""
        turns = self._turns.pop((task.id, requests.epoch), [])
        if turns:
            requests.continue_from(turns[-1].spent)
            try:
                return await self._play(task, requests, environment, limits, turns)
            except ReplayMismatch as exc:
                self._note(f"{_label(task.id, requests.epoch)}: {exc}; the episode starts again from turn 0")
                requests.continue_from(Spent())
        return await self._play(task, requests, environment, limits, [])

    async def _play(
        self,
        task: Task,
        requests: TaskRequests,
        environment: EnvironmentFactory,
        limits: EpisodeLimits,
        turns: Sequence[TurnRecord],
    ) -> EpisodeResult:
        journal = self._journal
        number = len(turns)

        def journaled(turn: FinishedTurn) -> None:
            nonlocal number
            assert journal is not None
            record = TurnRecord(
                run=self._run,
                task_id=task.id,
                epoch=requests.epoch,
                turn=number,
                message=turn.message,
                calls=turn.calls,
                usage=turn.usage,
                spent=requests.spent(),
            )
            journal.append_turn(record)
            number += 1

        return await run_episode(
            task,
            requests.adapter,
            environment(),
            limits,
            seed=requests.seed,
            chat=requests.chat,
            resume_from=[t.finished for t in turns],
            on_turn=journaled if journal is not None else None,
        )

    def _load(self, path: Path) -> dict[EpisodeKey, list[TurnRecord]]:
        """The turns of each episode, in order, as this run journaled them. Lines of another run,
        unreadable lines and broken sequences are left out, and said so."""
        episodes: dict[EpisodeKey, list[TurnRecord]] = {}
        broken: set[EpisodeKey] = set()
        foreign = unreadable = 0
        for entry in _turn_entries(path):
            try:
                record = from_wire(entry, TurnRecord, what="journal turn")
            except BenchmarkError:
                unreadable += 1
                continue
            if record.run != self._run:
                foreign += 1
                continue
            key = (record.task_id, record.epoch)
            turns = episodes.setdefault(key, [])
            if record.turn > len(turns):  # a turn missing before this one: nothing to continue from
                broken.add(key)
                continue
            del turns[record.turn :]  # an episode started again journals its turns again from 0
            turns.append(record)
            broken.discard(key)
        if foreign:
            self._note(f"{path}: {foreign} turn line{'s' if foreign != 1 else ''} of another run ignored")
        if unreadable:
            self._note(f"{path}: {unreadable} unreadable turn line{'s' if unreadable != 1 else ''} ignored")
        for key in sorted(broken, key=lambda k: (k[0], k[1] or 0)):
            self._note(f"{_label(*key)}: its journaled turns are not in sequence; the episode starts again from turn 0")
            episodes.pop(key, None)
        return {key: turns for key, turns in episodes.items() if turns}


def run_key(path: Path) -> str:
    """The tag of a journal's turn lines: a digest of its header line (the first line, as written
    when the journal was created), so that turn lines of another run's journal are told apart."""
    with open(path, "rb") as handle:
        header = handle.readline()
    return "sha256:" + hashlib.sha256(header).hexdigest()[:16]


def _turn_entries(path: Path) -> list[object]:
    """The `turn` objects of the journal, in order (the torn last line is gone: `Journal.open` cut it)."""
    entries: list[object] = []
    for line in path.read_bytes().split(b"\n"):
        if b'"turn"' not in line or is_holder_line(line):
            continue
        try:
            entry = json.loads(line)
        except ValueError:  # read_journal refuses a damaged line; never reached after it
            continue
        if isinstance(entry, dict) and "turn" in entry:
            entries.append(entry["turn"])
    return entries


def _label(task_id: str, epoch: Optional[int]) -> str:
    return f"task {task_id}" + (f" (epoch {epoch})" if epoch is not None else "")
