"""One task's rows out of saved reports, without decoding whole reports each time: the first read
of a report notes where each of its rows starts and ends in the file's text (`RowIndex`); a task
page then decodes only its task's rows, one slice per report. A task page of 50 models on 792-task
reports reads in about a tenth of a second this way, against 2.7 s decoding every report.

The index is kept per file and its modification time, so a report rewritten (a resumed run, a
merge) is indexed again.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from .._model import RunRow
from .._util.json_values import loads
from ..wire._converter import from_wire

__all__ = ["RowIndex"]

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


class RowIndex:
    def __init__(self) -> None:
        self._spans: dict[tuple[str, int], dict[str, list[tuple[int, int]]]] = {}
        self._lock = threading.Lock()

    def rows(self, path: Path, task_id: str) -> list[RunRow]:
        """The rows of `task_id` in the report at `path`, in file order (one per epoch)."""
        text = path.read_text(encoding="utf-8-sig")
        key = (str(path), os.stat(path).st_mtime_ns)
        with self._lock:
            spans = self._spans.get(key)
            if spans is None:
                self._spans = {k: v for k, v in self._spans.items() if k[0] != key[0]}
                spans = self._spans[key] = _row_spans(text)
        return [from_wire(loads(text[a:b]), RunRow, what=f"row of {path}") for a, b in spans.get(task_id, [])]


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _row_spans(text: str) -> dict[str, list[tuple[int, int]]]:
    """Task id -> where each of its rows is in `text`, a report's JSON: the members of the top-level
    object are walked, and the elements of its `rows` array located one by one."""
    spans: dict[str, list[tuple[int, int]]] = {}
    at = _skip(text, 0)
    if text[at : at + 1] != "{":
        return spans
    at += 1
    while True:
        at = _skip(text, at)
        if text[at : at + 1] in ("}", ""):
            return spans
        key, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at) + 1  # the colon
        at = _skip(text, at)
        if key != "rows" or text[at : at + 1] != "[":
            _, at = _DECODER.raw_decode(text, at)
        else:
            at += 1
            while True:
                at = _skip(text, at)
                if text[at : at + 1] in ("]", ""):
                    at += 1
                    break
                row, end = _DECODER.raw_decode(text, at)
                if isinstance(row, dict):
                    spans.setdefault(str(row.get("taskId")), []).append((at, end))
                at = _skip(text, end)
                if text[at : at + 1] == ",":
                    at += 1
        at = _skip(text, at)
        if text[at : at + 1] == ",":
            at += 1
