"""`export`: every row of a set of run reports as one Parquet, CSV or JSONL file
(`benchmark_core.analysis` does the work; it needs the `analysis` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import click

from .base import command, echo_json, path_option


@click.command("export")
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_name",
    type=click.Choice(("parquet", "csv", "jsonl")),
    default=None,
    help="File format (default: from the suffix of --output).",
)
@path_option("--output", required=True, help="The file to write.")
@command(tasks=False, json_help="Print what was written as one JSON document.")
def export_cmd(results: Sequence[Path], format_name: Optional[str], output: Path, as_json: bool) -> None:
    """Write every row of the run reports in RESULTS (report files, or folders searched for them)
    as one table: one row per task x epoch x report, with the run's benchmark, version, model,
    provider and mode, the task's score, verdict, error code, tokens, cost, latency, group labels
    (group.*) and the grader's scalar details (detail.*).

    Needs the `analysis` extra: pip install 'benchmark-core[analysis]' (exit 1 without it).
    """
    from ..analysis import export_results
    from ..runs._files import check_writable

    check_writable(output)
    frame = export_results(results, output, format=format_name)
    reports = int(frame["report"].nunique()) if len(frame) else 0
    if as_json:
        echo_json({"output": str(output), "rows": len(frame), "reports": reports, "columns": list(frame.columns)})
    else:
        click.echo(f"wrote {len(frame):,} rows of {reports} report(s), {len(frame.columns)} columns, to {output}")
