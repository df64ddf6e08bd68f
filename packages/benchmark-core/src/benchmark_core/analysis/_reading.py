"""Run reports from files and folders, one document at a time (a results folder can hold more
reports than fit in memory at once)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Union

from ..errors._base import UsageError
from ..errors._usage import MissingFileError
from ..runs._files import read_json

#: A report file, or a folder whose `*.json` run reports are read (recursively, in path order).
ReportSource = Union[str, Path]
#: Keys every run report has (a `run --json` summary too, which has no rows).
_REPORT_KEYS = ("benchmark", "version", "model", "provider", "mean", "totals")


def walk_paths(sources: Iterable[ReportSource]) -> Iterator[tuple[Path, bool]]:
    """Each path, and whether it was named (True) or found in a folder (False)."""
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for found in sorted(path.rglob("*.json")):
                yield found, False
        elif path.exists():
            yield path, True
        else:
            raise MissingFileError(f"no such report or folder: {path}")


def report_paths(sources: Iterable[ReportSource]) -> list[Path]:
    """The files `sources` name: files as given, and every `*.json` below each folder, sorted."""
    return [path for path, _ in walk_paths(sources)]


def is_run_report(document: Any) -> bool:
    return isinstance(document, dict) and all(key in document for key in _REPORT_KEYS)


def iter_reports(sources: Iterable[ReportSource]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each run report's path and wire form (its JSON document), read when it is reached. A named
    file that is not a run report is an error; JSON in a folder that is not one (a comparison, a
    leaderboard) is passed over, and so is a shard's report (`run --shard`, `sweep --shard`) found in a
    folder: its rows are in the merged report beside it, and would count twice (name it to read it)."""
    for path, named in walk_paths(sources):
        document = read_json(path)
        if is_run_report(document):
            if named or not isinstance(document.get("shard"), dict):
                yield path, document
        elif named:
            raise UsageError(f"{path} is not a run report (it lacks {', '.join(_REPORT_KEYS)})")
