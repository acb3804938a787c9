"""The 9th Age: the options each side of a `t9a combat` has (the charger's, then the charged unit's as
`--enemy-…`), declared once here and set on the query twice (`both_sides`), and the names the query's rules
share with rosters (attack flags, re-rolls, a target's defence)."""

from __future__ import annotations

from typing import Any

from ..core.attack import option
from .attributes import game_dice
from ..output.style import plural
from .fighter import Fighter, Height
from .profiles import Hero, read_character, read_part
from .sequence import REROLL_HITS
from .stages import Reroll


def _side_options(who: str, prefix: str) -> dict[str, tuple[str, Any]]:
    """The options each side has, beyond its profile: name → (annotation, declaration), its help `who`'s."""
    bools = {
        "cannot_be_stomped": "Cannot be Stomped (Cavalry).",
        "stubborn": "Stubborn: its Break Test ignores the combat score difference.",
        "unbreakable": "Unbreakable: it passes every Break Test.",
        "battle_focus": "its attacks have Battle Focus: a natural 6 to hit is one extra hit.",
        "poison": "its attacks have Poison Attacks: a natural 6 to hit wounds without a roll.",
        "lethal_strike": "its attacks have Lethal Strike: a natural 6 to wound has AP 10 and ignores Fortitude.",
        "divine": "its attacks are Divine Attacks: a successful Aegis save is re-rolled.",
        "flaming": "its attacks are Flaming Attacks: no Fortitude save.",
        "toxic": "its attacks are Toxic Attacks: Strength 3 and AP 10 whatever its --strength and --ap.",
        "auto_wound": "its hits wound automatically.",
        "hatred": "Hatred: it re-rolls failed to-hit rolls in the first round.",
        "ignores_parry": "its attacks ignore Parry (Paired Weapons).",
        "flammable": "Flammable: Flaming Attacks at it re-roll failed wounds.",
        "parry": "Parry (a Hand Weapon and a Shield, on foot): against its enemy's attacks, Defensive Skill +1 or the "
                 "attacker's Offensive Skill, the higher.",
        "distracting": "Distracting: attacks at it -1 to hit (not with another negative to-hit modifier).",
    }
    options: dict[str, tuple[str, Any]] = {
        "height": ("Height", option(f"{who}: its models' Height: standard, large or gigantic (a Full Rank of 5, 3 "
                                    "or 1 models; Supporting Attacks at most 1, 3 or 5 each; only Standard Height is "
                                    "stomped).", Height.STANDARD)),
        "mount": ("Part | str | None", option(
            f"{who}: a mount's attacks, a second model part striking at its own Agility: 'A1 O3 S3 I3' (AP<n>, "
            "harnessed: no Supporting Attacks). Impact Hits and Stomp Attacks are then the mount's.", None,
            metavar="PROFILE", reader=lambda text: read_part(text, prefix + "mount"))),
        "stomp": ("DiceExpression | str | int | None", option(
            f"{who}: Stomp Attacks (X) of each model in base contact (1, d3, d6): automatic hits at Initiative Step 0 "
            "of every round, on a Standard Height enemy that can be stomped (t9a hits).", None, metavar="X",
            reader=lambda text: game_dice(text, prefix + "stomp"))),
        "multiple_wounds": ("DiceExpression | str | int | None", option(
            f"{who}: Multiple Wounds (X) of its attacks (2, d3, d6), capped at the enemy's Health Points.", None,
            metavar="X", reader=lambda text: game_dice(text, prefix + "multiple_wounds"))),
        "reroll_hits": ("Reroll", option(f"{who}: its to-hit rolls re-rolled: none, failed (every round), ones.",
                                         Reroll.NONE)),
        "reroll_wounds": ("Reroll", option(f"{who}: its to-wound rolls re-rolled: none, failed, ones.", Reroll.NONE)),
        "fortitude": ("int | None", option(f"{who}: Fortitude save X+ (2+ to 6+).", None, roll=True)),
        "reroll_armour": ("Reroll", option(f"{who}: re-rolls its failed armour saves (failed), only 1s (ones), or must "
                                           "re-roll its successful ones (successes).", Reroll.NONE)),
        "reroll_special": ("Reroll", option(f"{who}: the same for its Aegis or Fortitude save.", Reroll.NONE)),
        "character": ("Hero | str | None", option(
            f"{who}: a character joined to it, in its front rank: 'attacks 3 offensive 5 defensive 5 strength 4 "
            "resilience 4 agility 5 health 2' (this query's option names; discipline, armour, ap, aegis 4+, "
            "fortitude 5+, multiple-wounds X, great-weapon, battle-standard…). It strikes with its own profile, "
            "lends its Discipline while it stands, and is struck once the rank and file are gone (or in a Duel).",
            None, metavar="PROFILE", reader=lambda text: read_character(text, prefix + "character"))),
        "character_mount": ("Part | str | None", option(
            f"{who}: its character's mount, as --mount reads it ('A1 O3 S3 I3', AP<n>, harnessed): a second part "
            "of the character striking at its own Agility.", None, metavar="PROFILE",
            reader=lambda text: read_part(text, prefix + "character_mount"))),
    }
    options.update({name: ("bool", option(f"{who}: {text[0].upper()}{text[1:]}", False)) for name, text in bools.items()})
    return options


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


def both_sides(cls: type) -> type:
    """Declare each side's options (`_side_options`) on `cls` twice: the charger's, then the charged unit's."""
    annotations = cls.__dict__["__annotations__"]
    for prefix, who in SIDES:
        for name, (annotation, declared) in _side_options(who, prefix).items():
            annotations[prefix + name] = annotation
            setattr(cls, prefix + name, declared)
    return cls


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
