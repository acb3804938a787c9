"""Dust Tactics rosters: the schema of a unit and its weapons, and how a weapon meets a
target unit (docs/rules.md §1).

A weapon line gives `N/D` per target type and armour class (docs/rules.md §1.2): soldier
classes 1–4, vehicle 1–7, aircraft 1–3, `-` where it cannot attack. `count` is how many
of the unit's models fire it (their dice add up, for every kind of weapon). Special
weapons name their pattern instead: `phaser = "2z3"`, `salvo = "3/2-5/2-7/2"` with
`charges`, `incendiary = 1` or `ap_incendiary = 1` (dice per target model). A target
unit's `save` is the cover save it makes in the grid (none in the open; `--set save=hit`
puts every target in soft cover).
"""

from __future__ import annotations

from typing import Any

import re

from ..lists.roster import Field, Game, Schema, Unit, Weapon
from .attacks import Phaser, Salvo, WeaponLine
from .die import Artillery
from .shot import Reach, WeaponRange
from .incendiary import ArmourPiercingIncendiary, Incendiary

MAIN = "damage"
CLASSES = {"soldier": 4, "vehicle": 7, "aircraft": 3}
_ENTRY = re.compile(r"^\s*([0-9]+)\s*(?:/\s*([0-9]+)\s*)?$")

SCHEMA = Schema(
    unit={
        "name": Field("text", "the unit's name", required=True),
        "points": Field("int", "the unit's points", low=0, high=10_000),
        "kind": Field("text", "soldier, vehicle or aircraft", required=True, choices=tuple(CLASSES)),
        "armour": Field("int", "armour class (soldier 1-4, vehicle 1-7, aircraft 1-3)", required=True, low=1,
                        high=7),
        "models": Field("int", "models in the unit", low=1, high=50, default=1),
        "damage_points": Field("int", "damage points of each model", low=1, high=20, default=1),
        "save": Field("text", "cover save in the grid: none, hit or miss", choices=("none", "hit", "miss"),
                      default="none"),
        "resilient": Field("bool", "Damage Resilient", default=False),
    },
    weapon={
        "name": Field("text", "the weapon's name", required=True),
        "count": Field("int", "models firing it (their dice add up)", low=1, high=20, default=1),
        "soldier": Field("list", "N/D against soldier classes 1-4", choices=(), default=None),
        "vehicle": Field("list", "N/D against vehicle classes 1-7", choices=(), default=None),
        "aircraft": Field("list", "N/D against aircraft classes 1-3", choices=(), default=None),
        "phaser": Field("text", "phaser XzY, against any target", default=None),
        "salvo": Field("text", "salvo A/X-B/X-..., against any target", default=None),
        "charges": Field("int", "salvo charges spent (salvo only)", low=1, high=10, default=None),
        "incendiary": Field("int", "incendiary X/+: dice per target model", low=1, high=10, default=None),
        "ap_incendiary": Field("int", "armour-piercing incendiary X/skull: dice per target model", low=1, high=10,
                               default=None),
        "range": Field("text", "range in squares: N, X-Y, U, C or A (grid --distance keeps the weapons that reach)",
                       default=None),
        "arcing": Field("bool", "an arcing X-Y weapon (a mortar): fires over obstacles", default=False),
    },
)


def _line(values: tuple[str, ...], armour: int) -> tuple[int, int] | None:
    """The N/D entry for an armour class, or None for '-'."""
    entry = values[armour - 1]
    match = _ENTRY.match(entry)
    return (int(match.group(1)), int(match.group(2) or 1)) if match else None


def check_unit(unit: Unit) -> tuple[str, str] | None:
    """Refuse what the schema alone cannot: the lines' entries and the weapon's kind."""
    if unit["armour"] > CLASSES[unit["kind"]]:
        return "armour", f"a {unit['kind']}'s armour class is 1 to {CLASSES[unit['kind']]}"
    for weapon in unit.weapons:
        kinds = [key for key in ("phaser", "salvo", "incendiary", "ap_incendiary") if weapon[key] is not None]
        lines = [key for key in CLASSES if weapon[key] is not None]
        if len(kinds) + bool(lines) != 1:
            return "weapon", (f"{weapon.name!r} needs either weapon lines (soldier/vehicle/aircraft) or one of "
                              "phaser, salvo, incendiary, ap_incendiary")
        if weapon["charges"] is not None and weapon["salvo"] is None:
            return "charges", f"{weapon.name!r}: charges are spent by a salvo weapon only"
        for key in lines:
            values = weapon[key]
            if len(values) != CLASSES[key] or any(v != "-" and not _ENTRY.match(v) for v in values):
                return key, (f"{weapon.name!r}: expected {CLASSES[key]} entries like \"2/1\" or \"-\" "
                             f"(classes 1 to {CLASSES[key]})")
        if weapon["range"] is not None or weapon["arcing"]:
            WeaponRange.parse(weapon["range"] if weapon["range"] is not None else "", weapon["arcing"])
        for key, parse in (("phaser", Phaser.parse), ("salvo", Salvo.parse)):
            if weapon[key] is not None:
                parse(weapon[key], **({"charges": _charges(weapon)} if key == "salvo" else {}))
    return None


def _charges(weapon: Weapon) -> int:
    return weapon["charges"] or 1


def matchup(attacker: Unit, weapon: Weapon, target: Unit) -> Any:
    """The attack `weapon` makes on `target`, or None when it cannot attack it."""
    save, resilient, count = target["save"], target["resilient"], weapon["count"]
    if weapon["phaser"] is not None:
        return Phaser.parse(weapon["phaser"], resilient=resilient, count=count)  # ignores cover (§1.5)
    if weapon["salvo"] is not None:
        return Salvo.parse(weapon["salvo"], charges=_charges(weapon), save=save, resilient=resilient, count=count)
    if weapon["incendiary"] is not None:
        return Incendiary(weapon["incendiary"], target["models"], save=save, resilient=resilient, count=count)
    if weapon["ap_incendiary"] is not None:  # no cover save and no Damage Resilient: the unit is removed (§1.8)
        return ArmourPiercingIncendiary(weapon["ap_incendiary"], target["models"], count=count)
    values = weapon[target["kind"]]
    entry = _line(values, target["armour"]) if values is not None else None
    if entry is None:
        return None
    dice, damage = entry
    artillery = weapon["range"] is not None and WeaponRange.parse(weapon["range"]).reach is Reach.ARTILLERY
    # range A is artillery, which ignores cover (§1.9): fired direct, the way that needs no observer
    return WeaponLine(dice, damage, save=save, resilient=resilient, count=count,
                      artillery=Artillery.DIRECT if artillery else None)


def reaches(weapon: Weapon, squares: int) -> bool | None:
    """Whether the weapon reaches a target `squares` away (docs/rules.md §1.13); None without a range."""
    if weapon["range"] is None:
        return None
    return WeaponRange.parse(weapon["range"], weapon["arcing"]).reaches(squares)


def kill_threshold(target: Unit, attack: Any = None) -> int:
    """The main outcome that wipes out the target: all its damage points (or `destroyed`)."""
    if isinstance(attack, ArmourPiercingIncendiary):
        return 1
    return int(target["models"] * target["damage_points"])


def describe_unit(unit: Unit) -> str:
    models, points = unit["models"], unit["damage_points"]
    text = (f"{unit['kind']} class {unit['armour']}, {models} model{'s' * (models != 1)} × {points} damage "
            f"point{'s' * (points != 1)}")
    extras = [f"{unit['save']}-save" if unit["save"] != "none" else "", "resilient" if unit["resilient"] else ""]
    return text + "".join(f", {extra}" for extra in extras if extra)


def describe_weapon(weapon: Weapon) -> str:
    if weapon["phaser"] is not None:
        text = f"phaser {weapon['phaser']}"
    elif weapon["salvo"] is not None:
        charges = _charges(weapon)
        text = f"salvo {weapon['salvo']}, {charges} charge{'s' * (charges != 1)}"
    elif weapon["incendiary"] is not None:
        text = f"incendiary {weapon['incendiary']}/+"
    elif weapon["ap_incendiary"] is not None:
        text = f"AP incendiary {weapon['ap_incendiary']}/skull"
    else:
        text = "; ".join(f"{key} {' '.join(weapon[key])}" for key in CLASSES if weapon[key] is not None)
    reach = ([f"range {WeaponRange.parse(weapon['range'], weapon['arcing'])}"] if weapon["range"] is not None else [])
    return (f"{weapon['count']} × " if weapon["count"] > 1 else "") + text + "".join(f", {r}" for r in reach)


GAME = Game(name="dust", title="Dust Tactics", schema=SCHEMA, main=MAIN, matchup=matchup,
            kill_threshold=kill_threshold, check_unit=check_unit, describe_unit=describe_unit,
            describe_weapon=describe_weapon, reaches=reaches, kind="kind")
