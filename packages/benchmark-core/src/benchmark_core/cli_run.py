"""The CLI's `run` command. Its model, provider and run options are generated from the one
declaration in `benchmark_core.options`; what is added here is only what belongs to a terminal:
where the report goes (`--output`, `--markdown`, `--json`), resuming from the journal, signals,
the progress line and the error breakdown.

Exit codes: 0 complete without errored rows; 1 invalid usage; 2 a run with errored rows, or one
stopped by a fatal provider error or `--max-errors`; 130 after Ctrl+C and 143 after SIGTERM, with the
finished rows written as a partial report and the journal left resumable.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Optional, TypeVar

import click

from .errors import RunStoppedError, UsageError
from .model import RunReport, RunRow, Usage
from .options import OptionSpec, RunOptions, RunTarget, option_specs, option_type

F = TypeVar("F", bound=Callable[..., Any])

#: Exit codes of a run ended by a signal: 128 + the signal number, as shells report it.
EXIT_SIGINT = 130
EXIT_SIGTERM = 143


def declared_options(cls: type[Any]) -> Callable[[F], F]:
    """Click options for every CLI-visible option declared on `cls` (`RunOptions` or `RunTarget`)."""

    def decorate(func: F) -> F:
        for name, spec in reversed(list(option_specs(cls).items())):
            if spec.cli is not None:
                func = _click_option(cls, name, spec)(func)
        return func

    return decorate


def _click_option(cls: type[Any], name: str, spec: OptionSpec) -> Callable[[F], F]:
    kwargs: dict[str, Any] = {"help": spec.help, "required": spec.required}
    if spec.metavar:
        kwargs["metavar"] = spec.metavar
    declared = option_type(cls, name)
    if spec.cli_help is not None:
        kwargs["help"] = spec.cli_help
    if name == "cache":
        kwargs.update(type=click.Path(file_okay=False, path_type=str), default=None)
    elif spec.multiple:
        kwargs.update(multiple=True, type=str)
    elif spec.choices is not None:
        kwargs.update(type=click.Choice(spec.choices))
    elif spec.parse is not None:
        kwargs.update(type=str)
    elif declared is int and (spec.minimum is not None or spec.maximum is not None):
        kwargs["type"] = click.IntRange(min=_bound(spec.minimum), max=_bound(spec.maximum), min_open=spec.min_open)
    elif declared is int:
        kwargs["type"] = int
    elif declared is float:
        kwargs["type"] = click.FloatRange(min=spec.minimum, max=spec.maximum, min_open=spec.min_open)
    default = _default(cls, name)
    if name != "cache" and not spec.multiple and default is not None:
        kwargs.update(default=default, show_default=True)
    assert spec.cli is not None
    return click.option(spec.cli, name, **kwargs)


def _bound(value: Optional[float]) -> Optional[int]:
    return None if value is None else int(value)


def _default(cls: type[Any], name: str) -> Any:
    import attrs

    default = attrs.fields_dict(cls)[name].default
    return None if default is attrs.NOTHING else default


def options_from_cli(values: dict[str, Any], *, no_cache: bool) -> tuple[RunTarget, RunOptions]:
    """The target and run options the CLI's generated flags describe."""
    target = RunTarget(**{name: values.pop(name) for name in option_specs(RunTarget)})
    fields: dict[str, Any] = {}
    for name, spec in option_specs(RunOptions).items():
        if spec.cli is None or name not in values:
            continue
        value = values.pop(name)
        if spec.parse is not None and value is not None:
            value = spec.parse(value)
        if spec.multiple:
            value = tuple(value) or None
        if name == "cache":
            if no_cache and value is not None:
                raise UsageError("--cache and --no-cache exclude each other")
            value = False if no_cache else (value if value is not None else True)
        if value is not None or _default(RunOptions, name) is None:
            fields[name] = value
    return target, RunOptions(**fields)


def register_run(cli: click.Group, command: Callable[..., Callable[[Any], Any]]) -> None:
    """Add `run` to `cli`; `command` is the CLI's common command decorator (`--json`, `--tasks`,
    error mapping)."""

    @cli.command("run")
    @declared_options(RunTarget)
    @declared_options(RunOptions)
    @click.option("--no-cache", is_flag=True, help="Send every request, reading and writing no response cache.")
    @click.option(
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the full JSON report (with every row) here, and journal each finished row to "
        "OUTPUT.journal.jsonl as it finishes.",
    )
    @click.option(
        "--resume",
        is_flag=True,
        help="Continue the run journaled beside --output: keep its rows and send only the missing tasks.",
    )
    @click.option(
        "--retry-errored",
        is_flag=True,
        help="With --resume: also send again the tasks whose journaled rows errored.",
    )
    @click.option(
        "--markdown",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the markdown report (summary and task table) here.",
    )
    @command()
    def run_cmd(
        output: Optional[Path],
        markdown: Optional[Path],
        resume: bool,
        retry_errored: bool,
        no_cache: bool,
        as_json: bool,
        tasks_path: Optional[Path],
        **values: Any,
    ) -> None:
        """Run the benchmark against a model and print the summary.

        With --json the report is printed without its rows (use --output for the full report).
        Exits 2 when any task errored or the run was stopped (the report is still written), 130 after
        Ctrl+C and 143 after SIGTERM (the finished rows are kept; continue with --resume).
        """
        from .adapters.registry import make_adapter
        from .cli import _state
        from .files import check_writable
        from .journal import journal_path
        from .runner import Run

        if (resume or retry_errored) and output is None:
            raise UsageError("--resume and --retry-errored continue the run journaled beside --output; give --output")
        if retry_errored and not resume:
            raise UsageError("--retry-errored needs --resume")
        target, options = options_from_cli(values, no_cache=no_cache)
        bench = _state().benchmark
        for path in (output, markdown):
            if path is not None:
                check_writable(path)
        adapter = make_adapter(target.provider, target.model, seed=options.seed, policies=bench.mock_policies)
        line = ProgressLine() if sys.stderr.isatty() else None
        run = Run(
            bench,
            adapter,
            options,
            tasks=tasks_path,
            journal=journal_path(output) if output is not None else None,
            resume=resume,
            retry_errored=retry_errored,
            progress=line.update if line is not None else None,
        )
        stopped: Optional[RunStoppedError] = None
        try:
            report, signum = asyncio.run(_execute(run))
        except RunStoppedError as exc:
            report, signum, stopped = exc.report, None, exc
        finally:
            if line is not None:
                line.close()
        _write(report, bench, output, markdown, as_json)
        if output is not None and report.complete and not report.totals.failed:
            # The report now holds every row; only an incomplete run or errored rows (for
            # --retry-errored) leave something to resume.
            journal_path(output).unlink(missing_ok=True)
        if report.totals.failed:
            click.echo(error_breakdown(report.rows), err=True)
        if signum is not None:
            name = "terminated by SIGTERM" if signum == signal.SIGTERM else "interrupted"
            resumable = " (continue with --resume)" if output is not None else ""
            click.echo(f"{name}: {len(report.rows)} finished tasks are in the report{resumable}", err=True)
            sys.exit(EXIT_SIGTERM if signum == signal.SIGTERM else EXIT_SIGINT)
        if stopped is not None:
            hint = "; fix the cause and continue with --resume" if output is not None else ""
            click.echo(f"error: {stopped.message}{hint}", err=True)
            sys.exit(stopped.exit_code)
        if report.totals.failed:
            click.echo(f"error: {report.totals.failed} of {report.totals.tasks} tasks errored", err=True)
            sys.exit(2)


async def _execute(run: Any) -> tuple[RunReport, Optional[int]]:
    """Run to the end, or until SIGINT or SIGTERM: then the rows finished so far, as a partial
    report, and the signal's number."""
    received: list[int] = []
    main = asyncio.current_task()
    assert main is not None
    with _signals_cancel(main, received):
        try:
            return await run.execute(), None
        except asyncio.CancelledError:
            if not received:
                raise
    reason = "terminated by SIGTERM" if received[0] == signal.SIGTERM else "interrupted by Ctrl+C"
    return run.partial_report(reason), received[0]


@contextlib.contextmanager
def _signals_cancel(task: asyncio.Task[Any], received: list[int]) -> Iterator[None]:
    loop = asyncio.get_running_loop()
    installed = []

    def handle(signum: int) -> None:
        received.append(signum)
        task.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, handle, signum)
            installed.append(signum)
        except (NotImplementedError, RuntimeError):  # not on this platform or thread
            pass
    try:
        yield
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)


def _write(report: RunReport, bench: Any, output: Optional[Path], markdown: Optional[Path], as_json: bool) -> None:
    from .cli import _echo_json
    from .files import write_text
    from .report import render_markdown, render_summary
    from .wire import dumps, to_wire

    if output is not None:
        write_text(output, dumps(report, indent=2) + "\n")
    if markdown is not None:
        write_text(markdown, render_markdown(report, bench))
    if as_json:
        summary = to_wire(report)
        del summary["rows"]
        _echo_json(summary)
    else:
        click.echo(render_summary(report, bench), nl=False)


def error_breakdown(rows: list[RunRow]) -> str:
    """Errored rows per error code, most frequent first, with one example reason each."""
    counts: Counter[str] = Counter()
    example: dict[str, str] = {}
    for row in rows:
        if row.error is None:
            continue
        code = row.error_code or "ERROR"
        counts[code] += 1
        example.setdefault(code, row.error)
    lines = [f"errored rows by cause ({sum(counts.values())}):"]
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {count:>5}  {code}  e.g. {example[code][:160]}")
    return "\n".join(lines)


class ProgressLine:
    """One line on stderr (a terminal only): done/total, rate, elapsed, ETA, errored rows, tokens
    and dollars so far. Redrawn at most ten times a second; `--json` output on stdout is untouched."""

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._drawn = 0.0
        self._shown = False
        self._first_done: Optional[int] = None
        self._errored = 0
        self._usage = Usage()

    def update(self, done: int, total: int, row: RunRow) -> None:
        if self._first_done is None:
            self._first_done = done - 1  # rows kept from a journal do not count towards the rate
        self._errored += row.error is not None
        self._usage = self._usage + row.usage
        now = time.monotonic()
        if done < total and now - self._drawn < 0.1:
            return
        self._drawn = now
        sys.stderr.write("\r\x1b[K" + self.render(done, total, now - self._start))
        sys.stderr.flush()
        self._shown = True

    def render(self, done: int, total: int, elapsed: float) -> str:
        sent = done - (self._first_done or 0)
        rate = sent / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        parts = [
            f"{done}/{total}",
            f"{rate:.1f} tasks/s",
            f"elapsed {_clock(elapsed)}",
            f"ETA {_clock(eta) if eta is not None else '--:--'}",
            f"{self._errored} errored",
            f"{self._usage.total_tokens:,} tokens",
        ]
        if self._usage.cost_usd is not None:
            parts.append(f"${self._usage.cost_usd:.4f}")
        return " | ".join(parts)

    def close(self) -> None:
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"
