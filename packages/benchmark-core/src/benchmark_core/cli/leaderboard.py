"""`leaderboard RESULTS`: every run report under a folder, ranked within groups of comparable runs,
written as `leaderboard.md` and `index.html` into the folder and printed."""

from __future__ import annotations

from pathlib import Path

import click

from .base import command, echo_json


@click.command("leaderboard")
@click.argument("results", type=click.Path(file_okay=False, path_type=Path))
@command(tasks=False, json_help="Print the leaderboard as one JSON document instead of Markdown.")
def leaderboard_cmd(results: Path, as_json: bool) -> None:
    """Rank every run report under RESULTS (a sweep's or any other), only comparable runs together
    (same benchmark, version, answer mode, epochs and task set): mean and 95% interval, the paired
    verdict against the top model, tasks, errored rows, pass^k, tokens, cost and median latency.

    Writes RESULTS/leaderboard.md and RESULTS/index.html (a self-contained page with a plot of cost
    against score) and prints the Markdown.
    """
    from .._model.wire import to_wire
    from .._render.leaderboard_markdown import render_leaderboard
    from .._sweep.leaderboard import build_leaderboard, write_leaderboard

    board = build_leaderboard(results)
    markdown, html = write_leaderboard(results, board)
    if as_json:
        echo_json(to_wire(board))
    else:
        click.echo(render_leaderboard(board), nl=False)
    click.echo(f"wrote {markdown} and {html}", err=True)
