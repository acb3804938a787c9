"""A 9th Age unit's attacks as roster weapons, read by the importer (battlescribe/t9a.py): each part's melee
weapons, shooting weapons and automatic hits, their values, rules and effects, and the numbers they are read
from."""

from __future__ import annotations

from typing import Any

import re

from .report import items
from .t9a_common import (
    BREATH,
    DICE,
    FRONTAGE,
    MELEE,
    NEEDS_TO_HIT,
    NEEDS_TO_WOUND,
    NO_EFFECT,
    SAVE,
    SHORT_RANGE_AP,
    SPECIAL_HITS,
    SUPPORT,
    Aimed,
    Count,
    Melee,
    Profiled,
    Reading,
    ReadAttributes,
    by_name,
    capped_count,
    cleaned,
    int_of,
    key_of,
    name_and_aim,
    Part,
    count_plus,
    relative_value,
    count_times,
    Equipment,
    dice_mean,
)

NEEDED = ("Off", "Str")  # what an attack reads of a part: a blank one is reported (AP "-" is AP 0, as lists write it)


class AttackReading(Reading):
    """The weapons of one unit; a part of the importer's reader (`t9a._Reader`)."""

    def _attacks(self, part: Part, wielder: bool, equipment: Equipment, models: int, height: str,
                 named: bool) -> list[dict[str, Any]]:
        """A part's close combat attacks (one per weapon it may choose) and its shooting."""
        attributes = ReadAttributes()
        for name in equipment.attributes if wielder else ():
            attributes.take(name)
        extra_ranks, modifier = 0, 0
        own_melee: dict[str, Profiled | None] = {}
        own_ranged: dict[str, Aimed] = {}
        automatic: list[tuple[str, re.Match[str]]] = []  # automatic hits: the rule and what it says
        support = None  # Extra Support (X): supporting attacks up to X, whatever the height
        entry = [rule for rule in self.selection.rules if key_of(rule).startswith("extra support")] if wielder else []
        for rule in list(part.rules) + [rule for rule in entry if key_of(rule) not in map(key_of, part.rules)]:
            key = key_of(rule)
            extra = re.fullmatch(r"extra support \((\d+)\)", key)
            if extra:
                support = int(extra.group(1))
                continue
            if attributes.take(key) or SAVE.match(key):  # a special save protects the model (read with its defence)
                continue
            special = SPECIAL_HITS.match(cleaned(rule)) or BREATH.match(cleaned(rule))
            if special:  # §3.10: hits with no to-hit roll
                automatic.append((cleaned(rule), special))
                continue
            if key == "lightning reflexes":
                modifier = 1
            elif re.fullmatch(r"fight in extra ranks?", key):
                extra_ranks += 1
            elif key in NO_EFFECT:
                continue
            elif name_and_aim(rule)[0] in equipment.melee:  # a weapon whose profile the list gives
                own_melee[name_and_aim(rule)[0]] = equipment.melee[name_and_aim(rule)[0]]
            elif by_name(rule, part_equipment := Equipment(), equipment):
                own_melee.update(part_equipment.melee)
                own_ranged.update({name: row for name, row in part_equipment.ranged.items()})
            else:
                self.note(f"offensive rule {cleaned(rule)!r} not modelled", part.name)
        results: list[dict[str, Any]] = []
        if not part.inanimate:
            results += self._melee(part, wielder, equipment, own_melee, attributes, extra_ranks, modifier, models,
                                   support or SUPPORT.get(height, 1), named)
        if not part.harnessed and not part.inanimate:
            ranged = {**(equipment.ranged if wielder else {}), **own_ranged}
            for name, row in ranged.items():
                shot = self._shooting(part, wielder, name, row, equipment, attributes, models, named)
                if shot:
                    results.append(shot)
        for label, special in automatic:
            hits = self._automatic(part, label, special, attributes, models, named)
            if hits:
                results.append(hits)
        return results

    def _automatic(self, part: Part, label: str, special: re.Match[str], attributes: ReadAttributes, models: int,
                   named: bool) -> dict[str, Any] | None:
        """Automatic hits (§3.10): Impact Hits, Stomp and Grind Attacks (X) from each model part in the
        front rank, at its Strength and AP; a Breath Attack's 2D6 from every model, at its brackets'."""
        strength = self._stat(part.profile.get("Str"), 1, part.name, "Str")
        ap = self._stat(part.profile.get("AP"), 0, part.name, "AP")
        its = ReadAttributes([name for name in attributes.names if name not in NEEDS_TO_HIT], attributes.multiple)
        title = f"{part.name}: {label}" if named else label
        if special.re is BREATH:  # its hits' attributes are those in its brackets, not the part's
            its = ReadAttributes()
            brackets = items(special.group(1))
            figures = [found for item in brackets if (found := re.match(r"(str|ap)\s*(\d+)", key_of(item)))]
            values = {found.group(1): int_of(found.group(2)) for found in figures}
            unread = [item for item in brackets if not re.match(r"(str|ap)\s*\d+", key_of(item))
                      and not its.take(key_of(item))]
            if unread:
                self.note(f"breath attack rules {', '.join(unread)!r} not modelled", title)
            hits = count_times((2, 6, 0), models * part.count)
            return self._row(title, "automatic", hits, values.get("str", strength), values.get("ap", ap), 1, 0, its)
        value = self._value(special.group(2), 0, part.name, what=special.group(1))
        if value is None:
            return None
        return self._row(title, "automatic", count_times(value, min(models, FRONTAGE) * part.count), strength, ap, 1, 0,
                         its)

    def _melee(self, part: Part, wielder: bool, equipment: Equipment, own: dict[str, Profiled | None],
               attributes: ReadAttributes, extra_ranks: int, modifier: int, models: int, cap: int,
               named: bool) -> list[dict[str, Any]]:
        profile = part.profile
        attack_text = (profile.get("Att") or "").strip()
        if not attack_text:
            if profile.get("Att") is not None and not part.inanimate:  # the cell is there, blank: never silent
                self.note(f"Att {profile.get('Att')!r}: the list gives no value", part.name, action="no melee attacks")
            return []
        strength, ap = (self._stat(profile.get("Str"), 1, part.name, "Str"),
                        self._stat(profile.get("AP"), 0, part.name, "AP"))
        offensive = self._stat(profile.get("Off"), 1, part.name, "Off")
        if part.harnessed:  # uses no weapons, makes no supporting attacks (Harnessed)
            count = self._count(attack_text, min(models, FRONTAGE) * part.count, part.name)
            its = ReadAttributes(list(attributes.names), attributes.multiple)
            set_ap = self._effects_on("melee", part, wielder, part.name, 1, its, equipment)
            attack = self._row(part.name, "melee", count, strength, ap if set_ap is None else set_ap, offensive, 0,
                               its)
            return [attack] if attack else []
        choices = dict(own)
        if wielder:
            choices.update({name: row for name, row in equipment.melee.items() if name not in choices})
        chosen = [name for name in choices if name != "hand weapon"] or ["hand weapon"]
        if wielder:
            self._unreached(chosen, equipment)
        rows = []
        for name in chosen:
            row: Profiled | None = choices.get(name)
            if row is None:  # by name, from the game system's shared profiles
                row = (name.title(), *MELEE[name][:2], "") if name in MELEE else (name.title(), None, None, "")
            label, str_text, ap_text, attribute_text = row
            if self.ridden and not own and name == "hand weapon":
                label = part.name  # a ridden monster fights with its own attacks, not its rider's weapon
            its, table_row = self._weapon_rules(name, label, attribute_text, attributes)
            bonus_attacks, bonus_offensive, ranks, at_times = table_row[2], table_row[3], table_row[4], table_row[6]
            if at_times:
                self.note(f"{label}: {at_times[0]}", part.name if named else None, action=at_times[1])
            if table_row is MELEE["paired weapons"]:  # "Attacks made with Paired Weapons ignore Parry"
                its.names.append("ignores-parry")
            value = self._value(attack_text, bonus_attacks, part.name)
            if value is None:
                continue
            front = min(models, FRONTAGE) * part.count
            supporting = min(max(models - FRONTAGE, 0), FRONTAGE * (1 + extra_ranks + ranks)) * part.count
            count = count_times(value, front) if supporting == 0 else count_plus(count_times(value, front),
                                                                     count_times(capped_count(value, cap), supporting))
            hit = modifier if name != "great weapon" else 0  # Lightning Reflexes: not with a Great Weapon
            title = f"{part.name}: {label}" if named else label
            values = self._weapon_values(label, str_text, ap_text, strength, ap)
            if values is None:
                continue
            set_ap = self._effects_on("melee", part, wielder, name, len(chosen), its, equipment)
            rows.append(self._row(title, "melee", count, values[0], values[1] if set_ap is None else set_ap,
                                  offensive + bonus_offensive, hit, its))
        return [row for row in rows if row]

    def _weapon_values(self, label: str, str_text: str | None, ap_text: str | None, strength: int,
                       ap: int) -> tuple[int, int] | None:
        """A weapon's Str and AP cells against its wielder's (`relative_value`); None, reported, when one is not
        read."""
        values: list[int] = []
        for what, text, base in (("Str", str_text, strength), ("AP", ap_text, ap)):
            value = relative_value(text, base)
            if value is None:
                self.note(f"{what} {(text or '').strip()!r} not understood", label, action="left out")
            else:
                values.append(value)
        return (values[0], values[1]) if len(values) == 2 else None

    def _effects_on(self, kind: str, part: Part, wielder: bool, weapon: str, choices: int, its: ReadAttributes,
                    equipment: Equipment) -> int | None:
        """Add to an attack's attributes what the unit's rules and artefacts give it (`EFFECTS`); return the AP
        one sets, or None. `choices` counts the close combat weapons the part may choose."""
        ap = None
        for _, effect in equipment.effects.values():
            reaches = {"close combat": kind == "melee", "unit": kind == "melee" and not part.harnessed,
                       "shooting": kind == "shooting" and wielder,
                       "enchanted": kind == "melee" and wielder and choices == 1,
                       "hand weapon": kind == "melee" and wielder and weapon == "hand weapon"}.get(effect.attacks)
            if reaches:
                its.names += effect.attributes
                its.multiple = effect.multiple or its.multiple
                ap = effect.ap if effect.ap is not None else ap
        if "auto-wound" in its.names:  # it rolls no die to wound: no natural 6 to wound, nothing to re-roll
            its.names = [name for name in its.names if name not in NEEDS_TO_WOUND]
        return ap

    def _unreached(self, chosen: list[str], equipment: Equipment) -> None:
        """Report a weapon enchantment the list does not put on one weapon the bearer fights with."""
        for name, effect in equipment.effects.values():
            if effect.attacks == "enchanted" and len(chosen) > 1:
                self.note(f"{name}: the list does not say which of its weapons it enchants")
            elif effect.attacks == "hand weapon" and "hand weapon" not in chosen:
                self.note(f"{name}: it enchants a Hand Weapon, which a model with another close combat weapon "
                          "cannot choose")

    def _weapon_rules(self, name: str, label: str, text: str | None,
                      attributes: ReadAttributes) -> tuple[ReadAttributes, Melee]:
        """A close combat weapon's attributes and its row of `MELEE`: its own, or the weapon whose rules
        its profile says it has (`Blades of Darag`: "Paired Weapons. …")."""
        its = ReadAttributes(list(attributes.names), attributes.multiple)
        table_row: Melee = MELEE.get(name, ("", "", 0, 0, 0, False, None))
        unread = []
        for sentence in re.split(r"(?<=\.)\s+", text or ""):
            for attribute in items(sentence.rstrip(".")):
                key = key_of(attribute).strip(" .")
                if its.take(key) or key in NO_EFFECT:
                    continue
                if key in MELEE and name not in MELEE:
                    table_row = MELEE[key]
                elif name in MELEE and key.startswith(("the wielder gains", "infantry cannot", "only infantry",
                                                       "all models come", "attacks made with")):
                    continue  # the shared profile's own text, read through MELEE (its table row)
                else:
                    unread.append(attribute)
        if unread:
            text = ", ".join(unread)
            self.note(f"weapon rules {text[:70] + ('…' if len(text) > 70 else '')!r} not modelled", label)
        return its, table_row

    def _shooting(self, part: Part, wielder: bool, name: str, row: Aimed, equipment: Equipment,
                  attributes: ReadAttributes, models: int, named: bool) -> dict[str, Any] | None:
        label, aim, stats = row
        if stats is None:
            known = equipment.ranged.get(name)
            stats = known[2] if known else None
        if stats is None:
            self.note(f"shooting weapon {label!r}: no Ranged Weapon profile in the list or the game system", label,
                      action="left out")
            return None
        if aim is None:
            self.note(f"shooting weapon {label!r}: the list gives no Aim", label, action="left out")
            return None
        shots_text, str_text, ap_text, attribute_text = stats
        strength, ap = (self._stat(part.profile.get("Str"), 1, part.name, "Str"),
                        self._stat(part.profile.get("AP"), 0, part.name, "AP"))
        if re.search(r"\[", f"{str_text}{ap_text}"):
            self.note(f"Str {str_text} / AP {ap_text}: a bracketed value for one hit", label,
                      action="counted with the value outside the brackets")
        shots = self._count(shots_text or "", models * part.count, label, what="Shots")
        if shots is None:
            return None
        values = self._weapon_values(label, str_text, ap_text, strength, ap)
        if values is None:
            return None
        # Hatred re-rolls to-hit rolls "during the first Round of Combat": never a shot's
        its = ReadAttributes([name for name in attributes.names if name != "hatred"], attributes.multiple)
        sentences = re.split(r"(?<=\.)\s+", attribute_text or "")
        for sentence in list(sentences):  # a roster cell shoots at short range (§4.2): what it gains there counts
            close = SHORT_RANGE_AP.fullmatch(key_of(sentence).rstrip("."))
            if close:
                values = (values[0], max(values[1], int(close.group(1))))
                sentences.remove(sentence)
        unread = [attribute for sentence in sentences
                  for attribute in items(sentence.rstrip(".")) if not its.take(key_of(attribute).strip(" .[]"))
                  and key_of(attribute).strip(" .[]") not in NO_EFFECT]
        if unread:
            text = ", ".join(unread)
            self.note(f"weapon rules {text[:70] + ('…' if len(text) > 70 else '')!r} not modelled", label)
        self._effects_on("shooting", part, wielder, name, 0, its, equipment)
        title = f"{part.name}: {label}" if named else label
        return self._row(title, "shooting", shots, values[0], values[1],
                         self._stat(part.profile.get("Off"), 1, part.name, "Off"), 0, its, aim=f"{aim}+")

    def _bounded(self, value: int, what: str, low: int = 1, high: int = 10, note: str | None = None) -> int:
        """A characteristic within what a roster holds (1 to 10, unless said), or the nearest, reported."""
        if low <= value <= high:
            return value
        nearest = min(max(value, low), high)
        self.note(f"{what} {value}: a roster holds {low} to {high}", note, action=f"counted as {nearest}")
        return nearest

    def _stat(self, text: str | None, default: int, name: str, what: str) -> int:
        """A characteristic: a number; a random one (`D6+5`) at its mean, rounded, and reported."""
        key = (text or "").casefold().replace(" ", "")
        if not key or key in ("-", "*"):
            if what in NEEDED and default:  # an attack's skill or Strength the list does not give: never silent
                self.note(f"{what} {text!r}: the list gives no value" if text else f"no {what} in the list", name,
                          action=f"counted as {default}")
            return default
        if re.fullmatch(r"-?\d+", key):
            return int(key)
        value = dice_mean(key)
        if value is not None:
            self.note(f"{what} {text}: a random value", name, action=f"counted as {value}, its mean rounded")
            return value
        self.note(f"{what} {text!r} not understood", name, action=f"counted as {default}")
        return default

    def _value(self, text: str, bonus: int, name: str, what: str = "Attack Value") -> Count | None:
        """A number, or dice like `D6+1` as (dice, sides, plus), with a bonus added; None when not read."""
        key = text.casefold().replace(" ", "")
        if key.isdecimal():
            return int(key) + bonus
        dice = DICE.match(key)
        if dice:
            return (int(dice.group(1) or 1), int(dice.group(2)), int(dice.group(3) or 0) + bonus)
        self.note(f"{what} {text!r} not understood", name, action="left out")
        return None

    def _count(self, text: str, times: int, name: str, what: str = "Attack Value") -> int | str | None:
        """`times` copies of a number or dice like `D6+1` (a number, or dice text); None when not read."""
        value = self._value(text, 0, name, what)
        return None if value is None else count_times(value, times)

    def _row(self, name: str, kind: str, attacks: int | str | None, strength: int, ap: int, offensive: int,
             modifier: int, attributes: ReadAttributes, aim: str | None = None) -> dict[str, Any] | None:
        if not attacks:
            return None
        table = self.mapped.table
        attack: dict[str, int | str | list[str] | None] = {"name": name, "kind": kind, "attacks": attacks, "aim": aim}
        toxic = "toxic" in attributes.names
        # a weapon's own value out of bounds is its line; the unit's own was reported with the unit
        strength = table["strength"] if strength == self.raw["Str"] else self._bounded(strength, "Str", note=name)
        offensive = table["offensive"] if offensive == self.raw["Off"] else self._bounded(offensive, "Off", note=name)
        ap = self._bounded(ap, "AP", 0, 10, note=name)
        if strength != table["strength"] and not toxic:
            attack["strength"] = strength
        if ap and not toxic:
            attack["ap"] = ap
        if kind == "melee" and offensive != table["offensive"]:
            attack["offensive"] = offensive
        if modifier:
            attack["modifier"] = modifier
        if attributes.multiple:
            attack["multiple_wounds"] = attributes.multiple.lower().replace(" ", "")
        attack["attributes"] = sorted(set(attributes.names))
        return attack
