"""What every command shares: the state the group hands its commands through `ctx.obj`, the group
class that maps failures to exit codes, the `command()` decorator (`--json`, `--tasks`, error
mapping) and the options several commands take (`--markdown`, file and folder paths). No business
logic: commands call core functions and print what they return."""

from __future__ import annotations

import functools
import importlib
import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, Optional, TypeVar, Union, cast

import click

from .._benchmark.definition import Benchmark
from .._util.indented_json import indented_json
from .._util.text import shorten
from ..errors._base import EXIT_OK, EXIT_USAGE, BenchmarkError, InternalError, UsageError, describe_error

F = TypeVar("F", bound=Callable[..., Any])
BenchmarkSource = Union[Benchmark, Callable[[], Benchmark]]
DEBUG_ENV = "BENCHMARK_CORE_DEBUG"
JSON_HELP = "Print one JSON document on stdout, nothing else."
TASKS_HELP = "Use this JSONL task file instead of the benchmark's own tasks."
REPORT_MARKDOWN_HELP = "Write the markdown report (summary and task table) here."


class CliState:
    """`ctx.obj` of every command: the benchmark, resolved on first use (so `--help` loads nothing)."""

    def __init__(self, source: BenchmarkSource) -> None:
        self._source = source
        self._benchmark: Optional[Benchmark] = None

    @property
    def benchmark(self) -> Benchmark:
        if self._benchmark is None:
            self._benchmark = self._source if isinstance(self._source, Benchmark) else self._source()
        return self._benchmark

    def served(self, tasks_path: Optional[Path], hidden_seed_env: Optional[str] = None) -> Benchmark:
        """The benchmark a server offers: with `--tasks`, that file as its task list, read now so
        that a bad file stops the server before it starts; with `--hidden-seed-env`, the hidden
        split `--tasks` names drawn in memory (`runs._private_split`: no file, the seed in no message)."""
        if hidden_seed_env is not None:
            import attrs

            from ..runs._private_split import private_split

            split = private_split(self.benchmark, str(tasks_path) if tasks_path else None, hidden_seed_env)
            return attrs.evolve(self.benchmark, tasks=split.tasks, tasks_file=None, load_tasks=None)
        if tasks_path is None:
            return self.benchmark
        served = self.benchmark.with_tasks_file(tasks_path)
        served.tasks()
        return served


class CliGroup(click.Group):
    """Maps every failure to the documented exit codes; click's own usage errors exit 1, not 2.

    Commands are registered by name as `"module:attribute"` in `lazy_commands` and imported when
    invoked (or when `--help` lists them), so `list` loads neither `run`'s asyncio nor `serve`'s
    aiohttp."""

    lazy_commands: dict[str, str]
    #: The arguments the command line was given (for `continue_command`).
    argv: list[str]

    def get_command(self, ctx: click.Context, cmd_name: str) -> Optional[click.Command]:
        target = getattr(self, "lazy_commands", {}).get(cmd_name)
        if target is not None and cmd_name not in self.commands:
            module, attribute = target.split(":")
            self.add_command(getattr(importlib.import_module(module, __package__), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *getattr(self, "lazy_commands", {})})

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        given = kwargs.get("args")
        argv: list[str] = list(given) if given is not None else sys.argv[1:]
        self.argv = argv
        try:
            result = super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            if "--json" in argv:
                echo_error_json(UsageError(exc.format_message()))
            exc.show()
            sys.exit(EXIT_USAGE)
        except BrokenPipeError:
            # The reader went away (`... | head`): not an error of ours. Silence the final flush.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_OK)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(EXIT_USAGE)
        except BenchmarkError as exc:  # raised outside a command, where `command` maps errors
            fail(exc, "--json" in argv)
        sys.exit(result if isinstance(result, int) else EXIT_OK)


def command(*, tasks: bool = True, json_help: str = JSON_HELP, tasks_help: str = TASKS_HELP) -> Callable[[F], F]:
    """Common behaviour of every command: `--json`, `--tasks` (unless `tasks=False`), and error
    mapping (an unexpected exception is an INTERNAL_ERROR, its traceback only with DEBUG_ENV set)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            as_json = bool(kwargs.get("as_json"))
            try:
                return func(*args, **kwargs)
            except BenchmarkError as exc:
                fail(exc, as_json)
            except (BrokenPipeError, click.exceptions.Exit, click.ClickException):
                raise  # handled by `CliGroup.main`
            except Exception as exc:
                if os.environ.get(DEBUG_ENV):
                    raise
                fail(InternalError(f"{describe_error(exc)} (set {DEBUG_ENV}=1 for a traceback)"), as_json)

        decorated = click.option("--json", "as_json", is_flag=True, help=json_help)(wrapper)
        if tasks:
            decorated = path_option("--tasks", "tasks_path", help=tasks_help)(decorated)
        return cast(F, decorated)

    return decorate


def markdown_option(help: str = REPORT_MARKDOWN_HELP) -> Callable[[F], F]:
    """`--markdown PATH`, the one declaration of it: where a command writes its Markdown (by default
    a run's report; `help` says what else)."""
    return path_option("--markdown", help=help)


def path_option(*names: str, help: str, folder: bool = False, required: bool = False) -> Callable[[F], F]:
    """An option naming one file (a folder with `folder`) as a `Path`, None when not given: the one
    declaration of such options (`--output`, `--html`, `--site`, `--tasks`, ...)."""
    kind = click.Path(file_okay=False, path_type=Path) if folder else click.Path(dir_okay=False, path_type=Path)
    return click.option(*names, type=kind, default=None, required=required, help=help)


def fail(exc: BenchmarkError, as_json: bool) -> NoReturn:
    if as_json:
        echo_error_json(exc)
    click.echo(f"error: {exc.message}", err=True)
    sys.exit(exc.exit_code)


def echo_error_json(exc: BenchmarkError) -> None:
    click.echo(json.dumps(exc.to_json(), ensure_ascii=False))


def echo_json(data: Any) -> None:
    click.echo(indented_json(data))


def emit_document(out: Optional[Path], text: str, as_json: bool, key: str, **counts: int) -> None:
    """A rendered document (a page, a card) written to `out`, else printed: with `as_json`, what was
    written (path, bytes and `counts`) or the text under `key`; without, a "wrote" line or the text."""
    from ..runs._files import write_text  # not on every command's startup path

    if out is not None:
        write_text(out, text)
        if as_json:
            echo_json({"path": str(out), "bytes": len(text.encode("utf-8")), **counts})
        else:
            click.echo(f"wrote {out}", err=True)
    elif as_json:
        echo_json({key: text})
    else:
        click.echo(text, nl=False)


def continue_command(*flags: str) -> str:
    """The command line that was given, with `flags` (default `--resume`) added where missing: what
    continues an interrupted run."""
    root = click.get_current_context().find_root()
    argv = list(getattr(root.command, "argv", None) or sys.argv[1:])
    argv += [flag for flag in flags or ("--resume",) if flag not in argv]
    return shlex.join([root.info_name or "benchmark-core", *argv])


def excerpt(text: str, width: int = 72) -> str:
    return shorten(" ".join(text.split()), width)
