"""Army lists from BattleScribe / New Recruit (`.ros`, `.rosz`) as oddscalc rosters.

`load(path)` reads the file safely (see `reader`), maps each selection that carries
profiles oddscalc understands to a unit of the game's roster schema (`epic`, `t9a`), and
returns the roster as the data a TOML roster would hold, with the report of what was not
modelled. By default a unit is imported without what was not understood; `strict=True`
leaves such a unit out. Either way every such thing is one line of the report.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InputError
from .reader import RosterFile, parse, read_bytes
from .report import Note, unique

SUFFIXES = (".ros", ".rosz")
SYSTEMS = {"epic": "Epic Armageddon", "t9a": "The 9th Age (2nd edition)"}


@dataclass(frozen=True)
class Imported:
    """A list read as a roster: its game, the roster data (TOML-shaped), and the report."""

    source: str
    game: str
    data: dict
    notes: tuple[Note, ...]
    strict: bool
    left_out: tuple[str, ...]

    def report(self) -> list[str]:
        """One line per thing not modelled: unit, weapon, the text, and what the import did."""
        return [note.line(self.strict) for note in self.notes]

    def header(self) -> list[str]:
        from .t9a import FRONTAGE

        lines = [f"Imported by oddscalc from {Path(self.source).name}.",
                 "Edit freely: every field is documented in `oddscalc profiles --help` and docs/rules.md."]
        if self.game == "t9a":
            lines.append(f"Melee attacks count a unit {FRONTAGE} models wide: the front rank and one rank of "
                         "supporting attacks (two with a Spear).")
        if self.game == "epic":
            lines.append("Shots count every unit's copies of a weapon; a formation's barrages fire as one.")
        lines += [f"Note: {line}" for line in self.report()]
        return lines


def _without_none(table: dict) -> dict:
    """A unit's table as a TOML file would hold it: no empty fields, weapons likewise."""
    clean = {key: value for key, value in table.items() if value is not None}
    if "weapon" in clean:
        clean["weapon"] = [_without_none(weapon) for weapon in clean["weapon"]]
    return clean


def is_list(path: str | Path) -> bool:
    """Whether a roster path names a BattleScribe list (by its suffix)."""
    return Path(path).suffix.lower() in SUFFIXES


# the game systems of BSData/wh40k-epic-armageddon and BSData/The-9th-Age, by id and by name
SYSTEM_IDS = {"8f10-ee06-8dc1-beb6": "epic", "aa64-1e8e-66fc-9abf": "t9a"}
OTHER_EDITIONS = {"8c9a-3026-84b4-cf16": "The 9th Age: Fantasy Battles 3rd Edition"}
SYSTEM_NAMES = {"epic armageddon": "epic", "the 9th age: fantasy battles 2nd edition": "t9a",
                "the 9th age: fantasy battles 2nd edition 2024": "t9a"}


def game_of(roster: RosterFile, source: str) -> str:
    """The oddscalc game of a list, from its game system (its id, else its exact name); refuse others."""
    game = None if roster.system_id in OTHER_EDITIONS else (
        SYSTEM_IDS.get(roster.system_id) or SYSTEM_NAMES.get(" ".join(roster.system_name.casefold().split())))
    if game is not None:
        return game
    if roster.system_id in OTHER_EDITIONS or "9th age" in roster.system_name.casefold():
        raise InputError("file", source, f"built with game system {roster.system_name!r} revision "
                                         f"{roster.system_revision or '?'}: oddscalc imports The 9th Age lists "
                                         "built with the 2nd edition (2.0 rules) catalogues only")
    raise InputError("file", source, f"built with game system {roster.system_name or '(none named)'!r}: oddscalc "
                                     f"imports {' and '.join(SYSTEMS.values())} lists")


def load(path: str | Path, strict: bool = False) -> Imported:
    """Read a .ros/.rosz list into roster data and a report (see the module's docstring)."""
    return load_xml(read_bytes(Path(path)), str(path), strict)


def load_xml(data: bytes, source: str, strict: bool = False) -> Imported:
    """A list's XML (read from `source`) as roster data and a report; refused when no unit is left."""
    imported = read_xml(data, source, strict)
    if not imported.data["unit"]:
        left_out = imported.left_out
        raise InputError("file", source, f"no unit of {SYSTEMS[imported.game]} that oddscalc can model"
                                         + (f" ({len(left_out)} left out: see the report"
                                            + (" without --strict)" if strict else ")") if left_out else ""))
    return imported


def read_xml(data: bytes, source: str, strict: bool = False) -> Imported:
    """A list's XML as roster data and a report, even when every unit is left out."""
    roster = parse(data, source)
    game = game_of(roster, source)
    from . import epic, t9a

    mapped = (epic if game == "epic" else t9a).mapped_units(roster)
    units, notes, left_out, names = [], [], [], set()
    for item in mapped:
        if not item.table or (strict and item.notes):
            notes += item.notes
            left_out.append(item.notes[0].unit if item.notes else "?")
            continue
        name = unique(item.table["name"], names)  # two formations of one kind: "Tactical Detachment (2)"
        notes += [replace(note, unit=name) for note in item.notes]  # the report names the unit as imported
        units.append(_without_none({**item.table, "name": name}))
    return Imported(source, game, {"game": game, "unit": units}, tuple(notes), strict, tuple(left_out))


def roster(path: str | Path, game_name: str | None = None, strict: bool = False):
    """The list as a checked `Roster`, its report lines in `Roster.notes`."""
    from ..games import GAMES
    from ..roster import build

    imported = load(path, strict)
    if game_name is not None and game_name != imported.game:
        raise InputError("file", imported.source, f"holds {imported.game} units, not {game_name}")
    return replace(build(imported.data, imported.source, GAMES[imported.game]), notes=tuple(imported.report()))
