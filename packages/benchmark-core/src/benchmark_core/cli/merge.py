"""`merge`: the shards of one run (`run --shard I/N`) joined into the whole run's report
(`benchmark_core.runs._merge` does the work)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import click

from ..errors._base import EXIT_FAILURE
from .base import CliState, command, markdown_option, path_option
from .progress import error_breakdown
from .run import write_report


@click.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@path_option(
    "--output",
    required=True,
    help="Write the whole run's JSON report here.",
)
@markdown_option()
@command(tasks_help="The task file the shards ran, when it was not the benchmark's own.")
@click.pass_obj
def merge_cmd(
    state: CliState,
    /,
    shards: Sequence[Path],
    output: Path,
    markdown: Optional[Path],
    tasks_path: Optional[Path],
    as_json: bool,
) -> None:
    """Join the shards of one run into the report the unsharded run writes.

    Each SHARD is a report written by `run --shard I/N --output FILE`, or the journal beside it
    (FILE.journal.jsonl) of a shard that did not finish. Every shard 1/N .. N/N must be given once;
    shards of another benchmark, version, task set, model, mode or recorded options are refused
    (exit 1, naming the files and what differs). Prints the summary as `run` does (--json: the
    report without its rows). Exits 2 when the merged run is incomplete or has errored rows (the
    report is still written).
    """
    from ..runs._files import check_writable
    from ..runs._merge import merge_shards

    for path in (output, markdown):
        if path is not None:
            check_writable(path)
    bench = state.benchmark
    report = merge_shards(bench, list(shards), tasks=tasks_path)
    write_report(report, bench, output, markdown, as_json)
    if report.totals.failed:
        click.echo(error_breakdown(report.rows), err=True)
    if not report.complete:
        click.echo(f"error: the merged run is incomplete ({report.stopped}); finish the shards, merge again", err=True)
        sys.exit(EXIT_FAILURE)
    if report.totals.failed:
        click.echo(f"error: {report.totals.failed} of {report.totals.tasks} tasks errored", err=True)
        sys.exit(EXIT_FAILURE)
