"""How often each run of a joint bootstrap took each rank, from every run's whole-number totals in
every resample (`_ranks._figures`), by comparing each pair of runs in all the resamples at once.

A run's place in a resample is how many runs' totals are at or below its own, itself included (its
rank is the runs minus its place plus one; a tie shares it). Per resample that is a sort and one
search per run: 50 searches for 50 runs, 10,000 times. Here each run's totals over the resamples
are the fields of one integer, less the lowest total, so that run r's fields plus 2**bit minus run
s's never borrow from the next field (`bit` covers the totals' spread): bit `bit` of each field of
the difference is set exactly where s's total is at or below r's, and one subtraction and one mask
of the integers compare the two runs in every resample. The masked flags of every other run add up
to r's place (times 2**bit, in fields wide enough for the sum); the fields' bytes are then the
places, counted. Integers are exact, so the counts are those of the sorts.
"""

from __future__ import annotations

import array
import bisect
import collections
import itertools
import sys
from collections.abc import Iterable, Sequence

__all__ = ["rank_histogram"]


def rank_histogram(totals: Sequence[Sequence[int]]) -> list[list[int]]:
    """`histogram[r][k]`: in how many resamples run r had rank k + 1, from `totals[r][b]`, run r's
    total in resample b (every run the same number of resamples, at least one)."""
    runs, resamples = len(totals), len(totals[0])
    histogram = [[0] * runs for _ in range(runs)]
    low = min(map(min, totals))
    bit = (max(map(max, totals)) - low).bit_length()
    # A field holds a difference plus 2**bit, below 2**(bit + 1), and at the end the sum of the
    # other runs' flags plus one: both below runs * 2**bit.
    code = next((code for code in "HIQ" if runs << bit < 1 << (8 * array.array(code).itemsize)), None)
    if code is None:  # totals too far apart for 64-bit fields: one sort per resample
        for run, sorted_places in enumerate(zip(*map(_places, zip(*totals)))):
            _count(histogram[run], sorted_places)
        return histogram
    size = array.array(code).itemsize

    def packed(fields: Iterable[int]) -> int:
        return int.from_bytes(array.array(code, fields).tobytes(), sys.byteorder)

    ones = packed(itertools.repeat(1, resamples))
    flags = ones << bit
    lowered = [packed([total - low for total in column]) for column in totals]
    for run, column in enumerate(lowered):
        raised = column + flags
        at_or_below = 0
        for other, other_column in enumerate(lowered):
            if other != run:
                at_or_below += (raised - other_column) & flags
        places = array.array(code, ((at_or_below >> bit) + ones).to_bytes(size * resamples, sys.byteorder))
        _count(histogram[run], places)
    return histogram


def _count(ranks: list[int], places: Iterable[int]) -> None:
    runs = len(ranks)
    for place, count in collections.Counter(places).items():
        ranks[runs - place] += count


def _places(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Per run, how many runs' totals are at or below its own."""
    return tuple(map(bisect.bisect_right, itertools.repeat(sorted(totals), len(totals)), totals))
