"""Sums of products of two runs' resampled deviations, kept by the digests of the two columns.

A group's simultaneous intervals need, for every pair of runs, the exact sum over the resamples of
the product of their deviations (`_simultaneous._standard_errors`): 1,275 sums of 10,000 products
for 50 runs, most of a re-rank's time. A results browser ranks a group again when one report
changed; every other run's deviations are then the same floats as before (the same draws of the
same totals), so their pairs' sums are too. The sums are kept, a bounded number, under the BLAKE2
digests of the two columns' bytes: a column equal to one seen before gives the very float `fsum`
gave then, and a changed one is summed again. `fsum` is correctly rounded, hence independent of the
order of the products, so a pair is kept under its two digests in sorted order.
"""

from __future__ import annotations

import array
import collections
import hashlib
import math
import operator
import threading
from collections.abc import Sequence

__all__ = ["column_digest", "product_sum"]

#: Pairs kept: about 13 groups of 50 runs (each entry two 32-byte digests and a float).
_KEPT = 16_384
_sums: collections.OrderedDict[tuple[bytes, bytes], float] = collections.OrderedDict()
_lock = threading.Lock()


def column_digest(column: Sequence[float]) -> bytes:
    """The digest of a column of floats: equal digests, equal floats (bit for bit)."""
    return hashlib.blake2b(array.array("d", column).tobytes(), digest_size=32).digest()


def product_sum(first: Sequence[float], second: Sequence[float], digests: tuple[bytes, bytes]) -> float:
    """`math.fsum` of the products first[b] * second[b]; `digests` are the columns' `column_digest`s."""
    key = (digests[0], digests[1]) if digests[0] <= digests[1] else (digests[1], digests[0])
    with _lock:
        found = _sums.get(key)
        if found is not None:
            _sums.move_to_end(key)
            return found
    total = math.fsum(map(operator.mul, first, second))
    with _lock:
        _sums[key] = total
        while len(_sums) > _KEPT:
            _sums.popitem(last=False)
    return total
