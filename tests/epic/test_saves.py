"""Epic Armageddon saves, hit allocation and blast markers (docs/rules.md §2.2 to §2.4): each save's
chance by hand, the failed-save words, and kills against brute force over every save die."""

from fractions import Fraction

import numpy as np
import pytest
from agreement import as_pmf, assert_agrees, enumerate_faces, exact_list

from oddscalc.core import pmf as pmfs
from oddscalc.epic import EpicShoot
from oddscalc.epic.saves import (
    Ability,
    BlastMarkers,
    allocate_kills,
    failed_die,
    kills_given_hits,
    popcount,
    save_plan,
)
from oddscalc.core.pool import flag_table
from oddscalc.core.terms import in_floats

F = Fraction


# --- §2.2 saves ----------------------------------------------------------------------------


SAVES = [
    # (armour, options, chance a hit is saved), worked out by hand from docs/rules.md §2.2
    (4, {}, F(1, 2)),
    (2, {}, F(5, 6)),
    (2, {"crossfire": True}, F(2, 3)),
    (4, {"crossfire": True}, F(1, 3)),
    (6, {"crossfire": True}, F(0)),  # pushed past 6+: impossible
    (6, {"crossfire": True, "invulnerable": True}, F(1, 6)),  # crossfire never touches the invulnerable
    (4, {"crossfire": True, "sniper": True}, F(1, 6)),  # save modifiers add up: 4+ at -2 is 6+
    (5, {"crossfire": True, "sniper": True, "invulnerable": True}, F(1, 6)),  # 7+: impossible; invulnerable left
    (6, {"cover_save": 4, "sniper": True}, F(1, 3)),  # sniper hits cover saves too: 4+ cover at -1 is 5+
    (None, {}, F(0)),
    (None, {"invulnerable": True}, F(1, 6)),  # "no save" still allows the invulnerable
    (6, {"cover_save": 4}, F(1, 2)),  # the better of armour and cover
    (3, {"cover_save": 4}, F(2, 3)),
    (6, {"cover_save": 4, "crossfire": True}, F(1, 3)),  # crossfire hits cover saves too
    (None, {"cover_save": 5}, F(1, 3)),
    (6, {"cover_save": 4, "ignore_cover": True}, F(1, 6)),
    (4, {"reinforced": True}, F(3, 4)),
    (4, {"reinforced": True, "crossfire": True}, F(5, 9)),
    (5, {"cover_save": 4, "reinforced": True}, F(1, 2) + F(1, 2) * F(1, 3)),  # cover re-rolled with armour 5+
    (4, {"reinforced": True, "invulnerable": True}, F(3, 4) + F(1, 4) * F(1, 6)),
    (4, {"reinforced": True, "weapon": Ability.LANCE}, F(1, 2)),  # lance: no re-roll
    (6, {"cover_save": 4, "weapon": Ability.LANCE}, F(1, 2)),  # lance keeps cover saves
    (4, {"reinforced": True, "weapon": Ability.MACRO}, F(1, 2)),  # MW: RA saves, without the re-roll
    (4, {"weapon": Ability.MACRO}, F(0)),  # MW: no armour save without RA
    (4, {"cover_save": 3, "weapon": Ability.MACRO}, F(0)),  # MW negates cover saves
    (4, {"cover_save": 3, "reinforced": True, "weapon": Ability.MACRO}, F(1, 2)),
    (4, {"weapon": Ability.MACRO, "invulnerable": True}, F(1, 6)),
    (5, {"reinforced": True, "crossfire": True, "weapon": Ability.MACRO, "invulnerable": True},
     F(1, 6) + F(5, 6) * F(1, 6)),  # 5+ at -1 is 6+, no re-roll, then the 6+ invulnerable
    (2, {"reinforced": True, "weapon": Ability.TITAN_KILLER}, F(0)),  # TK: nothing, even with RA
    (2, {"cover_save": 3, "weapon": Ability.TITAN_KILLER, "invulnerable": True}, F(1, 6)),
]


@pytest.mark.parametrize("armour, options, expected", SAVES)
def test_save_chances(armour, options, expected):
    plan = save_plan(armour, **options)
    assert plan.chance() == expected
    # the face rule the sampler uses, over every natural face, gives the same chance
    assert enumerate_faces(plan.sides, lambda *faces: bool(plan.saved(*faces))).get(True, F(0)) == expected
    # and through an attack: one shot hitting on 2+ at one unit
    shoot = EpicShoot(shots=1, to_hit=2, units=1, armour=armour, **options)
    assert shoot.exact(fractions=True)["kills"][1] == F(5, 6) * (1 - expected)


@pytest.mark.parametrize("armour, options, expected", SAVES)
def test_failed_save_words_are_exact(armour, options, expected):
    bits = flag_table(failed_die(save_plan(armour, **options)))
    if bits.constant is not None:  # no dice needed: every hit fails, or none does
        assert expected in (0, 1)
        assert bits.constant == (0 if expected == 1 else (1 << 64) - 1)
        return
    # every accepted word, counted over its per_word flags, fails at exactly 1 − s
    accepted = bits.table[: bits.limit]
    flags = np.unpackbits(accepted.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, : bits.per_word]
    assert F(int(flags.sum()), bits.limit * bits.per_word) == 1 - expected
    # and flags of different positions are independent: P(both fail) = (1 − s)²
    assert F(int((flags[:, 0] & flags[:, -1]).sum()), bits.limit) == (1 - expected) ** (2 if bits.per_word > 1 else 1)


# --- §2.3 hit allocation -------------------------------------------------------------------


def brute_force_kills(hits: int, units: int, sides: tuple, saved) -> list:
    """Every save die of every hit; hit j on unit j mod U; a unit dies if any save fails."""

    def kills(*faces):
        per_hit = [faces[i * len(sides) : (i + 1) * len(sides)] for i in range(hits)]
        dead = {j % units for j, dice in enumerate(per_hit) if not saved(*dice)}
        return len(dead)

    return as_pmf(enumerate_faces(sides * hits, kills)) if hits else [F(1)]


@pytest.mark.parametrize("units", [1, 2, 3, 4])
@pytest.mark.parametrize("hits", [0, 1, 2, 3, 4, 5, 6])
def test_allocation_against_brute_force(hits, units):
    plan = save_plan(5)  # 5+: s = 1/3
    expected = brute_force_kills(hits, units, plan.sides, lambda face: face >= 5)
    assert exact_list(kills_given_hits(hits, units, plan.chance())) == exact_list(expected)


@pytest.mark.parametrize("hits, units", [(2, 1), (3, 2), (3, 1), (2, 2)])
def test_allocation_with_rerolls_against_brute_force(hits, units):
    plan = save_plan(4, reinforced=True, crossfire=True)  # 5+ re-rolled
    expected = brute_force_kills(hits, units, plan.sides, lambda first, again: first >= 5 or again >= 5)
    assert exact_list(kills_given_hits(hits, units, plan.chance())) == exact_list(expected)


def test_popcount_without_numpy_2():
    words = np.random.default_rng(5).integers(0, 2**64 - 1, size=1000, dtype=np.uint64, endpoint=True)
    words[:3] = [0, 2**64 - 1, 2**63]
    expected = [bin(int(word)).count("1") for word in words]
    assert popcount(words, native=False).tolist() == expected
    assert popcount(words).tolist() == expected


def test_kills_are_not_a_capped_binomial():
    s = F(1, 2)
    naive = pmfs.transform(pmfs.binomial(4, 1 - s), lambda k: min(k, 2))
    allocated = kills_given_hits(4, 2, s)  # each unit takes 2 hits: dies with 3/4
    assert exact_list(allocated) == [F(1, 16), F(6, 16), F(9, 16)]
    assert exact_list(naive) != exact_list(allocated)


class Allocation:
    """The allocation sampler alone: `hits` hits (of `slots` possible) on `units` units."""

    outcomes = ("kills",)

    def __init__(self, hits, slots, units, armour):
        self.hits, self.slots, self.units, self.plan = hits, slots, units, save_plan(armour)

    def sample(self, rng, trials):
        hits = np.full(trials, self.hits, dtype=np.int64)
        return {"kills": allocate_kills(rng, failed_die(self.plan), hits, self.slots, self.units)}

    def exact(self, fractions=False):
        saved = self.plan.chance()
        pmf = kills_given_hits(self.hits, self.units, saved if fractions else float(saved))
        return {"kills": pmf if fractions else in_floats(pmf)}


@pytest.mark.parametrize(
    "hits, slots, units",
    [(0, 5, 3), (5, 5, 6), (7, 12, 3), (13, 13, 4), (64, 64, 1), (65, 80, 1), (130, 130, 64), (30, 200, 9),
     (99, 140, 70), (140, 140, 70), (200, 200, 100)],
)
def test_allocation_sampler_agrees(hits, slots, units):
    assert_agrees(Allocation(hits, slots, units, 4), trials=100_000)


def test_brute_force_helper_is_honest():
    """The tests' brute force itself: 2 hits on 1 unit with 4+ saves kill it with 3/4."""
    assert brute_force_kills(2, 1, (6,), lambda face: face >= 4) == [F(1, 4), F(3, 4)]
    assert brute_force_kills(1, 3, (6,), lambda face: face >= 4) == [F(1, 2), F(1, 2)]


# --- §2.4 blast markers and breaking -------------------------------------------------------


@pytest.mark.parametrize(
    "markers, hits, kills, total, broken",
    [
        (BlastMarkers(formation=4), 0, 0, 1, 0),  # +1 for coming under fire, even unharmed
        (BlastMarkers(formation=4), 3, 1, 2, 0),
        (BlastMarkers(formation=4), 3, 2, 3, 1),  # 3 BMs ≥ 2 units left
        (BlastMarkers(formation=4, crossfire=True), 3, 1, 3, 1),  # first kill gives 2
        (BlastMarkers(formation=4, crossfire=True), 3, 0, 1, 0),
        (BlastMarkers(formation=6, disrupt=True), 4, 1, 5, 1),  # one per hit instead of per kill
        (BlastMarkers(formation=6, disrupt=True, crossfire=True), 4, 1, 6, 1),
        (BlastMarkers(existing=2, extra=1, formation=9), 2, 2, 6, 0),
        (BlastMarkers(existing=2, extra=1, formation=8), 2, 2, 6, 1),
        (BlastMarkers(formation=2), 5, 2, 3, 1),  # no units left: broken
    ],
)
def test_blast_markers(markers, hits, kills, total, broken):
    assert markers.total(hits, kills) == total
    assert markers.broken(hits, kills) == broken
