"""The 9th Age: a side of a `t9a combat`, declared once (`Side`; the charger's, `Charger`, adds what only a charge
gives): the query has it twice, the charger's options and the charged unit's as `--enemy-…`
(`core/attack.py:side`); and the names the query's rules share with rosters (attack flags, re-rolls, a target's
defence)."""

from __future__ import annotations

import dataclasses

from ..core.attack import side_option
from ..core.dice import DiceExpression
from ..output.style import plural
from .attributes import game_dice
from .fighter import MAX_HEALTH, MAX_MODELS, Fighter, Height, Part
from .profiles import Hero, read_character, read_part
from .sequence import REROLL_HITS
from .stages import Reroll, read_armour
from ..core.record import record


@record(kw_only=True)
class Side:
    """One side's main unit in a combat, declared once: its profile and its rules. The charger and the charged
    unit are two of it (`Combat.charger`, `Combat.charged`); the query's options are its fields, the charged
    unit's as `--enemy-…` (`core/attack.py:option_fields`)."""

    models: int = side_option(f"{{who}}: models in the unit, 1 to {MAX_MODELS}.", metavar="N")
    width: int = side_option("{who}: models in its front rank, 1 to 10.", metavar="W")
    health: int = side_option(f"{{who}}: each model's Health Points, 1 to {MAX_HEALTH}.", 1, metavar="H")
    attacks: int = side_option("{who}: each model's Attack Value, 1 to 10 (a second-rank model makes one Supporting "
                               "Attack).", metavar="A")
    offensive: int = side_option("{who}: Offensive Skill, 1 to 10.", metavar="O")
    defensive: int = side_option("{who}: Defensive Skill, 1 to 10.", metavar="D")
    strength: int = side_option("{who}: the Strength of its attacks, 1 to 10.", metavar="S")
    resilience: int = side_option("{who}: Resilience, 1 to 10.", metavar="R")
    agility: int = side_option("{who}: Agility, 0 to 10: its Initiative Step.", metavar="I")
    discipline: int = side_option("{who}: Discipline, 2 to 10, for its Break Test.", metavar="V")
    armour: int = side_option("{who}: Armour, 0 to 6 (Armour 2 saves on 5+), or the save it gives (5+).", 0,
                              metavar="A", reader=lambda name: lambda text: read_armour(text, name))
    ap: int = side_option("{who}: Armour Penetration of its attacks, 0 to 10.", 0, metavar="P")
    aegis: int | None = side_option("{who}: Aegis save X+ (2+ to 6+).", None, roll=True)
    standard: bool = side_option("{who}: a Standard Bearer, +1 to its combat score.", False)
    swiftstride: bool = side_option("{who}: Swiftstride: its Flee and Pursuit rolls are Maximised.", False)
    great_weapon: bool = side_option("{who}: Great Weapons: it strikes at Initiative Step 0 (their +2 Strength and AP "
                                     "are its --{side}strength and --{side}ap).", False)
    lightning_reflexes: bool = side_option("{who}: Lightning Reflexes: +1 to hit; with Great Weapons, no +1 but it "
                                           "strikes at its Agility's step.", False)
    spear: bool = side_option("{who}: Spears: Fight in Extra Rank; charged in its front, +2 Agility and +1 AP in the "
                              "first round (their own +1 AP is its --{side}ap).", False)
    extra_ranks: int = side_option("{who}: Fight in Extra Rank from other rules, 0 to 2: one more supporting rank "
                                   "each.", 0, metavar="N")
    height: Height = side_option("{who}: its models' Height: standard, large or gigantic (a Full Rank of 5, 3 or 1 "
                                 "models; Supporting Attacks at most 1, 3 or 5 each; only Standard Height is "
                                 "stomped).", Height.STANDARD)
    mount: Part | str | None = side_option(
        "{who}: a mount's attacks, a second model part striking at its own Agility: 'A1 O3 S3 I3' (AP<n>, harnessed: "
        "no Supporting Attacks). Impact Hits and Stomp Attacks are then the mount's.", None, metavar="PROFILE",
        reader=lambda name: lambda text: read_part(text, name))
    stomp: DiceExpression | str | int | None = side_option(
        "{who}: Stomp Attacks (X) of each model in base contact (1, d3, d6): automatic hits at Initiative Step 0 of "
        "every round, on a Standard Height enemy that can be stomped (t9a hits).", None, metavar="X",
        reader=lambda name: lambda text: game_dice(text, name))
    multiple_wounds: DiceExpression | str | int | None = side_option(
        "{who}: Multiple Wounds (X) of its attacks (2, d3, d6), capped at the enemy's Health Points.", None,
        metavar="X", reader=lambda name: lambda text: game_dice(text, name))
    reroll_hits: Reroll = side_option("{who}: its to-hit rolls re-rolled: none, failed (every round), ones.",
                                      Reroll.NONE)
    reroll_wounds: Reroll = side_option("{who}: its to-wound rolls re-rolled: none, failed, ones.", Reroll.NONE)
    fortitude: int | None = side_option("{who}: Fortitude save X+ (2+ to 6+).", None, roll=True)
    reroll_armour: Reroll = side_option("{who}: re-rolls its failed armour saves (failed), only 1s (ones), or must "
                                        "re-roll its successful ones (successes).", Reroll.NONE)
    reroll_special: Reroll = side_option("{who}: the same for its Aegis or Fortitude save.", Reroll.NONE)
    character: Hero | str | None = side_option(
        "{who}: a character joined to it, in its front rank: 'attacks 3 offensive 5 defensive 5 strength 4 "
        "resilience 4 agility 5 health 2' (this query's option names; discipline, armour, ap, aegis 4+, fortitude "
        "5+, multiple-wounds X, great-weapon, battle-standard…). It strikes with its own profile, lends its "
        "Discipline while it stands, and is struck once the rank and file are gone (or in a Duel).", None,
        metavar="PROFILE", reader=lambda name: lambda text: read_character(text, name))
    character_mount: Part | str | None = side_option(
        "{who}: its character's mount, as --mount reads it ('A1 O3 S3 I3', AP<n>, harnessed): a second part of the "
        "character striking at its own Agility.", None, metavar="PROFILE",
        reader=lambda name: lambda text: read_part(text, name))
    cannot_be_stomped: bool = side_option("{who}: Cannot be Stomped (Cavalry).", False)
    stubborn: bool = side_option("{who}: Stubborn: its Break Test ignores the combat score difference.", False)
    unbreakable: bool = side_option("{who}: Unbreakable: it passes every Break Test.", False)
    battle_focus: bool = side_option("{who}: Its attacks have Battle Focus: a natural 6 to hit is one extra hit.",
                                     False)
    poison: bool = side_option("{who}: Its attacks have Poison Attacks: a natural 6 to hit wounds without a roll.",
                               False)
    lethal_strike: bool = side_option("{who}: Its attacks have Lethal Strike: a natural 6 to wound has AP 10 and "
                                      "ignores Fortitude.", False)
    divine: bool = side_option("{who}: Its attacks are Divine Attacks: a successful Aegis save is re-rolled.", False)
    flaming: bool = side_option("{who}: Its attacks are Flaming Attacks: no Fortitude save.", False)
    toxic: bool = side_option("{who}: Its attacks are Toxic Attacks: Strength 3 and AP 10 whatever its "
                              "--{side}strength and --{side}ap.", False)
    auto_wound: bool = side_option("{who}: Its hits wound automatically.", False)
    hatred: bool = side_option("{who}: Hatred: it re-rolls failed to-hit rolls in the first round.", False)
    ignores_parry: bool = side_option("{who}: Its attacks ignore Parry (Paired Weapons).", False)
    flammable: bool = side_option("{who}: Flammable: Flaming Attacks at it re-roll failed wounds.", False)
    parry: bool = side_option("{who}: Parry (a Hand Weapon and a Shield, on foot): against its enemy's attacks, "
                              "Defensive Skill +1 or the attacker's Offensive Skill, the higher.", False)
    distracting: bool = side_option("{who}: Distracting: attacks at it -1 to hit (not with another negative to-hit "
                                    "modifier).", False)


@record(kw_only=True)
class Charger(Side):
    """The charging side: a side, and what only a charge gives (Impact Hits, its first round's bonuses)."""

    impact_hits: DiceExpression | str | int | None = side_option(
        "{who}: Impact Hits (X) of each front-rank model (1, d3, d6): automatic hits at its Strength and AP at "
        "Initiative Step 10 in the first round (t9a hits).", None, metavar="X",
        reader=lambda name: lambda text: game_dice(text, name))
    charge_attacks: int = side_option("{who}: + Attack Value of its own attacks in the first round, when Charging "
                                      "(Devastating Charge (+X Att)), 0 to 2.", 0, metavar="N")
    charge_strength: int = side_option("{who}: + Strength of its own attacks in the first round, when Charging (a "
                                       "Lance +2, a Light Lance +1, Devastating Charge (+X Str)), 0 to 3.", 0,
                                       metavar="N")
    charge_ap: int = side_option("{who}: + Armour Penetration of its own attacks in the first round, when Charging (a "
                                 "Lance +2, a Light Lance +1, Devastating Charge (+X AP)), 0 to 3.", 0, metavar="N")


SIDE_NAMES = frozenset(field.name for field in dataclasses.fields(Side))  # a side's options, less its prefix
CHARGER_NAMES = frozenset(field.name for field in dataclasses.fields(Charger))
SIDES = (("", "The charger"), ("enemy_", "The charged unit"))


def dashed(prefix: str) -> str:
    """A side's options as typed: "" or "enemy-"."""
    return prefix.replace("_", "-")


ATTACK_FLAGS = {"battle_focus": "battle-focus", "poison": "poison", "lethal_strike": "lethal-strike",
                "divine": "divine", "flaming": "flaming", "toxic": "toxic", "auto_wound": "auto-wound",
                "hatred": "hatred", "ignores_parry": "ignores-parry"}  # option → the attribute's name (sequence)
DEFENCE = ("fortitude", "flammable", "parry", "distracting", "reroll_armour", "reroll_special")  # as Fighter names them
TARGET_OPTIONS = {"defensive", "resilience", "armour", "aegis", "health", "models", *DEFENCE}  # a Melee's, the target's
REROLLS = {("reroll_hits", Reroll.FAILED): REROLL_HITS, ("reroll_hits", Reroll.ONES): "reroll-hit-ones",
           ("reroll_wounds", Reroll.FAILED): "reroll-wounds", ("reroll_wounds", Reroll.ONES): "reroll-wound-ones"}


def side_words(unit: Fighter, hero: Hero | None) -> str:
    """A side of a combat in words, as a query's description gives it: its unit's profile and its character."""
    words = [f"{plural(unit.models, 'model')} {unit.width} wide", f"H{unit.health}", f"A{unit.attacks}",
             f"O{unit.offensive} D{unit.defensive} S{unit.strength} R{unit.resilience}",
             f"Agility {unit.agility}", f"Discipline {unit.discipline}"]
    words += [f"armour {unit.armour}"] if unit.armour else []
    words += [f"AP {unit.ap}"] if unit.ap else []
    words += [f"aegis {unit.aegis}+"] if unit.aegis else []
    words += [word for word, on in (("standard", unit.standard), ("swiftstride", unit.swiftstride),
                                    ("great weapons", unit.great_weapon),
                                    ("lightning reflexes", unit.lightning_reflexes), ("spears", unit.spear)) if on]
    words += [f"{plural(unit.extra_ranks, 'extra rank')}"] if unit.extra_ranks else []
    words += [f"{unit.height.value} height"] if unit.height is not Height.STANDARD else []
    words += [f"mount {unit.mount.describe()}"] if unit.mount is not None else []
    words += [f"Impact Hits ({unit.impact})"] if unit.impact is not None else []
    words += [f"charging +{bonus} {what}" for bonus, what in zip(unit.charge, ("Attack Value", "Strength", "AP"))
              if bonus]
    words += [f"Stomp Attacks ({unit.stomp})"] if unit.stomp is not None else []
    words += [word for word, on in (("cannot be stomped", unit.cannot_be_stomped), ("stubborn", unit.stubborn),
                                    ("unbreakable", unit.unbreakable)) if on]
    words += list(unit.attributes)
    words += [f"Multiple Wounds ({unit.multiple_wounds})"] if unit.multiple_wounds is not None else []
    words += [f"fortitude {unit.fortitude}+"] if unit.fortitude else []
    words += [name for name in ("flammable", "parry", "distracting") if getattr(unit, name)]
    words += [f"re-roll {value} {what} saves" for value, what in ((unit.reroll_armour, "armour"),
                                                                  (unit.reroll_special, "special"))
              if value != "none"]
    words += [f"with a character ({hero})"] if hero is not None else []
    words += [f"its mount {hero.fighter.mount.describe()}"] if hero is not None and hero.fighter.mount else []
    return "(" + ", ".join(words) + ")"
