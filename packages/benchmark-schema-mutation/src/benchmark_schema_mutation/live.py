"""The live subset of the real split: the tasks whose change Twilio released on or after a date.

A model trained before that date cannot have memorised those changes, so its score on them says
how it copes with drift it has never seen. Pass the model's training cutoff:

    python -m benchmark_schema_mutation.live --since 2025-06-01 --out live.jsonl
    BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW=$PWD/live.jsonl \\
        benchmark-schema-mutation run --tasks $PWD/live.jsonl --provider mock --model offline

`--tasks` picks the split to cut (default `real`; a hidden real split's file works too). The tasks
are copied as they are, so their ids and grading are the split's.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from benchmark_core import Task
from benchmark_core.data import dump_task_file

from ._definition import benchmark


def live_tasks(tasks: Sequence[Task], since: str) -> list[Task]:
    """The tasks whose change was released on or after `since` (an ISO date, YYYY-MM-DD)."""
    datetime.date.fromisoformat(since)  # refuses anything but a date
    return [task for task in tasks if str(task.metadata.get("releaseDate", "")) >= since]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark_schema_mutation.live", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--since", required=True, help="the first release date kept (YYYY-MM-DD)")
    parser.add_argument("--out", type=Path, required=True, help="the task file to write")
    parser.add_argument("--tasks", default="real", help="the split or task file to cut (default: real)")
    args = parser.parse_args(argv)
    try:
        kept = live_tasks(benchmark.tasks(args.tasks), args.since)
    except ValueError as exc:
        parser.error(str(exc))
    if not kept:
        parser.error(f"no task of {args.tasks} has a change released on or after {args.since}")
    args.out.write_text(dump_task_file(kept), encoding="utf-8")
    changes = len({task.metadata.get("changeId") for task in kept})
    print(f"wrote {args.out}: {len(kept)} tasks from {changes} changes released since {args.since}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
