"""A formation's unit profiles as parts of its target, read by the importer (battlescribe/epic.py): each
profile's type, armour, unit notes and CC and FF values, and a war engine's damage capacity, shields and
critical hit."""

from __future__ import annotations

import re

from .epic_common import CHARACTER, FLYING, NOTHING, Reading, Group, key_of
from .reader import Profile, Selection
from .report import items

KINDS = {"infantry": "infantry", "light vehicle": "light-vehicle", "armoured vehicle": "armoured-vehicle",
         "war engine": "war-engine"}
# unit notes that say a weapon has another mode: its "or" line, read as an alternative
OTHER_MODE = re.compile(r"^(normal shot or barrage|may only use the indirect fire when firing a barrage|choose "
                        r"(weapon system|launcher profile))", re.IGNORECASE)
SHIELDS = re.compile(r"^(\d+)\s*sh$")
FIELDS = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?|\d+)\s*power fields?$")
HALF = re.compile(r"^(?:one|1) unit in (?:every )?(?:two|2) has an? (.+?)(?:\.|$)|^every second unit has an? (.+?)(?:\.|$)",
                   re.IGNORECASE)


class ProfileReading(Reading):
    """The target groups of one formation; a part of the importer's reader (`epic._Reader`)."""

    def _unit(self, item: Selection, profile: Profile, count: int) -> tuple[Group | None, bool]:
        """A unit profile's `count` units as a part of the target (None when they are no target: a character, an
        unknown type), and whether its unit notes make its weapons snipers."""
        kinds = [key_of(part) for part in (profile.get("Type") or "").split(",")]
        notes = items(profile.get("Unit Notes"))
        who = self._who(profile)
        flags: set[str] = set()
        shields, sniper = 0, False
        for note in notes:
            key = key_of(note)
            if key in ("reinforced armour", "invulnerable save", "invulnerable save (6+)", "thick rear armour"):
                flags.add({"reinforced armour": "reinforced", "thick rear armour": "thick-rear-armour"}.get(
                    key, "invulnerable"))
            elif shield := SHIELDS.match(key):
                shields = int(shield.group(1))
            elif fields := FIELDS.match(key):  # power fields work as void shields within an attack
                number = fields.group(1)
                shields = int(number) if number.isdecimal() else self._random(number, None, "power fields")
            elif key == "sniper":
                sniper = True
            elif half := HALF.match(note):
                self.halves.append((profile.name, next(weapon for weapon in half.groups() if weapon)))
            elif key.startswith("halve units") or OTHER_MODE.match(note):
                continue
            elif not self._no_effect(key):
                self.note(f"{who}unit note {note!r} not modelled")
        group: Group | None = None
        flying = next((FLYING[kind] for kind in kinds if kind in FLYING), None)
        kind = flying or next((KINDS[kind] for kind in kinds if kind in KINDS), None)
        if kind is None and CHARACTER in kinds:
            for flag in sorted(flags - {"thick-rear-armour"}):
                self.note(f"{who}a character's {flag.replace('-', ' ')} save (it protects the character alone) not "
                          "modelled")
        elif kind is None:
            self.note(f"{who}type {profile.get('Type')!r} is not a target here", action="not a target")
        else:
            armour = self._armour(profile.get("Armour"), who)
            if armour == "none" and "reinforced" in flags:  # nothing to re-roll: the roster refuses the pair
                self.note(f"{who}reinforced armour without an armour save", action="imported without it")
                flags = flags - {"reinforced"}
            keys = {re.sub(r"\s*\(.*\)$", "", key_of(note)) for note in notes}
            group = Group(profile.name, count, kind, armour, flags,
                           cc=self._assault_value(profile.get("CC"), "CC", who),
                           ff=self._assault_value(profile.get("FF"), "FF", who),
                           fearless="fearless" in keys, first_strike="first strike" in keys,
                           inspiring="inspiring" in keys, know_no_fear="they shall know no fear" in keys)
            if kind == "war-engine":
                self._war_engine(item, profile, group, shields, who)
            self.groups.append(group)
        return group, sniper

    def _assault_value(self, text: str | None, name: str, who: str) -> str | None:
        """A CC or FF cell: `4+`, or none (`-`, `n/a`: no such attack); anything else is reported and not
        read (the formation then has no assault)."""
        match = re.fullmatch(r"\s*([2-6])\s*\+?\s*", text or "")
        if match:
            return f"{match.group(1)}+"
        if text is None:  # no such characteristic: nothing to read (a profile made without assault values)
            return None
        if not text.strip():
            self.note(f"{who}no {name} value in its profile", action="its assaults not modelled")
            return None
        if text.strip().casefold() in NOTHING | {"none"}:
            return "none"
        self.note(f"{who}{name} {text!r} not understood", action="its assaults not modelled")
        return None

    def _armour(self, text: str | None, who: str) -> str:
        """An Armour cell: `4+`, or no save (`-`, `none`); an empty or missing cell, and anything else,
        is reported."""
        match = re.fullmatch(r"\s*([2-6])\s*\+?\s*", text or "")
        if match:
            return f"{match.group(1)}+"
        cell = (text or "").strip()
        if not cell:
            self.note(f"{who}no Armour value in its profile", action="counted as no armour save")
        elif cell.casefold() not in NOTHING | {"none", "n/a"}:
            self.note(f"{who}Armour {text!r} not understood", action="counted as no armour save")
        return "none"

    def _war_engine(self, item: Selection, profile: Profile, group: Group, shields: int, who: str) -> None:
        capacity = re.match(r"\s*(\d+)", profile.get("DC") or "")
        if capacity is None or int(capacity.group(1)) < 1:
            self.note(f"{who}damage capacity {profile.get('DC')!r} not understood", action="counted as 1")
        group.damage_capacity = max(int(capacity.group(1)) if capacity else 1, 1)
        group.shields = shields
        crit = (profile.get("Crit") or "").strip()
        if crit and crit != "-":
            text = item.rule_text(f"Critical Hit: {crit}")
            group.critical = critical_effect(crit, text)
            table = table_effects(text or "") if text and re.match(r"roll (?:a|1)\s*d6 and consult", text.strip(),
                                                                   re.IGNORECASE) else None
            if table and group.critical == "none":  # a table at once whose faces oddscalc has no value for
                faces = ", ".join(f"{face}: {effect}" for face, effect in sorted(table.items()))
                self.note(f"{who}critical hit {crit!r}: a D6 table at once ({faces}) that oddscalc does not model",
                          action="counted as no effect beyond the hit's damage")
            elif group.critical == "none":
                self.note(f"{who}critical hit {crit!r}: its effect is not a point of damage or the war engine "
                          "destroyed during the attack", action="counted as no effect beyond the hit's damage")
            elif group.critical == "wounded":
                self.note(f"{who}critical hit {crit!r}: a 1 on its D6 attacks the other units in base contact",
                          action="not modelled; 2-5, one more point, and 6, destroyed, are")


def critical_effect(name: str, text: str | None) -> str:
    """A war engine's critical hit during the attack (§2.8): `destroyed`, one more point of `damage`,
    `wounded` (a D6 at once: 2-5 one more point, 6 destroyed), or `none` (an effect after the attack,
    a roll of its own later, or one on other units). Read from the rule's text where the list has
    it, else from its name."""
    if not text:
        key = key_of(name)
        if key in ("destroyed", "crash") or key.endswith("explosion"):
            return "destroyed"
        return "damage" if key in ("damaged", "extra damage", "+1 damage") else "none"
    first = re.split(r"(?<=[.;:])\s", text.strip(), maxsplit=1)[0].casefold()
    if re.search(r"\band (?:then )?(?:tips over and )?is destroyed\b", first):  # "Destabilised": rolls, then destroyed
        return "destroyed"
    if re.match(r"roll (?:a|1)\s*d6 and consult", first):  # a table rolled at once
        return "wounded" if table_effects(text) == WOUNDED_TABLE else "none"
    if re.match(r"(roll|on a roll|rolls? a d6|roll 1d6)", first) or "subsequent" in first or "further" in first:
        return "none"
    if re.match(r"(the unit(?: and all units being carried)? (?:is|are) destroyed|destroyed\b)", first):
        return "destroyed"
    if re.search(r"(?:point|pt)s? of (?:damage|dc)|(?:additional|extra|another) (?:point|damage|dc|1\s*dc)|"
                 r"loses? an extra|1 additional point", first):
        return "damage"
    return "none"


WOUNDED_TABLE = {1: "none", 2: "damage", 3: "damage", 4: "damage", 5: "damage", 6: "destroyed"}


def table_effects(text: str) -> dict[int, str]:
    """A critical hit's D6 table ("1: ... 2-5: The creature loses 1DC. 6: ... killed"), each face's effect
    on the war engine itself: `destroyed`, `damage` (one more point) or `none`."""
    effects: dict[int, str] = {}
    marks = list(re.finditer(r"(?<![\w+])([1-6])\s*(?:[-–]\s*([1-6]))?\s*:", text))  # "2-5:", not "MW6+" or "D6"
    for mark, after in zip(marks, [*marks[1:], None]):
        low, high = mark.group(1), mark.group(2)
        said = text[mark.end():after.start() if after else len(text)].casefold()
        if re.search(r"\b(?:is|are) (?:instantly )?(?:killed|destroyed)\b|\bdies\b", said):
            kind = "destroyed"
        elif re.search(r"loses? (?:1|one|an? extra)\s*(?:dc|point)|(?:point|pt) of damage", said):
            kind = "damage"
        else:
            kind = "none"
        for face in range(int(low), int(high or low) + 1):
            effects[face] = kind
    return effects
