"""The joint pmfs of attacks on war engines (docs/rules.md §2.8): outcomes of several axes added
up (`convolve`, `combine`), the pmf of each outcome read off a joint (`pmfs_of`), and each trial's
outcomes packed for the engine (`pack`). The exact twins of `war_engines.py`, `engine_profiles.py`,
`engine_fire.py` (shooting) and `attacks.py` (barrages) build their joints with these; `zeros`
makes an array of floats or of Fractions, as the twin computes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from ..core.lazy import numpy as np

from ..core.pmf import NumberType

if TYPE_CHECKING:
    from ..core.pool import PoolRoll


def zeros(shape: Any, number: NumberType) -> np.ndarray:
    """An array of zeros of this shape: floats, or Fractions when `number` is not float."""
    if number is float:
        return np.zeros(shape)
    return np.full(shape, Fraction(0), dtype=object)


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The joint pmf of the sums of two independent n-dimensional outcomes."""
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape))
    exact = a.dtype == object or b.dtype == object
    result = np.full(shape, Fraction(0), dtype=object) if exact else np.zeros(shape)
    if np.count_nonzero(b) < np.count_nonzero(a):
        a, b = b, a
    for index in zip(*np.nonzero(a)):
        result[tuple(slice(i, i + n) for i, n in zip(index, b.shape))] += a[index] * b
    return result


def combine(outcomes: list[np.ndarray], number: NumberType) -> np.ndarray:
    """The joint pmf of the sums of several independent outcomes (all of one dimension)."""
    total = np.ones((1,) * outcomes[0].ndim, dtype=object if number is not float else float)
    if number is not float:
        total[(0,) * outcomes[0].ndim] = Fraction(1)
    for one in outcomes:
        total = convolve(total, one)
    return total


AXES = ("hits", "kills", "damage", "shields", "other_kills")  # a war-engine attack's joint, axis by axis


def pmfs_of(joint: np.ndarray, names: tuple[str, ...], outcomes: Any, number: NumberType) -> dict[str, np.ndarray]:
    """The pmf of every outcome from joint[hits, kills, damage, shields(, other units killed)]: `outcomes(values)`
    adds blast markers and broken to the arrays of those."""
    from ..core import pmf as pmfs

    values = outcomes(dict(zip(AXES, np.indices(joint.shape))))
    where = np.nonzero(joint)
    weights = joint[where]
    result = {}
    for name in names:
        found = values[name][where].astype(np.int64)
        if number is float:
            result[name] = np.bincount(found, weights=weights.astype(float), minlength=2 if name == "broken" else 1)
        else:
            pmf = [Fraction(0)] * (int(found.max(initial=0)) + 1 if name != "broken" else 2)
            for value, weight in zip(found, weights):
                pmf[value] += weight
            result[name] = pmfs.array(pmf)
    return result


def pack(values: dict[str, np.ndarray], names: tuple[str, ...]) -> PoolRoll:
    """Each trial's outcomes packed for the engine, in the order of `names`."""
    from ..core.pool import PoolRoll

    radices = tuple(int(values[name].max(initial=0)) + 1 if name != "broken" else 2 for name in names)
    codes = np.zeros(len(values[names[0]]), dtype=np.int64)
    stride = 1
    for name, radix in zip(names, radices):
        codes += values[name].astype(np.int64) * stride
        stride *= radix
    return PoolRoll(codes, names, radices)
