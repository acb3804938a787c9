"""The Epic Armageddon importer's tables and small readers (battlescribe/epic.py): the unit types and notes
it reads, names and counts as the catalogues write them, a weapon line, a group of units of one profile, and
what each part of the reader holds."""

from __future__ import annotations

from typing import Any

import math
import re
from dataclasses import dataclass, field

from .reader import Profile, Selection
from .report import Mapped
from ...core.record import record

FLYING = {"aircraft": "aircraft", "spacecraft": "spacecraft", "spaceship": "spacecraft"}
CHARACTER = "character"  # joins a unit: its weapons fire with the formation, it is no target of its own
# notes that change no dice of one shot or barrage at a formation (docs/rules.md §2, §4.1)
NO_EFFECT = {
    "indirect fire", "indirect", "slow firing", "slow fire", "single shot", "one shot", "transport", "fearless",
    "jump packs", "jump pack", "jetpacks", "tau jetpacks", "tau jet packs", "walker", "scout", "scouts", "teleport",
    "planetfall", "self planetfall", "mounted", "mounted infantry", "inspiring", "commander", "supreme commander",
    "leader", "leaders", "skimmer", "infiltrator", "infiltrators", "expendable", "independent", "first strike",
    "extra attacks", "drop troops", "no units may enter", "may not take actions", "tunneller", "tunnellers",
    "may not march", "support craft", "normal shot or barrage", "choose weapon system at the start of the battle",
    "they shall know no fear",  # read for assaults (know_no_fear)
}
NOTHING = {"", "-", "n/a", "*"}  # a Firepower cell without a weapon (`*`: see the war engine's weapon upgrades)
COUNT = re.compile(r"^(\d+)\s*[x×]\s*(.+)$", re.IGNORECASE)


def key_of(text: str | None) -> str:
    return " ".join((text or "").casefold().replace("-", " ").split())


def same_name(one: str, other: str) -> bool:
    """Two names of one thing: equal, one inside the other, or one the other's plural."""
    one, other = key_of(one), key_of(other)
    def singular(word: str) -> str:
        return re.sub(r"(?:es|s|i)$", "", word)

    return one == other or one in other or other in one or singular(one) == singular(other)


def mean_of(dice: str) -> float:
    """The mean of `D6`, `2D3+1`, `3+D3` (BattleScribe's random shots and barrage points)."""
    total = 0.0
    for term in re.split(r"\s*\+\s*", dice.casefold().strip()):
        match = re.fullmatch(r"(\d*)d(\d+)", term)
        total += int(match.group(1) or 1) * (int(match.group(2)) + 1) / 2 if match else int(term)
    return total


@dataclass
class Line:
    """One weapon line of the formation: its figures and how many copies fire."""

    name: str
    copies: int
    fields: dict[str, str]  # "ap", "at" or "mw": "4+"
    special: list[str]
    bp: int | None = None
    alternative: str | None = None  # the weapon whose other mode this is
    owner: str = ""  # the unit profile it belongs to (halving "one unit in two has …")


@record
class Close:
    """A profile's close combat weapon line (an assault weapon, small arms): what it adds to its units' assaults."""

    name: str
    at: str  # "cc": an assault weapon's, "ff": small arms'
    extra: int  # its extra attacks (+NA)
    ability: str  # "normal", "macro", "titan-killer": the weapon of its extra attacks
    damage: str | None  # a titan killer's D-value ("d3"); None: 1
    first_strike: bool


@record
class Character:
    """A character (it joins a unit, docs/rules.md §4.1): what it brings to that unit's assaults."""

    name: str
    close: tuple[Close, ...]  # its close-combat weapons (a Power Weapon's +1A, macro)
    inspiring: bool
    first_strike: bool = False


@dataclass
class Group:
    """Units of one profile: a part of the formation as a target."""

    name: str
    count: int
    kind: str
    armour: str
    flags: set[str] = field(default_factory=set)  # reinforced, invulnerable, thick-rear-armour
    damage_capacity: int | None = None
    shields: int = 0
    critical: str = "none"
    cc: str | None = None  # close-combat and firefight values ("4+", "none"), for assaults; None: not read
    ff: str | None = None
    fearless: bool = False
    first_strike: bool = False
    extra_attacks: int = 0  # its close-combat weapons' extra attacks (+NA), for assaults (docs/rules.md §2.9)
    extra_at: str = "own"  # cc: an assault weapon's, ff: small arms', own: both
    extra_ability: str = "normal"  # macro, titan-killer: the weapon of its extra attacks
    tk_damage: str | None = None
    inspiring: bool = False
    know_no_fear: bool = False

    def defence(self) -> tuple[Any, ...]:
        return (self.kind, self.armour, frozenset(self.flags), self.damage_capacity, self.shields, self.critical)

    def assault_profile(self) -> str:
        """How its units fight in an assault, as an `assault` kind without its count (docs/rules.md §2.9)."""
        words = [f"DC{self.damage_capacity}"] if self.kind == "war-engine" and self.damage_capacity else []
        words += [f"cc {self.cc}", f"ff {self.ff}", f"armour {self.armour}"]
        words += [f"extra-attacks {self.extra_attacks}"] if self.extra_attacks else []
        words += [f"extra-at {self.extra_at}"] if self.extra_attacks and self.extra_at != "own" else []
        words += [f"extra-ability {self.extra_ability}"] if self.extra_attacks and self.extra_ability != "normal" else []
        words += [f"tk-damage {self.tk_damage}"] if self.extra_attacks and self.tk_damage else []
        words += [flag for flag in ("reinforced", "invulnerable") if flag in self.flags]
        words += ["fearless"] if self.fearless else []
        words += ["inspiring"] if self.inspiring else []
        if self.kind == "war-engine" and self.critical != "none":
            words += [f"critical {self.critical}"]
        return " ".join(words)

    def describe(self, kind: bool = True) -> str:
        words = ([self.kind] if kind else []) + [f"armour {self.armour}", *sorted(self.flags)]
        if self.damage_capacity is not None:
            words += [f"DC {self.damage_capacity}", f"{self.shields} shields", f"critical {self.critical}"]
        return ", ".join(words)


class Reading:
    """What each part of the importer's reader (`epic._Reader`) holds: the formation's selection, its roster
    table and report, its target groups and weapon lines so far."""

    described: dict[str, str] = {}  # the weapons a selection's own unit profiles name, with their Firepower

    def __init__(self, selection: Selection) -> None:
        self.mapped = Mapped.priced(selection.name, selection.cost("pts"))
        self.groups: list[Group] = []
        self.lines: list[Line] = []
        self.halves: list[tuple[str, str]] = []  # (owner profile, weapon) that one unit in two carries
        self.selection = selection
        self.close: list[Close] = []  # a profile's close-combat weapon lines (`_close_line`), while it is read
        self.characters: list[Character] = []  # the characters that join its units (their assault extras)

    def note(self, text: str, weapon: str | None = None, action: str = "imported without it") -> None:
        self.mapped.note(text, weapon, action)

    def _who(self, profile: Profile) -> str:
        """How the report names a profile of the formation: not at all when it is the formation's own."""
        return "" if key_of(profile.name) == key_of(self.selection.name) else f"{profile.name}: "

    def _random(self, dice: str, name: str | None, what: str) -> int:
        count = math.floor(mean_of(dice) + 0.5)
        self.note(f"{dice.upper()} {what}: a random number", name, action=f"counted as {count}, its mean rounded")
        return count

    @staticmethod
    def _no_effect(key: str) -> bool:
        base = re.sub(r"\s*\(.*\)$", "", key)  # Transport (SM), Walker (Titan), Extra Attacks (+1)
        return key in NO_EFFECT or base in NO_EFFECT

    def _close_attacks(self, group: Group, who: str) -> None:
        """Its close-combat weapons' extra attacks on the profile's group: added up, at CC (assault weapons), FF
        (small arms) or both; a weapon's First Strike the unit's (§2.9's reading); weapons whose extra attacks
        differ in ability are counted as the one with most, and said."""
        armed = [line for line in self.close if line.extra]
        group.first_strike = group.first_strike or any(line.first_strike for line in self.close)
        if not armed:
            return
        group.extra_attacks = min(sum(line.extra for line in armed), 3)
        ats = {line.at for line in armed}
        group.extra_at = ats.pop() if len(ats) == 1 else "own"
        lead = max(armed, key=lambda line: line.extra)
        group.extra_ability, group.tk_damage = lead.ability, lead.damage
        others = [line.name for line in armed if (line.ability, line.damage) != (lead.ability, lead.damage)]
        if others:
            self.note(f"{who}extra attacks of {', '.join(others)} counted as {lead.name}'s ({lead.ability}) in "
                      "assaults", action="counted as stated")
        if sum(line.extra for line in armed) > 3:
            self.note(f"{who}{sum(line.extra for line in armed)} extra attacks in assaults", action="counted as 3")


def is_character(profile: Profile) -> bool:
    return CHARACTER in [key_of(part) for part in (profile.get("Type") or "").split(",")]


def counted_name(name: str) -> tuple[int, str]:
    """`2x Lascannon` → (2, "Lascannon"); `Pair of Land Raiders` → (2, …)."""
    match = COUNT.match(name.strip())
    if match:
        return int(match.group(1)), match.group(2).strip()
    if name.strip().casefold().startswith("pair of "):
        return 2, name.strip()[8:]
    return 1, name.strip()
