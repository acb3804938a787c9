"""Run any attack, Monte Carlo or exact, and return one `Distribution` per outcome.

An attack is anything with `outcomes` (names, the main one first), `sample(rng,
trials)` and `exact(fractions=False)`. The engine knows no game.

An exact answer is the attack's exact twin, read into distributions: this module imports
no numpy, so an exact answer whose twin needs no arrays (`terms`) imports none at all.
Monte Carlo is `sampling` (chunks, streams, threads), imported when a run samples.

How to run comes as one `options.RunOptions` value, checked when it is made; its
`Cancel` stops that run alone (from another thread, or on Ctrl-C in the waiting one).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .distribution import Distribution, dkw_bound
from .options import Method, RunOptions
from .result import Attack as Attack, Progress as Progress, Result as Result, Verification as Verification

VERIFY_ALPHA = 1e-3


def monte_carlo(attack: Attack, *, options: RunOptions | None = None, progress: Progress | None = None,
                **settings: Any) -> Result:
    """Sample the attack; with a `precision`, stop once the main mean's standard error ≤ it.

    `options` (or its fields as keywords, see `RunOptions`) say how. When the trials run
    out before the precision is reached, the result says so (`precision_reached` is False).
    """
    from .sampling import sample  # numpy and the streams: imported when a run samples

    return sample(attack, RunOptions.of(options, **settings), progress)


def exact(attack: Attack, fractions: bool = False) -> Result:
    """Compute the attack's distributions exactly: in floats, or as exact rationals with `fractions`."""
    pmfs = attack.exact(fractions=fractions)
    rationals = {name: tuple(pmfs[name]) for name in attack.outcomes} if fractions else None
    return Result({name: Distribution.from_pmf(pmfs[name]) for name in attack.outcomes}, Method.EXACT, None, None,
                  events=tuple(getattr(attack, "events", ())), rationals=rationals)


def verify(sampled: Result, computed: Result, alpha: float = VERIFY_ALPHA) -> dict[str, Verification]:
    """Compare each sampled outcome's CDF with the exact one, against the DKW bound."""
    trials = sampled.trials
    assert trials is not None, "a sampled result counts its trials"
    return {
        name: Verification(sampled[name].cdf_gap(computed[name]), dkw_bound(trials, alpha), alpha)
        for name in sampled.outcomes
    }


def run(attack: Attack, *, options: RunOptions | None = None, progress: Progress | None = None,
        **settings: Any) -> Result:
    """Run an attack as `options` say (or its fields as keywords: `trials`, `seed`, `method`,
    `precision`, `threads`, `fractions`, `cancel`; see `RunOptions`).

    The method is "monte-carlo", "exact", or "verify" (both, compared). Every setting is
    checked whatever the method (`trials=0` is refused with "exact" too). With `fractions`,
    the exact answer also carries exact rationals (`Result.rationals`). A cancelled run
    raises `Cancelled`.
    """
    options = RunOptions.of(options, **settings)
    if options.method == Method.EXACT:
        return exact(attack, options.fractions)
    computed = exact(attack) if options.method == Method.VERIFY else None  # first: an exact half too big is refused at once
    sampled = monte_carlo(attack, options=options, progress=progress)
    if computed is not None:
        return dataclasses.replace(sampled, verification=verify(sampled, computed))
    return sampled
