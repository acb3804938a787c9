"""A formation's weapons as roster weapons, read by the importer (battlescribe/epic.py): its profiles' Weapons,
Firepower and Notes cells line by line, a weapon's other modes, its special abilities, the extra attacks of its
close combat weapons, and the lines merged into weapons of all their shots and barrages of their summed BP."""

from __future__ import annotations

from typing import Any

import math
import re

from .epic_common import NOTHING, Reading, Close, counted_name, is_character, key_of, Line, mean_of, same_name
from .reader import Profile
from .report import items, lines, unique

SPECIALS = {"disrupt": "disrupt", "lance": "lance", "ignore cover": "ignore-cover", "ignores cover": "ignore-cover",
            "sniper": "sniper", "macro weapon": "macro"}
TITAN_KILLER = re.compile(r"^(?:tk|titan[- ]?killer)\s*\(?\s*(\d*d?\d+(?:\s*\+\s*\d+)?)?\s*\)?$")
ARC = re.compile(r"\barcs?\b|360|^fixed (forward|rear)|fixed forward fire|fire arc")
CLOSE = {"small arms", "assault weapons", "assault weapon", "(small arms)"}  # firefight and close combat only
VALUE = re.compile(r"^(ap|at|aa|mw)\s*([2-6])\s*\+?$")
BARRAGE = re.compile(r"^(?:(\d+)\s*bp|bp\s*(\d+))$")
DICE_BARRAGE = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?|\d+\s*\+\s*\d*d[36])\s*bp$")
DICE_COUNT = re.compile(r"^(\d*d[36](?:\s*\+\s*\d+)?)\s*[x×]\s*(.+)$", re.IGNORECASE)
MAX_BP = 18  # the barrage table's last row
MAX_SHOTS = 200  # the roster schema's cap


def _dice(text: str) -> str:
    """A dice expression as oddscalc writes it: `D3+1` → `d3+1`, `1D3` → `d3`."""
    return re.sub(r"^1d", "d", text.casefold().replace(" ", ""))


class WeaponReading(Reading):
    """The weapon lines of one formation; a part of the importer's reader (`epic._Reader`)."""

    def _weapons_of(self, profile: Profile, copies: int, sniper: bool) -> None:
        """A unit profile's weapons: its cells read line by line, aligned (an empty name continues a weapon)."""
        names, fire, notes = lines(profile.get("Weapons")), lines(profile.get("Firepower")), lines(profile.get("Notes"))
        blocks: list[tuple[str, list[tuple[str, str]]]] = []
        for index, firepower in enumerate(fire):
            name = names[index] if index < len(names) else ""
            note = notes[index] if index < len(notes) else ""
            if not firepower and not name:
                continue
            if name and name != "*" and not re.match(r"^(and|or)\b", firepower, re.IGNORECASE) or not blocks:
                blocks.append((name.lstrip("* ").strip() or profile.name, []))
            blocks[-1][1].append((firepower, note))
        for name, modes in blocks:
            own = self.described.get(key_of(counted_name(name)[1])) if is_character(profile) else None
            if own is not None:  # a character upgrade that describes its gun again (Oddboyz)
                here = " ".join(modes[0][0].split())
                differ = f" ({here} here, {own} there)" if here != own else ""
                self.note(f"{profile.name}: {name!r} is the gun the model's own profile gives{differ}", name,
                          action="counted once, as the model's own profile gives it")
                others = [" ".join(firepower.split()) for firepower, _ in modes[1:]
                          if re.match(r"^or\b", firepower, re.IGNORECASE)]
                if others:  # "Soopagun or Supa-Zzap Gun": the choices of the entries it joins, not a gun's modes
                    self.note(f"{profile.name}: {name!r} {' '.join(others)}: the other gun its profile names is "
                              "another entry's choice (the list took this one)", name, action="left out")
                continue
            self._block(name, modes, copies, profile.name, sniper)

    def _weapon(self, name: str, profile: Profile, copies: int) -> None:
        modes = list(zip(lines(profile.get("Firepower")), lines(profile.get("Notes")) + [""] * 50))
        self._block(name, [mode for mode in modes if mode[0] or mode[1]], copies, "", False)

    def _block(self, name: str, modes: list[tuple[str, str]], copies: int, owner: str, sniper: bool) -> None:
        """One weapon's lines: the first and its `and` lines fire together; an `or` line is another mode."""
        times, name = counted_name(name)
        if not times:  # "0x Lascannon": a weapon the list gives none of
            self.note(f"{name}: a count of 0", action="not a weapon of the formation")
            return
        main = None
        for index, (firepower, note) in enumerate(modes):
            prefix = re.match(r"^(and|or)\b\s*", firepower, re.IGNORECASE)
            word = prefix.group(1).casefold() if prefix else ("and" if index else "")
            firepower = firepower[prefix.end():] if prefix else firepower
            note = re.sub(r"^(and|or)\b\s*", "", note, flags=re.IGNORECASE)
            label = name if index == 0 else f"{name} ({'or ' if word == 'or' else ''}{firepower})"
            if key_of(" ".join(firepower.split())).strip("()") in CLOSE:  # fights only in assaults
                if word != "or":  # another mode's extra attacks are instead of the first's, not beside them
                    self._close_line(label, firepower, note)
                continue
            line = self._line(label, copies * times, firepower, note, owner, sniper)
            if line is None:
                continue
            if word == "or" and main is not None:
                line.alternative = main
            elif main is None:
                main = line.name
            self.lines.append(line)

    def _line(self, name: str, copies: int, firepower: str, notes: str, owner: str, sniper: bool) -> Line | None:
        """One weapon line from its Firepower and Notes; None for a firefight, close combat or AA-only line."""
        text = " ".join(firepower.split())
        if key_of(text) in NOTHING or key_of(text).strip("()") in CLOSE:
            return None
        dice = DICE_COUNT.match(text)
        times, text = counted_name(text) if not dice else (self._random(dice.group(1), name, "shots"), dice.group(2))
        if not times:  # "0x AP5+": no shots (a list's figure, never silently a weapon that does nothing)
            self.note(f"Firepower {firepower!r}: no shots", name, action="not a shooting weapon")
            return None
        fields: dict[str, str] = {}
        special: list[str] = []
        unknown: list[str] = []
        bp: int | None = None
        close, anti_aircraft = False, False
        for token in re.split(r"[,/]|\s+and\s+", text):
            token = token.strip()
            key = key_of(token)
            value, barrage, random_bp = VALUE.match(key), BARRAGE.match(key), DICE_BARRAGE.match(key)
            if not token:
                continue
            if value:
                if value.group(1) == "aa":  # anti-aircraft fire has no target on the ground
                    anti_aircraft = True
                else:
                    fields[value.group(1)] = f"{value.group(2)}+"
            elif barrage and not int(barrage.group(1) or barrage.group(2)):  # "0 BP": no barrage (said, not fired)
                unknown.append(token)
            elif barrage:
                bp = int(barrage.group(1) or barrage.group(2))
            elif random_bp:
                bp = self._random(random_bp.group(1), name, "BP")
            elif key in CLOSE or key.strip("()") in CLOSE or key.startswith("+"):
                close = True
            elif not self._special(token, name, special):
                unknown.append(token)
        if bp is None and not fields:  # one note for the whole line, not one more for each of its words
            if not close and not anti_aircraft:
                self.note(f"Firepower {text!r}: no AP, AT, MW or BP value", name, action="not a shooting weapon")
            return None
        for token in unknown:
            self.note(f"Firepower {token!r} not understood", name)
        for token in items(notes):
            if not self._special(token, name, special):
                self.note(f"note {token!r} not modelled", name)
        if "titan-killer" in special and bp is None and "mw" not in fields:
            special.append("macro")  # in all other ways, titan killers are treated as macro-weapons (§2.2)
        if "macro" in special and bp is None and "mw" not in fields:
            fields = {"mw": min(fields.values())}  # a macro-weapon written with its AP/AT value
        if "mw" in fields:
            fields = {"mw": fields["mw"]}  # a macro-weapon hits anything at its MW value
        if bp is None:
            special = [item for item in special if item != "macro"]
        if sniper:
            special.append("sniper")
        return Line(name, copies * times, fields, special, bp, owner=owner)

    def _close_line(self, name: str, firepower: str, notes: str) -> None:
        """An assault weapon's or small arms' line (docs/rules.md §2.9): its extra attacks (+NA, 2.2.3) and their
        weapon's ability (a macro-weapon, a titan killer and its D-value, 2.2.6, 2.2.9), kept for its profile."""
        extra, ability, damage, first = 0, "normal", None, False
        for token in items(notes):
            key = key_of(token)
            attacks = re.fullmatch(r"\+\s*(\d+|d\d(?:\s*\+\s*\d+)?)\s*a(ttacks?)?", key)
            killer = TITAN_KILLER.match(key.replace(" (", "("))
            if attacks:
                count = attacks.group(1)
                mean = int(count) if count.isdecimal() else math.floor(mean_of(count) + 0.5)
                if not count.isdecimal():  # an assault's figure, not a shooting one: no weapon line named
                    self.note(f"{name}: {count.upper()} extra attacks in assaults: a random number",
                              action=f"counted as {mean}, its mean rounded")
                extra += mean
            elif key in ("macro weapon", "macro weapons"):
                ability = "macro"
            elif killer or key.startswith("titan killer"):
                ability = "titan-killer"
                damage = _dice(killer.group(1)) if killer and killer.group(1) not in (None, "1") else None
            elif key == "first strike":
                first = True
        at = "cc" if "assault" in key_of(firepower) else "ff"
        self.close.append(Close(name, at, extra, ability, damage, first))

    def _special(self, token: str, weapon: str, special: list[str]) -> bool:
        """Read a special ability or a no-effect note into `special`; False when it is unknown."""
        key = key_of(token)
        killer = TITAN_KILLER.match(key.replace(" (", "("))
        if killer or key.startswith("titan killer"):
            damage = _dice(killer.group(1)) if killer and killer.group(1) else "1"
            special.append("titan-killer")
            if damage != "1":
                special.append(f"tk:{damage}")
            return bool(killer) or self._unread(token, weapon)
        if key in SPECIALS:
            special.append(SPECIALS[key])
            return True
        return self._no_effect(key) or bool(ARC.search(key))

    def _unread(self, token: str, weapon: str) -> bool:
        self.note(f"note {token!r} not understood", weapon)
        return True

    def _halve(self) -> None:
        """"One unit in every two has an autocannon": that weapon fires from half the units, rounded up."""
        for owner, weapon in self.halves:
            matched = [line for line in self.lines
                       if line.owner == owner and same_name(line.name.split(" (")[0], weapon)]
            for line in matched:
                line.copies = -(-line.copies // 2)
            if not matched:
                self.note(f"{owner}: one unit in two has {weapon!r}, but no weapon of that name",
                          action="imported without it")

    def _merged(self) -> list[dict[str, Any]]:
        """Lines with the same figures as one weapon of all their shots; barrages as one summed barrage
        (an alternative mode's barrage as its own)."""
        weapons: dict[tuple[Any, ...], dict[str, Any]] = {}
        barrages: dict[str | None, list[Line]] = {}
        owners: dict[int, str] = {}  # each weapon's unit profile (an "or" mode's main weapon is its own unit's)
        moded = {line.alternative for line in self.lines if line.alternative}  # weapons with another mode
        for line in self.lines:
            if line.bp is not None:
                barrages.setdefault(line.alternative and line.name, []).append(line)
                continue
            special = sorted(set(line.special))
            key = (tuple(sorted(line.fields.items())), tuple(special), line.alternative,  # the figures, whatever the
                   line.name.casefold() if line.name in moded or line.alternative else None)  # name, but a mode's
            if key in weapons:
                weapons[key]["shots"] += line.copies
                if key_of(line.name) not in [key_of(name) for name in weapons[key]["name"].split(" + ")]:
                    weapons[key]["name"] += f" + {line.name}"  # "Battlecannon + Turret Battlecannon"
            else:
                weapons[key] = {"name": line.name, "shots": line.copies, **line.fields, "special": special,
                                "alternative": line.alternative}
                owners[id(weapons[key])] = line.owner
        merged = list(weapons.values())
        for alternative, group in barrages.items():
            merged.append(self._barrage(group, alternative))
            owners[id(merged[-1])] = group[0].owner
        names: set[str] = set()
        renamed: dict[tuple[str | None, str], str] = {}  # (name, unit profile): the name it is imported with
        for weapon in merged:  # weapon names are unique within a unit
            old = weapon["name"]
            weapon["name"] = unique(old, names)
            renamed.setdefault((old, owners[id(weapon)]), weapon["name"])  # a mode's main weapon is its unit's
        for weapon in merged:
            main = weapon.get("alternative")
            weapon["alternative"] = renamed.get((main, owners[id(weapon)]), main)
            self._special_fields(weapon)
            if weapon.get("shots") is not None and weapon["shots"] > MAX_SHOTS:
                self.note(f"{weapon['shots']} shots: a roster weapon fires at most {MAX_SHOTS}", weapon["name"],
                          action=f"counted as {MAX_SHOTS}")
                weapon["shots"] = MAX_SHOTS
        return merged

    def _barrage(self, group: list[Line], alternative: str | None) -> dict[str, Any]:
        bp = sum(line.bp * line.copies for line in group if line.bp is not None)  # a barrage's lines have BP
        if bp > MAX_BP:
            self.note(f"{bp} BP in one barrage: the table ends at {MAX_BP} BP", group[0].name,
                      action=f"fired as {MAX_BP}")
        common = set.intersection(*(set(line.special) for line in group))  # §2.5: only if every weapon has it
        for line in group:
            for special in sorted(set(line.special) - common):
                self.note(f"{special}: not on every barrage weapon, so not on the barrage", line.name)
        names = list(dict.fromkeys(line.name for line in group))
        return {"name": " + ".join(names), "bp": min(bp, MAX_BP), "special": sorted(common),
                "alternative": group[0].alternative if alternative else None}

    @staticmethod
    def _special_fields(weapon: dict[str, Any]) -> None:
        """`tk:d3` in the specials is the weapon's titan-killer damage (tk_damage)."""
        damage = [item[3:] for item in weapon["special"] if item.startswith("tk:")]
        weapon["special"] = [item for item in weapon["special"] if not item.startswith("tk:")]
        if damage:
            weapon["tk_damage"] = damage[0]
