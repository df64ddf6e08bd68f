"""Documents rendered from a run or a benchmark: the Markdown report, the index entry, PROVENANCE.md.

Everything here is a pure function of its arguments: no clock, no locale, no environment. Benchmark
packages commit `provenance_markdown` output as `data/PROVENANCE.md` and their tests compare it byte
for byte, and the CLI prints `render_markdown` output, so the same input must give the same text on
every machine.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from .._model import TASK_KINDS, IndexEntry, Provenance, RunReport, RunRow, ServedCount, Task, Usage
from .._util.text import ends_kept, shorten

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

__all__ = ["index_entry", "provenance_markdown", "render_markdown", "render_summary"]

_CELL_LIMIT = 300
#: An errored row's message in the Errors section: whole, or its start and end beyond this.
_ERROR_LIMIT = 1000
_NEWLINES_RE = re.compile(r"\r\n|\r|\n")


def percent(value: float) -> str:
    """A fraction as a percentage with one decimal (0.5238 -> "52.4%"); "n/a" when not finite."""
    return f"{value * 100:.1f}%" if math.isfinite(value) else "n/a"


def _code(text: str) -> str:
    """Inline code that survives backticks in the text."""
    text = _one_line(text)
    if not text:
        return "(none)"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _one_line(text: str) -> str:
    return _NEWLINES_RE.sub(" ", text)


def _cell(text: str) -> str:
    """Table-cell text: one line, pipes escaped, long reasons shortened."""
    return shorten(_one_line(text).strip(), _CELL_LIMIT).replace("|", "\\|")


def _tokens(usage: Usage) -> str:
    """The token counts; the prompt cache's and reasoning counts only when the provider reported them."""
    cache = []
    if usage.cached_tokens is not None:
        cache.append(f"{usage.cached_tokens:,} read from the prompt cache")
    if usage.cache_write_tokens is not None:
        cache.append(f"{usage.cache_write_tokens:,} written to it")
    prompt = f"{usage.prompt_tokens:,} prompt" + (f" ({', '.join(cache)})" if cache else "")
    reasoning = f" ({usage.reasoning_tokens:,} reasoning)" if usage.reasoning_tokens is not None else ""
    return f"{prompt}, {usage.completion_tokens:,} completion{reasoning}"


def _dollars(cost: float) -> str:
    return f"${cost:,.4f}" if cost >= 0.01 or cost == 0 else f"${cost:.6f}"


def _passed(row: RunRow) -> str:
    if row.error is not None:
        return "error"
    return "yes" if row.passed else "no"


def _headline(report: RunReport, title: str) -> list[str]:
    """Title and the bullets every rendering of a run starts with."""
    ci = report.confidence_interval95
    lines = [f"# {_one_line(title)}", ""]
    if not report.complete:
        lines += [f"**Incomplete run: {_one_line(report.stopped or 'stopped early')}.**", ""]
    lines += [
        _model_line(report),
        f"- Score: {percent(report.mean)}{_completed_mean(report)}",
        f"- 95% CI: {percent(ci.low)}–{percent(ci.high)}" + _interval_note(report),
        _tasks_line(report),
        f"- Tokens: {_tokens(report.usage)}",
    ]
    if report.provider == "agent":  # whether its agent could have read what grades it
        lines.append(f"- Sandbox: {report.sandbox or 'none'}" + (" (unsealed)" if report.unsealed else ""))
    epochs = epochs_line(report)
    if epochs is not None:
        lines.append(f"- Epochs: {epochs}")
    if report.shard is not None:
        shard = report.shard
        lines.append(
            f"- Shard: {shard.index}/{shard.count} of a run of {shard.tasks} tasks (join the shards with `merge`)"
        )
    if report.private_split is not None:
        private = report.private_split
        lines.append(f"- Tasks from: the private split {_code(private.split)}, {_code(private.task_set_digest)}")
    if report.usage.cost_usd is not None:
        lines.append(f"- Cost: {_dollars(report.usage.cost_usd)}")
    saved = report.usage.cache_saved_usd
    if saved is not None:
        lines.append(f"- Prompt cache: {_dollars(saved) if saved >= 0 else '-' + _dollars(-saved)} saved")
    if report.batch is not None:
        saved = report.batch.saved_cost_usd
        lines.append(
            f"- Batch: {len(report.batch.batches)} {'batch' if len(report.batch.batches) == 1 else 'batches'} at "
            f"{percent(report.batch.discount)} off the direct price"
            + (f" ({_dollars(saved)} saved)" if saved is not None else "")
        )
    if report.truncated_rows:
        lines.append(f"- Truncated: {report.truncated_rows} rows with an answer cut off at the token limit")
    if report.generation:
        settings = ", ".join(f"{key} {setting_text(value)}" for key, value in report.generation.items())
        lines.append(f"- Generation: {_one_line(settings)}")
    if report.served_by:
        lines.append("- Served by: " + ", ".join(_served(entry) for entry in report.served_by))
    if report.cache is not None and report.cache.hits:
        saved = report.cache.saved_cost_usd
        lines.append(
            f"- Cache: {report.cache.hits:,} requests answered from the cache"
            + (f" ({_dollars(saved)} not spent)" if saved is not None else "")
        )
    return lines


def _model_line(report: RunReport) -> str:
    """Who answered: a model with its provider and answer mode, or an agent command (an agent has no
    answer mode: it plays the episode through its session's tools)."""
    if report.provider == "agent":
        return f"- Agent: {_code(report.model)}"
    return f"- Model: {_code(report.model)} ({_one_line(report.provider)}, {_one_line(report.mode)} mode)"


def _tasks_line(report: RunReport) -> str:
    totals = report.totals
    outcome = f"{totals.passed} passed, {totals.failed} errored"
    if report.epochs <= 1:
        return f"- Tasks: {totals.tasks} ({outcome})"
    tasks = len({row.task_id for row in report.rows}) if report.rows else totals.tasks // report.epochs
    return f"- Tasks: {tasks} × {report.epochs} epochs = {totals.tasks} rows ({outcome})"


def interval_method(report: RunReport) -> Optional[str]:
    """How a clustered interval was drawn ("resampling 12 baseSchema clusters, each with all its
    tasks"); None when it resampled tasks."""
    if report.clustered_by is None:
        return None
    return f"resampling {report.clusters or 0:,} {report.clustered_by} clusters, each with all its tasks"


def _interval_note(report: RunReport) -> str:
    method = interval_method(report)
    return f" ({_one_line(method)})" if method is not None else ""


def epochs_line(report: RunReport) -> Optional[str]:
    """pass@1, pass^k, pass@k and the flip rate of a run of several epochs, in one line."""
    if report.epochs <= 1 or report.pass_at1 is None:
        return None
    k = report.epochs
    return (
        f"pass@1 {percent(report.pass_at1)}, pass^{k} {percent(report.pass_hat_k or 0.0)}, "
        f"pass@{k} {percent(report.pass_at_k or 0.0)}, flip rate {percent(report.flip_rate or 0.0)}"
    )


def _completed_mean(report: RunReport) -> str:
    """With errored rows the headline counts them as 0 (as the original packages define the mean);
    the mean over the completed rows beside it shows how much that pulls the score down."""
    completed = [row.score for row in report.rows if row.error is None]
    if not report.totals.failed:
        return ""
    if not completed:
        return " (errored rows count as 0; no row completed)"
    mean = sum(completed) / len(completed)
    return f" (errored rows count as 0; {percent(mean)} over the {len(completed)} completed rows)"


def setting_text(value: object) -> str:
    """A generation setting as reports show it: objects and arrays as sorted JSON, the rest as text."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True) if isinstance(value, (dict, list)) else str(value)


def _served(entry: ServedCount) -> str:
    name = entry.model or "unknown model"
    via = f" via {entry.provider}" if entry.provider else ""
    return f"{_code(name)}{_one_line(via)} ({entry.requests:,} requests)"


def _groups_section(report: RunReport) -> str:
    """The macro mean of every task group the benchmark declares, one table for all dimensions."""
    if not report.groups:
        return ""
    lines = ["", "## Mean by task group", "", "| Dimension | Group | Tasks | Mean |", "| --- | --- | ---: | ---: |"]
    for dimension, groups in report.groups.items():
        for group, stats in groups.items():
            lines.append(f"| {_cell(dimension)} | {_cell(group)} | {stats.tasks} | {percent(stats.mean)} |")
    return "\n".join(lines) + "\n"


def _benchmark_section(report: RunReport, benchmark: Optional[Benchmark]) -> str:
    if benchmark is None or benchmark.summary_markdown is None:
        return ""
    extra = _NEWLINES_RE.sub("\n", benchmark.summary_markdown(report)).strip("\n")
    return "\n" + extra + "\n" if extra else ""


def render_summary(report: RunReport, benchmark: Optional[Benchmark] = None) -> str:
    """The short form `run` prints: title, model, score, interval, tasks, tokens, the mean of each
    task group, then the benchmark's own section (`summary_markdown`), without the task table."""
    title = benchmark.name if benchmark is not None else report.benchmark
    return "\n".join(_headline(report, title)) + "\n" + _groups_section(report) + _benchmark_section(report, benchmark)


def render_markdown(report: RunReport, benchmark: Optional[Benchmark] = None) -> str:
    """The run as Markdown: the summary bullets (plus seed, version and times), a task table, each
    errored row's code and message, the mean of each task group, then the benchmark's own section.

    The title is the benchmark's name when `benchmark` is given, else the report's benchmark id.
    Timestamps appear only when the report carries them; the output ends with exactly one newline.
    """
    title = benchmark.name if benchmark is not None else report.benchmark
    lines = _headline(report, title)
    lines += [f"- Seed: {report.seed}", f"- Version: {_one_line(report.version)}"]
    if report.started_at:
        lines.append(f"- Started: {_one_line(report.started_at)}")
    if report.finished_at:
        lines.append(f"- Finished: {_one_line(report.finished_at)}")
    lines.append("")
    if not report.rows:
        lines.append("No tasks were run.")
    else:
        lines += [
            "| Task | Score | Passed | Attempts | Latency | Reason |",
            "| --- | ---: | :---: | ---: | ---: | --- |",
        ]
    for row in report.rows:
        cells = [
            _cell(row.task_id),
            f"{row.score:.2f}",
            _passed(row),
            str(row.attempts),
            f"{row.latency_ms:,} ms",
            _cell(row.reason),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    sections = _errors_section(report) + _groups_section(report) + _benchmark_section(report, benchmark)
    return "\n".join(lines) + "\n" + sections


def _errors_section(report: RunReport) -> str:
    """Each errored row's code and message, in row order: the task table's reason column is cut to
    fit a cell, and what went wrong (a wrong key, an agent's last stderr lines) is at the end."""
    errored = [row for row in report.rows if row.error is not None]
    if not errored:
        return ""
    lines = ["", "## Errors", "", "| Task | Code | Message |", "| --- | --- | --- |"]
    for row in errored:
        task = row.task_id if row.epoch is None else f"{row.task_id} (epoch {row.epoch})"
        message = ends_kept(row.error or "", _ERROR_LIMIT).replace("|", "\\|")
        lines.append(f"| {_cell(task)} | {_cell(row.error_code or 'ERROR')} | {message} |")
    return "\n".join(lines) + "\n"


def index_entry(benchmark: Benchmark, tasks: Optional[Sequence[Task]] = None) -> IndexEntry:
    """The benchmark's record for a directory of benchmarks; `tasks` defaults to `benchmark.tasks()`.

    Pass `tasks` from inside an event loop, where the synchronous `benchmark.tasks()` cannot run.
    """
    task_list = list(benchmark.tasks()) if tasks is None else list(tasks)
    present = {task.kind for task in task_list}
    return IndexEntry(
        id=benchmark.id,
        name=benchmark.name,
        tagline=benchmark.tagline,
        version=benchmark.version,
        status=benchmark.status,
        category=benchmark.category,
        tags=list(benchmark.tags),
        what_it_measures=benchmark.what_it_measures,
        grading_method=benchmark.grading_method,
        task_count=len(task_list),
        task_kinds=[kind for kind in TASK_KINDS if kind in present],
        provenance=list(benchmark.provenance),
    )


def _block(text: str) -> str:
    """Text normalised for a byte-stable document: LF line ends, no trailing spaces, no edge blanks."""
    lines = [line.rstrip() for line in _NEWLINES_RE.split(text)]
    return textwrap.dedent("\n".join(lines)).strip("\n")


def _value(text: str, *, link: bool = False) -> str:
    """A field value inside a list item; continuation lines are indented to stay in the item."""
    body = _block(text)
    if not body:
        return "(not given)"
    if link and re.fullmatch(r"https?://\S+", body):
        return f"<{body}>"
    return "\n".join(line if not line else "  " + line for line in body.split("\n")).lstrip()


def _record(position: int, record: Provenance) -> list[str]:
    return [
        f"### {position}. {_one_line(record.name).strip()}",
        "",
        f"- Kind: {record.kind}",
        f"- URL: {_value(record.url, link=True)}",
        f"- Licence: {_value(record.licence)}",
        f"- How to get it: {_value(record.how_to_get)}",
        f"- Retrieved at: {_value(record.retrieved_at)}",
        f"- Contamination notes: {_value(record.contamination_notes)}",
        f"- Refresh: {_value(record.refresh)}",
        "",
    ]


def provenance_markdown(benchmark: Benchmark) -> str:
    """The benchmark's PROVENANCE.md: where its data comes from and how it is graded.

    Rendered only from the definition (name, id, what it measures, provenance records in order with
    their fields in a fixed order, grading method); nothing depends on the time, the machine or the
    version, so a committed copy stays valid until the records change. Ends with exactly one newline.
    """
    lines = [
        f"# Provenance: {_one_line(benchmark.name).strip()}",
        "",
        f"This file is generated from the definition of the benchmark `{benchmark.id}` by"
        " `benchmark_core.data.provenance_markdown`. Edit the definition, not this file.",
        "",
        "## What it measures",
        "",
        _block(benchmark.what_it_measures) or "(not given)",
        "",
        "## Sources",
        "",
    ]
    for position, record in enumerate(benchmark.provenance, start=1):
        lines += _record(position, record)
    lines += ["## Grading method", "", _block(benchmark.grading_method) or "(not given)"]
    return "\n".join(lines) + "\n"
