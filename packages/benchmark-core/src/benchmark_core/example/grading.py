"""The example's grader: numeric answers for arithmetic, replay for the refund episode."""

from __future__ import annotations

from .._model import Task, TaskScore, Trace
from ..episodes._episode import replay
from ..errors._tasks import InvalidSubmissionError
from ..graders._graders import numeric_within
from ..hooks._hooks import GradeContext


def grade(task: Task, trace: Trace, ctx: GradeContext) -> TaskScore:
    if task.kind == "single":
        return numeric_within(task.expected, 0, trace.answer)
    if ctx.environment is None:
        raise InvalidSubmissionError("the order episode needs its environment to grade")
    # Only the replayed log counts: a submitted final state could claim anything.
    replayed = replay(ctx.environment(), task, trace.tool_log or [], ctx.seed)
    order = replayed.final_state["orders"][0]
    refused = [e.error.code for e in replayed.tool_log if e.error is not None and e.error.code != "HTTP_500"]
    details = {"refunded": order["refunded"], "orderTotal": order["total"], "refusedCalls": refused}
    if order["refunded"] == order["total"] and not refused:
        return TaskScore(1.0, True, f"refunded ${order['total']:.2f} within policy", details)
    if order["refunded"] == order["total"]:
        return TaskScore(0.0, False, f"refunded in full but made refused calls: {', '.join(refused)}", details)
    return TaskScore(0.0, False, f"refunded ${order['refunded']:.2f} of ${order['total']:.2f}", details)
