"""The group: `create_cli(benchmark, prog_name)` registers every command module on one click
group; `run_cli` and `main` are the console scripts' entry points."""

from __future__ import annotations

import atexit
import functools
import gc
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Optional

import click

from .._benchmark.definition import Benchmark
from ..errors._base import EXIT_OK
from .base import BenchmarkSource, CliGroup, CliState

#: Every benchmark's commands: name -> the module (of this package) and command that implement it.
COMMANDS = {
    "list": ".tasks:list_cmd",
    "show": ".tasks:show_cmd",
    "run": ".run:run_cmd",
    "score": ".score:score_cmd",
    "compare": ".compare:compare_cmd",
    "merge": ".merge:merge_cmd",
    "export": ".export:export_cmd",
    "card": ".card:card_cmd",
    "html": ".html:html_cmd",
    "provenance": ".info:provenance_cmd",
    "index-entry": ".info:index_entry_cmd",
    "serve": ".serve:serve_cmd",
    "mcp": ".serve:mcp_cmd",
    "cache": ".cache:cache_cmd",
    "providers": ".providers:providers_cmd",
    "fake-model": ".fake_model:fake_model_cmd",
}
#: The commands only the `benchmark-core` umbrella adds.
UMBRELLA_COMMANDS = {
    "benchmarks": ".benchmarks:benchmarks_cmd",
    "new": ".new:new_cmd",
    "sweep": ".sweep:sweep_cmd",
    "leaderboard": ".leaderboard:leaderboard_cmd",
    "view": ".view:view_cmd",
}


def create_cli(benchmark: BenchmarkSource, prog_name: str, *, umbrella: bool = False) -> click.Group:
    """Build the click group for `benchmark` (a Benchmark, or a function returning one, so that
    loading can wait until a command needs it).

    With `umbrella=True` (the `benchmark-core` script) the group adds `--benchmark ID|FILE.py` to
    address any installed benchmark or a one-file one, the `benchmarks` command listing them and
    `new` scaffolding a package.
    """

    @click.group(cls=CliGroup, name=prog_name, context_settings={"help_option_names": ["-h", "--help"]})
    @click.option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=functools.partial(_print_version, benchmark),
        help="Show the benchmark and benchmark-core versions and exit.",
    )
    @click.pass_context
    def cli(ctx: click.Context, /, **kwargs: Any) -> None:
        source: BenchmarkSource = benchmark
        chosen = kwargs.get("benchmark_id")
        if chosen:
            from .._benchmark.plugins import resolve_benchmark

            source = functools.partial(resolve_benchmark, chosen)
        ctx.obj = CliState(source)

    if umbrella:
        cli.help = (
            "benchmark-core: run, score and serve benchmarks. Commands address the bundled example "
            "benchmark unless --benchmark names an installed one (see `benchmarks`) or a Python file "
            "defining one. `new NAME` writes a new benchmark package."
        )
        cli = click.option(
            "--benchmark",
            "benchmark_id",
            metavar="ID|FILE.py[:NAME]",
            default=None,
            help="Address an installed benchmark (see `benchmarks`), or one defined in a Python file "
            "(path/to/file.py:benchmark, no packaging needed); default: the bundled example.",
        )(cli)
    elif isinstance(benchmark, Benchmark):
        cli.help = f"{benchmark.name}: {benchmark.tagline}\n\nList, run, score and serve the benchmark."
    else:
        cli.help = "List, run, score and serve the benchmark."
    assert isinstance(cli, CliGroup)
    cli.lazy_commands = {**COMMANDS, **(UMBRELLA_COMMANDS if umbrella else {})}
    return cli


def run_cli(benchmark: BenchmarkSource, prog_name: str, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Entry point of a benchmark's console script and `python -m` module."""
    _exit_without_a_last_collection()
    create_cli(benchmark, prog_name).main(args=list(argv) if argv is not None else None, prog_name=prog_name)
    sys.exit(EXIT_OK)  # pragma: no cover - main always exits


def main() -> NoReturn:
    """The `benchmark-core` console script: the bundled example, or any installed benchmark."""
    from .._benchmark.plugins import bundled_example

    _exit_without_a_last_collection()
    cli = create_cli(bundled_example, "benchmark-core", umbrella=True)
    cli.main(prog_name="benchmark-core")
    sys.exit(EXIT_OK)  # pragma: no cover


@functools.lru_cache(maxsize=1)  # registered once however often a process calls the entry points
def _exit_without_a_last_collection() -> None:
    """When the process ends, move every object into the collector's permanent generation first
    (`gc.freeze`, from an atexit hook), so that the interpreter's shutdown does not walk them all
    again looking for cycles: that walk was 9 of the 12 ms `list --json` spent exiting, and the
    memory goes back to the system whole anyway. Commands close their files themselves (Python never
    promised finalizers for objects still alive at exit). Registered once, by the console scripts'
    entry points only: a process that builds the CLI with `create_cli` (tests, an application) keeps
    its collector as it is."""
    atexit.register(gc.freeze)


def _print_version(source: BenchmarkSource, ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ..__about__ import __version__

    if isinstance(source, Benchmark):
        click.echo(f"{ctx.info_name} {source.version} (benchmark-core {__version__})")
    else:
        click.echo(f"{ctx.info_name} {__version__}")
    ctx.exit(0)
