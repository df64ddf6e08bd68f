"""The run report as one self-contained HTML page (`render_report_html`, what `html` writes).

This module writes the page's top half: the header with the run's facts (and a banner when the run
is incomplete), the headline mean with its 95% interval drawn, per-group means and the benchmark's
own summary as bar tables. The task table below them, with each task's details and the script that
unfolds, filters, searches and sorts it, is `html_tasks`; the long values several rows share are
written once at the end (`html_shared`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._model import RunReport, Task
from ._html_page import Axis, bar_table, e, fact_list, interval_svg, json_block, number, page, percent, words
from ._html_tasks import TASK_TABLE_JS, count_blocks, task_table
from ._report import epochs_line, interval_method, setting_text

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

__all__ = ["render_report_html"]


def render_report_html(
    report: RunReport,
    benchmark: Optional[Benchmark] = None,
    tasks: Sequence[Task] = (),
    *,
    trail: str = "",
    task_href: Optional[Callable[[str], str]] = None,
) -> str:
    """The run report as one HTML page: header (with a banner when the run is incomplete), the
    headline with its 95% CI drawn, per-group means and the benchmark's own summary as bar tables,
    and a task table (filter by status, group and text; sort by any column) where each task unfolds
    to its prompt (from `tasks`, when the task is there), the answer, the error, the grader's
    reason and details, and for episodes the transcript, the tool log with each call's result, the
    replay verdict and the final state. The same report gives the same bytes.

    The results browser (`view`) adds a `trail` of links above the header, and `task_href`, the
    link of each task's own page (every model's answer to it), next to each task id."""
    prompts = {task.id: task for task in tasks}
    name = benchmark.name if benchmark is not None else report.benchmark
    blocks = count_blocks(report.rows, prompts)
    sections = [
        trail,
        _header(report, name),
        _incomplete_banner(report),
        _headline(report),
        _groups_section(report),
        _summary_section(report.summary, report.totals.tasks),
        task_table(report, prompts, blocks, task_href),
        blocks.section(),
    ]
    title = f"{name}: {report.model} ({report.provider})"
    return page(title, "".join(s for s in sections if s), TASK_TABLE_JS)


# -- header and headline ---------------------------------------------------------------------------


def _header(report: RunReport, name: str) -> str:
    facts = [
        ("benchmark", f"{report.benchmark} {report.version}"),
        ("model", report.model),
        ("provider", report.provider),
        ("mode", report.mode),
        ("seed", str(report.seed)),
    ]
    if report.epochs > 1:
        facts.append(("epochs", str(report.epochs)))
    facts += [("started", report.started_at or "-"), ("finished", report.finished_at or "-")]
    if report.generation:
        settings = ", ".join(f"{key} {setting_text(value)}" for key, value in report.generation.items())
        facts.append(("generation", settings))
    if report.served_by:
        facts.append(
            (
                "served by",
                "; ".join(
                    f"{entry.model or 'unknown model'}{f' via {entry.provider}' if entry.provider else ''} "
                    f"({entry.requests:,} requests)"
                    for entry in report.served_by
                ),
            )
        )
    if report.cache is not None:
        saved = report.cache.saved_cost_usd
        facts.append(
            (
                "cache",
                f"{report.cache.hits:,} requests answered from the cache"
                + (f" (${saved:,.4f} not spent)" if saved is not None else ""),
            )
        )
    return f"<header><h1>{e(name)}</h1>{fact_list(facts)}</header>"


def _incomplete_banner(report: RunReport) -> str:
    if report.complete:
        return ""
    return (
        '<p class="banner" id="incomplete" role="alert"><b>Incomplete run:</b> '
        f"{e(report.stopped or 'stopped early')}. This report holds the {len(report.rows):,} rows that "
        "finished; tasks that never ran are in neither the table nor the mean.</p>"
    )


def _method(report: RunReport) -> str:
    method = interval_method(report)
    return f' <span class="method" id="interval-method">{e(method)}</span>' if method is not None else ""


def _headline(report: RunReport) -> str:
    totals, usage, ci = report.totals, report.usage, report.confidence_interval95
    errored = totals.failed
    failed = totals.tasks - totals.passed - errored
    spent = f"${usage.cost_usd:,.4f}" if usage.cost_usd is not None else "not reported"
    completed = [row.score for row in report.rows if row.error is None]
    note = ""
    if errored and completed:
        note = (
            f'<p class="note">Errored rows count as 0; the mean over the {len(completed):,} completed rows is '
            f"{percent(sum(completed) / len(completed))}.</p>"
        )
    epochs = epochs_line(report)
    label = f"mean {percent(report.mean)}, 95% confidence interval {percent(ci.low)} to {percent(ci.high)}"
    rows_word = "rows" if report.epochs > 1 else "tasks"
    return (
        '<section class="headline"><h2>Result</h2>'
        f'<p class="mean"><span id="mean">{percent(report.mean)}</span> mean score '
        f'<span class="ci">95% CI {percent(ci.low)} to {percent(ci.high)}</span>{_method(report)}</p>'
        f"{interval_svg(report.mean, ci.low, ci.high, Axis.share(), label)}"
        '<ul class="counts">'
        f'<li><b id="count-tasks">{totals.tasks}</b> {rows_word}</li>'
        f'<li class="passed"><b>{totals.passed}</b> passed</li>'
        f'<li class="failed"><b>{failed}</b> failed</li>'
        f'<li class="errored"><b>{errored}</b> errored</li>'
        f"<li><b>{usage.prompt_tokens:,}</b> prompt and <b>{usage.completion_tokens:,}</b> completion tokens</li>"
        f"<li>cost <b>{e(spent)}</b></li></ul>"
        + (f'<p class="epochs" id="epochs">{e(report.epochs)} epochs: {e(epochs)}</p>' if epochs else "")
        + note
        + "</section>"
    )


# -- groups and the benchmark's summary ------------------------------------------------------------


def _groups_section(report: RunReport) -> str:
    """Macro means per task group, one bar table per dimension. With JavaScript, a click on a group
    filters the task table to it."""
    if not report.groups:
        return ""
    tables = []
    for dimension, by_group in report.groups.items():
        rows = [(group, [str(stats.tasks)], stats.mean) for group, stats in by_group.items()]
        attrs = [f' data-group="{e(f"{dimension}={group}")}"' for group in by_group]
        tables.append(bar_table(f"by {words(dimension)}", ["group", "tasks"], "mean", rows, row_attrs=attrs))
    return (
        '<section class="groups" id="groups"><h2>Per group</h2>'
        '<p class="note">Macro means: each task weighs the same within its group.</p>' + "".join(tables) + "</section>"
    )


def _summary_section(summary: Mapping[str, Any], tasks: int) -> str:
    """The benchmark's own summary fields: per-kind breakdowns and counts as bar tables, rates and
    other figures as a list."""
    figures: list[str] = []
    tables: list[str] = []
    for key, value in summary.items():
        label = words(key)
        if _is_breakdown(value):
            columns = sorted({k for stats in value.values() for k in stats}, key=_breakdown_order)
            shown = [c for c in columns if c not in ("tasks", "passed")]
            rows = []
            for group, stats in value.items():
                total = stats.get("tasks")
                passed = stats.get("passed")
                share = passed / total if isinstance(passed, (int, float)) and total else None
                cells = [number(total), number(passed)] + [number(stats.get(c)) for c in shown]
                rows.append((str(group), cells, share))
            tables.append(bar_table(label, ["group", "tasks", "passed", *shown], "pass rate", rows))
        elif _is_counts(value):
            largest = max([tasks, *value.values()]) or 1
            rows = [(str(k), [number(v)], v / largest) for k, v in value.items()]
            tables.append(bar_table(label, ["", f"of {tasks} tasks"], "share", rows))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            rate = (key.lower().endswith(("rate", "mean"))) and 0 <= value <= 1
            figures.append(f"<div><dt>{e(label)}</dt><dd>{e(percent(value) if rate else number(value))}</dd></div>")
        else:
            figures.append(f"<div><dt>{e(label)}</dt><dd>{json_block(value)}</dd></div>")
    if not figures and not tables:
        return ""
    listed = f'<dl class="facts">{"".join(figures)}</dl>' if figures else ""
    return f'<section class="summary"><h2>Benchmark summary</h2>{listed}{"".join(tables)}</section>'


def _is_breakdown(value: Any) -> bool:
    """{group: {"tasks": n, ...numbers}}, like schema-mutation's perMutationKind."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, dict) and isinstance(v.get("tasks"), int) for v in value.values())
    )


def _is_counts(value: Any) -> bool:
    """{name: number}, like rollback-recovery's subscores."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values())
    )


def _breakdown_order(column: str) -> tuple[int, str]:
    return ({"tasks": 0, "passed": 1}.get(column, 2), column)
