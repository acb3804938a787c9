"""Epic Armageddon rosters: the schema of a formation and its weapons, and how a weapon
meets a target formation (docs/rules.md §2).

A roster has no board, so two readings are fixed here: a shooting weapon fires its
shots at the whole formation, and a barrage's templates cover `UNITS_PER_TEMPLATE`
units each, at most the whole formation (`--set per_template=K` changes it, as
`epic barrage --per-template K` does). A target formation with a `cover_save` is in
cover (−1 to hit, docs/rules.md §2.1) unless it says `in_cover = false`; `in_cover = true`
puts a formation without a cover save (vehicles) in cover.
"""

from __future__ import annotations

from dataclasses import replace

from ..roster import Field, Game, Schema, Unit, Weapon
from .attacks import Barrage
from .saves import Ability
from .shooting import EpicShoot, Volley

MAIN = "kills"
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
        "in_cover": Field("bool", "in cover: -1 to hit (default: true when it has a cover_save)"),
        "reinforced": Field("bool", "reinforced armour", default=False),
        "invulnerable": Field("bool", "invulnerable save", default=False),
    },
    weapon={
        "name": Field("text", "the weapon's name", required=True),
        "shots": Field("int", "shots of this weapon the formation fires (default 1; not for a barrage)", low=1,
                       high=200),
        "ap": Field("roll", "AP to-hit value", low=2, high=6),
        "at": Field("roll", "AT to-hit value", low=2, high=6),
        "mw": Field("roll", "macro-weapon to-hit value (against any target)", low=2, high=6),
        "bp": Field("int", "barrage points (a barrage instead of shots)", low=1, high=18),
        "special": Field("list", "special abilities (macro: a macro-weapon barrage)", choices=SPECIALS, default=()),
    },
)


def check_unit(unit: Unit) -> tuple[str, str] | None:
    """Refuse what the schema alone cannot: weapons that cannot fire, fields that would be ignored."""
    for weapon in unit.weapons:
        if not any(weapon[key] is not None for key in ("ap", "at", "mw", "bp")):
            return "weapon", f"{weapon.name!r} needs ap, at, mw or bp"
        if weapon["bp"] is not None and any(weapon[key] is not None for key in ("ap", "at", "mw")):
            return "weapon", f"{weapon.name!r}: a barrage (bp) takes its to-hit from the barrage table, not ap/at/mw"
        if weapon["bp"] is not None and weapon["shots"] is not None:
            return "shots", f"{weapon.name!r}: a barrage rolls once per unit under its templates, not per shot"
        if weapon["bp"] is None and "macro" in weapon["special"]:
            return "special", f"{weapon.name!r}: 'macro' marks a macro-weapon barrage; shots take mw = \"X+\""
    if unit["reinforced"] and unit["armour"] is None:
        return "reinforced", "reinforced armour needs an armour save"
    return None


def in_cover(target: Unit) -> bool:
    """Whether attacks on the target take −1 to hit: its own field, else whether it has a cover save."""
    return target["in_cover"] if target["in_cover"] is not None else target["cover_save"] is not None


def _to_hit(weapon: Weapon, target: Unit) -> tuple[int | None, Ability]:
    """The to-hit value against this target and the ability it fires with."""
    if weapon["mw"] is not None:
        return weapon["mw"], Ability.MACRO
    ap, at = weapon["ap"], weapon["at"]
    kind = target["kind"]
    choices = [ap] if kind == "infantry" else [at] if kind == "armoured-vehicle" else [ap, at]
    usable = [value for value in choices if value is not None]
    return (min(usable) if usable else None), Ability.NORMAL


def _ability(weapon: Weapon) -> Ability | None:
    special = set(weapon["special"])
    return Ability.TITAN_KILLER if "titan-killer" in special else Ability.LANCE if "lance" in special else None


def matchup(attacker: Unit, weapon: Weapon, target: Unit):
    """The attack `weapon` makes on `target`, or None when it cannot hurt it."""
    special = set(weapon["special"])
    ability = _ability(weapon)
    defence = dict(
        armour=target["armour"], cover_save=target["cover_save"], in_cover=in_cover(target),
        reinforced=target["reinforced"], invulnerable=target["invulnerable"], disrupt="disrupt" in special,
        ignore_cover="ignore-cover" in special, sniper="sniper" in special,
    )
    if weapon["bp"] is not None:
        barrage_ability = Ability.MACRO if "macro" in special else ability or Ability.NORMAL
        return Barrage(bp=weapon["bp"], formation=target["units"], at=target["kind"] == "armoured-vehicle",
                       weapon=barrage_ability, **defence)
    to_hit, fired = _to_hit(weapon, target)
    if to_hit is None:
        return None
    return EpicShoot(shots=weapon["shots"] or 1, to_hit=to_hit, units=target["units"], weapon=ability or fired,
                     **defence)


def together(attacker: Unit, target: Unit) -> EpicShoot | None:
    """Every shooting weapon of the formation fired as one attack (docs/rules.md §2.3): the
    normal volleys first, then the macro-weapon volleys onto the units left. None when there is
    nothing to combine: fewer than two weapons that can hurt the target, no normal fire, or
    weapons whose special abilities differ (an attack has one set)."""
    shooting = [weapon for weapon in attacker.weapons if weapon["bp"] is None]
    if len({frozenset(weapon["special"]) for weapon in shooting}) != 1:
        return None
    normal, macro = [], []
    for weapon in shooting:
        to_hit, fired = _to_hit(weapon, target)
        if to_hit is not None:
            (macro if fired is Ability.MACRO else normal).append(Volley(weapon["shots"] or 1, to_hit, fired is Ability.MACRO))
    if len(normal) + len(macro) < 2 or not normal:
        return None
    first, rest = normal[0], normal[1:]
    mw = dict(mw_shots=macro[0].shots, mw_to_hit=macro[0].to_hit) if macro else {}
    template = next(attack for weapon in shooting if (attack := matchup(attacker, weapon, target)) is not None)
    return replace(template, shots=first.shots, to_hit=first.to_hit, weapon=_ability(shooting[0]) or Ability.NORMAL,
                   volley=tuple(rest + macro[1:]), **mw)


def kill_threshold(target: Unit, attack=None) -> int:
    """Kills that destroy the whole target formation."""
    return target["units"]


def describe_unit(unit: Unit) -> str:
    armour = "none" if unit["armour"] is None else f"{unit['armour']}+"
    extras = [word for word in ("reinforced", "invulnerable") if unit[word]]
    if unit["cover_save"] is not None:
        extras.append(f"cover save {unit['cover_save']}+")
    if in_cover(unit):
        extras.append("in cover")
    return f"{unit['kind']}, {unit['units']} units, armour {armour}" + (f" ({', '.join(extras)})" if extras else "")


def describe_weapon(weapon: Weapon) -> str:
    parts = [f"{key.upper()} {weapon[key]}+" for key in ("ap", "at", "mw") if weapon[key] is not None]
    if weapon["bp"] is not None:
        parts.append(f"BP {weapon['bp']}")
    else:
        parts.insert(0, f"{weapon['shots'] or 1} shots")
    return ", ".join(parts + list(weapon["special"]))


GAME = Game(name="epic", title="Epic Armageddon", schema=SCHEMA, main=MAIN, matchup=matchup,
            kill_threshold=kill_threshold, check_unit=check_unit, describe_unit=describe_unit,
            describe_weapon=describe_weapon, together=together, from_attacker=(("suppressed", "firing_units", "units"),))
