"""Epic Armageddon formations from a BSData/wh40k-epic-armageddon roster.

A formation is a force's top-level selection. Every `Unit` or `War Engine` profile in it is
a unit (times its selection's number, and twice for a "Pair of …", N times for "Nx …");
its Weapons/Firepower/Notes cells, split at their line breaks, are its weapons, and a
`Weapon` profile of an upgrade is one more. Weapons with the same figures are merged into
one roster weapon whose shots count every unit's copies ("2x Missile Launcher" on 4
units: 8 shots); a formation's barrage weapons fire as one barrage of their summed BP
(docs/rules.md §2.5). Small Arms and Assault Weapons fight only in firefights and close
combat, which a roster cell does not model: they are not shooting weapons.

Read as the rules say: AP/AT/MW values (`AP5+/AT6+`, a missing `+` too), `NBP`, TK (D-value),
Titan Killer, Disrupt, Lance, Ignore Cover, Sniper (on the weapon or the unit), Macro-weapon,
Reinforced Armour, Invulnerable Save; notes that change no dice of a shot or a barrage
(arcs, Indirect Fire, Slow Firing, transport, movement, assault and morale rules) are
read and left. Anything else is reported: a war engine's damage capacity, a formation of
mixed kinds, an unknown note or Firepower.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .reader import Profile, RosterFile, Selection
from .report import Mapped, cells, items, unique

KINDS = {"infantry": "infantry", "light vehicle": "light-vehicle", "armoured vehicle": "armoured-vehicle",
         "war engine": "armoured-vehicle"}
CHARACTER = "character"  # joins a unit: its weapons fire with the formation, it is no target of its own
UNIT_NOTES = {"reinforced armour": "reinforced", "invulnerable save": "invulnerable"}
SPECIALS = {"disrupt": "disrupt", "lance": "lance", "ignore cover": "ignore-cover", "sniper": "sniper",
            "macro-weapon": "macro", "macro weapon": "macro"}
TITAN_KILLER = re.compile(r"^(?:tk|titan[- ]killer)\s*(?:\(\s*(d?\d+)\s*\))?$")
# notes that change no dice of one shot or barrage at a formation (docs/rules.md §2)
NO_EFFECT = {
    "indirect fire", "indirect", "forward arc", "fixed forward arc", "left arc", "right arc", "rear arc",
    "slow firing", "single shot", "one shot", "transport", "fearless", "jump packs", "walker", "scout",
    "teleport", "planetfall", "mounted", "inspiring", "commander", "supreme commander", "leader", "skimmer",
    "infiltrator", "infiltrators", "expendable", "independent", "first strike", "extra attacks",
}
CLOSE = {"small arms", "assault weapons", "assault weapon"}  # firefight and close combat weapons
VALUE = re.compile(r"^(ap|at|aa|mw)\s*(\d)\s*\+?$")
BARRAGE = re.compile(r"^(?:(\d+)\s*bp|bp\s*(\d+))$")
COUNT = re.compile(r"^(\d+)\s*[x×]\s*(.+)$", re.IGNORECASE)
MAX_BP = 18
MAX_UNITS = 100  # the roster schema's cap on a formation's units


@dataclass
class _Line:
    """One weapon line of a unit: its figures and how many copies the formation fires."""

    name: str
    copies: int
    fields: dict
    special: list[str]
    bp: int | None


def _key(text: str) -> str:
    return " ".join(text.casefold().replace("-", " ").split()) if text else ""


def _counted(name: str) -> tuple[int, str]:
    """`2x Lascannon` → (2, "Lascannon"); `Pair of Land Raiders` → (2, …)."""
    match = COUNT.match(name.strip())
    if match:
        return int(match.group(1)), match.group(2).strip()
    if name.strip().casefold().startswith("pair of "):
        return 2, name.strip()[8:]
    return 1, name.strip()


def _special(token: str, mapped: Mapped, weapon: str, special: list[str]) -> bool:
    """Read a special ability or a no-effect note into `special`; False when it is unknown."""
    key = _key(token)
    titan_killer = TITAN_KILLER.match(token.strip().casefold())
    if titan_killer:
        special.append("titan-killer")
        damage = (titan_killer.group(1) or "1").upper()
        if damage not in ("1", "D1"):
            mapped.note(f"TK({damage}): the D-value counts only against a war engine's damage capacity "
                        "(not modelled)", weapon)
        return True
    if key in SPECIALS:
        special.append(SPECIALS[key])
        return True
    base = re.sub(r"\s*\(.*\)$", "", key)  # Extra Attacks (+1), Walker (Titan)
    return key in NO_EFFECT or base in NO_EFFECT


def _line(name: str, copies: int, firepower: str, notes: str, mapped: Mapped) -> _Line | None:
    """One weapon line from its Firepower and Notes cells; None for firefight/close-combat-only weapons."""
    times, firepower = _counted(firepower.removeprefix("and ").strip())
    fields, special, bp, close, anti_aircraft, unknown = {}, [], None, False, False, []
    for token in re.split(r"[,/]|\s+and\s+", firepower):
        token = token.strip()
        value, barrage = VALUE.match(token.casefold()), BARRAGE.match(token.casefold())
        if not token:
            continue
        if value:
            if value.group(1) == "aa":  # anti-aircraft fire has no target on the ground
                anti_aircraft = True
            else:
                fields[value.group(1)] = f"{value.group(2)}+"
        elif barrage:
            bp = int(barrage.group(1) or barrage.group(2))
        elif _key(token) in CLOSE:
            close = True
        elif not _special(token, mapped, name, special):
            unknown.append(token)
    if bp is None and not fields:  # one note for the whole cell, not one more for each of its words
        if not close and not anti_aircraft and firepower:
            mapped.note(f"Firepower {firepower!r}: no AP, AT, MW or BP value, not a shooting weapon", name)
        return None  # a firefight, close combat or anti-aircraft weapon: its notes do not matter here
    for token in unknown:
        mapped.note(f"Firepower {token!r} not understood", name)
    for token in items(notes.removeprefix("and ")):
        if not _special(token, mapped, name, special):
            mapped.note(f"note {token!r} not modelled", name)
    if "macro" in special and bp is None and "mw" not in fields and fields:
        fields = {"mw": min(fields.values())}  # a macro-weapon written with its AP/AT value
    if "mw" in fields:
        fields = {"mw": fields["mw"]}  # a macro-weapon hits anything at its MW value
    if bp is None:
        special = [item for item in special if item != "macro"]
    return _Line(name, copies * times, fields, special, bp)


def _profile_lines(profile: Profile, copies: int, mapped: Mapped) -> list[_Line]:
    names = cells(profile.get("Weapons") or profile.name)
    lines, current = [], None
    notes = cells(profile.get("Notes"))
    for index, firepower in enumerate(cells(profile.get("Firepower"))):
        if not firepower.startswith("and ") or current is None:
            current = names.pop(0) if names else profile.name
        times, weapon = _counted(current)
        note = notes[index] if index < len(notes) else ""
        line = _line(weapon, copies * times, firepower, note, mapped)
        if line is not None:
            lines.append(line)
    return lines


def _units(selection: Selection, numbers: int = 1):
    """(profile, count) for every Unit, War Engine and Weapon profile in a formation."""
    count = numbers * selection.number
    for profile in selection.profiles:
        if _key(profile.type_name) in ("unit", "war engine", "weapon"):
            yield profile, count * _counted(selection.name)[0]
    for child in selection.children:
        yield from _units(child, count)


def _kind(profile: Profile) -> str | None:
    for part in (profile.get("Type") or "").split(","):
        if _key(part) in KINDS or _key(part) == CHARACTER:
            return KINDS.get(_key(part), CHARACTER)
    return None


def formation(selection: Selection) -> Mapped | None:
    """A roster formation from a top-level selection, or None when it holds no unit profile."""
    found = list(_units(selection))
    if not found:
        return None
    points = selection.cost("pts")
    mapped = Mapped({"name": selection.name, "points": round(points) if points else None})
    targets, lines, sniper = [], [], False
    for profile, count in found:
        if _key(profile.type_name) == "weapon":
            lines += _line_of_weapon(profile, count, mapped)
            continue
        kind = _kind(profile)
        notes = items(profile.get("Unit Notes"))
        sniper = sniper or any(_key(note) == "sniper" for note in notes)
        if kind is None:
            mapped.note(f"type {profile.get('Type')!r} not modelled as a target ({profile.name})")
        elif kind != CHARACTER:
            targets.append((profile, count, kind, notes))
        lines += _profile_lines(profile, count, mapped)
        who = "" if profile.name.casefold() == selection.name.casefold() else f"{profile.name}: "
        for note in notes:
            if kind == CHARACTER and _key(note) in UNIT_NOTES:
                mapped.note(f"{who}a character's {note} (it protects the character alone) not modelled")
            elif _key(note) not in UNIT_NOTES and _key(note) != "sniper" and not _special(note, mapped, "", []):
                mapped.note(f"{who}unit note {note!r} not modelled")
        if _key(profile.type_name) == "war engine" or "war engine" in _key(profile.get("Type")):
            mapped.note(f"{who}a war engine (DC {profile.get('DC', '?')}): damage capacity, shields and critical "
                        "hits are not modelled; counted as one armoured vehicle")
    if not targets:
        mapped.note("no unit that can be a target; left out")
        mapped.table = {}
        return mapped
    _target(mapped, targets)
    mapped.table["weapon"] = _merged(lines, sniper, mapped)
    return mapped


def _line_of_weapon(profile: Profile, count: int, mapped: Mapped) -> list[_Line]:
    times, name = _counted(profile.name)
    line = _line(name, count * times, profile.get("Firepower") or "", profile.get("Notes") or "", mapped)
    return [line] if line else []


def _target(mapped: Mapped, targets: list) -> None:
    """The formation as a target: its main kind (the most units), all its units, and the armour and
    saves of its most numerous unit of that kind; a unit that differs is reported."""
    by_kind = Counter()
    for _, count, kind, _ in targets:
        by_kind[kind] += count
    kind = max(by_kind, key=lambda name: (by_kind[name], -[t[2] for t in targets].index(name)))
    lead = max((target for target in targets if target[2] == kind), key=lambda target: target[1])  # the most units

    def defence(target) -> tuple:
        profile, _, its_kind, notes = target
        flags = {UNIT_NOTES[_key(note)] for note in notes if _key(note) in UNIT_NOTES}
        armour = re.fullmatch(r"\s*([2-6])\s*\+\s*", profile.get("Armour") or "")
        return its_kind, f"{armour.group(1)}+" if armour else "none", "reinforced" in flags, "invulnerable" in flags

    kind, armour, reinforced, invulnerable = defence(lead)
    for target in targets:
        if defence(target) != defence(lead):
            mapped.note(f"{target[0].name} ({defence(target)[0]}, armour {defence(target)[1]}) counted as "
                        f"{lead[0].name} ({kind}, armour {armour}): a roster formation has one kind and armour")
    units = sum(by_kind.values())
    if units > MAX_UNITS:
        mapped.note(f"{units} units: a roster formation has at most {MAX_UNITS}; counted as {MAX_UNITS}")
    mapped.table.update(kind=kind, units=min(units, MAX_UNITS), armour=armour,
                        reinforced=reinforced, invulnerable=invulnerable)


def _merged(lines: list[_Line], sniper: bool, mapped: Mapped) -> list[dict]:
    """Lines with the same figures as one weapon of all their shots; barrages as one summed barrage."""
    weapons: dict[tuple, dict] = {}
    barrages = [line for line in lines if line.bp is not None]
    for line in lines:
        if line.bp is not None:
            continue
        special = sorted(set(line.special) | ({"sniper"} if sniper else set()))
        key = (line.name.casefold(), tuple(sorted(line.fields.items())), tuple(special))
        if key in weapons:
            weapons[key]["shots"] += line.copies
        else:
            weapons[key] = {"name": line.name, "shots": line.copies, **line.fields, "special": special}
    merged = list(weapons.values())
    if barrages:
        bp = sum(line.bp * line.copies for line in barrages)
        if bp > MAX_BP:
            mapped.note(f"{bp} BP in one barrage: the table ends at {MAX_BP} BP; fired as {MAX_BP}")
        common = set.intersection(*(set(line.special) for line in barrages))  # §2.5: only if every weapon has it
        for line in barrages:
            for special in sorted(set(line.special) - common):
                mapped.note(f"{special}: not on every barrage weapon, so not on the barrage", line.name)
        names = list(dict.fromkeys(line.name for line in barrages))
        merged.append({"name": " + ".join(names), "bp": min(bp, MAX_BP), "special": sorted(common)})
    names: set[str] = set()
    for weapon in merged:  # weapon names are unique within a unit
        weapon["name"] = unique(weapon["name"], names)
    return merged


def mapped_units(roster: RosterFile) -> list[Mapped]:
    return [mapped for selection in roster.selections() if (mapped := formation(selection)) is not None]
