"""One attack of The 9th Age on a unit, as the studies build it (docs/rules.md §3): a roster's cell and each blow of
a round of combat name their attack attributes (`ATTRIBUTES`) and give the target's defence (`Defence`); the
attack sequence is `t9a melee`'s, `t9a shoot`'s or `t9a hits`'."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..core.attack import Attack
from .attacks import Melee, T9AHits, T9AShoot
from ..core.record import record

ATTRIBUTES = ("battle-focus", "poison", "lethal-strike", "divine", "flaming", "toxic", "hatred", "reroll-wounds",
              "ignores-parry", "reroll-hit-ones", "reroll-wound-ones", "auto-wound")
TO_HIT = ("battle-focus", "poison", "hatred", "reroll-hit-ones")  # attributes that need a to-hit roll
# a round of combat's too: failed hits re-rolled every round (Hatred: the first round only)
REROLL_HITS = "reroll-hits"


@record
class Defence:
    """What the target of an attack brings: its profile, its saves and the rules that act on attacks at it."""

    defensive: int
    resilience: int
    armour: int = 0
    aegis: int | None = None
    fortitude: int | None = None
    health: int = 1
    models: int | None = None
    flammable: bool = False
    parry: bool = False  # against melee: Defensive Skill +1, or the attacker's Offensive Skill, the higher
    distracting: bool = False  # melee at it -1 to hit, not with another negative modifier
    hard_target: int = 0  # shooting at it -X to hit
    reroll_armour: str = "none"
    reroll_special: str = "none"


def attack_on(kind: str, count: Any, *, offensive: int | None, strength: int | None, ap: int,
              attributes: Collection[str], multiple_wounds: Any, target: Defence, aim: int | None = None,
              modifier: int = 0) -> Attack:
    """`count` attacks (melee), shots (shooting) or hits (automatic) with these attributes on `target`."""
    toxic = "toxic" in attributes
    common = dict(
        strength=None if toxic else strength, ap=0 if toxic else ap, toxic=toxic,
        resilience=target.resilience, armour=target.armour, aegis=target.aegis, fortitude=target.fortitude,
        health=target.health, flammable=target.flammable and "auto-wound" not in attributes,  # no wound to re-roll
        reroll_armour=target.reroll_armour, reroll_special=target.reroll_special, models=target.models,
        multiple_wounds=multiple_wounds, battle_focus="battle-focus" in attributes, poison="poison" in attributes,
        lethal_strike="lethal-strike" in attributes, divine="divine" in attributes, flaming="flaming" in attributes,
        auto_wound="auto-wound" in attributes,
        reroll_wounds="failed" if "reroll-wounds" in attributes else "ones" if "reroll-wound-ones" in attributes
        else "none",
    )
    if kind == "automatic":  # §3.10: no to-hit roll
        return T9AHits(hits=count, **common)
    common["reroll_hits"] = ("failed" if {"hatred", REROLL_HITS} & set(attributes) else
                             "ones" if "reroll-hit-ones" in attributes else "none")
    if kind == "shooting":  # Hard Target (X): -X to hit
        assert aim is not None  # a roster refuses a shooting attack without its Aim (roster.check_unit)
        return T9AShoot(shots=count, aim=aim, modifier=modifier - target.hard_target, **common)
    assert offensive is not None  # a melee attack has its Offensive Skill, or its unit's (a required field)
    defensive = target.defensive
    if target.parry and "ignores-parry" not in attributes:  # Paired Weapons ignore Parry
        defensive = min(max(defensive + 1, offensive), 10)
    if target.distracting and modifier >= 0:
        modifier -= 1
    return Melee(attacks=count, offensive=offensive, defensive=defensive, hit_modifier=modifier, **common)
