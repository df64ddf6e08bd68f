"""`RunFiles`: the files of one run, named in one place: its report, the journal beside it, and the
report and journal of each of its shards; and `write_atomic`, the one way a report (or any other
output file) reaches the disk.

`write_atomic` writes a temporary file in the target's own folder, fsyncs it and renames it over the
target, so a full disk or a killed process leaves the previous file (or none), never half of one.
The temporary file is created with mode 0666, so the kernel applies the process's umask as it does
for any file an editor or `open()` creates (0644 under the usual umask 022), rather than the 0600 of
`tempfile.mkstemp`, which would make every report unreadable to the rest of a shared team.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from attrs import frozen

from .._errors import OutputWriteError
from .shards import Shard

if TYPE_CHECKING:
    from .._model import RunReport

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
        """`<report>.journal.jsonl`: every finished row, as it finishes (`_run.journal`)."""
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
    from .._model.wire import dumps

    return dumps(report, indent=2) + "\n"


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all (see the module docstring); `OSError` on failure,
    with no temporary file left behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    fd, tmp = _temporary(path)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file beside `path`, created with mode 0666 (the umask applies), open for writing."""
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
