"""Army lists from BattleScribe / New Recruit (`.ros`, `.rosz`) as oddscalc rosters.

`load(path)` reads the file safely (see `reader`), maps each selection that carries
profiles oddscalc understands to a unit of the game's roster schema (`epic`, `t9a`), and
returns the roster as the data a TOML roster would hold, with the report of what was not
modelled. By default a unit is imported without what was not understood; `strict=True`
leaves such a unit out. Either way every such thing is one line of the report.
"""

from __future__ import annotations

from typing import Any

from dataclasses import replace
from pathlib import Path

from ... import contract
from ...contract import GameImporter
from ...errors import InputError
from .reader import RosterFile, parse, read_bytes
from .report import Note, System, unique
from ...core.record import record

SUFFIXES = (".ros", ".rosz")


def mappers() -> dict[str, GameImporter]:
    """The importer of each game that has one (`battlescribe/<game>.py`), in the registry's order."""
    return {name: importer for name in contract.names() if (importer := contract.importer(name)) is not None}


@record
class Imported:
    """A list read as a roster: its game, the roster data (TOML-shaped), and the report."""

    source: str
    game: str
    data: dict[str, Any]
    notes: tuple[Note, ...]
    strict: bool
    left_out: tuple[str, ...]

    def report(self) -> list[str]:
        """One line per thing not modelled: unit, weapon, the text, and what the import did."""
        return [note.line(self.strict) for note in self.notes]

    def apart(self) -> list[str]:
        """One line per unit that takes no part in its game's engagement (grid --assault, grid --combat), and why
        (`Game.cannot_engage`)."""
        from ..roster import build

        game = contract.roster(self.game).GAME
        if game.cannot_engage is None or not self.data["unit"]:
            return []
        units = build(self.data, self.source, game).units
        return [f"{unit.name}: not in grid --{game.engages}: {why}" for unit in units
                if (why := game.cannot_engage(unit))]

    def header(self) -> list[str]:
        lines = [f"Imported by oddscalc from {Path(self.source).name}.",
                 "Edit freely: every field is documented in `oddscalc profiles --help` and docs/rules.md.",
                 *mappers()[self.game].SYSTEM.header]
        return lines + [f"Note: {line}" for line in [*self.report(), *self.apart()]]


def _without_none(table: dict[str, Any]) -> dict[str, Any]:
    """A unit's table as a TOML file would hold it: no empty fields, weapons likewise."""
    clean = {key: value for key, value in table.items() if value is not None}
    if "weapon" in clean:
        clean["weapon"] = [_without_none(weapon) for weapon in clean["weapon"]]
    return clean


def is_list(path: str | Path) -> bool:
    """Whether a roster path names a BattleScribe list (by its suffix)."""
    return Path(path).suffix.lower() in SUFFIXES


def game_of(roster: RosterFile, source: str) -> str:
    """The oddscalc game of a list, from its game system (its id, else its exact name); refuse others."""
    name = " ".join(roster.system_name.casefold().split())
    systems = {game: mapper.SYSTEM for game, mapper in mappers().items()}

    def refuse(system: System) -> InputError:
        return InputError("file", source, f"built with game system {roster.system_name!r} revision "
                                          f"{roster.system_revision or '?'}: oddscalc imports {system.edition} only")

    for system in systems.values():  # another edition's id, whatever its name says
        if roster.system_id in dict(system.other_editions):
            raise refuse(system)
    found = [game for game, system in systems.items() if roster.system_id in system.ids] or [
        game for game, system in systems.items() if name in system.names]
    if found:
        return found[0]
    for system in systems.values():
        if system.family is not None and system.family in name:
            raise refuse(system)
    titles = " and ".join(system.title for system in systems.values())
    raise InputError("file", source, f"built with game system {roster.system_name or '(none named)'!r}: oddscalc "
                                     f"imports {titles} lists")


def load(path: str | Path, strict: bool = False) -> Imported:
    """Read a .ros/.rosz list into roster data and a report (see the module's docstring)."""
    return load_xml(read_bytes(Path(path)), str(path), strict)


def load_xml(data: bytes, source: str, strict: bool = False) -> Imported:
    """A list's XML (read from `source`) as roster data and a report; refused when no unit is left."""
    imported = read_xml(data, source, strict)
    if not imported.data["unit"]:
        left_out = imported.left_out
        said = imported.report()
        why = f"{said[0]}{f'; {len(said) - 1} more lines in the report' if len(said) > 1 else ''}" if said else ""
        raise InputError("file", source, f"no unit of {mappers()[imported.game].SYSTEM.title} that oddscalc can "
                                         "model"
                                         + (f" ({len(left_out)} left out: {why}"
                                            + ("; see the report without --strict)" if strict else ")")
                                            if left_out else ""))
    return imported


def read_xml(data: bytes, source: str, strict: bool = False) -> Imported:
    """A list's XML as roster data and a report, even when every unit is left out."""
    roster = parse(data, source)
    game = game_of(roster, source)
    mapped = mappers()[game].mapped_units(roster)
    units, notes, left_out = [], [], []
    names: set[str] = set()  # the units' names so far, casefolded
    for item in mapped:
        if not item.table or (strict and item.notes):
            notes += item.notes
            left_out.append(item.notes[0].unit if item.notes else "?")
            continue
        name = unique(item.table["name"], names)  # two formations of one kind: "Tactical Detachment (2)"
        notes += [replace(note, unit=name) for note in item.notes]  # the report names the unit as imported
        units.append(_without_none({**item.table, "name": name}))
    return Imported(source, game, {"game": game, "unit": units}, tuple(notes), strict, tuple(left_out))
