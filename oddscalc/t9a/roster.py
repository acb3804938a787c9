"""The 9th Age rosters: the schema of a unit and its attacks, and how an attack meets a
target unit (docs/rules.md §3).

A unit's characteristics serve twice: Offensive Skill and Strength when it attacks,
Defensive Skill, Resilience, Armour, special saves, Health Points and models when it is
the target. Each `[[unit.weapon]]` is one attack profile: melee (`attacks` from the
unit's fighting models) or shooting (`shots` at `aim`+), a number or dice (`2d6`).
"""

from __future__ import annotations

from typing import Any

from ..core.attack import Attack
from ..lists.roster import Field, Game, Schema, Unit, Weapon
from ..output.style import listed, plural
from .attributes import game_dice
from .sequence import ATTRIBUTES, TO_HIT, Defence, attack_on
from .stages import Reroll

MAIN = "health_lost"
REROLLS = ("none", "failed", "ones", "successes")


def _characteristic(help: str, required: bool = True, default: int | None = None) -> Field:
    return Field("int", help, required=required, low=1, high=10, default=default)


SCHEMA = Schema(
    unit={
        "name": Field("text", "the unit's name", required=True),
        "points": Field("int", "the unit's points", low=0, high=100_000),
        "models": Field("int", "models in the unit", required=True, low=1, high=500),
        "health": Field("int", "Health Points of each model", low=1, high=20, default=1),
        "offensive": _characteristic("Offensive Skill"),
        "defensive": _characteristic("Defensive Skill"),
        "strength": _characteristic("Strength"),
        "resilience": _characteristic("Resilience"),
        "armour": Field("int", "Armour (0 to 6: Armour 2 saves on 5+)", low=0, high=6, default=0),
        "aegis": Field("roll", "Aegis save", low=2, high=6),
        "fortitude": Field("roll", "Fortitude save", low=2, high=6),
        "flammable": Field("bool", "Flammable", default=False),
        "parry": Field("bool", "Parry (a Hand Weapon and a Shield, on foot): against melee attacks, Defensive Skill "
                               "+1 or the attacker's Offensive Skill, whichever is higher", default=False),
        "distracting": Field("bool", "Distracting: melee attacks against it -1 to hit (not with another negative "
                                     "to-hit modifier)", default=False),
        "hard_target": Field("int", "Hard Target (X): shooting at it -X to hit", low=0, high=3, default=0),
        "reroll_armour": Field("text", "the unit re-rolls its failed armour saves (failed), only 1s (ones), or must "
                                       "re-roll its successful ones (successes)", choices=REROLLS, default="none"),
        "reroll_special": Field("text", "the same for its special save (Aegis or Fortitude)", choices=REROLLS,
                                default="none"),
        "attack_value": Field("int", "each model's Attack Value, for a round of combat (grid --combat)", low=1,
                              high=10),
        "agility": Field("int", "Agility: its Initiative Step in a round of combat", low=0, high=10),
        "discipline": Field("int", "Discipline, for its Break Test", low=2, high=10),
        "width": Field("int", "models in its front rank (default 5)", low=1, high=10, default=5),
        "standard": Field("bool", "a Standard Bearer: +1 to its combat score", default=False),
        "swiftstride": Field("bool", "Swiftstride: its Flee and Pursuit rolls are Maximised", default=False),
        "great_weapon": Field("bool", "it fights with Great Weapons: at Initiative Step 0 in a round of combat",
                              default=False),
        "lightning_reflexes": Field("bool", "Lightning Reflexes: +1 to hit in a round of combat (with Great Weapons: "
                                            "at its Agility's step instead)", default=False),
        "spear": Field("bool", "it fights with Spears: Fight in Extra Rank; charged in its front, +2 Agility and +1 "
                               "AP in the first round (their own +1 AP in its melee weapon's ap)", default=False),
        "extra_ranks": Field("int", "Fight in Extra Rank from other rules: one more supporting rank each", low=0,
                             high=2, default=0),
        "impact_hits": Field("dice", "Impact Hits (X) of each front-rank model when it charges (1, d3, d6)"),
        "charge_attacks": Field("int", "+ Attack Value of its own attacks when it charges (Devastating Charge)", low=0,
                                high=2, default=0),
        "charge_strength": Field("int", "+ Strength of its own attacks when it charges (a Lance +2, Devastating Charge)",
                                 low=0, high=3, default=0),
        "charge_ap": Field("int", "+ Armour Penetration of its own attacks when it charges (a Lance +2, Devastating "
                                  "Charge)", low=0, high=3, default=0),
        "stomp": Field("dice", "Stomp Attacks (X) of each model in base contact, at Initiative Step 0 (1, d6)"),
        "height": Field("text", "the models' Height: a Full Rank of 5, 3 or 1, Supporting Attacks at most 1, 3 or 5",
                        choices=("standard", "large", "gigantic"), default="standard"),
        "mount": Field("text", "a mount's close combat attacks, a second model part: 'A1 O3 S3 I3' (AP<n>, "
                               "harnessed)"),
        "cannot_be_stomped": Field("bool", "Cannot be Stomped (Cavalry)", default=False),
        "stubborn": Field("bool", "Stubborn: its Break Test ignores the combat score difference", default=False),
        "unbreakable": Field("bool", "Unbreakable: it passes every Break Test", default=False),
        "character": Field("text", "a character joined to it, in its front rank, as t9a combat --character reads it: "
                                   "'attacks 3 offensive 5 defensive 5 strength 4 resilience 4 agility 5 health 2'"),
        "character_mount": Field("text", "its character's mount, as t9a combat --character-mount reads it: "
                                         "'A1 O3 S3 I3' (AP<n>, harnessed)"),
    },
    weapon={
        "name": Field("text", "the attack's name", required=True),
        "kind": Field("text", "melee, shooting or automatic (hits with no to-hit roll: Breath Attack, Impact Hits, "
                              "Stomp, Grind)", choices=("melee", "shooting", "automatic"), default="melee"),
        "attacks": Field("dice", "attacks (melee), shots (shooting) or hits (automatic) of the whole unit",
                         required=True),
        "strength": _characteristic("the attack's Strength (default: the unit's)", required=False),
        "offensive": _characteristic("the melee attack's Offensive Skill (default: the unit's; a mount's own)",
                                     required=False),
        "ap": Field("int", "Armour Penetration", low=0, high=10, default=0),
        "aim": Field("roll", "Aim (shooting)", low=2, high=6),
        "modifier": Field("int", "to-hit modifier (shooting: -1 long range ...; melee: hit modifier)", low=-6,
                          high=6, default=0),
        "multiple_wounds": Field("dice", "Multiple Wounds (X)"),
        "attributes": Field("list", "attack attributes", choices=ATTRIBUTES, default=()),
    },
)


def check_unit(unit: Unit) -> tuple[str, str] | None:
    """Refuse what the schema alone cannot: a shooting attack needs its Aim; the game's dice only."""
    for name in ("impact_hits", "stomp"):
        if unit[name] is not None:
            game_dice(unit[name], name)
    if unit["mount"] is not None:
        from .profiles import read_part

        read_part(unit["mount"], "mount")
    if unit["character"] is not None:
        from .profiles import read_character, read_part

        read_character(unit["character"], "character")
        if unit["character_mount"] is not None:
            read_part(unit["character_mount"], "character_mount")
    elif unit["character_mount"] is not None:
        return "character_mount", "a mount needs its character: give the unit's character too"
    if unit["reroll_special"] != "none" and unit["aegis"] is None and unit["fortitude"] is None:
        return "reroll_special", "a re-roll of special saves needs the unit's special save: aegis or fortitude"
    for weapon in unit.weapons:
        game_dice(weapon["attacks"], "attacks")  # 2d10 is refused: the game rolls D6 and D3
        if weapon["multiple_wounds"] is not None:
            game_dice(weapon["multiple_wounds"], "multiple_wounds")
        if "toxic" in weapon["attributes"] and (weapon["strength"] is not None or weapon["ap"]):
            field = "strength" if weapon["strength"] is not None else "ap"
            return field, f"{weapon.name!r} has Toxic Attacks: always Strength 3 and AP 10 (leave {field} out)"
        if weapon["kind"] == "shooting" and weapon["aim"] is None:
            return "aim", f"{weapon.name!r} shoots: give its aim, like \"4+\""
        if weapon["kind"] == "melee" and weapon["aim"] is not None:
            return "aim", f"{weapon.name!r} is a melee attack: aim is for shooting"
        if weapon["kind"] == "shooting" and weapon["offensive"] is not None:
            return "offensive", f"{weapon.name!r} shoots: Offensive Skill is for melee attacks"
        if weapon["kind"] == "shooting" and "hatred" in weapon["attributes"]:  # §3.8: the first Round of Combat
            return "attributes", f"{weapon.name!r} shoots: Hatred re-rolls close combat hits (reroll-hit-ones or none)"
        both = {"auto-wound"} & set(weapon["attributes"]) and {"lethal-strike", "reroll-wounds",
                                                                 "reroll-wound-ones"} & set(weapon["attributes"])
        if both:
            return "attributes", f"{weapon.name!r} wounds automatically: {sorted(both)[0]} needs a to-wound roll"
        if weapon["kind"] == "automatic":
            for field in ("aim", "offensive"):
                if weapon[field] is not None:
                    return field, f"{weapon.name!r} hits automatically: it rolls no die to hit"
            if weapon["modifier"]:
                return "modifier", f"{weapon.name!r} hits automatically: no to-hit modifier applies"
            needing = [name for name in TO_HIT if name in weapon["attributes"]]
            if needing:
                return "attributes", f"{weapon.name!r} hits automatically: {needing[0]} needs a to-hit roll"
    return None


def defence(unit: Unit) -> Defence:
    """What a unit brings as the target of an attack."""
    return Defence(**{name: unit[name] for name in ("defensive", "resilience", "armour", "aegis", "fortitude",
                                                    "health", "models", "flammable", "parry", "distracting",
                                                    "hard_target", "reroll_armour", "reroll_special")})


def matchup(attacker: Unit, weapon: Weapon, target: Unit) -> Attack:
    """The attack sequence of `weapon` against `target` (every attack can reach every target)."""
    return attack_on(weapon["kind"], weapon["attacks"], offensive=weapon["offensive"] or attacker["offensive"],
                     strength=weapon["strength"] or attacker["strength"], ap=weapon["ap"],
                     attributes=weapon["attributes"], multiple_wounds=weapon["multiple_wounds"],
                     target=defence(target), aim=weapon["aim"], modifier=weapon["modifier"])


def kill_threshold(target: Unit, attack: Any = None) -> int:
    """Health points that wipe out the target unit."""
    return int(target["models"] * target["health"])


COMBAT_FIELDS = ("attack_value", "agility", "discipline")


def cannot_fight(unit: Unit) -> str | None:
    """Why a unit cannot take part in a round of combat (None: it can): a field it lacks, or more models or Health
    Points than a combat takes."""
    from .fighter import MAX_HEALTH, MAX_MODELS

    missing = [name for name in COMBAT_FIELDS if unit[name] is None]
    if missing:
        return f"no {listed(missing)} (the list gives none a round of combat can read)"
    if unit["models"] > MAX_MODELS:
        return f"{unit['models']} models (a round of combat takes 1 to {MAX_MODELS})"
    if unit["health"] > MAX_HEALTH:
        return f"{unit['health']} Health Points each (a round of combat takes 1 to {MAX_HEALTH})"
    return None


def combat(attacker: Unit, target: Unit) -> Any:
    """The attacker's charge on the target (docs/rules.md §3.11): a round of close combat, each side with its
    first melee attack's Strength, AP and Offensive Skill (its own characteristics without one), its front rank
    no wider than its models (a lone monster of a roster 5 wide fights 1 wide); None where a side cannot fight
    (`cannot_fight`)."""
    from .combat import Combat
    from .sides import DEFENCE

    values: dict[str, Any] = {}
    for prefix, unit in (("", attacker), ("enemy_", target)):
        if cannot_fight(unit) is not None:
            return None
        melee = next((weapon for weapon in unit.weapons if weapon["kind"] == "melee"), None)
        values.update({prefix + name: value for name, value in (
            ("models", unit["models"]), ("width", min(unit["width"], unit["models"])), ("health", unit["health"]),
            ("attacks", unit["attack_value"]), ("offensive", (melee and melee["offensive"]) or unit["offensive"]),
            ("defensive", unit["defensive"]), ("strength", (melee and melee["strength"]) or unit["strength"]),
            ("resilience", unit["resilience"]), ("agility", unit["agility"]), ("discipline", unit["discipline"]),
            ("armour", unit["armour"]), ("ap", melee["ap"] if melee else 0), ("aegis", unit["aegis"]),
            ("standard", unit["standard"]), ("swiftstride", unit["swiftstride"]),
            ("great_weapon", unit["great_weapon"]), ("lightning_reflexes", unit["lightning_reflexes"]),
            ("spear", unit["spear"]), ("extra_ranks", unit["extra_ranks"]), ("height", unit["height"]),
            ("mount", unit["mount"]), ("stomp", unit["stomp"]), ("cannot_be_stomped", unit["cannot_be_stomped"]),
            ("stubborn", unit["stubborn"]), ("unbreakable", unit["unbreakable"]), ("character", unit["character"]),
            ("character_mount", unit["character_mount"]),
            *((name, unit[name]) for name in DEFENCE))})
        values.update(_combat_attributes(prefix, melee))
    return Combat(**values, impact_hits=attacker["impact_hits"],
                  **{name: attacker[name] for name in ("charge_attacks", "charge_strength", "charge_ap")})


def _combat_attributes(prefix: str, melee: Weapon | None) -> dict[str, bool | Reroll | str | None]:
    """A side's attack attributes in a round of combat, its first melee attack's: Combat's options."""
    from .sides import ATTACK_FLAGS, REROLLS

    names = set(melee["attributes"]) if melee else set()
    values: dict[str, bool | Reroll | str | None] = {
        prefix + option: True for option, name in ATTACK_FLAGS.items() if name in names}
    values.update({prefix + option: reroll for (option, reroll), name in REROLLS.items() if name in names})
    values[prefix + "multiple_wounds"] = melee["multiple_wounds"] if melee else None
    return values


def describe_unit(unit: Unit) -> str:
    saves = [f"{name} {unit[name]}+" for name in ("aegis", "fortitude") if unit[name] is not None]
    saves += [name for name in ("flammable", "parry", "distracting") if unit[name]]
    saves += [f"hard target ({unit['hard_target']})"] if unit["hard_target"] else []
    saves += [f"re-roll {unit[field]} {what} saves" for field, what in (("reroll_armour", "armour"),
                                                                       ("reroll_special", "special"))
              if unit[field] != "none"]
    fights = [f"{word} {unit[name]}" for word, name in (("A", "attack_value"), ("Agility", "agility"),
                                                         ("Discipline", "discipline")) if unit[name] is not None]
    fights += [f"{unit['width']} wide"] if unit["width"] != 5 else []
    fights += [name.replace("_", " ") for name in ("standard", "swiftstride", "great_weapon", "lightning_reflexes",
                                                   "spear") if unit[name]]
    fights += [plural(unit["extra_ranks"], "extra rank")] if unit["extra_ranks"] else []
    fights += [f"charging +{unit[name]} {what}" for name, what in (("charge_attacks", "Attack Value"),
                                                                   ("charge_strength", "Strength"), ("charge_ap", "AP"))
               if unit[name]]
    fights += [f"{unit['height']} height"] if unit["height"] != "standard" else []
    fights += [f"mount {unit['mount']}"] if unit["mount"] is not None else []
    fights += [f"{what} ({unit[name]})" for what, name in (("Impact Hits", "impact_hits"), ("Stomp Attacks", "stomp"))
               if unit[name] is not None]
    fights += [name.replace("_", " ") for name in ("cannot_be_stomped", "stubborn", "unbreakable") if unit[name]]
    fights += [f"with a character ({unit['character']})"] if unit["character"] is not None else []
    return (f"{unit['models']} × {unit['health']} HP, OS {unit['offensive']} DS {unit['defensive']} "
            f"S {unit['strength']} R {unit['resilience']} Armour {unit['armour']}"
            + "".join(f", {save}" for save in saves + fights))


def describe_weapon(weapon: Weapon) -> str:
    how = (f"{plural(weapon['attacks'], 'shot')} at {weapon['aim']}+" if weapon["kind"] == "shooting" else
           f"{plural(weapon['attacks'], 'automatic hit')}" if weapon["kind"] == "automatic" else
           plural(weapon["attacks"], "attack"))
    parts = [how]
    if weapon["offensive"] is not None:
        parts.append(f"OS {weapon['offensive']}")
    if weapon["strength"] is not None:
        parts.append(f"S {weapon['strength']}")
    if weapon["ap"]:
        parts.append(f"AP {weapon['ap']}")
    if weapon["modifier"]:
        parts.append(f"{weapon['modifier']:+d} to hit")
    if weapon["multiple_wounds"] is not None:
        parts.append(f"Multiple Wounds ({weapon['multiple_wounds']})")
    return ", ".join(parts + list(weapon["attributes"]))


GAME = Game(name="t9a", title="The 9th Age", schema=SCHEMA, main=MAIN, matchup=matchup,
            kill_threshold=kill_threshold, check_unit=check_unit, describe_unit=describe_unit,
            describe_weapon=describe_weapon, assault=combat, engages="combat",
            cannot_engage=cannot_fight, engages_apart="cannot charge (not ranked)",
            engages_none="no unit here can charge these targets (attack_value, agility and discipline given on "
                         "both sides)", kind="height")
