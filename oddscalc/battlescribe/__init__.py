"""Army lists from BattleScribe / New Recruit (`.ros`, `.rosz`) as oddscalc rosters.

`load(path)` reads the file safely (see `reader`), maps each selection that carries
profiles oddscalc understands to a unit of the game's roster schema (`epic`, `t9a`), and
returns the roster as the data a TOML roster would hold, with the report of what was not
modelled. By default a unit is imported without what was not understood; `strict=True`
leaves such a unit out. Either way every such thing is one line of the report.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def game_of(roster: RosterFile, source: str) -> str:
    """The oddscalc game of a list, from its game system; refuse one oddscalc does not import."""
    name = roster.system_name.casefold()
    if "epic" in name:
        return "epic"
    if "9th age" in name:
        from .t9a import check_edition

        check_edition(roster, source)
        return "t9a"
    raise InputError("file", source, f"built with game system {roster.system_name or '(none named)'!r}: oddscalc "
                                     f"imports {' and '.join(SYSTEMS.values())} lists")


def load(path: str | Path, strict: bool = False) -> Imported:
    """Read a .ros/.rosz list into roster data and a report (see the module's docstring)."""
    source = str(path)
    roster = parse(read_bytes(Path(path)), source)
    game = game_of(roster, source)
    from . import epic, t9a

    mapped = (epic if game == "epic" else t9a).mapped_units(roster)
    units, notes, left_out, names = [], [], [], set()
    for item in mapped:
        notes += item.notes
        if not item.table or (strict and item.notes):
            left_out.append(item.notes[0].unit if item.notes else "?")
            continue
        name = unique(item.table["name"], names)  # two formations of one kind: "Tactical Detachment (2)"
        units.append(_without_none({**item.table, "name": name}))
    if not units:
        raise InputError("file", source, f"no unit of {SYSTEMS[game]} that oddscalc can model"
                                         + (f" ({len(left_out)} left out: see the report without --strict)"
                                            if left_out else ""))
    return Imported(source, game, {"game": game, "unit": units}, tuple(notes), strict, tuple(left_out))


def roster(path: str | Path, game_name: str | None = None, strict: bool = False):
    """The list as a checked `Roster`, its report lines in `Roster.notes`."""
    from dataclasses import replace

    from ..games import GAMES
    from ..roster import build

    imported = load(path, strict)
    if game_name is not None and game_name != imported.game:
        raise InputError("file", imported.source, f"holds {imported.game} units, not {game_name}")
    return replace(build(imported.data, imported.source, GAMES[imported.game]), notes=tuple(imported.report()))
