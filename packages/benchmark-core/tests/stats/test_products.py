"""The sums of products kept by column digest (`_products`) are the sums `fsum` gives, whether
they were kept or not and in whichever order the two columns come."""

from __future__ import annotations

import math
import operator

from benchmark_core.stats import _products
from benchmark_core.stats._products import column_digest, product_sum
from hypothesis import given, settings
from hypothesis import strategies as st

columns = st.lists(st.floats(min_value=-1e3, max_value=1e3, allow_nan=False), min_size=1, max_size=20)


@settings(max_examples=200, deadline=None)
@given(columns, st.data())
def test_a_kept_sum_is_the_sum(first: list[float], data: st.DataObject) -> None:
    second = data.draw(st.lists(st.floats(min_value=-1e3, max_value=1e3), min_size=len(first), max_size=len(first)))
    digests = (column_digest(first), column_digest(second))
    expected = math.fsum(map(operator.mul, first, second))
    _products._sums.clear()
    assert product_sum(first, second, digests).hex() == expected.hex()  # summed
    assert product_sum(first, second, digests).hex() == expected.hex()  # kept
    assert product_sum(second, first, (digests[1], digests[0])).hex() == expected.hex()  # the other order


def test_columns_differing_in_one_bit_have_their_own_sums() -> None:
    zero, negative_zero = [1.0, 0.0], [1.0, -0.0]
    assert column_digest(zero) != column_digest(negative_zero)
    changed = [2.0, 3.0]
    _products._sums.clear()
    assert product_sum([1.0, 1.0], [1.0, 1.0], (column_digest([1.0, 1.0]),) * 2) == 2.0
    assert product_sum([1.0, 1.0], changed, (column_digest([1.0, 1.0]), column_digest(changed))) == 5.0


def test_the_kept_sums_are_bounded() -> None:
    _products._sums.clear()
    for number in range(_products._KEPT + 10):
        column = [float(number)]
        product_sum(column, column, (column_digest(column),) * 2)
    assert len(_products._sums) == _products._KEPT
