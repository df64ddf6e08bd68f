"""What a terminal shows of a run: the progress line and the breakdown of errored rows."""

from __future__ import annotations

import sys
import textwrap
import time
from collections import Counter
from typing import Optional

from .._model import RunRow, Usage
from .._util.text import ends_kept


def error_breakdown(rows: list[RunRow], width: int = 100) -> str:
    """Errored rows per error code, most frequent first, with one example reason each: whole, or its
    start and end when long, wrapped between words at `width` under the first line's text."""
    counts: Counter[str] = Counter()
    example: dict[str, str] = {}
    for row in rows:
        if row.error is None:
            continue
        code = row.error_code or "ERROR"
        counts[code] += 1
        example.setdefault(code, row.error)
    lines = [f"errored rows by cause ({sum(counts.values())}):"]
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        first = f"  {count:>5}  {code}  e.g. "
        text = ends_kept(example[code], REASON_LIMIT)
        wrapped = textwrap.wrap(text, width - len(first), break_long_words=False, break_on_hyphens=False)
        lines.append(first + wrapped[0])
        lines += [" " * len(first) + more for more in wrapped[1:]]
    return "\n".join(lines)


#: How much of an errored row's reason the terminal shows (its start and end beyond it).
REASON_LIMIT = 600


class ProgressLine:
    """One line on stderr (a terminal only): done/total, rate, elapsed, ETA, errored rows, tokens
    and dollars so far. Redrawn at most ten times a second; `--json` output on stdout is untouched."""

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._drawn = 0.0
        self._shown = False
        self._first_done: Optional[int] = None
        self._errored = 0
        self._usage = Usage()

    def update(self, done: int, total: int, row: RunRow) -> None:
        self.count(done, row)
        now = time.monotonic()
        if done < total and now - self._drawn < 0.1:
            return
        self._drawn = now
        sys.stderr.write("\r\x1b[K" + self.render(done, total, now - self._start))
        sys.stderr.flush()
        self._shown = True

    def count(self, done: int, row: RunRow) -> None:
        """Take a finished row into the figures, without drawing (a sweep draws many lines at once)."""
        if self._first_done is None:
            self._first_done = done - 1  # rows kept from a journal do not count towards the rate
        self._errored += row.error is not None
        self._usage = self._usage + row.usage

    def render(self, done: int, total: int, elapsed: float) -> str:
        sent = done - (self._first_done or 0)
        rate = sent / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        parts = [
            f"{done}/{total}",
            f"{rate:.1f} tasks/s",
            f"elapsed {clock(elapsed)}",
            f"ETA {clock(eta) if eta is not None else '--:--'}",
            f"{self._errored} errored",
            f"{self._usage.total_tokens:,} tokens",
        ]
        if self._usage.cost_usd is not None:
            parts.append(f"${self._usage.cost_usd:.4f}")
        return " | ".join(parts)

    def close(self) -> None:
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"
