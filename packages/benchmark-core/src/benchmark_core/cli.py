"""The command line, generated from one Benchmark: `create_cli(benchmark, prog_name)`.

Exit codes: 0 success, 1 invalid usage (click usage errors, unknown task, unknown provider,
unreadable file), 2 run or runtime failure. With `--json` a command prints one JSON document on
stdout and nothing else (errors too, as `{"error": {"code", "message"}}`); messages and progress go
to stderr. `list`, `show` and `--help` import neither aiohttp nor mcp: heavy imports live inside the
commands that need them.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Optional, TypeVar, Union, cast

import click

from .definition import Benchmark
from .errors import BenchmarkError, IncomparableReportsError, PluginLoadError, UsageError, describe_error
from .files import Submission, check_writable, read_report, read_report_or_comparison, read_submissions, write_text
from .model import TaskScore
from .remote import task_list_document
from .rng import epoch_seed
from .text import shorten
from .wire import to_wire

F = TypeVar("F", bound=Callable[..., Any])
BenchmarkSource = Union[Benchmark, Callable[[], Benchmark]]
DEBUG_ENV = "BENCHMARK_CORE_DEBUG"


class _State:
    """What the group hands its commands through `ctx.obj`: the benchmark, resolved on first use."""

    def __init__(self, source: BenchmarkSource) -> None:
        self._source = source
        self._benchmark: Optional[Benchmark] = None

    @property
    def benchmark(self) -> Benchmark:
        if self._benchmark is None:
            self._benchmark = self._source if isinstance(self._source, Benchmark) else self._source()
        return self._benchmark


class _Group(click.Group):
    """Maps every failure to the documented exit codes; click's own usage errors exit 1, not 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        given = kwargs.get("args")
        argv: list[str] = list(given) if given is not None else sys.argv[1:]
        try:
            result = super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            if "--json" in argv:
                _echo_error_json(UsageError(exc.format_message()))
            exc.show()
            sys.exit(1)
        except BrokenPipeError:
            # The reader went away (`... | head`): not an error of ours. Silence the final flush.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except BenchmarkError as exc:  # raised outside a command, where `_command` maps errors
            _fail(exc, "--json" in argv)
        sys.exit(result if isinstance(result, int) else 0)


def _fail(exc: BenchmarkError, as_json: bool) -> NoReturn:
    if as_json:
        _echo_error_json(exc)
    click.echo(f"error: {exc.message}", err=True)
    sys.exit(exc.exit_code)


def _echo_error_json(exc: BenchmarkError) -> None:
    click.echo(json.dumps(exc.to_json(), ensure_ascii=False))


_JSON_HELP = "Print one JSON document on stdout, nothing else."
_PORT = click.IntRange(min=0, max=65535)
_TASKS_HELP = "Use this JSONL task file instead of the benchmark's own tasks."


def _command(*, tasks: bool = True, json_help: str = _JSON_HELP, tasks_help: str = _TASKS_HELP) -> Callable[[F], F]:
    """Common behaviour of every command: `--json`, `--tasks` (unless `tasks=False`), and error
    mapping."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            as_json = bool(kwargs.get("as_json"))
            try:
                return func(*args, **kwargs)
            except BenchmarkError as exc:
                _fail(exc, as_json)
            except (BrokenPipeError, click.exceptions.Exit, click.ClickException):
                raise  # handled by `_Group.main`
            except Exception as exc:
                if os.environ.get(DEBUG_ENV):
                    raise
                _fail(BenchmarkError(f"{describe_error(exc)} (set {DEBUG_ENV}=1 for a traceback)"), as_json)

        decorated = click.option("--json", "as_json", is_flag=True, help=json_help)(wrapper)
        if tasks:
            decorated = click.option(
                "--tasks",
                "tasks_path",
                type=click.Path(dir_okay=False, path_type=Path),
                default=None,
                help=tasks_help,
            )(decorated)
        return cast(F, decorated)

    return decorate


def _served(tasks_path: Optional[Path]) -> Benchmark:
    """The benchmark a server offers: with `--tasks`, that file as its task list, read now so that a
    bad file stops the server before it starts."""
    bench = _state().benchmark
    if tasks_path is None:
        return bench
    served = bench.with_tasks_file(tasks_path)
    served.tasks()
    return served


def _state() -> _State:
    return cast(_State, click.get_current_context().find_object(_State))


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))


def _excerpt(text: str, width: int = 72) -> str:
    return shorten(" ".join(text.split()), width)


def create_cli(benchmark: BenchmarkSource, prog_name: str, *, umbrella: bool = False) -> click.Group:
    """Build the click group for `benchmark` (a Benchmark, or a function returning one, so that
    loading can wait until a command needs it).

    With `umbrella=True` (the `benchmark-core` script) the group adds `--benchmark ID` to address
    any installed benchmark and the `benchmarks` command listing them.
    """

    @click.group(cls=_Group, name=prog_name, context_settings={"help_option_names": ["-h", "--help"]})
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
            from .plugins import resolve_benchmark

            source = functools.partial(resolve_benchmark, chosen)
        ctx.obj = _State(source)

    if umbrella:
        cli.help = (
            "benchmark-core: run, score and serve benchmarks. Commands address the bundled example "
            "benchmark unless --benchmark names an installed one (see `benchmarks`) or a Python file "
            "defining one. `new NAME` writes a new benchmark package."
        )
    elif isinstance(benchmark, Benchmark):
        cli.help = f"{benchmark.name}: {benchmark.tagline}\n\nList, run, score and serve the benchmark."
    else:
        cli.help = "List, run, score and serve the benchmark."

    if umbrella:
        cli = click.option(
            "--benchmark",
            "benchmark_id",
            metavar="ID|FILE.py[:NAME]",
            default=None,
            help="Address an installed benchmark (see `benchmarks`), or one defined in a Python file "
            "(path/to/file.py:benchmark, no packaging needed); default: the bundled example.",
        )(cli)

    @cli.command("list")
    @_command()
    def list_cmd(as_json: bool, tasks_path: Optional[Path]) -> None:
        """List the tasks."""
        bench = _state().benchmark
        tasks = bench.tasks(tasks_path)
        if as_json:
            _echo_json(task_list_document(bench, tasks))
            return
        width = max(len(t.id) for t in tasks)
        for task in tasks:
            click.echo(f"{task.id:<{width}}  {task.kind:<7}  {_excerpt(task.prompt)}")
        click.echo(f"{len(tasks)} tasks", err=True)

    @cli.command("show")
    @click.argument("task_id")
    @_command()
    def show_cmd(task_id: str, as_json: bool, tasks_path: Optional[Path]) -> None:
        """Show one task in full."""
        bench = _state().benchmark
        task = asyncio.run(bench.get_task(task_id, tasks_path))
        if as_json:
            _echo_json(to_wire(task))
            return
        click.echo(f"id:     {task.id}\nkind:   {task.kind}\n\n{task.prompt}\n")
        if task.tools:
            click.echo("tools:  " + ", ".join(t.name for t in task.tools))
        if task.expected is not None:
            click.echo("expected: " + json.dumps(task.expected, ensure_ascii=False))
        if task.metadata:
            click.echo("metadata: " + json.dumps(task.metadata, ensure_ascii=False, sort_keys=True))

    from .cli_run import register_run

    register_run(cli, _command)

    @cli.command("score")
    @click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
    @click.option("--seed", type=int, default=None, help="Seed for episode replay; default: the report's, or 1.")
    @_command()
    def score_cmd(path: Path, seed: Optional[int], as_json: bool, tasks_path: Optional[Path]) -> None:
        """Regrade a saved run report, or a file of submissions.

        PATH is a report written by `run --output`, or JSON / JSONL of {"taskId": ..., "submission":
        {answer?, toolCalls?, toolLog?, finalState?}} items.
        """
        bench = _state().benchmark
        submissions, report_seed = read_submissions(path, bench.id)
        if seed is None:
            seed = report_seed if report_seed is not None else 1
        verdicts = asyncio.run(_score_all(bench, submissions, tasks_path, seed))
        rows = []
        for submission, verdict in zip(submissions, verdicts):
            row: dict[str, Any] = {"taskId": submission.task_id, **to_wire(verdict)}
            if submission.recorded_score is not None:
                row["recordedScore"] = submission.recorded_score
            rows.append(row)
        mean = sum(v.score for v in verdicts) / len(verdicts) if verdicts else 0.0
        changed = sum(
            1 for s, v in zip(submissions, verdicts) if s.recorded_score is not None and s.recorded_score != v.score
        )
        if as_json:
            _echo_json({"benchmark": bench.id, "mean": mean, "count": len(rows), "changed": changed, "results": rows})
            return
        width = max((len(s.task_id) for s in submissions), default=0)
        for row in rows:
            click.echo(
                f"{row['taskId']:<{width}}  {row['score']:.2f}  {'pass' if row['passed'] else 'fail'}  "
                f"{_excerpt(row['reason'], 90)}"
            )
        recorded = report_seed is not None and bool(submissions)
        click.echo(
            f"\nmean {mean:.4f} over {len(rows)} submissions"
            + (f"; {changed} differ from the recorded scores" if recorded else "")
        )

    @cli.command("compare")
    @click.argument("reports", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
    @click.option(
        "--allow-different-tasks",
        is_flag=True,
        help="Compare only the tasks every report has, instead of refusing different task sets.",
    )
    @click.option("--seed", type=int, default=1, show_default=True, help="Seed of the paired bootstrap.")
    @click.option(
        "--resamples", type=click.IntRange(min=1), default=10_000, show_default=True, help="Bootstrap resamples."
    )
    @click.option(
        "--markdown",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the comparison as Markdown here.",
    )
    @click.option(
        "--html",
        "html_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the comparison as one self-contained HTML page here (the page `html` renders "
        "from the --json document).",
    )
    @_command(tasks=False, json_help="Print the comparison as one JSON document.")
    def compare_cmd(
        reports: Sequence[Path],
        allow_different_tasks: bool,
        seed: int,
        resamples: int,
        markdown: Optional[Path],
        html_path: Optional[Path],
        as_json: bool,
    ) -> None:
        """Compare run reports task by task: REPORT2 (and each later one) against REPORT1.

        Each REPORT is a full report written by `run --output`. For each report after the first:
        the mean difference, its paired bootstrap 95% CI (tasks resampled in both runs together),
        the exact McNemar test when scores are pass/fail, the difference per task group, and a
        verdict. Three or more reports also get a leaderboard. Reports of other benchmarks,
        versions, answer modes or task sets are refused (exit 1).
        """
        from .compare import compare_reports, render_comparison

        if len(reports) < 2:
            raise UsageError("compare needs at least two reports")
        for out in (markdown, html_path):
            if out is not None:
                check_writable(out)
        bench = _state().benchmark
        loaded = []
        for path in reports:
            report = read_report(path)
            if report.benchmark != bench.id:
                raise IncomparableReportsError(
                    f"{path} is a report of benchmark {report.benchmark!r}, not {bench.id!r}"
                )
            loaded.append(report)
        comparison = compare_reports(
            loaded,
            labels=[str(path) for path in reports],
            allow_different_tasks=allow_different_tasks,
            seed=seed,
            resamples=resamples,
        )
        text = render_comparison(comparison)
        if markdown is not None:
            write_text(markdown, text)
        if html_path is not None:
            from .html_compare import render_comparison_html

            write_text(html_path, render_comparison_html(comparison))
        if as_json:
            _echo_json(to_wire(comparison))
        else:
            click.echo(text, nl=False)

    @cli.command("card")
    @click.argument("report_path", type=click.Path(dir_okay=False, path_type=Path))
    @click.argument("out", type=click.Path(dir_okay=False, path_type=Path), required=False)
    @_command()
    def card_cmd(report_path: Path, out: Optional[Path], as_json: bool, tasks_path: Optional[Path]) -> None:
        """Render a 1200x630 SVG share card from a saved report (to OUT, or stdout)."""
        from .card import render_card

        bench = _state().benchmark
        if tasks_path is not None:
            bench.tasks(tasks_path)  # the card needs no tasks, but a bad file is still an error
        svg = render_card(read_report(report_path), bench)
        if out is not None:
            write_text(out, svg)
            if as_json:
                _echo_json({"path": str(out), "bytes": len(svg.encode("utf-8"))})
            else:
                click.echo(f"wrote {out}", err=True)
        elif as_json:
            _echo_json({"svg": svg})
        else:
            click.echo(svg, nl=False)

    @cli.command("html")
    @click.argument("report_path", metavar="REPORT", type=click.Path(dir_okay=False, path_type=Path))
    @click.argument("out", type=click.Path(dir_okay=False, path_type=Path), required=False)
    @_command(tasks_help="Read the tasks' prompts from this JSONL task file instead of the benchmark's own.")
    def html_cmd(report_path: Path, out: Optional[Path], as_json: bool, tasks_path: Optional[Path]) -> None:
        """Render a saved report, or a comparison, as one self-contained HTML page (to OUT, or stdout).

        REPORT is a report written by `run --output`, or a comparison printed by `compare --json`.
        The page needs no network. A report: headline with its confidence interval, per-group
        bars, and a task table to filter and sort, where each task unfolds to its prompt, answer,
        grader verdict and, for episodes, the transcript and tool log. A comparison: the runs with
        their intervals, and each run against the first with its verdict, paired interval, McNemar
        test and per-group differences.
        """
        from .compare import Comparison

        bench = _state().benchmark
        document = read_report_or_comparison(report_path)
        if document.benchmark != bench.id:
            what = "comparison" if isinstance(document, Comparison) else "report"
            raise UsageError(
                f"{report_path} is a {what} of {document.benchmark!r}, not {bench.id!r}; render it with that "
                f"benchmark's command (or benchmark-core --benchmark {document.benchmark})"
            )
        if isinstance(document, Comparison):
            from .html_compare import render_comparison_html

            if tasks_path is not None:
                bench.tasks(tasks_path)  # a comparison needs no tasks, but a bad file is still an error
            page, rows = render_comparison_html(document), len(document.runs)
            counted = "runs"
        else:
            from .html_report import render_report_html

            page, rows = render_report_html(document, bench, bench.tasks(tasks_path)), len(document.rows)
            counted = "rows"
        if out is not None:
            write_text(out, page)
            if as_json:
                _echo_json({"path": str(out), "bytes": len(page.encode("utf-8")), counted: rows})
            else:
                click.echo(f"wrote {out}", err=True)
        elif as_json:
            _echo_json({"html": page})
        else:
            click.echo(page, nl=False)

    @cli.command("provenance")
    @_command()
    def provenance_cmd(as_json: bool, tasks_path: Optional[Path]) -> None:
        """Where the data comes from: licence, contamination notes, refresh plan."""
        from .report import provenance_markdown

        bench = _state().benchmark
        if tasks_path is not None:
            bench.tasks(tasks_path)  # provenance is per benchmark, but a bad file is still an error
        if as_json:
            _echo_json({"benchmark": bench.id, "provenance": to_wire(bench.provenance)})
        else:
            click.echo(provenance_markdown(bench), nl=False)

    @cli.command("index-entry")
    @_command()
    def index_entry_cmd(as_json: bool, tasks_path: Optional[Path]) -> None:
        """The benchmark's directory record (JSON)."""
        from .report import index_entry

        bench = _state().benchmark
        entry = to_wire(index_entry(bench, bench.tasks(tasks_path)))
        click.echo(
            json.dumps(entry, ensure_ascii=False) if as_json else json.dumps(entry, indent=2, ensure_ascii=False)
        )

    @cli.command("serve")
    @click.option(
        "--host",
        default="127.0.0.1",
        show_default=True,
        help="Bind address; keep loopback unless a proxy with auth and rate limits sits in front.",
    )
    @click.argument("port_argument", metavar="[PORT]", type=_PORT, required=False)
    @click.option("--port", type=_PORT, default=None, help="Port to listen on (0 picks a free one).  [default: 8787]")
    @_command(
        json_help="Print a start-up error as one JSON document on stdout.",
        tasks_help="Serve this JSONL task file as the default task list (requests may still pick others "
        "with ?tasks=, under the allow-list rule).",
    )
    def serve_cmd(
        host: str, port_argument: Optional[int], port: Optional[int], as_json: bool, tasks_path: Optional[Path]
    ) -> None:
        """Serve the HTTP API, and a task browser page at / that scores answers through it.

        PORT (default 8787) may be given as an argument or with --port.
        """
        from .http import create_app, serve

        if port_argument is not None and port is not None and port_argument != port:
            raise UsageError(f"two ports given: {port_argument} and --port {port}; give one")
        chosen = port_argument if port_argument is not None else port if port is not None else 8787
        serve(create_app(_served(tasks_path)), host=host, port=chosen)

    @cli.command("mcp")
    @_command(
        json_help="Print a start-up error as one JSON document on stdout (which then carries the protocol).",
        tasks_help="Serve this JSONL task file as the default task list (tool calls may still pick others "
        "with their tasks argument, under the allow-list rule).",
    )
    def mcp_cmd(as_json: bool, tasks_path: Optional[Path]) -> None:
        """Serve the MCP tools on stdio."""
        from .mcp import start_mcp

        start_mcp(_served(tasks_path))

    if umbrella:
        from .cli_new import new_cmd

        cli.add_command(new_cmd)

        @cli.command("benchmarks")
        @_command(tasks=False)
        def benchmarks_cmd(as_json: bool) -> None:
            """List installed benchmarks (id, distribution, version, tasks, or load error).

            Exits 2 when any of them failed to load (the others are still listed)."""
            from .plugins import discover_benchmarks

            listing: list[dict[str, Any]] = []
            for entry in discover_benchmarks():
                item: dict[str, Any] = {"id": entry.id, "distribution": entry.distribution, "version": entry.version}
                try:
                    item["tasks"] = len(entry.load().tasks())
                    item["error"] = None
                except Exception as exc:  # one broken plugin must not hide the others
                    item["tasks"] = None
                    item["error"] = describe_error(exc)
                listing.append(item)
            if as_json:
                _echo_json({"benchmarks": listing})
            else:
                for item in listing:
                    status = f"{item['tasks']} tasks" if item["error"] is None else f"LOAD ERROR: {item['error']}"
                    click.echo(
                        f"{item['id']:<32} {item['distribution'] or '-':<32} {item['version'] or '-':<10} {status}"
                    )
            failed = [item["id"] for item in listing if item["error"] is not None]
            if failed:
                click.echo(f"error: {len(failed)} benchmark(s) failed to load: {', '.join(failed)}", err=True)
                sys.exit(PluginLoadError.exit_code)

    return cli


def run_cli(benchmark: BenchmarkSource, prog_name: str, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Entry point of a benchmark's console script and `python -m` module."""
    create_cli(benchmark, prog_name).main(args=list(argv) if argv is not None else None, prog_name=prog_name)
    sys.exit(0)  # pragma: no cover - main always exits


def main() -> NoReturn:
    """The `benchmark-core` console script: the bundled example, or any installed benchmark."""
    from .plugins import EXAMPLE_ID, load_benchmark

    cli = create_cli(functools.partial(load_benchmark, EXAMPLE_ID), "benchmark-core", umbrella=True)
    cli.main(prog_name="benchmark-core")
    sys.exit(0)  # pragma: no cover


# -- helpers -----------------------------------------------------------------------------------


def _print_version(source: BenchmarkSource, ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from .__about__ import __version__

    if isinstance(source, Benchmark):
        click.echo(f"{ctx.info_name} {source.version} (benchmark-core {__version__})")
    else:
        click.echo(f"{ctx.info_name} {__version__}")
    ctx.exit(0)


async def _score_all(
    bench: Benchmark, submissions: list[Submission], tasks_path: Optional[Path], seed: int
) -> list[TaskScore]:
    verdicts = []
    for submission in submissions:
        task = await bench.get_task(submission.task_id, tasks_path)
        ctx = bench.grade_context(epoch_seed(seed, submission.epoch))
        verdicts.append(await bench.grade(task, submission.trace, ctx))
    return verdicts
