"""`compare`: reports side by side (`benchmark_core.stats._compare` does the statistics)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import click

from ..errors._base import UsageError
from ..errors._usage import IncomparableReportsError
from ..runs._files import check_writable, read_report, write_text
from ..wire._converter import to_wire
from .base import CliState, command, echo_json, markdown_option, path_option


@click.command("compare")
@click.argument("reports", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--allow-different-tasks",
    is_flag=True,
    help="Compare only the tasks every report has, instead of refusing different task sets.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the paired bootstrap.")
@click.option("--resamples", type=click.IntRange(min=1), default=10_000, show_default=True, help="Bootstrap resamples.")
@markdown_option("Write the comparison as Markdown here.")
@path_option(
    "--html",
    "html_path",
    help="Write the comparison as one self-contained HTML page here (the page `html` renders "
    "from the --json document).",
)
@command(tasks=False, json_help="Print the comparison as one JSON document.")
@click.pass_obj
def compare_cmd(
    state: CliState,
    reports: Sequence[Path],
    allow_different_tasks: bool,
    seed: int,
    resamples: int,
    markdown: Optional[Path],
    html_path: Optional[Path],
    as_json: bool,
) -> None:
    """Compare run reports task by task: REPORT2 (and each later one) against REPORT1.

    Each REPORT is a full report written by `run --output`. For each report after the first:
    the mean difference, its paired bootstrap 95% CI (tasks resampled in both runs together),
    the exact McNemar test when scores are pass/fail, the difference per task group, and a
    verdict. Three or more reports also get a leaderboard. Reports of other benchmarks,
    versions, answer modes or task sets are refused (exit 1).
    """
    from ..stats._compare import compare_reports
    from ..stats._compare_markdown import render_comparison

    if len(reports) < 2:
        raise UsageError("compare needs at least two reports")
    for out in (markdown, html_path):
        if out is not None:
            check_writable(out)
    bench = state.benchmark
    loaded = []
    for path in reports:
        report = read_report(path)
        if report.benchmark != bench.id:
            raise IncomparableReportsError(f"{path} is a report of benchmark {report.benchmark!r}, not {bench.id!r}")
        loaded.append(report)
    comparison = compare_reports(
        loaded,
        labels=[str(path) for path in reports],
        allow_different_tasks=allow_different_tasks,
        seed=seed,
        resamples=resamples,
    )
    text = render_comparison(comparison)
    if markdown is not None:
        write_text(markdown, text)
    if html_path is not None:
        from ..stats._compare_html import render_comparison_html

        write_text(html_path, render_comparison_html(comparison))
    if as_json:
        echo_json(to_wire(comparison))
    else:
        click.echo(text, nl=False)
