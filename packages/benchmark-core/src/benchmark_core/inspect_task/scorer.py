"""The scorer: the benchmark's own grader on the submission the solver kept.

The score's value is the grader's score; `explanation` is its reason (with why an episode stopped,
as the runner writes it); `metadata` holds `passed` and the grader's `details`. Episodes are graded
by the benchmark's replay of the recorded tool log, never by the state the agent left.
"""

from __future__ import annotations

import json
from typing import Optional

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, mean, metric, scorer, stderr
from inspect_ai.solver import TaskState

from .._model import Trace
from ..wire._converter import from_wire, to_wire
from .benchmarks import resolve_benchmark
from .solver import ABORT_KEY, TRACE_KEY


@metric
def pass_rate() -> Metric:
    """The share of samples whose grader said `passed` (a score can be partial without passing)."""

    def compute(scores: list[SampleScore]) -> float:
        if not scores:
            return 0.0
        return sum(1 for s in scores if (s.score.metadata or {}).get("passed") is True) / len(scores)

    return compute


@scorer(metrics=[mean(), stderr(), pass_rate()])
def benchmark_scorer(benchmark: str, seed: int = 1, tasks: Optional[str] = None) -> Scorer:
    """Grade the sample's submission with the grader of `benchmark` (an id), replaying with `seed`."""

    async def score(state: TaskState, target: Target) -> Score:
        bench = resolve_benchmark(benchmark)
        task = await bench.get_task(str(state.sample_id), tasks)
        stored = state.store.get(TRACE_KEY)
        # Nothing stored: the sample was stopped before its first answer; grade the empty submission.
        trace = from_wire(stored, Trace, what="submission") if stored is not None else Trace()
        verdict = await bench.grade(task, trace, bench.grade_context(seed))
        reason = verdict.reason
        abort = state.store.get(ABORT_KEY)
        if abort:
            reason = f"{reason} (episode aborted: {abort})"
        return Score(
            value=float(verdict.score),
            answer=_answer_text(trace),
            explanation=reason,
            metadata={"passed": verdict.passed, "details": to_wire(verdict.details)},
        )

    return score


def _answer_text(trace: Trace) -> Optional[str]:
    """What the log shows as the answer: the text, or the native tool calls as JSON."""
    if trace.tool_calls:
        return json.dumps(to_wire(trace.tool_calls), ensure_ascii=False)
    return trace.answer if isinstance(trace.answer, str) else None
