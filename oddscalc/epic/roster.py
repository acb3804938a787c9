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

from dataclasses import fields, replace
from typing import Any, cast

from ..core.attack import Attack
from ..errors import InputError
from ..lists.roster import Field, Game, Schema, Unit, Weapon
from ..output.style import plural
from .attacks import UNITS_PER_TEMPLATE, Barrage
from .engine_profiles import EngineProfile
from .saves import Ability
from .shooting import EpicShoot
from .defences import NOT_GIVEN
from .target import MAX_WAR_ENGINES
from .volleys import Volley
from .war_engines import Critical, Front, Reach

MAIN = "kills"
SPECIALS = ("disrupt", "lance", "titan-killer", "ignore-cover", "sniper", "macro")
KINDS = ("infantry", "light-vehicle", "armoured-vehicle", "war-engine", "aircraft", "spacecraft")
OTHER_KINDS = ("infantry", "light-vehicle", "armoured-vehicle")  # beside war engines in a formation
OFF_TABLE = ("aircraft", "spacecraft")  # no target of a ground attack: anti-aircraft fire is not modelled

SCHEMA = Schema(
    unit={
        "name": Field("text", "the formation's name", required=True),
        "points": Field("int", "the formation's points", low=0, high=100_000),
        "kind": Field("text", "infantry, light-vehicle, armoured-vehicle or war-engine (aircraft and spacecraft are "
                              "no target of ground fire)", required=True, choices=KINDS),
        "units": Field("int", "units in the formation (with vehicles: its infantry; war-engine: its war engines)",
                       required=True, low=1, high=100),
        "armour": Field("save", "armour save", required=True, low=2, high=6),
        "cover_save": Field("roll", "infantry cover save where it stands (none when open)", low=2, high=6),
        "in_cover": Field("bool", "in cover: -1 to hit (default: true when it has a cover_save)"),
        "reinforced": Field("bool", "reinforced armour", default=False),
        "invulnerable": Field("bool", "invulnerable save", default=False),
        "thick_rear_armour": Field("bool", "thick rear armour: crossfire's -1 to saves does not apply", default=False),
        "vehicles": Field("int", "a mixed formation's armoured vehicles beside its infantry: AP fire hits the "
                                 "infantry, AT fire the vehicles (docs/rules.md §2.3)", low=0, high=100, default=0),
        "vehicle_armour": Field("save", "the vehicles' armour save (needed with vehicles)", low=2, high=6,
                                default=NOT_GIVEN),
        "vehicle_reinforced": Field("bool", "the vehicles have reinforced armour", default=False),
        "front": Field("text", "which part of a mixed formation is in front: a weapon with both AP and AT fires at "
                               "it, a macro-weapon or barrage hits it", choices=("infantry", "vehicles"),
                       default="infantry"),
        "cc": Field("save", "close-combat value, for assaults (grid --assault): 2+ to 6+, or none", low=2, high=6,
                    default=NOT_GIVEN),
        "ff": Field("save", "firefight value, for assaults: 2+ to 6+, or none", low=2, high=6, default=NOT_GIVEN),
        "extra_attacks": Field("int", "extra attacks of each unit in an assault (+E A)", low=0, high=3, default=0),
        "fearless": Field("bool", "fearless: no extra hits when it loses an assault", default=False),
        "know_no_fear": Field("bool", "They Shall Know No Fear: half its blast markers count in an assault's result, "
                                      "half its extra hits when it loses", default=False),
        "first_strike": Field("bool", "first strike in assaults: the enemy units it kills do not attack",
                              default=False),
        "assault": Field("list", "the formation in an assault, kind by kind (docs/rules.md §2.9), when its units "
                                 "fight otherwise than one cc and ff: each 'N [DC<d>] cc X+ ff X+ armour A+|none "
                                 "[reinforced] [invulnerable] [fearless] [inspiring] [extra-attacks E] [extra-at cc|ff] "
                                 "[extra-ability macro|titan-killer] [tk-damage D] [critical C]', the first "
                                 "in front, like '6 cc 4+ ff 3+ armour 4+' and '2 cc 6+ ff 5+ armour 5+'; given, it "
                                 "replaces units, cc, ff and armour in assaults", default=()),
        "damage_capacity": Field("int", "each war engine's damage capacity (kind war-engine)", low=1, high=20),
        "shields": Field("int", "each war engine's void shields or power fields", low=0, high=20, default=0),
        "critical": Field("text", "what a war engine's critical hit does during the attack", choices=tuple(
            critical.value for critical in Critical), default="none"),
        "other_engines": Field("list", "war engines of other profiles in the formation, behind the first (docs/rules.md "
                                       "§2.8), each 'N DC<d> [armour A+|none] [shields S] [critical C] [reinforced] "
                                       "[invulnerable] [thick-rear-armour]', like '2 DC1 armour 5+ shields 1'",
                               default=()),
        "other_units": Field("int", "a war-engine formation's other units: they count toward breaking, and with "
                                    "other_armour fire that can hurt them reaches them (docs/rules.md §2.8)", low=0,
                             high=100, default=0),
        "other_armour": Field("save", "the other units' armour save: given, hits go front to back over the war "
                                      "engines and the other units that the fire can hurt", low=2, high=6,
                              default=NOT_GIVEN),
        "other_reinforced": Field("bool", "the other units have reinforced armour", default=False),
        "other_kind": Field("text", "the other units' kind (which fire can hurt them)", choices=OTHER_KINDS,
                            default="infantry"),
        "others_in_front": Field("bool", "the other units stand in front of the war engines", default=False),
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
        "tk_damage": Field("dice", "a titan killer's damage against a war engine (d3, d6, d3+1; default 1)"),
        "alternative": Field("text", "the weapon whose other mode this is: never fired together with it"),
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
        if weapon["tk_damage"] is not None and "titan-killer" not in weapon["special"]:
            return "tk_damage", f"{weapon.name!r}: a titan killer's damage needs special = [\"titan-killer\"]"
        if weapon["alternative"] is not None and weapon["alternative"].casefold() not in {
                other.name.casefold() for other in unit.weapons if other is not weapon}:
            return "alternative", f"{weapon.name!r}: no weapon {weapon['alternative']!r} in this unit"
    if unit["reinforced"] and unit["armour"] is None:
        return "reinforced", "reinforced armour needs an armour save"
    engine = unit["kind"] == "war-engine"
    if engine and unit["damage_capacity"] is None:
        return "damage_capacity", "a war-engine formation needs each war engine's damage capacity"
    for name, default in (("damage_capacity", None), ("shields", 0), ("critical", "none"), ("other_engines", ()),
                          ("other_units", 0),
                          ("other_armour", NOT_GIVEN), ("other_reinforced", False), ("other_kind", "infantry"),
                          ("others_in_front", False)):
        if not engine and unit[name] != default:
            return name, "only applies to kind = \"war-engine\""
    try:
        engines = _other_engines(unit)
    except InputError as error:
        return "other_engines", f"{error.value!r}: {error.allowed}"
    try:
        _assault_kinds(unit)
    except InputError as error:
        return "assault", f"{error.value!r}: {error.allowed}"
    if engines and unit["units"] + sum(profile.count for profile in engines) > MAX_WAR_ENGINES:
        return "other_engines", f"expected at most {MAX_WAR_ENGINES} war engines in all, units included"
    if engine and not unit["other_units"]:
        for name, default in (("other_armour", NOT_GIVEN), ("other_reinforced", False), ("other_kind", "infantry"),
                              ("others_in_front", False)):
            if unit[name] != default:
                return name, "only applies with other_units (the formation's units beside its war engines)"
    if unit["other_reinforced"] and unit["other_armour"] in (None, NOT_GIVEN):
        return "other_reinforced", "reinforced armour needs the other units' armour save"
    if unit["others_in_front"] and unit["other_armour"] == NOT_GIVEN:
        return "others_in_front", "needs the other units' armour save (other_armour): without it no fire reaches them"
    if unit["vehicles"] and unit["kind"] != "infantry":
        return "vehicles", "a mixed formation's vehicles are beside its infantry: kind = \"infantry\""
    if not unit["vehicles"]:
        for name, default in (("vehicle_armour", NOT_GIVEN), ("vehicle_reinforced", False), ("front", "infantry")):
            if unit[name] != default:
                return name, "only applies with vehicles (a mixed formation)"
    elif unit["vehicle_armour"] == NOT_GIVEN:
        return "vehicle_armour", 'a mixed formation\'s vehicles need their armour save: 2+ to 6+, or "none"'
    if unit["vehicle_reinforced"] and unit["vehicle_armour"] is None:
        return "vehicle_reinforced", "reinforced armour needs an armour save"
    return None


def _other_engines(unit: Unit) -> tuple[EngineProfile, ...]:
    """The war engines of other profiles behind the first (`other_engines`), read."""
    return tuple(EngineProfile.parse(text, "other_engines") for text in unit["other_engines"])


def in_cover(target: Unit) -> bool:
    """Whether attacks on the target take −1 to hit: its own field, else whether it has a cover save."""
    return target["in_cover"] if target["in_cover"] is not None else target["cover_save"] is not None


def _to_hit(weapon: Weapon, kind: str) -> tuple[int | None, Ability]:
    """The to-hit value against a target of this kind and the ability it fires with (AP fire hits
    infantry, AT fire armoured vehicles and war engines, either light vehicles; a macro-weapon anything)."""
    if weapon["mw"] is not None:
        return weapon["mw"], Ability.MACRO
    ap, at = weapon["ap"], weapon["at"]
    choices = [ap] if kind == "infantry" else [at] if kind in ("armoured-vehicle", "war-engine") else [ap, at]
    usable = [value for value in choices if value is not None]
    return (min(usable) if usable else None), Ability.NORMAL


def _ability(weapon: Weapon) -> Ability | None:
    special = set(weapon["special"])
    return Ability.TITAN_KILLER if "titan-killer" in special else Ability.LANCE if "lance" in special else None


def _front(target: Unit) -> dict[str, Any]:
    """The part of a mixed formation in front: its units, kind and defence."""
    if target["front"] == "vehicles":
        return dict(units=target["vehicles"], kind="armoured-vehicle", armour=target["vehicle_armour"],
                    reinforced=target["vehicle_reinforced"], cover_save=None, invulnerable=False, in_cover=False)
    return dict(units=target["units"], kind="infantry", armour=target["armour"], reinforced=target["reinforced"],
                cover_save=target["cover_save"], invulnerable=target["invulnerable"], in_cover=in_cover(target))


def matchup(attacker: Unit, weapon: Weapon, target: Unit) -> Attack | None:
    """The attack `weapon` makes on `target`, or None when it cannot hurt it."""
    kind = target["kind"]
    if kind in OFF_TABLE:
        return None
    special = set(weapon["special"])
    ability = _ability(weapon)
    defence = dict(
        armour=target["armour"], cover_save=target["cover_save"], in_cover=in_cover(target),
        reinforced=target["reinforced"], invulnerable=target["invulnerable"], disrupt="disrupt" in special,
        ignore_cover="ignore-cover" in special, sniper="sniper" in special,
        thick_rear_armour=target["thick_rear_armour"],
    )
    if ability is Ability.TITAN_KILLER and weapon["tk_damage"] not in (None, "1"):
        defence["tk_damage"] = weapon["tk_damage"]
    barrage_ability = Ability.MACRO if "macro" in special else ability or Ability.NORMAL
    if kind == "war-engine":  # docs/rules.md §2.8: the attack aims at the war engines
        defence.update(war_engines=target["units"], damage_capacity=target["damage_capacity"],
                       shields=target["shields"], critical=target["critical"], cover_save=None)
        if target["other_engines"]:
            defence.update(engine=_other_engines(target))
        if weapon["bp"] is not None:
            if target["other_units"] and target["other_armour"] != NOT_GIVEN:  # the templates past the war engines
                defence.update(other_armour=target["other_armour"], other_reinforced=target["other_reinforced"],
                               at=target["other_kind"] == "armoured-vehicle")
            return Barrage(bp=weapon["bp"], units=target["other_units"] or None, weapon=barrage_ability, **defence)
        return _at_war_engines(weapon, target, defence, ability)
    if target["vehicles"]:
        return _mixed(weapon, target, defence, ability, barrage_ability)
    if weapon["bp"] is not None:
        return Barrage(bp=weapon["bp"], formation=target["units"], at=kind == "armoured-vehicle",
                       weapon=barrage_ability, **defence)
    to_hit, fired = _to_hit(weapon, kind)
    if to_hit is None:
        return None
    return EpicShoot(shots=weapon["shots"] or 1, to_hit=to_hit, units=target["units"], weapon=ability or fired,
                     **defence)


def _at_war_engines(weapon: Weapon, target: Unit, defence: dict[str, Any], ability: Ability | None) -> Attack | None:
    """A weapon at a formation of war engines and its other units (docs/rules.md §2.8). Fire that can hurt
    both (a macro-weapon, a titan killer, AT fire beside vehicles) goes front to back over both when the
    roster gives the other units' armour; AT fire beside infantry goes to the war engines; AP fire, which
    cannot hurt a war engine, to the other units it can hurt."""
    shots, others = weapon["shots"] or 1, target["other_units"]
    to_hit, fired = _to_hit(weapon, "war-engine")
    reached = others and target["other_armour"] != NOT_GIVEN
    both = fired is Ability.MACRO or ability is Ability.TITAN_KILLER or target["other_kind"] != "infantry"
    if to_hit is not None and not (reached and both):
        return EpicShoot(shots=shots, to_hit=to_hit, units=others, weapon=ability or fired, **defence)
    if not reached:
        return None
    mixed = dict(units=others, other_armour=target["other_armour"], other_reinforced=target["other_reinforced"],
                 **defence)
    if to_hit is not None:
        return EpicShoot(shots=shots, to_hit=to_hit, weapon=ability or fired, reach=Reach.BOTH,
                         front=Front.OTHERS if target["others_in_front"] else Front.ENGINES, **mixed)
    to_hit, fired = _to_hit(weapon, target["other_kind"])  # AP fire: only the other units
    if to_hit is None:
        return None
    return EpicShoot(shots=shots, to_hit=to_hit, weapon=ability or fired, reach=Reach.OTHERS, **mixed)


def _mixed(weapon: Weapon, target: Unit, defence: dict[str, Any], ability: Ability | None,
           barrage_ability: Ability) -> Attack | None:
    """A weapon at a mixed formation (docs/rules.md §2.3): AP fire at the infantry, AT fire at the vehicles,
    a weapon with both at the part in front; a barrage or macro-weapon at the part in front."""
    total = target["units"] + target["vehicles"]
    front = _front(target)
    part = {**defence, **{key: value for key, value in front.items() if key not in ("units", "kind")}}
    if weapon["bp"] is not None:
        from .attacks import barrage_row

        under = min(front["units"], UNITS_PER_TEMPLATE * (1 + barrage_row(weapon["bp"]).extra_templates))
        return Barrage(bp=weapon["bp"], units=under, formation=total, at=front["kind"] == "armoured-vehicle",
                       weapon=barrage_ability, **part)
    to_hit, fired = _to_hit(weapon, front["kind"])
    if fired is Ability.MACRO or ability is Ability.TITAN_KILLER:
        if to_hit is None:  # a titan killer with no to-hit value against the part in front
            return None
        return EpicShoot(shots=weapon["shots"] or 1, to_hit=to_hit, units=front["units"], formation=total,
                         weapon=ability or fired, **part)
    shots = weapon["shots"] or 1
    ap, at = weapon["ap"], weapon["at"]
    mixed = dict(units=target["units"], vehicles=target["vehicles"], vehicle_armour=target["vehicle_armour"],
                 vehicle_reinforced=target["vehicle_reinforced"], weapon=ability or Ability.NORMAL, **defence)
    if ap is not None and (at is None or target["front"] == "infantry"):
        return EpicShoot(shots=shots, to_hit=ap, **mixed)
    if at is not None:
        return EpicShoot(shots=0, to_hit=at, at_shots=shots, at_to_hit=at, **mixed)
    return None


FIRE = ("shots", "to_hit", "weapon", "mw_shots", "mw_to_hit", "at_shots", "at_to_hit", "volley")


def together(attacker: Unit, target: Unit) -> EpicShoot | None:
    """Every shooting weapon of the formation fired as one attack (docs/rules.md §2.3): the normal
    volleys first, then the macro-weapon volleys onto the units left (AT volleys at a mixed
    formation's vehicles). A weapon's other mode (`alternative`) is not fired with it. None when
    there is nothing to combine: fewer than two weapons that can hurt the target, or weapons whose
    special abilities, or attacks on the target, differ (an attack has one set)."""
    shooting = [weapon for weapon in attacker.weapons if weapon["bp"] is None and weapon["alternative"] is None]
    if len({frozenset(weapon["special"]) for weapon in shooting}) != 1:
        return None
    attacks: list[Any] = [attack for weapon in shooting if (attack := matchup(attacker, weapon, target)) is not None]
    if len(attacks) < 2:
        return None
    shared = [{field.name: getattr(attack, field.name) for field in fields(attack) if field.name not in FIRE}
              for attack in attacks]
    abilities = {attack.weapon for attack in attacks if attack.weapon is not Ability.MACRO}
    if any(fields != shared[0] for fields in shared) or len(abilities) > 1:
        return None
    volleys = [volley for attack in attacks for volley in attack.fire]
    normal = [v for v in volleys if not v.macro and not v.anti_tank]
    macro = [v for v in volleys if v.macro]
    anti_tank = [v for v in volleys if v.anti_tank]
    ability = next(iter(abilities), Ability.NORMAL)
    if macro and normal and attacks[0].reaches is not Reach.ENGINES:  # refused: give them apart (§2.8)
        return None
    if not normal and not anti_tank:  # macro-weapons only: the first is --shots with --weapon macro
        return cast(EpicShoot, replace(attacks[0], shots=macro[0].shots, to_hit=macro[0].to_hit, weapon=Ability.MACRO,
                                       mw_shots=0, mw_to_hit=None, at_shots=0, at_to_hit=None,
                                       volley=tuple(macro[1:])))
    first = normal[0] if normal else Volley(0, anti_tank[0].to_hit)
    extra = dict(mw_shots=macro[0].shots, mw_to_hit=macro[0].to_hit) if macro else dict(mw_shots=0, mw_to_hit=None)
    extra.update(at_shots=anti_tank[0].shots, at_to_hit=anti_tank[0].to_hit) if anti_tank else \
        extra.update(at_shots=0, at_to_hit=None)
    return cast(EpicShoot, replace(attacks[0], shots=first.shots, to_hit=first.to_hit, weapon=ability,
                                   volley=tuple(normal[1:] + macro[1:] + anti_tank[1:]), **extra))


def _assault_kinds(unit: Unit) -> list[Any] | None:
    """The formation's kinds in an assault (docs/rules.md §2.9): its `assault` list, or one kind of its units,
    cc and ff (war engines with their damage capacity); None where it cannot be fought: no cc or ff, or a mixed
    formation (vehicles, other units or war engines beside the first) without its `assault` kinds."""
    from .kinds import Kind

    if unit["assault"]:
        return [Kind.parse(text, "assault") for text in unit["assault"]]
    if unit["vehicles"] or unit["other_units"] or unit["other_engines"]:
        return None
    if unit["cc"] == NOT_GIVEN or unit["ff"] == NOT_GIVEN:
        return None
    engine = unit["kind"] == "war-engine"
    return [Kind(unit["units"], unit["cc"], unit["ff"], unit["armour"], reinforced=unit["reinforced"],
                 invulnerable=unit["invulnerable"], fearless=unit["fearless"], extra_attacks=unit["extra_attacks"],
                 capacity=unit["damage_capacity"] if engine else None,
                 critical=Critical(unit["critical"]) if engine else Critical.NONE)]


def cannot_assault(unit: Unit) -> str | None:
    """Why a formation takes no part in an assault (None: it can): an aircraft or spacecraft, or no kinds to fight
    with (`_assault_kinds`)."""
    if unit["kind"] in OFF_TABLE:
        return f"{'an aircraft' if unit['kind'] == 'aircraft' else 'a spacecraft'}: no ground assault"
    if _assault_kinds(unit) is None:
        if unit["vehicles"] or unit["other_units"] or unit["other_engines"]:
            return "a mixed formation without its assault kinds (assault = [...])"
        return "no cc or ff value"
    return None


def assault(attacker: Unit, target: Unit) -> Attack | None:
    """The attacker's assault on the target (docs/rules.md §2.9): every unit of both formations in it, kind by
    kind, those in base contact by CC (all of them, unless `--set in-contact=K`), the target's cover save its
    first kind's. None where a side cannot be fought (`cannot_assault`)."""
    from .assault import Assault

    sides = (attacker, target)
    if any(cannot_assault(unit) is not None for unit in sides):
        return None
    values: dict[str, Any] = {}
    for prefix, unit in zip(("", "enemy_"), sides):
        kinds = _assault_kinds(unit)
        if kinds is None:
            return None
        main = kinds[0]
        values.update({prefix + name: value for name, value in (
            ("units", main.count), ("cc", main.cc), ("ff", main.ff), ("armour", main.armour),
            ("in_contact", main.in_contact), ("reinforced", main.reinforced), ("invulnerable", main.invulnerable),
            ("fearless", main.fearless), ("extra_attacks", main.extra_attacks), ("extra_at", main.extra_at),
            ("damage_capacity", main.capacity), ("critical", main.critical), ("cc_dice", main.cc_dice),
            ("other", tuple(kinds[1:])), ("first_strike", unit["first_strike"]),
            ("extra_ability", main.extra_ability), ("tk_damage", main.tk_damage), ("inspiring", main.inspiring),
            ("know_no_fear", unit["know_no_fear"]))})
    return Assault(**values, enemy_cover_save=target["cover_save"])


def kill_threshold(target: Unit, attack: Any = None) -> int:
    """Kills that destroy the whole target formation: every war engine of a war-engine formation, and its other
    units when the attack reaches them (its kills then count them too); in an assault, every unit and every point
    of damage on a war engine (the kills it counts)."""
    if attack is not None and hasattr(attack, "target_units"):
        return int(attack.target_units)
    others = target["other_units"] if attack is not None and "other_kills" in attack.outcomes else 0
    return int(target["units"] + target["vehicles"] + others + sum(profile.count for profile in _other_engines(target)))


def describe_unit(unit: Unit) -> str:
    armour = "none" if unit["armour"] is None else f"{unit['armour']}+"
    extras = [word.replace("_", " ") for word in ("reinforced", "invulnerable", "thick_rear_armour") if unit[word]]
    if unit["cover_save"] is not None:
        extras.append(f"cover save {unit['cover_save']}+")
    if in_cover(unit):
        extras.append("in cover")
    assault = [f"{name.upper()} {'none' if unit[name] is None else f'{unit[name]}+'}" for name in ("cc", "ff")
               if unit[name] != NOT_GIVEN]
    assault += [f"+{unit['extra_attacks']} A"] if unit["extra_attacks"] else []
    extras += assault + [word.replace("_", " ") for word in ("fearless", "first_strike", "know_no_fear") if unit[word]]
    extras += [f"in assaults {'; '.join(unit['assault'])}"] if unit["assault"] else []
    if unit["kind"] == "war-engine":
        extras += [f"DC {unit['damage_capacity']}", plural(unit["shields"], "shield"), f"critical {unit['critical']}"]
        extras += [f"behind them {text}" for text in map(str, _other_engines(unit))]
        if unit["other_units"]:
            others = plural(unit["other_units"], "other unit")
            if unit["other_armour"] != NOT_GIVEN:
                theirs = "none" if unit["other_armour"] is None else f"{unit['other_armour']}+"
                others += (f" ({unit['other_kind']}, armour {theirs}{' reinforced' if unit['other_reinforced'] else ''}"
                           f", {'in front of' if unit['others_in_front'] else 'behind'} the war engines)")
            extras.append(others)
    words = f"{unit['kind']}, {plural(unit['units'], 'unit')}, armour {armour}"
    if unit["vehicles"]:
        vehicle = "none" if unit["vehicle_armour"] is None else f"{unit['vehicle_armour']}+"
        words += (f", {plural(unit['vehicles'], 'vehicle')}, armour {vehicle}" + (" reinforced" if unit["vehicle_reinforced"]
                                                                          else "") + f", {unit['front']} in front")
    return words + (f" ({', '.join(extras)})" if extras else "")


def describe_weapon(weapon: Weapon) -> str:
    parts = [f"{key.upper()} {weapon[key]}+" for key in ("ap", "at", "mw") if weapon[key] is not None]
    if weapon["bp"] is not None:
        parts.append(f"BP {weapon['bp']}")
    else:
        parts.insert(0, plural(weapon["shots"] or 1, "shot"))
    specials = [f"titan-killer ({weapon['tk_damage']})" if name == "titan-killer" and weapon["tk_damage"] else name
                for name in weapon["special"]]
    alternative = [f"other mode of {weapon['alternative']}"] if weapon["alternative"] else []
    return ", ".join(parts + specials + alternative)


GAME = Game(name="epic", title="Epic Armageddon", schema=SCHEMA, main=MAIN, matchup=matchup,
            kill_threshold=kill_threshold, check_unit=check_unit, describe_unit=describe_unit,
            describe_weapon=describe_weapon, together=together, assault=assault, cannot_engage=cannot_assault,
            engages_apart="cannot assault (not ranked)",
            engages_none="no unit here can assault these targets (cc and ff given on both sides; no aircraft; a "
                         "mixed formation with its assault kinds)",
            from_attacker=(("suppressed", "firing_units", "units"),), kind="kind")
