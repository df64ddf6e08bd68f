"""A run's files, named and written in one place, and the saved reports the CLI reads back.

`RunFiles` names a run's report, the journal beside it, and the report and journal of each of its
shards; `write_atomic` is the one way a report (or any other output file) reaches the disk; and
`read_report` and friends read saved reports (strict JSON, `benchmark_core._util.json_values.loads`:
a `NaN` in a report would come back as a report no surface could write).

`write_atomic` (in `benchmark_core._util.atomic`, so the response cache below the runner writes
through it too) leaves the previous file or none, never half of one, with the umask's mode.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from attrs import frozen

from .._model import RunReport
from .._util.atomic import write_atomic
from .._util.json_values import jsonl_lines, loads
from ..errors._base import UsageError
from ..errors._requests import InvalidJsonError
from ..errors._runs import OutputWriteError
from ..errors._usage import MissingFileError, UnreadableFileError
from ..wire._converter import from_wire
from ._shards import Shard

if TYPE_CHECKING:
    from ..stats._compare import Comparison


#: What a run's journal adds to its report's name (`report.json.journal.jsonl`).
JOURNAL_SUFFIX = ".journal.jsonl"


@frozen
class RunFiles:
    """The files of a run writing its report to `report`."""

    report: Path

    @classmethod
    def of(cls, report: Union[str, Path]) -> RunFiles:
        return cls(Path(report))

    @classmethod
    def of_journal(cls, journal: Union[str, Path]) -> RunFiles:
        """The run whose journal is `journal`."""
        journal = Path(journal)
        return cls(journal.with_name(journal.name.removesuffix(JOURNAL_SUFFIX)))

    @property
    def journal(self) -> Path:
        """`<report>.journal.jsonl`: every finished row, as it finishes (`runs._journal`)."""
        return self.report.with_name(self.report.name + JOURNAL_SUFFIX)

    def shard(self, shard: Shard) -> RunFiles:
        """The files of shard I of N of this run: `report.shard-I-of-N.json` beside `report.json`,
        so the shards of one run (on machines sharing its folder) never write the same file."""
        report = self.report
        return RunFiles(report.with_name(f"{report.stem}.shard-{shard.index}-of-{shard.count}{report.suffix}"))

    @property
    def shard_reports(self) -> str:
        """The glob pattern of this run's shard reports (`report.shard-*-of-*.json`)."""
        return f"{self.report.stem}.shard-*-of-*{self.report.suffix}"

    def write_report(self, report: RunReport, *, journaled: bool = True) -> None:
        """Write `report` (its wire form, indented) to `report`, whole or not at all. A failure is an
        `OutputWriteError` naming the file and, when the run was `journaled`, the rows safe in the
        journal."""
        text = report_text(report)
        if journaled:
            write_output(self.report, text, journal=self.journal, rows_safe=len(report.rows))
        else:
            write_output(self.report, text, journal=None, rows_safe=0)


def write_output(path: Path, text: str, *, journal: Optional[Path], rows_safe: int) -> None:
    """Write a run's report (or another file of its output, like its Markdown) with `write_atomic`.
    A failure is an `OutputWriteError` naming the file and the rows safe in the journal."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise write_failed(path, exc, journal, rows_safe) from None


def write_failed(path: Path, exc: OSError, journal: Optional[Path], rows_safe: int) -> OutputWriteError:
    """The error of a journal or report that could not be written: the file, the reason, and how
    many finished rows the journal holds (a resumed run keeps them and sends only the rest)."""
    reason = exc.strerror or str(exc)
    safe = f"{rows_safe} finished row{'s' if rows_safe != 1 else ''} are safe in {journal}" if journal else "no journal"
    return OutputWriteError(f"cannot write {path}: {reason}; {safe}")


def report_text(report: RunReport) -> str:
    """A report file's text: the report's wire form, indented by two, and a final newline."""
    from ..wire._converter import dumps

    return dumps(report, indent=2) + "\n"


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
        from ..stats._compare import Comparison

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
