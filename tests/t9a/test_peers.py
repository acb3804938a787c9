"""The peers' own worked cases, reproduced (issue 48: "the peers' own worked fights … reproduced or the difference
is explained in docs/rules.md"): the 9th Age simulator xstraza/t9a_simulator's tests of how many attacks a unit
makes (src/test/java/FightInExtraRankTest.java, HarnessedTest.java) and where Great Weapons strike
(GreatWeaponTest.java), each case as that project states it, counted by oddscalc's own rules."""

from __future__ import annotations

import pytest

from oddscalc.t9a.fighter import Fighter, Height, Part

# HighElfFactory.createSpearman: Attack Value 1, Lightning Reflexes, a Spear and Fight in Extra Rank (two sources:
# --spear and --extra-ranks 1)
SPEARMEN = dict(health=1, attacks=1, offensive=4, defensive=4, strength=3, resilience=3, agility=5, discipline=8,
                spear=True, extra_ranks=1, lightning_reflexes=True)


@pytest.mark.parametrize("models, width, attacks", [
    (15, 5, 15), (15, 6, 15), (15, 7, 15), (15, 8, 15), (20, 5, 20), (20, 6, 20), (20, 7, 20), (20, 8, 20),
    (25, 5, 20), (25, 6, 24), (25, 7, 25), (25, 8, 25), (40, 5, 20), (40, 6, 24), (40, 7, 28), (40, 8, 40),
])
def test_fight_in_extra_rank_as_t9a_simulator_counts_it(models, width, attacks):
    """Its front rank and three supporting ranks (the second, the Spear's, Fight in Extra Rank's), a fourth in
    Line Formation (8 wide)."""
    unit = Fighter(models=models, width=width, **SPEARMEN)
    assert unit.strikes(unit.parts[0], 0, True) == attacks


# HighElfFactory.createHighbornLancer: cavalry, a rider (A1) on a Harnessed horse (A1)
LANCERS = dict(health=1, attacks=1, offensive=4, defensive=4, strength=3, resilience=3, agility=5, discipline=8,
               height=Height.LARGE, mount=Part(attacks=1, offensive=3, strength=3, agility=4, harnessed=True))


@pytest.mark.parametrize("models, attacks", [(5, 10), (6, 11), (7, 12), (8, 13), (9, 14), (10, 15), (11, 15)])
def test_a_harnessed_mount_makes_no_supporting_attacks_as_t9a_simulator_counts_it(models, attacks):
    """5 wide: each rider and horse of the front rank, the second rank's riders only (a third rank none)."""
    unit = Fighter(models=models, width=5, **LANCERS)
    rider, horse = unit.parts
    assert unit.strikes(rider, 0, True) + unit.strikes(horse, 0, True) == attacks


def test_great_weapons_with_lightning_reflexes_as_t9a_simulator_reads_them():
    """Lion Guard (Agility 5, a Great Weapon, Lightning Reflexes): every attack at its own Agility, none with +1 to
    hit. (Its Sword Masters' +1 to hit at Agility 6 comes from Sword Sworn, a High Elf rule oddscalc does not
    model: docs/rules.md §3.11.)"""
    guard = Fighter(models=10, width=5, health=1, attacks=1, offensive=5, defensive=5, strength=4, resilience=3,
                    agility=5, discipline=8, great_weapon=True, lightning_reflexes=True)
    part = guard.parts[0]
    assert part.step(False, 10) == 5 and part.hit_modifier == 0
    plain = Fighter(**{**guard.__dict__, "lightning_reflexes": False})
    assert plain.parts[0].step(False, 10) == 0  # without Lightning Reflexes: at step 0
