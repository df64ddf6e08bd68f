"""`card`: the SVG share card of a saved report."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from ..runs._files import read_report
from .base import CliState, command, emit_document


@click.command("card")
@click.argument("report_path", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path), required=False)
@command()
@click.pass_obj
def card_cmd(
    state: CliState, report_path: Path, out: Optional[Path], as_json: bool, tasks_path: Optional[Path]
) -> None:
    """Render a 1200x630 SVG share card from a saved report (to OUT, or stdout)."""
    from ..reports._card import render_card

    bench = state.benchmark
    if tasks_path is not None:
        bench.tasks(tasks_path)  # the card needs no tasks, but a bad file is still an error
    emit_document(out, render_card(read_report(report_path), bench), as_json, "svg")
