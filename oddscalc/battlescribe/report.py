"""What an import could not model: one line per (unit, weapon, text), and the unit's fate."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SEPARATOR = re.compile(r"(?:<\s*br\s*/?\s*>\s*)+", re.IGNORECASE)  # BattleScribe's line breaks in a cell


@dataclass(frozen=True)
class Note:
    """Something in the list that oddscalc does not model, and what the import did about it."""

    unit: str
    weapon: str | None
    text: str

    def line(self, strict: bool) -> str:
        where = self.unit + (f", {self.weapon}" if self.weapon else "")
        outcome = "unit left out (--strict)" if strict else "imported without it"
        return f"{where}: {self.text} ({outcome})"


@dataclass
class Mapped:
    """A unit mapped from a selection: its roster table and the notes on what was not modelled."""

    table: dict
    notes: list[Note] = field(default_factory=list)

    def note(self, text: str, weapon: str | None = None) -> None:
        item = Note(self.table["name"], weapon, text)
        if item not in self.notes:
            self.notes.append(item)


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
