"""What a round of close combat needs of a 9th Age unit (docs/rules.md §3.11), read by the importer
(battlescribe/t9a.py): its fighting part's Attack Value and Agility, its Discipline, standard, Swiftstride,
Height and Stomp Attacks, weapons and rules that act in a combat, the charge's bonus, its mount."""

from __future__ import annotations

import re

from ...errors import InputError
from ...t9a.attributes import game_dice
from .reader import Selection
from .report import items
from .t9a_common import HEIGHT_STOMP, SWIFT, Reading, key_of, Part, type_of, dice_mean


class CombatReading(Reading):
    """The combat fields of one unit; a part of the importer's reader (`t9a._Reader`)."""

    def _combat(self, body: Selection, first: Part, parts: list[Part], height: str, weapons: set[str]) -> None:
        """What a round of combat needs (docs/rules.md §3.11): the Attack Value (times its count: a crew of two)
        and Agility of the unit's fighting part, its Discipline, a Standard Bearer among its selections,
        Swiftstride among its rules, its Height and the Stomp Attacks it gives, its mount's attacks. A value that
        is not a plain number in bounds (D6 attacks, a rider's "C") is not written: the unit stays out of grid
        --combat, as its other studies are unchanged."""
        table = self.mapped.table
        self._cells(body, first)
        if any("standard bearer" in key_of(item.name) for item in self.selection.walk() if item.number):
            table["standard"] = True
        rules = {key_of(rule) for item in self.selection.walk() for rule in item.rules}
        own = {key_of(rule) for rule in (*self.selection.rules, *first.rules, *items(first.profile.get("Rules")))}
        if "lightning reflexes" in own:  # the unit's or its fighting part's, not a handler's
            table["lightning_reflexes"] = True
        types = {key_of(profile.get("Type")) for item in body.walk() for profile in item.profiles
                 if type_of(profile) == "size"}
        for name, pattern, implied in (
                ("impact_hits", r"impact hits \(([^)]+)\)", None),  # when it charges (a chariot's, a mount's)
                ("stomp", r"stomp attacks \(([^)]+)\)", None if "construct" in types else HEIGHT_STOMP.get(height))):
            value = next((match.group(1) for rule in rules if (match := re.fullmatch(pattern, rule))), implied)
            if value is None:
                continue
            dice = value.split(",")[0]  # "D3+1, Chariot Host": the dice (Chariot Host is a rule, reported as one)
            try:  # any dice the rules roll: 1, d3, d6+1, d3+3 (D6 and D3 only)
                table[name] = re.sub(r"^1d", "d", str(game_dice(dice.replace(" ", ""), name)))
            except InputError:
                self.note(f"{name.replace('_', ' ')} ({value})", action="left out of a round of combat (not dice "
                                                                          "of the game)")
        chosen = {key_of(item.name) for item in self.selection.walk() if item.number}
        if any("great weapon" in name for name in chosen):
            table["great_weapon"] = True
        self._charge(chosen | weapons, own)
        if "spear" in chosen:
            table["spear"] = True
        elif "fight in extra rank" in own:  # the rule itself (a Spear's is the Spear's)
            table["extra_ranks"] = 1
        if types & SWIFT or "swiftstride" in rules:
            table["swiftstride"] = True  # the rule, or a type that has it (Cavalry, Beast: Classification of Models)
        if height != "standard":
            table["height"] = height
        for name, rule, kind in (("cannot_be_stomped", "cannot be stomped", "cavalry"), ("stubborn", "stubborn", None),
                                 ("unbreakable", "unbreakable", None)):
            if rule in rules or kind in types:
                table[name] = True
        self._mount(first, parts)

    def _cells(self, body: Selection, first: Part) -> None:
        """The Attack Value (times its count), Agility and Discipline a round of combat reads, each written only
        where the list gives a number in bounds, and said where it gives something else."""
        table = self.mapped.table
        found_all = [profile for item in body.walk() for profile in item.profiles if type_of(profile) == "global"]
        # a ridden monster's Global profile writes the rider's Discipline as `C`: the rider's own is the unit's
        found = next((profile for profile in found_all if key_of(profile.get("Dis")) != "c"),
                     found_all[0] if found_all else None)
        cells = (("attack_value", "Att", first.profile.get("Att"), 1, first.count),
                 ("agility", "Agi", first.profile.get("Agi"), 0, 1),
                 ("discipline", "Dis", found.get("Dis") if found is not None else None, 2, 1))
        for name, label, text, low, times in cells:
            key = (text or "").strip()
            if re.fullmatch(r"[0-9]+", key) and low <= int(key) * times <= 10:
                table[name] = int(key) * times
            elif name == "attack_value" and (mean := dice_mean(key)) is not None and 1 <= mean * times <= 10:
                table[name] = mean * times  # a random Attack Value (D6+1): a round of combat takes a number
                self.note(f"Att {key}: a random value", first.name,
                          action=f"counted as {mean}, its mean rounded, in a round of combat")
            elif text is not None and (key or name != "attack_value"):  # a cell the list gives but not as a number
                # in bounds (`²`, blank, 11): said (a blank Att is said by the attacks' reader: no melee attacks)
                self.note(f"{label} 'C': the rider's, whose profile the list does not give" if key_of(key) == "c" else
                          f"{label} {key!r}: not a number of {low} to 10" + (f" (times {times})" if times > 1 else ""),
                          first.name, action="left out of a round of combat")

    def _charge(self, weapons: set[str], own: set[str]) -> None:
        """What its own attacks gain when it charges: a Lance's +2 Strength and AP, a Light Lance's +1, a
        Devastating Charge (+X Att, +X Str, +X AP) of the unit's or its fighting part's (its other effects, like
        +X Agi or Adv, are not read)."""
        bonus = dict.fromkeys(("att", "str", "ap"), 0)
        lance = 2 if "lance" in weapons else 1 if "light lance" in weapons else 0
        bonus.update(str=lance, ap=lance)
        for rule in own:
            found = re.fullmatch(r"devastating charge \((.*)\)", rule)
            for what, value in re.findall(r"\+\s*(\d+)\s*(att|str|ap)\b", found.group(1) if found else ""):
                bonus[value] += int(what)
        for name, key, high in (("charge_attacks", "att", 2), ("charge_strength", "str", 3), ("charge_ap", "ap", 3)):
            if bonus[key]:
                self.mapped.table[name] = min(bonus[key], high)

    def _mount(self, first: Part, parts: list[Part]) -> None:
        """The mount's attacks (a second model part that attacks: a horse, harnessed beasts, a ridden monster);
        a third is reported and left out of a round of combat."""
        fighting = [part for part in parts if part is not first and not part.inanimate
                    and re.fullmatch(r"\d+", (part.profile.get("Att") or "").strip())]
        if not fighting or not all(name in self.mapped.table for name in ("attack_value", "agility", "discipline")):
            return  # no round of combat for a unit without those (grid --combat lists it apart)
        for extra in fighting[1:]:
            self.note(f"{extra.name}: a third model part that attacks", action="left out of a round of combat "
                                                                               "(two parts a model)")
        part = fighting[0]
        values = [(part.profile.get(name) or "").strip() for name in ("Att", "Off", "Str", "Agi", "AP")]
        values[4] = values[4] if values[4] not in ("", "-", "0") else "0"
        if not all(re.fullmatch(r"\d+", value) for value in values):
            self.note(f"{part.name}: Att, Off, Str, Agi, AP {' '.join(values)!r}", action="left out of a round of combat "
                                                                                     "(not plain numbers)")
            return
        attacks, offensive, strength, agility, ap = map(int, values)
        attacks *= part.count
        if not (1 <= attacks <= 10 and 1 <= offensive <= 10 and 1 <= strength <= 10 and agility <= 10 and ap <= 10):
            self.note(f"{part.name}: {attacks} attacks, Off {offensive}, Str {strength}, Agi {agility}, AP {ap}",
                      action="left out of a round of combat (out of its bounds)")
            return
        self.mapped.table["mount"] = (f"A{attacks} O{offensive} S{strength} I{agility}" + (f" AP{ap}" if ap else "")
                                      + (" harnessed" if part.harnessed else ""))
