"""`fake-model`: an OpenAI-compatible chat endpoint on 127.0.0.1 that plays the offline mock's
episode policies (`testing.mock_chat`), so that an agent framework pointed at it plays each episode
as the mock runner does, with no key and no network: its `run --agent` rows equal a mock run's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import click

from .base import CliState, command
from .serve import PORT_RANGE


@click.command("fake-model")
@click.option("--port", type=PORT_RANGE, default=0, help="Port on 127.0.0.1 (default 0: a free one).")
@click.option("--seed", type=int, default=1, show_default=True, help="The seed of the run it stands in for.")
@click.option(
    "--api-key",
    default=None,
    metavar="KEY",
    help="Refuse requests without `Authorization: Bearer KEY` (default: take any key).",
)
@click.option(
    "--final-tool",
    default="final_answer",
    show_default=True,
    metavar="NAME",
    help="End an episode by calling this tool, where a request offers it, instead of with plain text.",
)
@command(
    json_help='Print the base URL as one line of JSON ({"baseUrl": ...}) on stdout.',
    tasks_help="The task list of the run it stands in for (a JSONL file or a split name), which decides "
    "which episodes the mock plays well.",
)
@click.pass_obj
def fake_model_cmd(
    state: CliState,
    port: int,
    seed: int,
    api_key: Optional[str],
    final_tool: str,
    as_json: bool,
    tasks_path: Optional[Path],
) -> None:
    """Serve a fake OpenAI-compatible model that plays the offline mock's episodes, for trying an
    agent framework with `run --agent` offline.

    Prints its base URL (ending in /v1; set OPENAI_BASE_URL to it) and serves until Ctrl+C or
    SIGTERM, then prints how many requests it served (on stderr). The episode of a request is the
    one whose prompt and system text its messages contain.
    """
    import asyncio

    asyncio.run(_serve(state, port, seed, api_key, final_tool or None, as_json, tasks_path))


async def _serve(
    state: CliState,
    port: int,
    seed: int,
    api_key: Optional[str],
    final_tool: Optional[str],
    as_json: bool,
    tasks_path: Optional[Path],
) -> None:
    import asyncio

    from .._util.signals import stop_signals
    from ..testing.fake_openai import FakeOpenAI
    from ..testing.mock_chat import mock_chat_handler

    benchmark = state.benchmark
    tasks = await asyncio.to_thread(benchmark.tasks, tasks_path)
    server = FakeOpenAI(handler=mock_chat_handler(benchmark, tasks, seed, final_tool=final_tool), api_key=api_key)
    await server.start(port=port)
    if as_json:
        # One line, not echo_json's indented document: a reader takes it while the server runs on.
        click.echo(json.dumps({"baseUrl": server.base_url}))
    else:
        click.echo(server.base_url)
        click.echo(f"fake model playing {benchmark.id}'s mock (seed {seed}); Ctrl+C stops it", err=True)
    with stop_signals() as stop:
        try:
            await stop.wait()
        finally:
            await server.close()
    click.echo(f"{server.received} requests served", err=True)
