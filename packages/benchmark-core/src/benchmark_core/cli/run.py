"""The `run` command. Its model, provider and run options are generated from the one declaration in
`benchmark_core.runs._options` (`run_options.py`); what is added here is only what belongs to a terminal:
where the report goes (`--output`, `--markdown`, `--json`), resuming from the journal, signals,
the progress line and the error breakdown (`progress.py`), and with `--batch` a line on stderr
each time a batch's state or counts change.

Exit codes: 0 complete without errored rows; 1 invalid usage; 2 a run with errored rows, or one
stopped by a fatal provider error or `--max-errors`; 130 after Ctrl+C and 143 after SIGTERM, with the
finished rows written as a partial report and the journal left resumable.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

import attrs
import click

from .._benchmark.definition import Benchmark
from .._model import PrivateSplitRecord, RunReport
from ..agents._defaults import DEFAULT_MEMORY, DEFAULT_PROCESSES, DEFAULT_TIMEOUT, SANDBOXES
from ..errors._base import EXIT_FAILURE, EXIT_SIGINT, EXIT_SIGTERM, UsageError
from ..errors._runs import OutputWriteError, RunStoppedError
from ..runs._options import RunOptions
from ..runs._target import RunTarget
from .base import CliState, command, continue_command, echo_json, markdown_option, path_option
from .progress import ProgressLine, error_breakdown
from .run_options import declared_options, options_from_cli

if TYPE_CHECKING:
    from ..adapters._batches import BatchStatus
    from ..agents._command import AgentCommand
    from ..runs._runner import Run
    from ..runs._selection import TaskSource

#: `--agent-memory` is in GiB, the seal's limit in bytes.
_GIB = 1024**3


@click.command("run")
@click.option(
    "--agent",
    "agent",
    metavar="'CMD ...'",
    default=None,
    is_eager=True,
    help="Run this agent command once per episode task instead of a model (--provider not needed; "
    "--model is then the agent's label, default: made from the command). It gets the prompt on stdin, "
    "the session's MCP config, URL and token in BENCHMARK_MCP_CONFIG, BENCHMARK_MCP_URL and "
    "BENCHMARK_MCP_TOKEN; its stdout is the answer. See docs/evaluating-agents.md.",
)
@click.option(
    "--agent-env",
    "agent_env",
    metavar="NAME",
    multiple=True,
    help="With --agent: pass this variable of the environment to the agent (repeatable); it gets only "
    "PATH, HOME, the locale and temporary-folder variables otherwise.",
)
@click.option(
    "--agent-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="With --agent: seconds one agent process may run before its process group is killed.",
)
@click.option(
    "--agent-sandbox",
    type=click.Choice(SANDBOXES),
    default="bwrap",
    show_default=True,
    help="With --agent: run each agent sealed by bubblewrap (no benchmark data, run files or runner "
    "processes in view; see docs/sealed-runs.md), or unsealed with 'none' (reports mark it).",
)
@click.option(
    "--agent-memory",
    metavar="GIB",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_MEMORY / _GIB,
    show_default=True,
    help="With --agent, sealed: each agent process's data-memory limit in GiB.",
)
@click.option(
    "--agent-processes",
    metavar="N",
    type=click.IntRange(min=1),
    default=DEFAULT_PROCESSES,
    show_default=True,
    help="With --agent, sealed: processes an agent may have alive at once; over it, it is killed.",
)
@declared_options(RunTarget)
@declared_options(RunOptions)
@click.option("--no-cache", is_flag=True, help="Send every request, reading and writing no response cache.")
@path_option(
    "--output",
    help="Write the full JSON report (with every row) here, and journal each finished row to "
    "OUTPUT.journal.jsonl as it finishes.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the run journaled beside --output: keep its rows and send only the missing tasks "
    "(errored rows are kept too; add --retry-errored to send them again).",
)
@click.option(
    "--retry-errored",
    is_flag=True,
    help="With --resume: also send again the tasks whose journaled rows errored.",
)
@click.option(
    "--hidden-seed-env",
    "hidden_seed_env",
    metavar="NAME",
    default=None,
    help="Run a private hidden split generated in memory from the integer in the environment variable "
    "NAME (no task file is written; the report records the split and its digest, never the seed). "
    "--tasks then names the hidden split (default: hidden). See docs/private-splits.md.",
)
@markdown_option()
@command(
    tasks_help="Use this JSONL task file instead of the benchmark's own tasks, or a split it ships, by name "
    "(`full` for its tasks-full.jsonl, `extended`, ...; a name it lacks is refused with the list of its splits). "
    "With --hidden-seed-env: which hidden split to draw (hidden, or hidden-full where the benchmark has it)."
)
@click.pass_obj
def run_cmd(
    state: CliState,
    /,
    output: Optional[Path],
    markdown: Optional[Path],
    resume: bool,
    retry_errored: bool,
    no_cache: bool,
    as_json: bool,
    tasks_path: Optional[Path],
    agent: Optional[str],
    agent_env: tuple[str, ...],
    agent_timeout: float,
    agent_sandbox: str,
    agent_memory: float,
    agent_processes: int,
    hidden_seed_env: Optional[str],
    **values: Any,
) -> None:
    """Run the benchmark against a model (or with --agent, an agent command) and print the summary.

    With --json the report is printed without its rows (use --output for the full report).
    Exits 2 when any task errored or the run was stopped (the report is still written), 130 after
    Ctrl+C and 143 after SIGTERM (the finished rows are kept; continue with --resume).
    """
    from ..runs._files import check_writable

    if (resume or retry_errored) and output is None:
        raise UsageError("--resume and --retry-errored continue the run journaled beside --output; give --output")
    if retry_errored and not resume:
        raise UsageError("--retry-errored needs --resume")
    if agent is not None and values.get("provider") is not None:
        raise UsageError("--agent runs an agent command, not a provider's model; leave --provider out")
    target, options = options_from_cli(values, no_cache=no_cache)
    seal = {"sandbox": agent_sandbox, "memory": round(agent_memory * _GIB), "processes": agent_processes}
    subject = _subject(target, agent, agent_env, agent_timeout, seal)
    for path in (output, markdown):
        if path is not None:
            check_writable(path)
    source, private, journal_extra = _task_source(state.benchmark, tasks_path, hidden_seed_env, output, resume)
    with _output_held(output):
        if resume and output is not None:
            _say_when_nothing_to_resume(output)
        try:
            report, signum, stopped = _run(
                state.benchmark, subject, options, source, output, resume, retry_errored, journal_extra
            )
            if private is not None:
                report = attrs.evolve(report, private_split=private)
            write_report(report, state.benchmark, output, markdown, as_json)
        except OutputWriteError as exc:
            raise OutputWriteError(f"{exc.message}; make room and continue with: {continue_command()}") from None
        _finish(report, output, signum, stopped)


@contextlib.contextmanager
def _output_held(output: Optional[Path]) -> Iterator[None]:
    """The lock on the output's journal, from before the run starts until its report is written:
    a second process on the same output is refused at once (`OutputLockedError`), before it sends."""
    from ..runs._files import RunFiles
    from ..runs._output_lock import lock_output

    lock = lock_output(RunFiles(output).journal) if output is not None else None
    try:
        yield
    finally:
        if lock is not None:
            lock.release()


def _say_when_nothing_to_resume(output: Path) -> None:
    """`--resume` beside an output with no journal starts over: say so, rather than silently. Here,
    not in the runner, because a sweep resumes every cell without being asked."""
    from ..runs._files import RunFiles
    from ..runs._output_lock import holds_a_run

    journal = RunFiles(output).journal
    if not holds_a_run(journal):
        click.echo(f"no journal at {journal} to resume: the run starts from its first task", err=True)


def _task_source(
    bench: Benchmark, tasks_path: Optional[Path], hidden_seed_env: Optional[str], output: Optional[Path], resume: bool
) -> tuple[TaskSource, Optional[PrivateSplitRecord], dict[str, Any]]:
    """The run's tasks: `--tasks` as given, or with `--hidden-seed-env` the hidden split it names,
    generated in memory (`runs._private_split`), what the report records of it and what the journal
    does. `--resume` of a private run needs no `--hidden-seed-env`: its journal names the variable."""
    from ..runs._private_split import journal_header, journaled_split, private_split

    if hidden_seed_env is None and resume and output is not None:
        from ..runs._files import RunFiles

        journaled = journaled_split(RunFiles(output).journal)
        if journaled is not None:
            hidden_seed_env, tasks_path = journaled[1], tasks_path or Path(journaled[0])
            click.echo(f"resuming a run on the private {tasks_path} split, seeded from ${hidden_seed_env}", err=True)
    if hidden_seed_env is None:
        return tasks_path, None, {}
    split = private_split(bench, str(tasks_path) if tasks_path is not None else None, hidden_seed_env)
    return list(split.tasks), split.record, journal_header(split.record, hidden_seed_env)


def _subject(
    target: RunTarget, agent: Optional[str], agent_env: tuple[str, ...], agent_timeout: float, seal: dict[str, Any]
) -> Union[RunTarget, AgentCommand]:
    """What the run evaluates: the model `target` names, or the agent command."""
    if agent is None:
        if agent_env:
            raise UsageError("--agent-env needs --agent")
        return target
    from ..agents._command import AgentCommand

    return AgentCommand(agent, label=target.model or "", env=agent_env, timeout=agent_timeout, **seal)


def _run(
    bench: Benchmark,
    subject: Union[RunTarget, AgentCommand],
    options: RunOptions,
    tasks: TaskSource,
    output: Optional[Path],
    resume: bool,
    retry_errored: bool,
    journal_extra: dict[str, Any],
) -> tuple[RunReport, Optional[int], Optional[RunStoppedError]]:
    """The run to its end: its report, the signal that ended it (if one did), the stop (if any)."""
    from ..runs._files import RunFiles
    from ..runs._runner import Run

    line = ProgressLine() if sys.stderr.isatty() else None
    common: dict[str, Any] = {
        "tasks": tasks,
        "journal": RunFiles(output).journal if output is not None else None,
        "journal_extra": journal_extra,
        "resume": resume,
        "retry_errored": retry_errored,
        "progress": line.update if line is not None else None,
        "notes": lambda text: click.echo(text, err=True),
    }
    run: Run
    if isinstance(subject, RunTarget):
        run = Run(bench, subject.adapter(options.seed, benchmark=bench), options, batch_progress=batch_status, **common)
    else:
        from ..agents._agent_run import AgentRun

        run = AgentRun(bench, subject, options, **common)
    try:
        report, signum = asyncio.run(_execute(run))
        return report, signum, None
    except RunStoppedError as exc:
        return exc.report, None, exc
    finally:
        if line is not None:
            line.close()


def batch_status(status: BatchStatus) -> None:
    """A batch's state and counts on stderr, each time they change (batches take minutes to hours)."""
    click.echo(status.describe(), err=True)


def _finish(
    report: RunReport, output: Optional[Path], signum: Optional[int], stopped: Optional[RunStoppedError]
) -> None:
    """Tidy the journal and exit with the run's outcome (0 when it completed without errored rows)."""
    from ..runs._files import RunFiles

    if output is not None and report.complete and not report.totals.failed:
        # The report now holds every row; only an incomplete run or errored rows (for
        # --retry-errored) leave something to resume.
        RunFiles(output).journal.unlink(missing_ok=True)
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
        # The journal keeps the errored rows, and a plain --resume keeps them too: say what resends them.
        again = (
            f"; send them again with: {continue_command('--resume', '--retry-errored')}" if output is not None else ""
        )
        click.echo(f"error: {report.totals.failed} of {report.totals.tasks} tasks errored{again}", err=True)
        sys.exit(EXIT_FAILURE)


async def _execute(run: Run) -> tuple[RunReport, Optional[int]]:
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


def write_report(
    report: RunReport, bench: Benchmark, output: Optional[Path], markdown: Optional[Path], as_json: bool
) -> None:
    """Write the report (`--output`, `--markdown`) and print its summary, or with `--json` the report
    without its rows (`run` and `merge`)."""
    from ..reports._report import render_markdown, render_summary
    from ..runs._files import RunFiles, write_output
    from ..wire._converter import to_wire

    files = RunFiles(output) if output is not None else None
    if files is not None:
        files.write_report(report)
    if markdown is not None:
        journal, rows = (files.journal, len(report.rows)) if files is not None else (None, 0)
        write_output(markdown, render_markdown(report, bench), journal=journal, rows_safe=rows)
    if as_json:
        summary = to_wire(report)
        del summary["rows"]
        echo_json(summary)
    else:
        click.echo(render_summary(report, bench), nl=False)
