"""What a terminal shows of a sweep: one progress line per cell and one overall line on stderr,
redrawn in place at most ten times a second (`run`'s progress line, once per cell)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from .._model import RunRow
from ..sweep._sweep import CellOutcome, SweepObserver
from .progress import ProgressLine, clock

if TYPE_CHECKING:
    from ..sweep._plan import Cell


class SweepNotes(SweepObserver):
    """Without a terminal: no progress lines, only what the runs say about how they resumed."""

    def note(self, cell: Cell, text: str) -> None:
        sys.stderr.write(f"{cell.name}: {text}\n")

    def close(self) -> None:
        return None


class SweepProgress(SweepObserver):
    def __init__(self, cells: list[Cell]) -> None:
        self._start = time.monotonic()
        self._names = [cell.name for cell in cells]
        self._width = max((len(name) for name in self._names), default=0)
        self._lines = {name: ProgressLine() for name in self._names}
        self._counts = {name: (0, 0) for name in self._names}
        self._status: dict[str, str] = {}
        self._drawn_at = 0.0
        self._drawn_lines = 0

    def started(self, cell: Cell, done: int, total: int) -> None:
        self._counts[cell.name] = (done, total)

    def row(self, cell: Cell, done: int, total: int, row: RunRow) -> None:
        self._counts[cell.name] = (done, total)
        self._lines[cell.name].count(done, row)
        self._draw()

    def finished(self, outcome: CellOutcome) -> None:
        report = outcome.report
        mean = f" | mean {report.mean * 100:.1f}%" if report is not None else ""
        self._status[outcome.cell.name] = f"{outcome.status}{mean}"
        self._draw(force=True)

    def note(self, cell: Cell, text: str) -> None:
        sys.stderr.write(f"\x1b[K{cell.name}: {text}\n")
        self._drawn_lines = 0  # drawn again below the note

    def close(self) -> None:
        self._draw(force=True)

    def render(self, now: float) -> list[str]:
        lines = []
        for name in self._names:
            done, total = self._counts[name]
            figures = self._lines[name].render(done, total, now - self._start)
            status = self._status.get(name)
            shown = f"{status} | {done}/{total}" if status is not None else figures
            lines.append(f"{name:<{self._width}}  {shown}")
        rows = sum(done for done, _ in self._counts.values())
        total = sum(total for _, total in self._counts.values())
        lines.append(
            f"sweep: {len(self._status)}/{len(self._names)} cells finished | {rows}/{total} rows | "
            f"elapsed {clock(now - self._start)}"
        )
        return lines

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        up = f"\x1b[{self._drawn_lines}F" if self._drawn_lines else ""
        lines = self.render(now)
        sys.stderr.write(up + "".join(f"\x1b[K{line}\n" for line in lines))
        sys.stderr.flush()
        self._drawn_lines = len(lines)
