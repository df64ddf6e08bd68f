"""`html`: a saved report as one self-contained page (`benchmark_core.html_report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from ..errors import UsageError
from ..files import read_report, write_text
from .base import CliState, command, echo_json


@click.command("html")
@click.argument("report_path", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path), required=False)
@command(tasks_help="Read the tasks' prompts from this JSONL task file instead of the benchmark's own.")
@click.pass_obj
def html_cmd(
    state: CliState, report_path: Path, out: Optional[Path], as_json: bool, tasks_path: Optional[Path]
) -> None:
    """Render a saved report as one self-contained HTML page (to OUT, or stdout).

    The page needs no network: headline with its confidence interval, per-group bars, and a task
    table to filter and sort, where each task unfolds to its prompt, answer, grader verdict and,
    for episodes, the transcript and tool log.
    """
    from ..html_report import render_report_html

    bench = state.benchmark
    report = read_report(report_path)
    if report.benchmark != bench.id:
        raise UsageError(
            f"{report_path} is a report of {report.benchmark!r}, not {bench.id!r}; render it with that "
            f"benchmark's command (or benchmark-core --benchmark {report.benchmark})"
        )
    page = render_report_html(report, bench, bench.tasks(tasks_path))
    if out is not None:
        write_text(out, page)
        if as_json:
            echo_json({"path": str(out), "bytes": len(page.encode("utf-8")), "rows": len(report.rows)})
        else:
            click.echo(f"wrote {out}", err=True)
    elif as_json:
        echo_json({"html": page})
    else:
        click.echo(page, nl=False)
