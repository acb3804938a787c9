"""The 9th Age units from a BSData/The-9th-Age roster built with the 2nd edition (2.0 rules)
catalogues: model profiles `Defensive` (HP, Def, Res, Arm, Rules) and `Offensive` (Att,
Off, Str, AP, Rules), `Armour` (Save +N), `Melee Weapon` (Str, AP) and `Ranged Weapon`
(Shots, Str, AP, Attributes) profiles, and shooting written in the Offensive rules as
`Bow (4+)`: the weapon and its Aim.

A roster has no formation on the table, so melee attacks are counted for a unit
`FRONTAGE` models wide: the front rank with its Attack Value, one rank of supporting
attacks (up to 1 each; 3 for Large, 5 for Gigantic models), two with a Spear's Fight in
Extra Rank. A mount or other second model part fights with the front rank only. The
imported TOML says so in its header, for the player to edit. The Global profile
(movement, Discipline) and its rules do not touch an attack's dice and are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .reader import Profile, RosterFile, Selection
from .report import Mapped, items

FRONTAGE = 5
MAX_MODELS = 500  # the roster schema's cap on a unit's models
SUPPORT = {"standard": 1, "large": 3, "gigantic": 5}
EDITION = re.compile(r"\b2nd edition\b", re.IGNORECASE)
ATTRIBUTES = {"battle focus": "battle-focus", "poison attacks": "poison", "lethal strike": "lethal-strike",
              "divine attacks": "divine", "flaming attacks": "flaming", "toxic attacks": "toxic",
              "hatred": "hatred"}
SUITS = {"light armour": 1, "heavy armour": 2, "plate armour": 3, "shield": 1}
SAVES = {"aegis": "aegis", "fortitude": "fortitude"}
# melee weapons by name: (extra supporting ranks, extra attack value, extra offensive skill)
MELEE = {"hand weapon": (0, 0, 0), "spear": (1, 0, 0), "halberd": (0, 0, 0), "great weapon": (0, 0, 0),
         "paired weapons": (0, 1, 1)}
CHARGE_ONLY = {"lance", "light lance"}  # their bonus counts only on the charge
# ranged attributes that change only situational modifiers (moving, long range), not a standing shot
SITUATIONAL = {"volley fire", "unwieldy", "quick to fire", "accurate", "move or fire", "reload!", "reload",
               "two-handed", "parry"}
MULTIPLE_WOUNDS = re.compile(r"^multiple wounds \((\d*d?\d+)\)$")
SHOOTING = re.compile(r"^(.+?)\s*\((\d)\+\)$")
DICE = re.compile(r"^(\d*)d(\d+)$")


def _key(text: str | None) -> str:
    return " ".join((text or "").casefold().split())


def _type(profile: Profile) -> str:
    """`2 Defensive` → "defensive": the catalogues number their profile types."""
    return _key(re.sub(r"^\d+\s*", "", profile.type_name))


def check_edition(roster: RosterFile, source: str):
    from ..errors import InputError

    if not EDITION.search(roster.system_name):
        raise InputError("file", source, f"built with game system {roster.system_name!r} revision "
                                         f"{roster.system_revision or '?'}: oddscalc imports The 9th Age lists "
                                         "built with the 2nd edition (2.0 rules) catalogues only")


def _profiles(selection: Selection, kind: str) -> list[Profile]:
    return [profile for item in selection.walk() for profile in item.profiles if _type(profile) == kind]


def _models(selection: Selection, numbers: int = 1):
    """(selection, count) for each selection with a Defensive profile: the unit's models."""
    count = numbers * selection.number
    if any(_type(profile) == "defensive" for profile in selection.profiles):
        yield selection, count
    for child in selection.children:
        yield from _models(child, count)


def _int(text: str | None, default: int = 0) -> int:
    match = re.search(r"-?\d+", text or "")
    return int(match.group()) if match else default


def _relative(text: str | None, base: int) -> int:
    """A weapon's Str or AP: "As User" → the user's, "+2" → the user's + 2, "5" → 5."""
    text = (text or "").strip()
    if text.startswith(("+", "-")):
        return base + _int(text)
    return _int(text, base) if re.search(r"\d", text) else base


def unit(selection: Selection) -> Mapped | None:
    """A roster unit from a top-level selection, or None when it has no model with profiles."""
    models = list(_models(selection))
    if not models:
        return None
    body, _ = max(models, key=lambda item: item[1])
    total = sum(number for _, number in models)
    points = selection.cost("pts")
    mapped = Mapped({"name": selection.name, "points": round(points) if points else None,
                     "models": min(total, MAX_MODELS)})
    if total > MAX_MODELS:
        mapped.note(f"{total} models: a roster unit has at most {MAX_MODELS}; counted as {MAX_MODELS}")
    defensive = next(profile for profile in body.profiles if _type(profile) == "defensive")
    _defence(mapped, selection, defensive)
    offensives = [profile for item in body.walk() for profile in item.profiles if _type(profile) == "offensive"]
    if not offensives:
        mapped.note("no Offensive profile; left out")
        mapped.table = {}
        return mapped
    height = next((_key(profile.get("Height")) for profile in _profiles(body, "size")), "standard")
    first = offensives[0]
    mapped.table.update(offensive=_int(first.get("Off"), 1), strength=_int(first.get("Str"), 1))
    weapons = []
    for index, profile in enumerate(offensives):
        weapons += _attacks(mapped, selection, profile, total, height if index == 0 else None,
                            named=len(offensives) > 1)
    mapped.table["weapon"] = weapons
    return mapped


def _defence(mapped: Mapped, selection: Selection, defensive: Profile) -> None:
    armour = _int(defensive.get("Arm"))
    suits = {_key(profile.name): _int(profile.get("Save")) for profile in _profiles(selection, "armour")}
    saves = {}
    flammable = False
    for rule in items(defensive.get("Rules")):
        key = _key(rule)
        name, _, value = key.partition(" (")
        if key in SUITS:
            suits.setdefault(key, SUITS[key])
        elif name in SAVES and re.fullmatch(r"\d\+\)", value):
            saves[SAVES[name]] = f"{value[0]}+"
        elif key == "flammable":
            flammable = True
        else:
            mapped.note(f"defensive rule {rule!r} not modelled")
    mapped.table.update(health=max(_int(defensive.get("HP"), 1), 1), defensive=_int(defensive.get("Def"), 1),
                        resilience=_int(defensive.get("Res"), 1), armour=min(armour + sum(suits.values()), 6),
                        **saves, flammable=flammable)


def _attacks(mapped: Mapped, selection: Selection, offensive: Profile, models: int, height: str | None,
             named: bool) -> list[dict]:
    """The melee attack of one model part, and the shooting attacks its rules name."""
    strength, ap, attack_value = _int(offensive.get("Str"), 1), _int(offensive.get("AP")), _int(offensive.get("Att"))
    attributes, shooting = _Attributes(), []
    weapons = {_key(profile.name): profile for profile in _profiles(selection, "melee weapon")}
    ranged = {_key(profile.name): profile for profile in _profiles(selection, "ranged weapon")}
    for rule in items(offensive.get("Rules")):
        key = _key(rule)
        if attributes.take(key):
            continue
        if key in MELEE or key in CHARGE_ONLY:
            weapons.setdefault(key, Profile(rule, "Melee Weapon", ()))
        elif SHOOTING.match(rule) and _key(SHOOTING.match(rule).group(1)) in ranged:
            shooting.append((SHOOTING.match(rule).group(1), int(SHOOTING.match(rule).group(2))))
        elif SHOOTING.match(rule):
            mapped.note(f"shooting weapon {rule!r}: its Ranged Weapon profile is not in the list; left out")
        else:
            mapped.note(f"offensive rule {rule!r} not modelled", offensive.name)
    chosen = [name for name in weapons if name != "hand weapon"]
    for name in [name for name in chosen if name in CHARGE_ONLY]:
        mapped.note(f"{weapons[name].name}: its bonus counts only on the charge; fights as a hand weapon")
    chosen = [name for name in chosen if name not in CHARGE_ONLY][:1]  # one weapon in use
    weapon = weapons[chosen[0]] if chosen else None
    extra_ranks, extra_attacks, extra_offensive = MELEE.get(chosen[0], (0, 0, 0)) if chosen else (0, 0, 0)
    if chosen and chosen[0] not in MELEE:
        mapped.note(f"weapon {weapon.name!r}: its attributes are not read (Str and AP are)")
    if extra_offensive:
        mapped.table["offensive"] = min(mapped.table["offensive"] + extra_offensive, 10)
    attack_value += extra_attacks
    front = min(models, FRONTAGE)
    attacks = front * attack_value
    if height is not None:
        supporting = min(models - front, FRONTAGE * (1 + extra_ranks))
        attacks += supporting * min(attack_value, SUPPORT.get(height, 1))
    melee_strength = _relative(weapon.get("Str") if weapon else None, strength)
    melee_ap = _relative(weapon.get("AP") if weapon else None, ap)
    label = (offensive.name if named else (weapon.name if weapon else "Hand weapon"))
    result = [_attack(label, "melee", attacks, melee_strength, melee_ap, attributes, mapped.table)]
    for name, aim in shooting:
        profile = ranged[_key(name)]
        shots = _shots(profile.get("Shots"), models, mapped, name)
        if shots is None:
            continue
        its = _Attributes(list(attributes.names), attributes.multiple)
        for attribute in items(profile.get("Attributes")):
            if not its.take(_key(attribute)) and _key(attribute) not in SITUATIONAL:
                mapped.note(f"attribute {attribute!r} not modelled", name)
        result.append(_attack(name, "shooting", shots, _relative(profile.get("Str"), strength),
                              _relative(profile.get("AP"), 0), its, mapped.table, aim=f"{aim}+"))
    return [attack for attack in result if attack]


def _shots(text: str | None, models: int, mapped: Mapped, name: str):
    """The unit's shots: a number or dice per model, times the models."""
    key = _key(text).replace(" ", "")
    if key.isdecimal():  # not isdigit: "²" is a digit that int() cannot read
        return int(key) * models
    dice = DICE.match(key)
    if dice:
        return f"{int(dice.group(1) or 1) * models}d{dice.group(2)}"
    mapped.note(f"Shots {text!r} not understood; left out", name)
    return None


@dataclass
class _Attributes:
    """The attack attributes read so far, and Multiple Wounds (X)."""

    names: list[str] = field(default_factory=list)
    multiple: str | None = None

    def take(self, key: str) -> bool:
        """Read one rule; False when it is not an attack attribute."""
        wounds = MULTIPLE_WOUNDS.match(key)
        if wounds:
            self.multiple = wounds.group(1)
        elif key in ATTRIBUTES:
            self.names.append(ATTRIBUTES[key])
        return bool(wounds) or key in ATTRIBUTES


def _attack(name: str, kind: str, attacks, strength: int, ap: int, attributes: _Attributes, unit: dict,
            aim: str | None = None) -> dict | None:
    if attacks == 0:
        return None
    attack = {"name": name, "kind": kind, "attacks": attacks, "aim": aim}
    toxic = "toxic" in attributes.names
    if strength != unit["strength"] and not toxic:
        attack["strength"] = min(max(strength, 1), 10)
    if ap and not toxic:
        attack["ap"] = min(ap, 10)
    if attributes.multiple:
        attack["multiple_wounds"] = attributes.multiple.lower()
    attack["attributes"] = sorted(set(attributes.names))
    return attack


def mapped_units(roster: RosterFile) -> list[Mapped]:
    return [mapped for selection in roster.selections() if (mapped := unit(selection)) is not None]
