"""The files the CLI reads and writes besides task files: saved run reports and the paths reports
are written to (each written by `run_files.write_atomic`).

Everything read is strict JSON (`benchmark_core._util.json_values.loads`): a `NaN` in a report would
come back as a report no surface could write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from .._errors import (
    InvalidJsonError,
    MissingFileError,
    UnreadableFileError,
    UsageError,
)
from .._model import RunReport
from .._model.wire import from_wire
from .._util.json_values import jsonl_lines, loads
from .run_files import write_atomic

if TYPE_CHECKING:
    from .._stats.compare import Comparison


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
        from .._stats.compare import Comparison

        return from_wire(data, Comparison, what="comparison")
    if isinstance(data, dict):
        data.setdefault("rows", [])
    return from_wire(data, RunReport, what="run report")


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
    """Write an output file that is no run's report (a page, a card, a leaderboard) atomically
    (`write_atomic`); a failure is a usage error naming the file."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def _not_json(path: Path, exc: ValueError, line: Optional[int] = None) -> InvalidJsonError:
    if isinstance(exc, json.JSONDecodeError):
        return InvalidJsonError(f"{path}:{line or exc.lineno}: not JSON ({exc.msg})")
    return InvalidJsonError(f"{path}{f':{line}' if line else ''}: not JSON ({exc})")
