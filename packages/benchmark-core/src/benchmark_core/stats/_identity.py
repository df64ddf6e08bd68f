"""`RunIdentity`: what makes two runs the same run, in one type.

Every check that two runs (or a run and a file) belong together compares two identities with
`difference`, and words its message from the `FieldDifference`s it returns:
- the journal header and `--resume` (`RunIdentity.header`, `from_header`), field by field;
- the shards `merge` joins (`of_shard`), which must agree on everything that makes a run, and be of
  the benchmark and the task list it is given (`of_benchmark`);
- the runs in progress the viewer lists, read from their journals' headers (`from_header`);
- a sweep cell's earlier report (`of_report`, against the run `.reported()`);
- `compare` (`comparable()`: benchmark, version and mode) and the leaderboard's groups
  (`comparable()` plus epochs, and the task ids the rows cover).

A field left None is one the source does not record (a report has no task-set digest, a journal no
epochs of its own): two identities built from the same kind of source leave the same fields out, so
those never differ. The task set is `task_set_digest`: the tasks' full wire form, not their ids, so a
task whose prompt or expected answer changed is another task set.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

import attrs
from attrs import frozen

from .._model.reports import RunReport, ShardInfo
from .._model.tasks import JsonObject, Task
from ..wire._converter import to_wire

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark
    from ..runs._options import RunOptions

#: The journal header's keys, in the order it writes them, and the fields they hold.
_HEADER = {
    "benchmark": "benchmark",
    "version": "version",
    "taskSetDigest": "task_set",
    "model": "model",
    "provider": "provider",
    "mode": "mode",
    "seed": "seed",
    "options": "options",
    "shard": "shard",
}
#: The fields a run report records.
_REPORTED = ("benchmark", "version", "model", "provider", "mode", "seed", "epochs", "generation")
#: How messages name a field whose attribute name would not read well.
_PHRASES = {"task_set": "the task set", "task_ids": "the --task selection"}


def task_set_digest(tasks: Sequence[Task]) -> str:
    """The digest of the tasks a run covers: their full wire form, in order."""
    canonical = json.dumps(to_wire(list(tasks)), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


@frozen
class FieldDifference:
    """One field two identities disagree on: its name (`options.temperature` for one recorded
    option), and its value in each."""

    field: str
    mine: Any
    theirs: Any

    @property
    def what(self) -> str:
        """The field as a message names it (`the task set`, `seed`, `options.temperature`)."""
        return _PHRASES.get(self.field, self.field)


@frozen(kw_only=True)
class RunIdentity:
    """The fields that make a run the run it is, as far as its source records them (None: not
    recorded there). `options` and `shard` are in wire spelling, as the journal header holds them."""

    benchmark: str
    version: str
    task_set: Optional[str] = None
    model: Optional[str] = None
    provider: Optional[str] = None
    mode: Optional[str] = None
    seed: Optional[int] = None
    epochs: Optional[int] = None
    generation: Optional[JsonObject] = None
    task_ids: Optional[tuple[str, ...]] = None
    options: Optional[JsonObject] = None
    shard: Optional[JsonObject] = None

    @classmethod
    def of_run(
        cls,
        benchmark: Benchmark,
        options: RunOptions,
        *,
        model: str,
        provider: str,
        mode: str,
        task_set: str,
        shard: Optional[ShardInfo] = None,
    ) -> RunIdentity:
        """A run's identity as its journal records it (a shard's: the whole run's task set, and the
        shard's record)."""
        return cls(
            benchmark=benchmark.id,
            version=benchmark.version,
            task_set=task_set,
            model=model,
            provider=provider,
            mode=mode,
            seed=options.seed,
            options=options.recorded(),
            shard=to_wire(shard) if shard is not None else None,
            # Not in the header, but what `reported()` compares with a report's.
            epochs=options.epochs,
            generation=options.generation(),
        )

    @classmethod
    def of_benchmark(cls, benchmark: Benchmark, task_set: Optional[str] = None) -> RunIdentity:
        """What a benchmark makes of a run's identity: its id and version, and the digest of the task
        list it was given, if any (`merge` checks shards against the benchmark and the tasks given)."""
        return cls(benchmark=benchmark.id, version=benchmark.version, task_set=task_set)

    @classmethod
    def from_header(cls, header: JsonObject) -> RunIdentity:
        """The identity a journal's header line records (whatever types its values have)."""
        values: dict[str, Any] = {field: header.get(key) for key, field in _HEADER.items()}
        return cls(**values)

    @classmethod
    def of_report(cls, report: RunReport) -> RunIdentity:
        """What a report records of its run's identity (no task-set digest: a report holds rows; but a
        run on a private split records its split's digest, since its task ids repeat across seeds)."""
        private = report.private_split
        task_set = private.task_set_digest if private is not None else None
        return cls(task_set=task_set, **{field: getattr(report, field) for field in _REPORTED})

    def of_shard(self, shard: ShardInfo) -> RunIdentity:
        """What the shards of one run must agree on: this identity's benchmark, version, model,
        provider, mode and seed, and from the shard's record the whole run's task set, its `--task`
        selection and its recorded options."""
        return attrs.evolve(
            self,
            task_set=shard.task_set_digest,
            task_ids=tuple(shard.task_ids) if shard.task_ids is not None else None,
            options=shard.options,
            epochs=None,
            generation=None,
            shard=None,
        )

    def header(self, started_at: str) -> JsonObject:
        """The journal's header line (after its format field): the identity and when the run started,
        then the shard's record, if it is one."""
        header: JsonObject = {key: getattr(self, field) for key, field in _HEADER.items() if key != "shard"}
        header["startedAt"] = started_at
        if self.shard is not None:
            header["shard"] = self.shard
        return header

    def journaled(self) -> RunIdentity:
        """The fields a journal header records (those `from_header` reads back)."""
        return RunIdentity(**{field: getattr(self, field) for field in _HEADER.values()})

    def reported(self) -> RunIdentity:
        """The fields a report records (those `of_report` reads back)."""
        return RunIdentity(**{field: getattr(self, field) for field in _REPORTED})

    def only(self, *fields: str) -> RunIdentity:
        """These fields alone (the others None), to compare with an identity that records no more."""
        return RunIdentity(**{field: getattr(self, field) for field in fields})

    def comparable(self) -> RunIdentity:
        """What makes two runs' scores comparable task by task: one benchmark, version and mode (and
        for runs on private splits, one task set: the same ids name other tasks under another seed)."""
        return RunIdentity(benchmark=self.benchmark, version=self.version, mode=self.mode, task_set=self.task_set)

    def difference(self, other: RunIdentity) -> list[FieldDifference]:
        """The fields whose values differ, in declaration order; two `options` tables are compared
        option by option (sorted by name), each differing one as `options.<name>`."""
        found: list[FieldDifference] = []
        for field in attrs.fields(RunIdentity):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            if field.name == "options" and isinstance(mine, dict) and isinstance(theirs, dict):
                for name in sorted(set(mine) | set(theirs)):
                    if mine.get(name) != theirs.get(name):
                        found.append(FieldDifference(f"options.{name}", mine.get(name), theirs.get(name)))
            elif mine != theirs:
                found.append(FieldDifference(field.name, mine, theirs))
        return found
