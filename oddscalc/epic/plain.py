"""Epic Armageddon: the exact answer of plain shooting without arrays (docs/architecture.md, "What does a first
answer import?"): shots of one or more to-hit values at a formation of units alike, every hit with the same saves,
no war engine, macro-weapon, AT volley or vehicle. Its hits are the pools' binomials convolved, its kills given the
hits the allocation's two binomials (`saves.kills_given_hits`, §2.3), its blast markers and breaking those of
`saves.BlastMarkers`: the same law as the array path (`shooting.EpicShoot.joint`), in tuples, so that the first
answer of a fresh process imports no numpy."""

from __future__ import annotations

from functools import reduce
from typing import Any, Sequence

from ..core import terms
from ..core.dice import Check
from ..core.pmf import NumberType
from .saves import BlastMarkers

PLAIN_CELLS = 1000  # (hits, kills) pairs at most worked in floats this way, more in arrays: measured, 12 shots at 6
# units 0.17 ms either way, 40 at 20 (861 pairs) 1.0 ms against 0.28 ms, 200 at 100 34 ms against 2.2 ms (numpy's
# import alone is 50 ms); in Fractions this way is the quicker at every size (106 ms against 116 ms for 100 at 40)


def kill_terms(hits: int, units: int, saved: Any) -> list[Any]:
    """The pmf of kills when `hits` hits fall on `units` units alike, each saving with chance `saved`: H mod U
    units take ⌈H/U⌉ hits, the rest ⌊H/U⌋, and a unit with k hits dies with 1 − s^k (as `saves.kills_given_hits`)."""
    more, base = hits % units, hits // units
    return terms.convolve(terms.binomial(more, 1 - saved ** (base + 1)), terms.binomial(units - more, 1 - saved**base))


def plain_pmfs(pools: Sequence[tuple[int, Check]], units: int, saved: Any, markers: BlastMarkers,
               number: NumberType) -> dict[str, tuple[Any, ...]]:
    """The pmfs of kills, hits, blast markers and broken of `pools` of (shots, check) at `units` units alike."""
    one, zero = number(1), number(0)
    hits = reduce(terms.convolve, (terms.binomial(shots, number(check.chance())) for shots, check in pools), [one])
    kills, markers_at, broken = [zero] * (units + 1), [zero], [zero, zero]
    for count, weight in enumerate(hits):
        if not weight:
            continue
        for killed, chance in enumerate(kill_terms(count, units, saved)):
            chance *= weight
            kills[killed] += chance
            total = markers.total(count, killed)
            markers_at += [zero] * (total + 1 - len(markers_at))
            markers_at[total] += chance
            broken[markers.broken(count, killed)] += chance
    while len(markers_at) > 1 and not markers_at[-1]:
        markers_at.pop()
    return {"kills": tuple(kills), "hits": tuple(hits), "blast_markers": tuple(markers_at), "broken": tuple(broken)}
