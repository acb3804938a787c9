"""How to run: one frozen value of a run's settings (`RunOptions`), checked once when it is
made, and the token that cancels one run (`Cancel`).

Everything that runs attacks (`engine.run`, `engine.monte_carlo`, `cells.run_cells`,
`studies.sweep`, `studies.compare`, `grid.run_grid`) takes `options=RunOptions(...)`, or
the same fields as keywords (`trials=10**5, seed=7`), which make one. Nothing after the
value is made checks its fields again. The command line's common options (`--trials`,
`--seed`, `--exact`, ...) make one too, so a refusal reads the same from Python and from
a terminal.

A `Cancel` given with the options stops the run it is given to, and only that run, from
any thread: its sampling stops at the next chunk and the run raises `Cancelled`. A run
given none makes its own (Ctrl-C then stops that run's threads, and no other run's).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
import sys
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, TypeGuard, Union

from ..errors import InputError
from .record import record

if TYPE_CHECKING:
    import numpy as np

TRIALS = 1_000_000  # the one default number of trials, library and command line alike
SCHEDULER_TIMEOUT = 10.0  # seconds to wait for a Dask scheduler, a worker, or a lost cluster to come back
MAX_TRIALS = 10**12
MAX_SEED = 2**128 - 1
MAX_THREADS = 1024


class Method(StrEnum):
    """How a run answers: sampling, the exact pmfs, or both with the sample checked against the exact CDF."""

    MONTE_CARLO = "monte-carlo"
    EXACT = "exact"
    VERIFY = "verify"


METHODS = tuple(method.value for method in Method)

Seed = Union[int, "np.random.SeedSequence", "np.random.Generator", None]  # names only: numpy.random is imported
# when a run samples, not when an exact answer is asked


class Cancelled(Exception):
    """A run stopped because its `Cancel` was set (or another part of it was interrupted)."""


class Cancel:
    """Cancels the runs it is given to, from any thread: they stop at their next chunk and
    raise `Cancelled`. Once set it stays set."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False  # (one flag, written once: every thread reads it as set from then on)

    def cancel(self) -> None:
        self._set = True

    @property
    def cancelled(self) -> bool:
        return self._set

    def check(self) -> None:
        """Raise `Cancelled` once the run is cancelled."""
        if self._set:
            raise Cancelled

    def __repr__(self) -> str:
        return f"Cancel({'cancelled' if self.cancelled else 'live'})"


def every_core() -> int:
    """The threads a run uses when it is given none."""
    return os.cpu_count() or 1


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)  # numpy's whole numbers too


def _numpy_seed(value: Any) -> bool:
    """Whether `value` is a numpy Generator or SeedSequence: none can exist before numpy.random is
    imported, so an exact answer's options are checked without importing it."""
    if "numpy.random" not in sys.modules:
        return False
    import numpy.random as random  # not sys.modules' entry: this waits while another thread imports it

    return isinstance(value, (random.Generator, random.SeedSequence))


@record
class RunOptions:
    """A run's settings, checked when made (an `InputError` names the refused one).

    - `trials`: Monte Carlo trials (the cap when `precision` is given);
    - `seed`: an int ≥ 0, a `SeedSequence`, a `Generator` (a child stream is spawned from
      it) or None (fresh entropy; the result records the seed used);
    - `method`: a `Method` or its text: "monte-carlo", "exact", or "verify" (both, the
      sample's CDF checked against the exact one);
    - `precision`: sample until the main mean's standard error is at most this;
    - `threads`: threads to sample with, or cells to run at once (None: every core);
    - `fractions`: with "exact", also exact rationals (`Result.rationals`);
    - `cancel`: the token that cancels the run (None: the run makes its own);
    - `budget`: the most trials the run may sample in all, a study's cells together (None: no
      limit; a service sets one);
    - `seconds`: the most seconds a run may take, as projected from its part done (None: no limit; a
      service sets one): a study's cells one after another, or a sampled run's trials (without a
      `precision`), refused once its first part shows it would take longer; an exact answer is refused
      past about two seconds anyway.

    An exact run with a precision, and fractions without an exact run, are refused.
    """

    trials: int = TRIALS
    seed: Seed = None
    method: Method = Method.MONTE_CARLO  # or its text, "exact"
    precision: float | None = None
    threads: int | None = None
    fractions: bool = False
    cancel: Cancel | None = dataclasses.field(default=None, compare=False, repr=False)
    budget: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if not _whole(self.trials) or not 1 <= self.trials <= MAX_TRIALS:
            raise InputError("trials", self.trials, f"expected a whole number of trials from 1 to {MAX_TRIALS:.0e}")
        if self.threads is not None and (not _whole(self.threads) or not 1 <= self.threads <= MAX_THREADS):
            raise InputError("threads", self.threads, "expected 1 or more threads (default: every core)")
        if self.precision is not None and not (isinstance(self.precision, (int, float)) and not isinstance(
                self.precision, bool) and 1e-9 <= self.precision < math.inf):
            raise InputError("precision", self.precision, "expected a standard error from 1e-9 up, e.g. 0.01")
        if not (self.seed is None or _numpy_seed(self.seed) or (
                _whole(self.seed) and 0 <= self.seed <= MAX_SEED)):
            raise InputError("seed", self.seed, "expected a whole number from 0 to 2^128 - 1")
        given = self.method.value if isinstance(self.method, Enum) else self.method
        if given not in METHODS:
            raise InputError("method", given, f"expected one of {', '.join(METHODS)}")
        method = Method(given)
        if not isinstance(self.fractions, bool):
            raise InputError("fractions", self.fractions, "expected true or false")
        if self.fractions and method != Method.EXACT:
            raise InputError("fractions", None, "exact rationals come with --exact only")
        if method == Method.EXACT and self.precision is not None:
            raise InputError("precision", self.precision, "--precision applies to sampling; drop it or drop --exact")
        if self.cancel is not None and not isinstance(self.cancel, Cancel):
            raise InputError("cancel", type(self.cancel).__name__, "expected a Cancel (oddscalc.Cancel())")
        if self.budget is not None and (not _whole(self.budget) or self.budget < 1):
            raise InputError("budget", self.budget, "expected a whole number of trials, 1 or more")
        if self.seconds is not None and not (isinstance(self.seconds, (int, float)) and not isinstance(
                self.seconds, bool) and 0 < self.seconds < math.inf):
            raise InputError("seconds", self.seconds, "expected a number of seconds above 0")
        self.afford(1)
        object.__setattr__(self, "trials", int(self.trials))
        object.__setattr__(self, "method", method)
        if self.threads is not None:
            object.__setattr__(self, "threads", int(self.threads))

    @classmethod
    def of(cls, options: RunOptions | None = None, **settings: Any) -> RunOptions:
        """`options` (default: the defaults) with `settings` in place of its fields: the
        keywords of a library call (`run(attack, trials=1000, seed=7)`)."""
        names = [field.name for field in dataclasses.fields(cls)]
        for name, value in settings.items():
            if name not in names:
                raise InputError(name, value, f"is not a setting of a run; the settings are {', '.join(names)}")
        if options is not None and not isinstance(options, RunOptions):
            raise InputError("options", type(options).__name__, "expected RunOptions(...)")
        base = options if options is not None else cls()
        return dataclasses.replace(base, **settings) if settings else base

    def replace(self, **settings: Any) -> RunOptions:
        """These options with some settings changed (checked again as a whole)."""
        return dataclasses.replace(self, **settings)

    def afford(self, cells: int) -> None:
        """Refuse to sample `cells` runs of `trials` each beyond the budget (an exact run samples nothing)."""
        if self.budget is not None and self.method != Method.EXACT and cells * self.trials > self.budget:
            spent = f"{cells:,} cells × {self.trials:,} trials" if cells > 1 else f"{self.trials:,}"
            each = f", at most {self.budget // cells:,} a cell (or exact)" if cells > 1 else ""
            raise InputError("trials", spent, f"expected at most {self.budget:,} trials in all here{each}; the "
                                              "command line has no such cap")

    def past_seconds(self, value: str, projected: float, first: str, elapsed: float) -> None:
        """Refuse a run projected to take `projected` seconds, more than `seconds` allows (a study's cells,
        `cells.afford_seconds`; a sampled run's chunks, `sampling`): `first` what is done, in `elapsed`."""
        if self.seconds is None or projected <= self.seconds:
            return
        exact = self.method == Method.EXACT
        how = "sample it (leave out --exact)" if exact else "ask for fewer --trials"
        raise InputError("exact" if exact else "trials", value,
                         f"would take about {projected:,.0f} s here (its first {first} took {elapsed:.1f} s), more "
                         f"than the {self.seconds:g} s a run may take here: {how}, or run it on the command line")

    @property
    def cores(self) -> int:
        """The threads to use: the ones asked for, never more than the machine's cores."""
        return min(self.threads or every_core(), every_core())
