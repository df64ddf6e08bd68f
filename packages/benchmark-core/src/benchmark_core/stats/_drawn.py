"""A bootstrap's unit-by-unit draws, counted once per seed and size, and summed for many values at once.

Resampling units one by one (`random.Random(seed).choices(units, k=len(units))`, once per resample)
draws the same positions for every input of the same size and seed: a comparison's task groups of
one size, and every comparison of a results browser, draw alike. So the draws are made and counted
once per (seed, units, resamples), and kept: per unit, how often each resample drew it, packed as one
integer whose fixed-width fields are the resamples (`_counts`). A resample's sum of whole numbers, one
per unit, is then one linear combination of those integers, whose fields are every resample's sum
at once: the sums that adding up each resample's draws gives (sums of whole numbers are exact), for
a few big-integer operations per unit instead of a Python step per draw.
"""

from __future__ import annotations

import array
import functools
import itertools
import math
import operator
import random
import sys
from collections.abc import Sequence
from typing import Optional

__all__ = ["resampled_sums"]

#: The most units x resamples whose counts are kept (at most 8 MB at 32 bits each; 22 units at
#: 10,000 resamples are 0.9 MB); larger bootstraps draw as they go.
_MAX_COUNTS = 2_000_000
#: Sums beyond this are not exact in floating point, where the draws' own sum would round.
_EXACT = 2**53
#: The most units counted as bytes (`_counted_as_bytes`, whose work grows with the units squared):
#: beyond it, counting draw by draw is cheaper.
_BYTES = 64


def resampled_sums(values: Sequence[int], *, seed: int, resamples: int) -> Optional[list[int]]:
    """Per resample, the sum of the values of the units it drew, where resample b draws
    len(values) units as the b-th `choices(range(len(values)), k=len(values))` of `Random(seed)`;
    None when the counts would be too large to keep or a sum could pass 2**53."""
    units = len(values)
    low = min(values)
    widest = max((max(values) - low) * units, units)
    if units * resamples > _MAX_COUNTS or units * max(map(abs, values)) >= _EXACT:
        return None
    code = next((code for code in "HIQ" if widest < 1 << (8 * array.array(code).itemsize)), None)
    if code is None:
        return None
    # Each resample draws `units` units: the sum of (value - low) is the sum less `units` lows.
    packed = sum(map(operator.mul, [value - low for value in values], _counts(seed, units, resamples, code)))
    fields = array.array(code)
    fields.frombytes(packed.to_bytes(resamples * fields.itemsize, sys.byteorder))
    if low == 0:
        return fields.tolist()
    return list(map(operator.add, fields, itertools.repeat(low * units)))


@functools.lru_cache(maxsize=16)
def _counts(seed: int, units: int, resamples: int, code: str) -> tuple[int, ...]:
    """Per unit, how often each of the `resamples` resamples drew it, as the fields (array type
    `code`, in machine byte order) of one integer; the draws are `resampled_sums`'s."""
    # `choices(range(units), k=units)` draws unit floor(random() * float(units)) per position, so
    # the resamples' draws, in order, are one stream of `random()`s, here taken without a Python
    # step per draw.
    rng = random.Random(seed)
    stream = itertools.starmap(rng.random, itertools.repeat((), units * resamples))
    draws = map(math.floor, map(operator.mul, stream, itertools.repeat(float(units))))
    if units <= _BYTES:
        return _counted_as_bytes(bytes(draws), units, resamples, array.array(code).itemsize)
    columns = [array.array(code, bytes(array.array(code).itemsize * resamples)) for _ in range(units)]
    for resample in range(resamples):
        for unit in itertools.islice(draws, units):
            columns[unit][resample] += 1
    return tuple(int.from_bytes(column.tobytes(), sys.byteorder) for column in columns)


def _counted_as_bytes(draws: bytes, units: int, resamples: int, width: int) -> tuple[int, ...]:
    """`_counts` from the draws as bytes, `units` consecutive ones per resample: position k of every
    resample is the slice draws[k::units], so marking one unit's bytes 1 and adding the slices as
    integers of byte fields counts it in every resample at once (at most `units` per field, so no
    field carries), each field then widened to `width` bytes."""
    first = 0 if sys.byteorder == "little" else width - 1
    counted = []
    for unit in range(units):
        marked = draws.translate(bytes(byte == unit for byte in range(256)))
        total = sum(int.from_bytes(marked[place::units], "little") for place in range(units))
        fields = bytearray(width * resamples)
        fields[first::width] = total.to_bytes(resamples, "little")
        counted.append(int.from_bytes(fields, sys.byteorder))
    return tuple(counted)
