"""Statistical agreement between a sampler and its exact twin, and brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from oddscalc.core import engine
from oddscalc.core.distribution import dkw_bound

SEED = 20261130
ALPHA = 1e-6  # chance that a correct sampler fails one DKW check


def agreement_failures(attack, trials: int = 200_000, seed: int = SEED) -> list[str]:
    """Say where the sample disagrees with the exact twin (empty when it agrees).

    The mean must lie within 5 standard errors (from the exact sd) and the sampled
    CDF within the DKW bound at α = 1e-6.
    """
    sampled = engine.monte_carlo(attack, trials=trials, seed=seed)
    exact = engine.exact(attack)
    bound = dkw_bound(trials, ALPHA)
    failures = []
    for name in attack.outcomes:
        mc, ex = sampled[name], exact[name]
        tolerance = 5 * ex.sd / math.sqrt(trials) + 1e-12
        if abs(mc.mean - ex.mean) > tolerance:
            failures.append(f"{name}: mean {mc.mean:.6g} vs exact {ex.mean:.6g} (tolerance {tolerance:.2g})")
        gap = mc.cdf_gap(ex)
        if gap > bound:
            failures.append(f"{name}: CDF gap {gap:.3g} above the DKW bound {bound:.3g}")
    return failures


def assert_agrees(attack, trials: int = 200_000, seed: int = SEED) -> None:
    failures = agreement_failures(attack, trials, seed)
    assert not failures, "; ".join(failures)


def enumerate_faces(sides, outcome) -> dict:
    """Every combination of faces, equally likely: {outcome(*faces): Fraction}."""
    total = math.prod(sides)
    result: dict = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        key = outcome(*faces)
        result[key] = result.get(key, 0) + Fraction(1, total)
    return result


def as_pmf(table: dict) -> list:
    """Turn {value: probability} into a list indexed by value."""
    top = max(table)
    return [table.get(k, Fraction(0)) for k in range(top + 1)]


def exact_list(pmf) -> list:
    """An exact pmf array as a list of Fractions without trailing zeros."""
    values = [Fraction(v) for v in pmf]
    while len(values) > 1 and values[-1] == 0:
        values.pop()
    return values


def binomial(n: int, p: Fraction) -> list:
    """The exact pmf of Binomial(n, p): a list of Fractions when p is one."""
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def mean(pmf) -> Fraction:
    """The mean of a pmf indexed by value."""
    return sum(k * p for k, p in enumerate(pmf))


def assert_marginals(exact: dict, outcomes, joint: dict) -> None:
    """Each outcome's exact pmf is the marginal of a brute-force `joint` table (outcome tuples → chance), exactly."""
    for index, name in enumerate(outcomes):
        marginal: dict = {}
        for values, p in joint.items():
            marginal[values[index]] = marginal.get(values[index], 0) + p
        assert exact_list(exact[name]) == exact_list(as_pmf(marginal)), name
