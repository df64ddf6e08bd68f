"""Submission files for `score`: JSON or JSONL of `{taskId, submission}` items, or a saved report
whose rows are graded again. Everything read is strict JSON: a `NaN` in a submission would reach a
grader and come back as a report no surface could write."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from attrs import frozen

from .._model import RunReport, Trace
from ..errors._base import UsageError
from ..errors._tasks import InvalidSubmissionError, TaskFileError
from ..runs._files import read_json
from ..wire._converter import from_wire
from ..wire._submission import check_submission, parse_submission


@frozen
class Submission:
    """One trace to grade against one task; `recorded_score` is what a saved report gave it, and
    `epoch` the row's epoch in a run of several (its replay uses that epoch's seed)."""

    task_id: str
    trace: Trace
    recorded_score: Optional[float] = None
    epoch: Optional[int] = None


def read_submissions(path: Path, benchmark_id: str) -> tuple[list[Submission], Optional[int]]:
    """The submissions in `path`, and the seed of the run when `path` is a saved report (which
    records a score for every submission) rather than JSON or JSONL of `{taskId, submission}` items.
    A report of another benchmark is refused by name."""
    data = read_json(path)
    if isinstance(data, dict) and "rows" in data:
        # Every trace is checked as a submission before the report is structured: a saved report
        # is as untrusted as any other file.
        if isinstance(data["rows"], list):
            for index, row in enumerate(data["rows"]):
                if isinstance(row, dict) and "trace" in row:
                    check_submission(row["trace"], path=f"$.rows[{index}].trace", what=f"{path}: trace")
        report = from_wire(data, RunReport, what="run report")
        if report.benchmark != benchmark_id:
            raise UsageError(f"{path} is a report of benchmark {report.benchmark!r}, not {benchmark_id!r}")
        return [Submission(row.task_id, row.trace, row.score, row.epoch) for row in report.rows], report.seed
    entries = data if isinstance(data, list) else [data]
    submissions: list[Submission] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("taskId"), str) or "submission" not in entry:
            raise InvalidSubmissionError(f'{path}: item {number} is not {{"taskId": str, "submission": {{...}}}}')
        trace = parse_submission(entry["submission"], path="$.submission", what=f"{path}: item {number}: submission")
        submissions.append(Submission(entry["taskId"], trace))
    if not submissions:
        raise TaskFileError(f"{path} holds no submissions")
    return submissions, None
