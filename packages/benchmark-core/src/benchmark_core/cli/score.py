"""`score`: regrade a saved report or a file of submissions (`documents.score_batch_document`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from ..servers._documents import score_batch_document
from ..servers._submissions import read_submissions
from .base import CliState, command, echo_json, excerpt


@click.command("score")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", type=int, default=None, help="Seed for episode replay; default: the report's, or 1.")
@command()
@click.pass_obj
def score_cmd(state: CliState, path: Path, seed: Optional[int], as_json: bool, tasks_path: Optional[Path]) -> None:
    """Regrade a saved run report, or a file of submissions.

    PATH is a report written by `run --output`, or JSON / JSONL of {"taskId": ..., "submission":
    {answer?, toolCalls?, toolLog?, finalState?}} items.
    """
    bench = state.benchmark
    submissions, report_seed = read_submissions(path, bench.id)
    if seed is None:
        seed = report_seed if report_seed is not None else 1
    import asyncio

    document = asyncio.run(score_batch_document(bench, submissions, tasks_path, seed))
    if as_json:
        echo_json(document)
        return
    width = max((len(s.task_id) for s in submissions), default=0)
    for row in document["results"]:
        click.echo(
            f"{row['taskId']:<{width}}  {row['score']:.2f}  {'pass' if row['passed'] else 'fail'}  "
            f"{excerpt(row['reason'], 90)}"
        )
    recorded = report_seed is not None and bool(submissions)
    click.echo(
        f"\nmean {document['mean']:.4f} over {document['count']} submissions"
        + (f"; {document['changed']} differ from the recorded scores" if recorded else "")
    )
