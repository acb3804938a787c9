"""What running an attack gives (`Result`, one `Distribution` per outcome, and a verification's
`Verification`), and what the engine asks of an attack: shared by the exact path (`engine`) and
Monte Carlo (`sampling`), so neither imports the other back."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from .distribution import Distribution
from .options import Method
from .record import record

if TYPE_CHECKING:
    from fractions import Fraction

    import numpy as np

    from .pool import PoolRoll

    Sample = Mapping[str, np.ndarray] | PoolRoll  # what a sampler returns: counts per outcome, or a pool's codes
    # (a Mapping: a joint law's draws too, core/drawn.py)

Progress = Callable[[int, int], None]


class Attack(Protocol):
    @property
    def outcomes(self) -> tuple[str, ...]: ...

    def sample(self, rng: np.random.Generator, trials: int) -> Sample: ...

    def exact(self, fractions: bool = False) -> Mapping[str, Any]: ...  # float arrays or tuples, or tuples of Fractions


@record
class Verification:
    """How far the sampled CDF is from the exact one, against the DKW bound."""

    gap: float
    bound: float
    alpha: float

    @property
    def within(self) -> bool:
        return self.gap <= self.bound


@record
class Result:
    """The distributions of an attack's outcomes (the main one first) and how they were made."""

    outcomes: dict[str, Distribution]
    method: Method  # Method.MONTE_CARLO or Method.EXACT
    trials: int | None
    seed: int | None
    verification: dict[str, Verification] | None = field(default=None)
    precision_reached: bool | None = None  # with a precision asked for: whether it was reached in the trials
    events: tuple[str, ...] = ()  # the outcomes that are yes/no events (read as probabilities)
    rationals: dict[str, tuple[Fraction, ...]] | None = None  # with fractions: each outcome's exact pmf as Fractions

    @property
    def verified(self) -> bool:
        """False when a verified outcome's CDF gap is outside its bound."""
        return all(check.within for check in (self.verification or {}).values())

    @property
    def main(self) -> str:
        return next(iter(self.outcomes))

    def __getitem__(self, name: str) -> Distribution:
        return self.outcomes[name]
