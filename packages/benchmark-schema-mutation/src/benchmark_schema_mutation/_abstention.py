"""Grading the requests that must not become a call (`mutationKind: "noCall"`), and the grader's
entry point for every kind of task.

On a noCall task the answer passes only when it declines (`_extract.declined`): the decline object
in prompt mode, no tool call in native mode. A call of any kind fails (`unexpectedCall`; the
details say whether it was the pre-migration call). An answer holding neither a call nor a decline
fails as a format error (`noToolCall`), and an empty answer as `emptyAnswer`: neither is ever
counted as an abstention.
"""

from __future__ import annotations

from benchmark_core import GradeContext, Task, TaskScore, Trace

from ._drift import DRIFT, grade_drift
from ._extract import declined
from ._grader import (
    DECLINED,
    EMPTY_ANSWER,
    NO_TOOL_CALL,
    UNEXPECTED_CALL,
    _is_empty,
    _tool_names,
    _verdict,
    call_difference,
    grade_call,
    schema_check,
    stale_signals,
    submitted_calls,
)
from ._no_call import NO_CALL


def grade_no_call(task: Task, trace: Trace) -> TaskScore:
    """Grade a noCall task: pass on a decline, fail on a call, a format error or nothing."""
    why = declined(trace)
    if why is not None:
        reason = f"the answer declined ({why[:120]}); no call is right: {_explanation(task)}"
        return _verdict(task, DECLINED, reason, right_decline=True)
    if _is_empty(trace):
        return _verdict(task, EMPTY_ANSWER, "no answer text and no tool calls (an empty answer is not a decline)")
    names = _tool_names(task)
    calls = submitted_calls(trace, names)
    if not calls:
        return _verdict(
            task,
            NO_TOOL_CALL,
            'the answer holds neither a call nor the decline object {"decline": "..."}: a format error, '
            "not an abstention",
        )
    call = calls[-1]
    stale = task.metadata.get("staleCall")
    is_stale = isinstance(stale, dict) and call_difference(stale, call) is None
    reason = f"{call.name} was called, but no call is right: {_explanation(task)}"
    if is_stale:
        reason += f" (the call is exactly what schema {task.metadata.get('previousVersion', '?')} asked for)"
    return _verdict(
        task,
        UNEXPECTED_CALL,
        reason,
        call=call,
        signals=stale_signals(task, call, names),
        schema_error=schema_check(task.tools, call),
        several={"distinctCalls": len(calls), "anotherCallMatched": False},
    )


def _explanation(task: Task) -> str:
    return str(task.metadata.get("mutation", "the request cannot be carried out under the current schema"))


def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    """The benchmark's grader: drift episodes by replay of their tool log, noCall tasks by
    `grade_no_call`, every other task by `grade_call`."""
    kind = task.metadata.get("mutationKind")
    if task.kind == "episode" or kind == DRIFT:
        return grade_drift(task, trace, ctx)
    if kind == NO_CALL:
        return grade_no_call(task, trace)
    return grade_call(task, trace)
