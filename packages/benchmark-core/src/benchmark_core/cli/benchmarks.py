"""`benchmarks` (the `benchmark-core` umbrella only): the installed benchmarks."""

from __future__ import annotations

import sys

import click

from ..errors._failures import PluginLoadError
from .base import command, echo_json


@click.command("benchmarks")
@command(tasks=False)
def benchmarks_cmd(as_json: bool) -> None:
    """List installed benchmarks (id, distribution, version, tasks, or load error).

    Exits 2 when any of them failed to load (the others are still listed)."""
    from .._benchmark.plugins import installed_benchmarks_document

    document = installed_benchmarks_document()
    if as_json:
        echo_json(document)
    else:
        for item in document["benchmarks"]:
            status = f"{item['tasks']} tasks" if item["error"] is None else f"LOAD ERROR: {item['error']}"
            click.echo(f"{item['id']:<32} {item['distribution'] or '-':<32} {item['version'] or '-':<10} {status}")
    failed = [item["id"] for item in document["benchmarks"] if item["error"] is not None]
    if failed:
        click.echo(f"error: {len(failed)} benchmark(s) failed to load: {', '.join(failed)}", err=True)
        sys.exit(PluginLoadError.exit_code)
