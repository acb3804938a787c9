"""Epic Armageddon rosters: the schema of a formation and its weapons, and how a weapon
meets a target formation (RULES.md §2).

A roster has no board, so two readings are fixed here: a shooting weapon fires its
shots at the whole formation, and a barrage covers `UNITS_PER_TEMPLATE` units per
template (the first plus the table's extra templates), at most the whole formation.
"""

from __future__ import annotations

from .epic import Barrage, Shoot, barrage_row
from .epic_saves import Weapon as Ability
from .profiles import Field, Schema, Unit, Weapon

MAIN = "kills"
UNITS_PER_TEMPLATE = 3  # units a 7.4 cm template usually covers in a formation spread at 5 cm
SPECIALS = ("disrupt", "lance", "titan-killer", "ignore-cover", "sniper", "macro")
KINDS = ("infantry", "light-vehicle", "armoured-vehicle")

SCHEMA = Schema(
    unit={
        "name": Field("text", "the formation's name", required=True),
        "points": Field("int", "the formation's points", low=0, high=100_000),
        "kind": Field("text", "infantry, light-vehicle or armoured-vehicle: AP or AT fire", required=True,
                      choices=KINDS),
        "units": Field("int", "units in the formation", required=True, low=1, high=100),
        "armour": Field("save", "armour save", required=True, low=2, high=6),
        "cover_save": Field("roll", "infantry cover save where it stands (none when open)", low=2, high=6),
        "reinforced": Field("bool", "reinforced armour", default=False),
        "invulnerable": Field("bool", "invulnerable save", default=False),
    },
    weapon={
        "name": Field("text", "the weapon's name", required=True),
        "shots": Field("int", "shots of this weapon the formation fires", low=1, high=200, default=1),
        "ap": Field("roll", "AP to-hit value", low=2, high=6),
        "at": Field("roll", "AT to-hit value", low=2, high=6),
        "mw": Field("roll", "macro-weapon to-hit value (against any target)", low=2, high=6),
        "bp": Field("int", "barrage points (a barrage instead of shots)", low=1, high=18),
        "special": Field("list", "special abilities (macro: a macro-weapon barrage)", choices=SPECIALS, default=()),
    },
)


def check_unit(unit: Unit) -> tuple[str, str] | None:
    """Refuse what the schema alone cannot: weapons that cannot fire at anything."""
    for weapon in unit.weapons:
        if not any(weapon[key] is not None for key in ("ap", "at", "mw", "bp")):
            return "weapon", f"{weapon.name!r} needs ap, at, mw or bp"
        if weapon["bp"] is not None and any(weapon[key] is not None for key in ("ap", "at", "mw")):
            return "weapon", f"{weapon.name!r}: a barrage (bp) takes its to-hit from the barrage table, not ap/at/mw"
    if unit["reinforced"] and unit["armour"] is None:
        return "reinforced", "reinforced armour needs an armour save"
    return None


def _to_hit(weapon: Weapon, target: Unit) -> tuple[int | None, Ability]:
    """The to-hit value against this target and the ability it fires with."""
    if weapon["mw"] is not None:
        return weapon["mw"], Ability.macro
    ap, at = weapon["ap"], weapon["at"]
    kind = target["kind"]
    choices = [ap] if kind == "infantry" else [at] if kind == "armoured-vehicle" else [ap, at]
    usable = [value for value in choices if value is not None]
    return (min(usable) if usable else None), Ability.normal


def matchup(attacker: Unit, weapon: Weapon, target: Unit):
    """The attack `weapon` makes on `target`, or None when it cannot hurt it."""
    special = set(weapon["special"])
    ability = Ability.titan_killer if "titan-killer" in special else Ability.lance if "lance" in special else None
    defence = dict(
        units=target["units"], armour=target["armour"], cover_save=target["cover_save"],
        reinforced=target["reinforced"], invulnerable=target["invulnerable"], disrupt="disrupt" in special,
        ignore_cover="ignore-cover" in special, sniper="sniper" in special,
    )
    if weapon["bp"] is not None:
        barrage_ability = Ability.macro if "macro" in special else ability or Ability.normal
        templates = 1 + barrage_row(weapon["bp"]).extra_templates
        covered = min(target["units"], UNITS_PER_TEMPLATE * templates)
        defence.update(units=covered, formation=target["units"])
        return Barrage(bp=weapon["bp"], at=target["kind"] == "armoured-vehicle", weapon=barrage_ability, **defence)
    to_hit, fired = _to_hit(weapon, target)
    if to_hit is None:
        return None
    return Shoot(shots=weapon["shots"], to_hit=to_hit, weapon=ability or fired, **defence)


def kill_threshold(target: Unit, attack=None) -> int:
    """Kills that destroy the whole target formation."""
    return target["units"]


def describe(unit: Unit) -> str:
    armour = "none" if unit["armour"] is None else f"{unit['armour']}+"
    extras = [word for word in ("reinforced", "invulnerable") if unit[word]]
    return f"{unit['kind']}, {unit['units']} units, armour {armour}" + (f" ({', '.join(extras)})" if extras else "")


def describe_weapon(weapon: Weapon) -> str:
    parts = [f"{key.upper()} {weapon[key]}+" for key in ("ap", "at", "mw") if weapon[key] is not None]
    if weapon["bp"] is not None:
        parts.append(f"BP {weapon['bp']}")
    else:
        parts.insert(0, f"{weapon['shots']} shots")
    return ", ".join(parts + list(weapon["special"]))
