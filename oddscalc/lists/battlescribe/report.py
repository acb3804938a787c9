"""What an import did not take as the catalogue gives it: one line per (unit, weapon, text),
saying what the import did instead, and the unit's fate under --strict."""

from __future__ import annotations

from typing import Any

import re
from dataclasses import dataclass, field

from ...core.record import record

SEPARATOR = re.compile(r"(?:<\s*br\s*/?\s*>\s*)+", re.IGNORECASE)  # BattleScribe's line breaks in a cell
BREAK = re.compile(r"<\s*br\s*/?\s*>", re.IGNORECASE)  # one line break
WITHOUT = "imported without it"


@record
class System:
    """The BattleScribe game system a game's importer reads (`battlescribe/<game>.py:SYSTEM`): its
    title, its catalogues' system ids and names, other editions it refuses (id: title, and the
    words that recognise one by name), the lines an imported roster's header adds, and the
    catalogue sweep's file patterns (the first that finds a catalogue of the system is read) and title."""

    title: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    header: tuple[str, ...] = ()
    other_editions: tuple[tuple[str, str], ...] = ()
    family: str | None = None  # a word in the name of any edition ("9th age")
    edition: str = ""  # the edition read, for the refusal of another: "built with the 2nd edition ..."
    catalogues: tuple[str, ...] = ("*.cat",)  # file patterns, tried in turn
    entries: str = "entries"


@record
class Note:
    """Something in the list that oddscalc does not take as given, and what the import did about it."""

    unit: str
    weapon: str | None
    text: str
    action: str = WITHOUT  # what the import did: "imported without it", "counted as 4 shots" ...

    def line(self, strict: bool) -> str:
        where = self.unit + (f", {self.weapon}" if self.weapon else "")
        return f"{where}: {self.text} ({'unit left out (--strict)' if strict else self.action})"


@dataclass
class Mapped:
    """A unit mapped from a selection: its roster table and the notes on what was not modelled."""

    table: dict[str, Any]
    notes: list[Note] = field(default_factory=list)

    @classmethod
    def priced(cls, name: str, cost: float) -> Mapped:
        """A unit named as in the list, its points the list's total cost for it (none when 0).

        Single costs may be negative (a T9A base cost below the models', an Epic size discount); a
        negative total is no price: the unit has no points (a grid then ranks by the mean), and one
        line says so."""
        points = round(cost)
        mapped = cls({"name": name, "points": points if points > 0 else None})
        if points < 0:
            mapped.note(f"a total cost of {points} pts: points are 0 or more", action="imported without points")
        return mapped

    def note(self, text: str, weapon: str | None = None, action: str = WITHOUT) -> None:
        item = Note(self.table.get("name", "?"), weapon, text, action)
        if item not in self.notes:
            self.notes.append(item)

    def leave_out(self, why: str) -> Mapped:
        """Leave the whole unit out, saying why (one line of the report)."""
        self.note(why, action="left out")
        self.table = {}
        return self


def unique(name: str, taken: set[str]) -> str:
    """`name`, or `name (2)`, `name (3)` ... the first not in `taken` (compared case-blind); taken then."""
    chosen, number = name, 1
    while chosen.casefold() in taken:
        number += 1
        chosen = f"{name} ({number})"
    taken.add(chosen.casefold())
    return chosen


def cells(text: str | None) -> list[str]:
    """A profile cell split at its line breaks (BattleScribe writes `<BR><BR>` between weapons)."""
    return [part.strip() for part in SEPARATOR.split(text or "")]


def lines(text: str | None) -> list[str]:
    """A profile cell split at every single line break, empty lines kept (they align columns)."""
    return [part.strip() for part in BREAK.split(text or "")]


def items(text: str | None) -> list[str]:
    """A comma-separated list of rules, with brackets kept together: `Multiple Wounds (D3), Poison`."""
    parts, depth, current = [], 0, ""
    for char in text or "":
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [" ".join(part.split()) for part in parts if part.strip() and part.strip() != "-"]


def counted(name: str) -> dict[str, int]:
    """The counts a selection's name gives: `3x Chimera` → {chimera: 3}; `8x Vanguard, 4x Dunerider`
    → two counts; `Pair of Land Raiders` → {land raiders: 2}; no count → {}."""
    found = {}
    for part in name.split(","):
        match = re.match(r"^\s*(\d+)\s*[x×]\s*(.+?)\s*$", part, re.IGNORECASE)
        if match:
            found[match.group(2).casefold()] = int(match.group(1))
        elif part.strip().casefold().startswith("pair of "):
            found[part.strip()[8:].casefold()] = 2
    return found
