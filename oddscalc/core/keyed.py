"""Trials grouped by a key (a sampler's states: each trial's code), so that the trials in one state roll
together: counted where the keys span a small range (no sort of every trial), a mask each where they are a
few, numpy's radix sort where they fit 16 bits, else one stable sort."""

from __future__ import annotations

from typing import Iterator, TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from .lazy import numpy as np

FEW = 8  # distinct keys found by a mask each, one pass apiece, rather than by sorting every trial


def distinct(keys: np.ndarray) -> np.ndarray | None:
    """The distinct keys, ascending, when they span a small range (counted, not sorted); else None."""
    low, high = (int(keys.min()), int(keys.max())) if len(keys) else (0, 0)
    if high - low > 4 * len(keys) + 1024:
        return None
    return np.flatnonzero(np.bincount(keys - low)) + low


def indexed(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct keys ascending, each trial's index among them): `np.unique(keys, return_inverse=True)`,
    by a table where the keys span a small range."""
    found = distinct(keys)
    if found is None or not len(found):
        return np.unique(keys, return_inverse=True)
    lookup = np.zeros(int(found[-1] - found[0]) + 1, dtype=np.int64)
    lookup[found - found[0]] = np.arange(len(found))
    return found, lookup[keys - found[0]]


def groups(keys: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(key, the indices holding it) for each distinct key, ascending."""
    found = distinct(keys)
    if found is not None and len(found) <= FEW:
        for key in found.tolist():
            yield key, np.flatnonzero(keys == key)
        return
    small = len(keys) and keys.min() >= 0 and keys.max() < 1 << 16
    order = np.argsort(keys.astype(np.uint16) if small else keys, kind="stable")
    starts = np.flatnonzero(np.diff(keys[order])) + 1
    for chunk in np.split(order, starts) if len(order) else []:
        yield int(keys[chunk[0]]), chunk
