"""`benchmarks` (the `benchmark-core` umbrella only): the installed benchmarks."""

from __future__ import annotations

import click

from .base import command, echo_json


@click.command("benchmarks")
@command(tasks=False)
def benchmarks_cmd(as_json: bool) -> None:
    """List installed benchmarks (id, distribution, version, tasks, or load error)."""
    from ..plugins import installed_benchmarks_document

    document = installed_benchmarks_document()
    if as_json:
        echo_json(document)
        return
    for item in document["benchmarks"]:
        status = f"{item['tasks']} tasks" if item["error"] is None else f"LOAD ERROR: {item['error']}"
        click.echo(f"{item['id']:<32} {item['distribution'] or '-':<32} {item['version'] or '-':<10} {status}")
