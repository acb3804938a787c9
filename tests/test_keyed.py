"""Trials grouped by key (`oddscalc.core.keyed`): whichever way a key set is grouped (counted, masked, radix-sorted,
sorted), the groups are numpy's `unique` and every trial is in its key's group once, in order."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from oddscalc.core.keyed import FEW, distinct, groups, indexed

KEYS = st.one_of(
    arrays(np.int64, st.integers(0, 300), elements=st.integers(0, 5)),  # a few: masks
    arrays(np.int64, st.integers(0, 300), elements=st.integers(0, 3000)),  # many, small: radix sort
    arrays(np.int64, st.integers(0, 300), elements=st.integers(-(1 << 40), 1 << 40)),  # wide: a plain sort
    arrays(np.int64, st.integers(0, 300), elements=st.integers(70_000, 70_040)),  # above 16 bits, narrow
    arrays(np.int64, st.integers(0, 300), elements=st.integers(65_520, 65_560)),  # across 2^16: no radix sort
)


@settings(max_examples=300, deadline=None)
@given(KEYS)
def test_groups_are_numpys_unique_and_hold_every_trial_once_in_order(keys):
    found = list(groups(keys))
    assert [key for key, _ in found] == np.unique(keys).tolist()
    for key, at in found:
        assert np.all(keys[at] == key) and np.all(np.diff(at) > 0)
    assert sum(len(at) for _, at in found) == len(keys)


@settings(max_examples=300, deadline=None)
@given(KEYS)
def test_indexed_is_numpys_unique_with_its_inverse(keys):
    unique, inverse = indexed(keys)
    expected, expected_inverse = np.unique(keys, return_inverse=True)
    assert unique.tolist() == expected.tolist() and inverse.ravel().tolist() == expected_inverse.ravel().tolist()


def test_each_way_is_taken_where_it_should_be():
    few = np.array([3, 1, 3, 1, 2] * 10)
    assert distinct(few).tolist() == [1, 2, 3] and len(distinct(few)) <= FEW
    assert distinct(np.array([0, 1 << 40])) is None  # too wide to count: sorted
