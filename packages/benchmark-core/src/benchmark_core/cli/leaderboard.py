"""`leaderboard RESULTS`: every run report under a folder, ranked within groups of comparable runs,
written as `leaderboard.md` and `index.html` into the folder and printed."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from .base import command, echo_json, path_option


@click.command("leaderboard")
@click.argument("results", type=click.Path(file_okay=False, path_type=Path))
@path_option(
    "--site",
    folder=True,
    help="Also write the results browser's pages (what `view` shows, without live updates) as a static "
    "site into this folder: relative links, works from file:// and any static host.",
)
@command(tasks=False, json_help="Print the leaderboard as one JSON document instead of Markdown.")
def leaderboard_cmd(results: Path, site: Optional[Path], as_json: bool) -> None:
    """Rank every run report under RESULTS (a sweep's or any other), only comparable runs together
    (same benchmark, version, answer mode, epochs and task set): mean and 95% interval, the paired
    verdict against the top model, tasks, errored rows, pass^k, tokens, cost and median latency.

    Writes RESULTS/leaderboard.md and RESULTS/index.html (a self-contained page with a plot of cost
    against score) and prints the Markdown. With --site OUT, also writes every page of `view`
    (index, groups, runs, tasks, comparisons) under OUT.
    """
    from ..sweep._leaderboard import build_leaderboard, write_leaderboard
    from ..sweep._leaderboard_markdown import render_leaderboard
    from ..wire._converter import to_wire

    board = build_leaderboard(results)
    markdown, html = write_leaderboard(results, board)
    if as_json:
        echo_json(to_wire(board))
    else:
        click.echo(render_leaderboard(board), nl=False)
    click.echo(f"wrote {markdown} and {html}", err=True)
    if site is not None:
        from ..view._catalog import ResultsCatalog
        from ..view._site import write_site

        pages = write_site(ResultsCatalog([results]), site)
        click.echo(f"wrote {pages} pages under {site} (open {site / 'index.html'})", err=True)
