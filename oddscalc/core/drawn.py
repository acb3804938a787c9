"""A sample drawn from a joint law: each trial one of the ways an attack can end, by its chance.

Where an attack's exact joint law is quick to work (each way it ends: one row of its outcomes' values, and the
chance of that row), a trial needs no dice of its own: one uniform number picks its row (`JointLaw.draw`). The
sample keeps each trial's row (`Drawn`, a mapping of outcome names to per-trial values like any sample), and its
histograms count rows first, then each outcome over the rows (`Drawn.counts`): no per-trial array of outcomes."""

from __future__ import annotations

from typing import Iterator, Mapping, TYPE_CHECKING

from .record import record

if TYPE_CHECKING:
    import numpy as np
else:
    from .lazy import numpy as np


@record
class JointLaw:
    """Each way an attack can end (`values`: one column per way, one row per outcome named in `names`) and the
    chance of it or an earlier way (`cumulative`, its last exactly 1)."""

    names: tuple[str, ...]
    values: np.ndarray
    cumulative: np.ndarray

    @classmethod
    def of(cls, names: tuple[str, ...], table: np.ndarray, chances: np.ndarray) -> JointLaw:
        """The law of ways given as rows of `table` (one column per outcome in `names`) with `chances`: the same
        ways merged, their chances summed, the impossible ones left out."""
        found, where = np.unique(table, axis=0, return_inverse=True)
        summed = np.bincount(where.ravel(), weights=chances, minlength=len(found))
        kept = summed > 0
        cumulative = np.cumsum(summed[kept])
        return cls(names, np.ascontiguousarray(found[kept].T), cumulative / cumulative[-1])

    def draw(self, rng: np.random.Generator, trials: int) -> Drawn:
        """`trials` of the ways, each drawn by its chance (one uniform number a trial)."""
        rows = np.searchsorted(self.cumulative, rng.random(trials), side="right")
        np.minimum(rows, len(self.cumulative) - 1, out=rows)  # (a float sum a hair under 1)
        return Drawn(self, rows)


@record
class Drawn(Mapping[str, "np.ndarray"]):
    """A sample of a joint law: each trial's way (`rows`); its outcomes read per trial (`drawn["win"]`)."""

    law: JointLaw
    rows: np.ndarray

    def __getitem__(self, name: str) -> np.ndarray:
        values: np.ndarray = self.law.values[self.law.names.index(name)][self.rows]
        return values

    def __iter__(self) -> Iterator[str]:
        return iter(self.law.names)

    def __len__(self) -> int:
        return len(self.law.names)

    def counts(self, names: tuple[str, ...]) -> dict[str, np.ndarray]:
        """How often each outcome value occurred: the trials of each way, summed over the ways with that value."""
        ways = np.bincount(self.rows, minlength=self.law.values.shape[1])
        return {name: np.bincount(self.law.values[self.law.names.index(name)], weights=ways).astype(np.int64)
                for name in names}
