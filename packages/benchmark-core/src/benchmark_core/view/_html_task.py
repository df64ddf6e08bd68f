"""A task's page (`g/<group>/tasks/<task>.html`): the prompt and the expected answer, then every
model of the group side by side, in rank order: its status and score, its answer (or, for an
episode, its transcript and tool log, as the run page shows them), the grader's reason and its
details, where the fields whose values differ between models are marked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from .._model import RunRow, Task
from ..reports._html_page import e, fact_list, json_block, page, t
from ..reports._html_shared import SharedBlocks
from ..reports._html_tasks import _episode, _status, _text
from ..sweep._leaderboard_markdown import group_title
from ._html_common import VIEW_CSS, href, trail
from ._paths import group_page, run_page, task_page

if TYPE_CHECKING:
    from ._catalog import GroupView, RunFile

__all__ = ["render_view_task"]


def render_view_task(
    view: GroupView, task_id: str, task: Optional[Task], rows: Sequence[tuple[RunFile, Sequence[RunRow]]]
) -> str:
    here = task_page(view.id, task_id)
    labels = view.task_groups.get(task_id, {})
    facts = [("task", task_id), *((dimension, group) for dimension, group in labels.items())]
    if task is not None:
        facts.insert(1, ("kind", task.kind))
        question = (
            f'<section id="prompt"><h2>Prompt</h2><pre class="prompt">{t(task.prompt)}</pre>'
            f'<h2>Expected answer</h2><div id="expected">{json_block(task.expected)}</div></section>'
        )
    else:
        question = (
            '<p class="note" id="prompt">The prompt is not in the task files this benchmark ships (or the '
            "benchmark is not installed here).</p>"
        )
    differing = _differing([row for _, run_rows in rows for row in run_rows])
    columns = "".join(_column(here, view, run, run_rows, differing) for run, run_rows in rows)
    body = (
        VIEW_CSS
        + trail(here, [(group_title(view.group), group_page(view.id)), (task_id, None)])
        + f"<header><h1><code>{e(task_id)}</code></h1>{fact_list(facts)}</header>"
        + question
        + f'<section id="answers"><h2>Models side by side</h2><div class="side">{columns}</div></section>'
    )
    return page(f"{view.group.benchmark}: {task_id}", body, "")


def _column(here: str, view: GroupView, run: RunFile, rows: Sequence[RunRow], differing: set[str]) -> str:
    link = f'<a href="{href(here, run_page(view.id, run.slug))}">{e(run.label)}</a>'
    if not rows:
        return (
            f'<section class="model" data-label="{e(run.label)}"><h3>{link}</h3>'
            '<p class="note">No row for this task.</p></section>'
        )
    blocks = SharedBlocks()  # nothing counted: every block is written in place
    parts = [f'<section class="model" data-label="{e(run.label)}"><h3>{link}</h3>']
    for row in rows:
        status = _status(row)
        epoch = f"epoch {row.epoch}: " if row.epoch is not None else ""
        parts.append(
            f'<p class="verdict-row" data-status="{status}">{e(epoch)}<span class="status {status}">{status}</span>'
            f" score {row.score:.2f}</p>"
        )
        if row.episode is None:
            answer = row.trace.answer
            parts.append(
                f'<h4>Answer</h4><pre class="answer">{t(_text(answer))}</pre>'
                if answer is not None
                else '<p class="note">No final answer.</p>'
            )
        if row.error is not None:
            code = f"<b>{t(row.error_code)}</b> " if row.error_code else ""
            parts.append(f'<h4>Error</h4><p class="error">{code}{t(row.error)}</p>')
        parts.append(f'<h4>Grader</h4><p class="reason">{t(row.reason)}</p>{_fields(row.details, differing)}')
        if row.episode is not None:
            parts.append(_episode(row, row.episode, blocks))
    parts.append("</section>")
    return "".join(parts)


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _differing(rows: Sequence[RunRow]) -> set[str]:
    """The details fields whose values are not the same in every graded row (a field one graded row
    lacks differs). Errored rows are left out: they hold no details, so they would mark every field."""
    graded = [row for row in rows if row.error is None]
    keys = {key for row in graded for key in row.details}
    return {key for key in keys if len({_compact(row.details.get(key)) for row in graded}) > 1}


def _fields(details: dict[str, Any], differing: set[str]) -> str:
    if not details:
        return ""
    rows = "".join(
        f'<tr data-field="{e(key)}"{" class=differs" if key in differing else ""}><th scope="row">{e(key)}</th>'
        f"<td>{json_block(value) if isinstance(value, (dict, list)) else t(_compact(value))}</td></tr>"
        for key, value in details.items()
    )
    return f'<table class="fields"><caption>details</caption><tbody>{rows}</tbody></table>'
