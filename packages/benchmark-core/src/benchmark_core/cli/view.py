"""`view [RESULTS...]`: the results browser (`view/`) on loopback, over folders of reports."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from .base import command
from .serve import PORT_RANGE

DEFAULT_VIEW_PORT = 8790


@click.command("view")
@click.argument("results", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Bind address; keep loopback unless a proxy with auth sits in front (reports may hold prompts).",
)
@click.option(
    "--port",
    type=PORT_RANGE,
    default=DEFAULT_VIEW_PORT,
    show_default=True,
    help="Port to listen on (0 picks a free one).",
)
@command(tasks=False, json_help="Print a start-up error as one JSON document on stdout.")
def view_cmd(results: tuple[Path, ...], host: str, port: Optional[int], as_json: bool) -> None:
    """Browse the reports under RESULTS (default: the current folder) in a web browser: sweep
    results, `run --output` files and shard merges.

    Pages: every group of comparable runs with its leaderboard; per group the paired verdicts,
    per-dimension tables, and the task x model matrix with filters; each task with every model's
    answer side by side; each run's report; any two runs compared. Runs in progress show from their
    journals (read without locking them) and update live; a finished run joins its group.
    Each folder is ranked on its own. Ctrl+C stops the server.
    """
    from ..errors._usage import MissingFileError
    from ..servers._http import serve
    from ..view._app import create_view_app

    folders = list(results) or [Path(".")]
    for folder in folders:
        if not folder.is_dir():
            raise MissingFileError(f"no results folder at {folder}")
    click.echo(f"reading the reports under {', '.join(str(f) for f in folders)}...", err=True)
    serve(create_view_app(folders), host=host, port=port if port is not None else DEFAULT_VIEW_PORT, name="view")
