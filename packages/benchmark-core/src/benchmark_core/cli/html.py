"""`html`: a saved report or comparison as one self-contained page (`reports._html_report`, `stats._compare_html`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from ..errors._base import UsageError
from ..runs._files import read_report_or_comparison
from .base import CliState, command, emit_document


@click.command("html")
@click.argument("report_path", metavar="REPORT", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path), required=False)
@command(tasks_help="Read the tasks' prompts from this JSONL task file instead of the benchmark's own.")
@click.pass_obj
def html_cmd(
    state: CliState, report_path: Path, out: Optional[Path], as_json: bool, tasks_path: Optional[Path]
) -> None:
    """Render a saved report, or a comparison, as one self-contained HTML page (to OUT, or stdout).

    REPORT is a report written by `run --output`, or a comparison printed by `compare --json`.
    The page needs no network. A report: headline with its confidence interval, per-group
    bars, and a task table to filter and sort, where each task unfolds to its prompt, answer,
    grader verdict and, for episodes, the transcript and tool log. A comparison: the runs with
    their intervals, and each run against the first with its verdict, paired interval, McNemar
    test and per-group differences.
    """
    from ..stats._compare import Comparison

    bench = state.benchmark
    document = read_report_or_comparison(report_path)
    if document.benchmark != bench.id:
        what = "comparison" if isinstance(document, Comparison) else "report"
        raise UsageError(
            f"{report_path} is a {what} of {document.benchmark!r}, not {bench.id!r}; render it with that "
            f"benchmark's command (or benchmark-core --benchmark {document.benchmark})"
        )
    if isinstance(document, Comparison):
        from ..stats._compare_html import render_comparison_html

        if tasks_path is not None:
            bench.tasks(tasks_path)  # a comparison needs no tasks, but a bad file is still an error
        page, rows = render_comparison_html(document), len(document.runs)
        counted = "runs"
    else:
        from ..reports._html_report import render_report_html

        page, rows = render_report_html(document, bench, bench.tasks(tasks_path)), len(document.rows)
        counted = "rows"
    emit_document(out, page, as_json, "html", **{counted: rows})
