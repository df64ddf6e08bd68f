"""`serve` (the HTTP API) and `mcp` (the MCP server on stdio): both serve the same benchmark, with
`--tasks` as the default task list."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from ..errors._base import UsageError
from .base import CliState, command, path_option

PORT_RANGE = click.IntRange(min=0, max=65535)
#: `serve` and `mcp` on a private split, as `run --hidden-seed-env` runs one (docs/private-splits.md).
hidden_seed_option = click.option(
    "--hidden-seed-env",
    metavar="NAME",
    default=None,
    help="Serve a private hidden split generated in memory from the integer in the environment variable NAME "
    "(no task file; the seed in no answer or log). --tasks then names the hidden split (default: hidden).",
)
DEFAULT_PORT = 8787


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Bind address; keep loopback unless a proxy with auth and rate limits sits in front.",
)
@click.argument("port_argument", metavar="[PORT]", type=PORT_RANGE, required=False)
@click.option(
    "--port", type=PORT_RANGE, default=None, help=f"Port to listen on (0 picks a free one).  [default: {DEFAULT_PORT}]"
)
@click.option(
    "--scoring-api",
    is_flag=True,
    help="Serve the full task routes, grading fields (expected answers, grader metadata) included, and "
    "no sessions: a scoring API. Without it, episode sessions are served and no route answers a task's "
    "grading fields and none scores (no POST /v1/score: docs/sealed-runs.md).",
)
@hidden_seed_option
@command(
    json_help="Print a start-up error as one JSON document on stdout.",
    tasks_help="Serve this JSONL task file as the default task list (requests may still pick others "
    "with ?tasks=, under the allow-list rule).",
)
@click.pass_obj
def serve_cmd(
    state: CliState,
    host: str,
    port_argument: Optional[int],
    port: Optional[int],
    scoring_api: bool,
    hidden_seed_env: Optional[str],
    as_json: bool,
    tasks_path: Optional[Path],
) -> None:
    """Serve the HTTP API, and a task browser page at / that scores answers through it.

    PORT (default 8787) may be given as an argument or with --port.
    """
    from ..servers._http import create_app, serve

    if port_argument is not None and port is not None and port_argument != port:
        raise UsageError(f"two ports given: {port_argument} and --port {port}; give one")
    chosen = port_argument if port_argument is not None else port if port is not None else DEFAULT_PORT
    routes = "scoring" if scoring_api else "public"
    serve(create_app(state.served(tasks_path, hidden_seed_env), routes=routes), host=host, port=chosen)


@click.command("mcp")
@click.option(
    "--episode",
    "episode",
    metavar="TASK_ID",
    default=None,
    help="Serve this episode task's own tools (one session, seeded with --seed) instead of the benchmark's tools.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="With --episode: the environment's seed.")
@path_option(
    "--record",
    help="With --episode: when the client disconnects, write the session's log here as a submission "
    "file that `score --seed N` grades.",
)
@click.option(
    "--scoring-api",
    is_flag=True,
    help="Serve every tool in full: the listing tools with each task's grading fields (expected answers, "
    "grader metadata), score_answer and run_benchmark. Without it, those fields are withheld and the two "
    "tools left out, so an agent reaching the server finds no answer key (docs/sealed-runs.md).",
)
@hidden_seed_option
@command(
    json_help="Print a start-up error as one JSON document on stdout (which then carries the protocol).",
    tasks_help="Serve this JSONL task file as the default task list (tool calls may still pick others "
    "with their tasks argument, under the allow-list rule).",
)
@click.pass_obj
def mcp_cmd(
    state: CliState,
    episode: Optional[str],
    seed: int,
    record: Optional[Path],
    scoring_api: bool,
    hidden_seed_env: Optional[str],
    as_json: bool,
    tasks_path: Optional[Path],
) -> None:
    """Serve the MCP tools on stdio: the benchmark's tools, or with --episode one episode's."""
    if episode is None:
        if record is not None:
            raise UsageError("--record needs --episode: only an episode session has a log to record")
        from ..servers._mcp import start_mcp

        start_mcp(state.served(tasks_path, hidden_seed_env), grading=scoring_api)
        return
    if scoring_api:
        raise UsageError("--scoring-api serves the benchmark's tools; an --episode serves that episode's own")
    import asyncio

    from ..episodes._session import open_session
    from ..runs._files import check_writable
    from ..servers._mcp_episode import serve_episode_stdio

    if record is not None:
        check_writable(record)

    # On a private split the served benchmark holds the split's tasks; otherwise --tasks names the file.
    served, source = (
        (state.served(tasks_path, hidden_seed_env), None) if hidden_seed_env else (state.benchmark, tasks_path)
    )

    async def serve() -> None:
        await serve_episode_stdio(await open_session(served, episode, tasks=source, seed=seed), record)

    asyncio.run(serve())
