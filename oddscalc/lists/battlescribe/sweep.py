"""The catalogue sweep: import every formation entry of every Epic Armageddon catalogue and every
unit entry of every 2nd-edition The 9th Age book, each built into a list the way the apps save
one (`builder`), and account for each: imported as is, imported with notes (which), or left
out (why). It must never crash.

    python -m oddscalc.lists.battlescribe.sweep --epic ../wh40k-epic-armageddon --t9a ../The-9th-Age \\
        --markdown docs/catalogue-sweep.md [--details sweep.txt]

An entry hidden by default (one army list's unit, one community's version) is built with the
first root choice that shows it (`-Community-`: NetEA, EpicUK ...; a list's own options).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...errors import InputError
from . import read_xml
from .builder import Builder, BuildError, Data, Pick, options_of

COST_LIMIT = 4500  # a 9th Age game's points (conditions on the roster's limit read it)


@dataclass
class Entry:
    """One catalogue entry's fate: imported (with notes or not), or left out, and why."""

    catalogue: str
    name: str
    status: str  # "clean", "notes", "left out", "not built", "crash"
    lines: list[str] = field(default_factory=list)
    shooting: bool = False  # a note about a shooting figure (a weapon's line)
    choice: str = ""  # the root choice the entry was built with
    engine_profiles: int = 0  # profiles of war engines in its formation (several: each modelled as its own)
    assaults: bool = False  # a unit its grid engagement fights (grid --assault, grid --combat)


def root_choices(data: Data) -> list[tuple[str, str]]:
    """Root options that can show a hidden entry: each option of each root upgrade (`-Community-`)."""
    builder = Builder(data, "sweep", COST_LIMIT)
    force = builder.force()
    found = []
    for option in data.roots():
        if option.entry.get("type") != "upgrade" or builder._hidden(option, None, force):
            continue
        probe = Builder(data, "sweep", COST_LIMIT)
        probe_force = probe.force()
        try:
            selection = probe.select(probe_force, Pick(option.name))
        except (BuildError, RecursionError):
            continue
        for inner in options_of(data, list(selection.option.chain), ()):
            found.append((option.name, inner.name))
    return found


def build_entry(data: Data, name: str, choices: list[tuple[str, str]]) -> tuple[bytes | None, str, str]:
    """The entry built into a list: (XML, the choice that showed it, why not)."""
    why = ""
    for choice in [None] + choices:
        builder = Builder(data, name, COST_LIMIT)
        force = builder.force()
        try:
            if choice is not None:
                builder.select(force, Pick(choice[0], picks=(Pick(choice[1]),)))
            builder.select(force, Pick(name))
            builder.complete_force(force)
            return builder.xml(), "" if choice is None else f"{choice[0]}: {choice[1]}", ""
        except BuildError as error:
            why = why or str(error).split(";")[0]
        except RecursionError:
            why = why or "the catalogue's entries link to themselves"
    return None, "", why


def sweep_catalogue(path: Path, units: tuple[str, ...] = ("unit", "model")) -> list[Entry]:
    """Every root entry of a unit's type in one catalogue, built, imported and accounted for."""
    data = Data.open(path)
    choices = root_choices(data)
    return [_sweep_entry(data, path.name, name, choices) for name in root_entries(data, units)]


def root_entries(data: Data, units: tuple[str, ...] = ("unit", "model")) -> list[str]:
    """The names of a catalogue's root entries of a unit's type, each once (not the `-Community-` choices)."""
    seen: dict[str, None] = {}
    for option in data.roots():
        if option.entry.get("type") in units and not option.name.startswith("-"):
            seen.setdefault(option.name)
    return list(seen)


def import_entry(data: Data, catalogue: str, name: str, choices: list[tuple[str, str]]) -> tuple[Any, Entry]:
    """One entry built into a list and imported: the import (None when the entry is not built, left out, or its
    import crashed) and its account (the sweep's and the balance study's one reading of an entry)."""
    xml, choice, why = build_entry(data, name, choices)
    if xml is None:
        return None, Entry(catalogue, name, "not built", [why])
    try:
        imported = read_xml(xml, name)
    except InputError as error:
        return None, Entry(catalogue, name, "left out", [error.allowed], choice=choice)
    except Exception:  # the sweep's purpose: any crash is counted and shown, never hidden
        return None, Entry(catalogue, name, "crash", [traceback.format_exc().strip().splitlines()[-1]], choice=choice)
    lines = [note.line(False) for note in imported.notes]
    if not imported.data["unit"]:
        return None, Entry(catalogue, name, "left out", lines, choice=choice)
    return imported, Entry(catalogue, name, "notes" if lines else "clean", lines,
                           any(note.weapon for note in imported.notes), choice)


def _sweep_entry(data: Data, catalogue: str, name: str, choices: list[tuple[str, str]]) -> Entry:
    imported, entry = import_entry(data, catalogue, name, choices)
    if imported is None:
        return entry
    fights, refused = engages(imported.data, name)
    if refused:  # what an import writes, the roster loader reads: a refusal is the importer's fault
        return Entry(catalogue, name, "crash", [f"the roster loader refuses the import: {refused}"], choice=entry.choice)
    return replace(entry, engine_profiles=engine_profiles(imported.data["unit"]), assaults=fights)


def engages(data: dict[str, Any], name: str) -> tuple[bool, str]:
    """(whether its game's grid engagement, --assault or --combat, fights one of an import's units, why the roster
    loader refuses them: "" when they load): the roster's own hook decides, as the grid's."""
    from .. import games
    from ..roster import build

    try:
        roster = build(data, name, games.game(data["game"]))
    except InputError as error:
        return False, str(error)
    fight = roster.game.assault
    if fight is None:
        return False, ""
    try:
        return any(fight(unit, unit) is not None for unit in roster.units), ""
    except InputError:  # a value its engagement refuses: the grid lists that cell apart, with the reason
        return False, ""


def engine_profiles(units: list[dict[str, Any]]) -> int:
    """The most profiles of war engines in one imported formation (0: no war-engine formation)."""
    return max((1 + len(unit.get("other_engines", ())) for unit in units if unit.get("kind") == "war-engine"),
               default=0)


def sweep(folder: Path, game: str) -> list[Entry]:
    """Every catalogue of one game in a folder (its importer's pattern: The 9th Age's `2nd-*.cat`)."""
    return [entry for path in catalogues(folder, game) for entry in sweep_catalogue(path)]


def catalogues(folder: Path, game: str) -> list[Path]:
    """A game's catalogues in a folder: those of its system under the first of its importer's file patterns that
    finds one. The 9th Age's `2nd-*.cat`: BSData's repository since the 3rd edition, whose books took the plain
    names; a release before it (`--compare The-9th-Age@2023`) named its 2nd-edition books plainly, `*.cat`."""
    from .. import battlescribe

    system = battlescribe.mappers()[game].SYSTEM
    for pattern in system.catalogues:
        found = [path for path in sorted(folder.glob(pattern)) if _system_id(path) in system.ids]
        if found:
            return found
    return []


def _system_id(path: Path) -> str | None:
    """The game system a catalogue is of; a file that is not one is refused in one line, naming it."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    try:  # its root element's attribute: the rest of the file is read when it is imported
        for _, root in iterparse(path, events=("start",)):
            system: str | None = root.get("gameSystemId")
            return system
        return None
    except (ParseError, DefusedXmlException, OSError) as error:
        raise InputError("folder", str(path), f"not a BattleScribe catalogue ({error})") from None


def study_entries(path: Path, folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each root entry of a catalogue as a balance study keeps it (`balance.catalogue_entries`): its roster data
    and report's length, or why not (`import_entry`); a catalogue without its game system beside it, or broken,
    refused in one line naming `folder` (the study's) or the file."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException

    from .builder import Data
    from .builder_catalogue import BuildError

    try:
        data = Data.open(path)
    except BuildError as error:
        raise InputError("folder", str(folder), f"holds {path.name} but not its game system (.gst) beside it "
                                                f"({error}): copy the catalogue repository whole") from None
    except (ParseError, DefusedXmlException) as error:
        raise InputError("folder", str(path), f"not a BattleScribe catalogue ({error})") from None
    choices = root_choices(data)
    found: list[tuple[str, dict[str, Any]]] = []
    for name in root_entries(data):
        imported, account = import_entry(data, path.name, name, choices)
        if imported is None:
            said = account.lines[0] if account.lines else "no unit profile oddscalc models"
            reason = {"not built": f"not built: {said}", "crash": f"the import failed: {said}"}.get(account.status,
                                                                                                    said)
            found.append((name, {"reason": reason}))
        elif not any(unit.get("points") for unit in imported.data["unit"]):
            found.append((name, {"reason": "no points"}))
        else:
            found.append((name, {"data": imported.data, "notes": len(imported.notes)}))
    return found


STATUSES = ("clean", "notes", "left out", "not built", "crash")


FIGHTS = {  # what the sweep says of the entries a game's grid engagement fights
    "epic": "formations grid --assault fights (their CC and FF read, each profile that fights otherwise a kind of "
            "its own, war engines too; no aircraft; docs/rules.md §2.9)",
    "t9a": "units grid --combat charges with (their Attack Value, Agility and Discipline read; at most 60 models and "
           "10 Health Points each; docs/rules.md §3.11)",
}


def table(entries: list[Entry], title: str, shooting: bool, fights: str = FIGHTS["epic"]) -> list[str]:
    """A markdown table of counts per catalogue, and the game's totals."""
    lines = [f"### {title}", "", "| catalogue | entries | clean | with notes | left out | not built | crashed | "
             "a note on a weapon |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    by_catalogue: dict[str, list[Entry]] = {}
    for entry in entries:
        by_catalogue.setdefault(entry.catalogue, []).append(entry)

    def row(name: str, items: list[Entry]) -> str:
        counts = Counter(entry.status for entry in items)
        shooting = sum(entry.shooting for entry in items)
        return (f"| {name} | {len(items)} | " + " | ".join(str(counts[status]) for status in STATUSES)
                + f" | {shooting} |")

    lines += [row(name, items) for name, items in by_catalogue.items()]
    lines.append(row("**all**", entries))
    imported = [entry for entry in entries if entry.status in ("clean", "notes")]
    if imported and shooting:
        free = sum(not entry.shooting for entry in imported)
        lines += ["", f"Of {len(imported)} entries imported, {free} ({100 * free / len(imported):.1f} %) have no note "
                      f"about a shooting figure: {100 * free / len(entries):.1f} % of all {len(entries)} entries."]
    fought = sum(entry.assaults for entry in imported)
    if fought:
        lines += ["", f"Of {len(imported)} entries imported, {fought} ({100 * fought / len(imported):.1f} %) are "
                      f"{fights}."]
    engines = [entry for entry in imported if entry.engine_profiles]
    mixed = [entry for entry in engines if entry.engine_profiles > 1]
    if mixed:
        lines += ["", f"Of {len(engines)} war-engine formations imported, {len(mixed)} have war engines of several "
                      f"profiles (up to {max(entry.engine_profiles for entry in mixed)}), each modelled with its own "
                      "damage capacity, shields, armour and critical hit (docs/rules.md §2.8)."]
    return lines


def _system(folder: Path, game: str) -> str:
    """The game system of a folder, as `name revision N`."""
    from defusedxml.ElementTree import parse

    from .. import battlescribe

    for path in sorted(folder.glob("*.gst")):
        root = parse(path).getroot()
        if root.get("id") in battlescribe.mappers()[game].SYSTEM.ids:
            return f"{path.name} ({root.get('name')}) revision {root.get('revision')}"
    return "no game system file"


def reasons(entries: list[Entry], top: int = 25) -> list[str]:
    """The most frequent notes and reasons, with how many entries have them."""
    counter: Counter[str] = Counter()
    for entry in entries:
        for line in dict.fromkeys(entry.lines):
            counter[line.split(": ", 1)[-1] if entry.status not in ("not built", "crash") else line] += 1
    return [f"- {count} × {text}" for text, count in counter.most_common(top)]


INTRO = """\
Every root entry of a unit's type in every catalogue of BSData's public repositories (Epic
Armageddon: `BSData/wh40k-epic-armageddon`; The 9th Age: the `2nd-*.cat` books of
`BSData/The-9th-Age`), built into a list as the apps save one and imported by oddscalc.
Made by `python -m oddscalc.lists.battlescribe.sweep --epic DIR --t9a DIR --markdown FILE`.

- **clean**: imported, no line in the report; **with notes**: imported, with lines saying
  what is not modelled and what was done instead; **left out**: nothing to model (a
  structure, a pool of upgrades, an entry without a unit profile; the line says which);
  **not built**: the entry cannot be chosen with any root option (the reason given);
  **crashed**: the import raised an error, or the roster loader refused what it wrote (the sweep exits 1 when
  any did).
- **a note on a weapon**: among the imported entries, those with a line about a shooting
  figure (a weapon's shots, values or abilities)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m oddscalc.lists.battlescribe.sweep", description=__doc__.split("\n\n")[0])
    parser.add_argument("--epic", type=Path, help="a checkout of BSData/wh40k-epic-armageddon")
    parser.add_argument("--t9a", type=Path, help="a checkout of BSData/The-9th-Age")
    parser.add_argument("--markdown", type=Path, help="write the counts as markdown here")
    parser.add_argument("--details", type=Path, help="write every entry's outcome and lines here")
    arguments = parser.parse_args(argv)
    games = [(game, folder) for game, folder in (("epic", arguments.epic), ("t9a", arguments.t9a)) if folder]
    if not games:
        parser.error("give --epic and/or --t9a")
    report, details, crashed = ["# The catalogue sweep", "", *INTRO.splitlines(), ""], [], 0
    for game, folder in games:
        try:
            entries = sweep(folder, game)
        except InputError as error:  # a file of the folder that is not a catalogue: one line, nothing written
            print(f"error: --{game} {error.value}: {error.allowed}", file=sys.stderr)
            return 2
        crashed += sum(entry.status == "crash" for entry in entries)
        from .. import battlescribe

        title = battlescribe.mappers()[game].SYSTEM.entries
        report += table(entries, title, game == "epic", FIGHTS[game]) + ["", f"Catalogues: {_system(folder, game)} and the "
                                                               f"catalogues beside it.", "", "Most frequent lines:",
                                                           ""] + reasons(entries) + [""]
        for entry in entries:
            details.append(f"{entry.catalogue} | {entry.name} | {entry.status}"
                           + (f" | built with {entry.choice}" if entry.choice else ""))
            details += [f"    {line}" for line in entry.lines]
    text = "\n".join(report) + "\n"
    if arguments.markdown:
        arguments.markdown.write_text(text, encoding="utf-8")
    else:
        print(text)
    if arguments.details:
        arguments.details.write_text("\n".join(details) + "\n", encoding="utf-8")
    return 1 if crashed else 0


if __name__ == "__main__":
    raise SystemExit(main())
