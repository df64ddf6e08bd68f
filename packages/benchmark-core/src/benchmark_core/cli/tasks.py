"""`list` and `show`: the task list and one task. Light on purpose: neither imports aiohttp or mcp."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import click

from ..servers._documents import task_list_document
from ..wire._converter import to_wire
from .base import CliState, command, echo_json, excerpt


@click.command("list")
@command()
@click.pass_obj
def list_cmd(state: CliState, as_json: bool, tasks_path: Optional[Path]) -> None:
    """List the tasks."""
    bench = state.benchmark
    tasks = bench.tasks(tasks_path)
    if as_json:
        echo_json(task_list_document(bench, tasks))
        return
    width = max(len(t.id) for t in tasks)
    for task in tasks:
        click.echo(f"{task.id:<{width}}  {task.kind:<7}  {excerpt(task.prompt)}")
    click.echo(f"{len(tasks)} tasks", err=True)


@click.command("show")
@click.argument("task_id")
@command()
@click.pass_obj
def show_cmd(state: CliState, task_id: str, as_json: bool, tasks_path: Optional[Path]) -> None:
    """Show one task in full."""
    import asyncio

    task = asyncio.run(state.benchmark.get_task(task_id, tasks_path))
    if as_json:
        echo_json(to_wire(task))
        return
    click.echo(f"id:     {task.id}\nkind:   {task.kind}\n\n{task.prompt}\n")
    if task.tools:
        click.echo("tools:  " + ", ".join(t.name for t in task.tools))
    if task.expected is not None:
        click.echo("expected: " + json.dumps(task.expected, ensure_ascii=False))
    if task.metadata:
        click.echo("metadata: " + json.dumps(task.metadata, ensure_ascii=False, sort_keys=True))
