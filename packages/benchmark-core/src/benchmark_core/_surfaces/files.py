"""The files the CLI reads and writes besides task files: saved run reports, submission files and
the paths reports are written to.

Everything read is strict JSON (`benchmark_core._util.json_values.loads`): a `NaN` in a submission would reach a
grader and come back as a report no surface could write.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from attrs import frozen

from .._benchmark.submission import check_submission, parse_submission
from .._benchmark.taskfiles import jsonl_lines
from .._errors import (
    InvalidJsonError,
    InvalidSubmissionError,
    MissingFileError,
    TaskFileError,
    UnreadableFileError,
    UsageError,
)
from .._model import RunReport, Trace
from .._model.wire import from_wire
from .._util.json_values import loads

if TYPE_CHECKING:
    from .._analysis.compare import Comparison


@frozen
class Submission:
    """One trace to grade against one task; `recorded_score` is what a saved report gave it, and
    `epoch` the row's epoch in a run of several (its replay uses that epoch's seed)."""

    task_id: str
    trace: Trace
    recorded_score: Optional[float] = None
    epoch: Optional[int] = None


def read_json(path: Path) -> Any:
    """A JSON document, or the values of a JSONL file (one per non-blank line) as a list."""
    try:
        # utf-8-sig: editors on Windows save a byte-order mark that is not part of the JSON.
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise MissingFileError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableFileError(f"cannot read {path}: {exc}") from None
    try:
        return loads(text)
    except ValueError as exc:
        document_error = exc
    values = []
    for number, line in jsonl_lines(text):
        try:
            values.append(loads(line))
        except ValueError as exc:
            if not values:
                # Not JSONL at all. A multi-line document's first line is rarely JSON by itself, so
                # the document's own error is the one that says where the mistake is.
                raise _not_json(path, document_error) from None
            raise _not_json(path, exc, number) from None
    return values


def read_report(path: Path) -> RunReport:
    """A saved run report. Its rows may be missing, so that `run --json` output (which has none)
    can be read as well."""
    report = read_report_or_comparison(path)
    if not isinstance(report, RunReport):
        raise UsageError(f"{path} is a comparison, not a run report")
    return report


def read_report_or_comparison(path: Path) -> Union[RunReport, Comparison]:
    """A saved run report, or a comparison (what `compare --json` prints: it has `differences` and
    no `rows`)."""
    data = read_json(path)
    if isinstance(data, dict) and "differences" in data and "rows" not in data:
        from .._analysis.compare import Comparison

        return from_wire(data, Comparison, what="comparison")
    if isinstance(data, dict):
        data.setdefault("rows", [])
    return from_wire(data, RunReport, what="run report")


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


def check_writable(path: Path) -> None:
    """Fail now, with a usage error, if `path` cannot be written: called before a run, so that a
    finished run is never lost to a mistyped output path."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the folder of {path}: {exc.strerror or exc}") from None
    if path.is_dir() or not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write {path}")


def write_text(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_output(path: Path, text: str, *, journal: Optional[Path], rows_safe: int) -> None:
    """Write a run's report (or another file of its output) whole or not at all: a temporary file
    beside it, then a rename, so a full disk leaves the previous file (or none), never half of one.
    A failure is an `OutputWriteError` naming the file and the rows safe in the journal."""
    from .._run.journal import write_failed

    tmp: Optional[str] = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise write_failed(path, exc, journal, rows_safe) from None


def _not_json(path: Path, exc: ValueError, line: Optional[int] = None) -> InvalidJsonError:
    if isinstance(exc, json.JSONDecodeError):
        return InvalidJsonError(f"{path}:{line or exc.lineno}: not JSON ({exc.msg})")
    return InvalidJsonError(f"{path}{f':{line}' if line else ''}: not JSON ({exc})")
