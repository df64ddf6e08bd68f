"""`provenance` and `index-entry`: the documents the HTTP API serves at /v1/provenance and
/v1/index-entry, built by the same core functions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import click

from ..servers._documents import index_entry_document, provenance_document
from .base import CliState, command, echo_json


@click.command("provenance")
@command()
@click.pass_obj
def provenance_cmd(state: CliState, as_json: bool, tasks_path: Optional[Path]) -> None:
    """Where the data comes from: licence, contamination notes, refresh plan."""
    bench = state.benchmark
    if tasks_path is not None:
        bench.tasks(tasks_path)  # provenance is per benchmark, but a bad file is still an error
    document = provenance_document(bench)
    if as_json:
        echo_json(document)
    else:
        click.echo(document["markdown"], nl=False)


@click.command("index-entry")
@command()
@click.pass_obj
def index_entry_cmd(state: CliState, as_json: bool, tasks_path: Optional[Path]) -> None:
    """The benchmark's directory record (JSON)."""
    bench = state.benchmark
    entry = index_entry_document(bench, bench.tasks(tasks_path))
    if as_json:
        click.echo(json.dumps(entry, ensure_ascii=False))
    else:
        echo_json(entry)
