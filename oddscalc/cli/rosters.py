"""The command line's roster commands: `profiles` (a roster's units and weapons, checked) and `import` (a
BattleScribe list as a roster); the study `grid` is the library's (`query/grids.py`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .. import __version__
from ..errors import InputError
from ..lists.games import listed
from ..query.grammar import argument, option
from ..query.grids import not_modelled
from ..output.tables import Format
from .options import own


def list_profiles(
    game: Annotated[Optional[str], option("--game", metavar="G", help=f"{listed()} (default: all bundled "
                                                                              "examples).")] = None,
    file: Annotated[Optional[Path], option("--file", metavar="F", help="A roster TOML file to list and "
                                                                               "check.")] = None,
    output_format: Annotated[Format, option("--format", metavar="F", help="table, json, csv, markdown or "
                                                                                  "bbcode.")] = Format.TABLE,
) -> None:
    """List the units and weapons of a roster file, or the bundled examples.

    Listing a file also checks it: errors name the file, the unit and the field.
    """
    from ..lists.games import GAMES, load_roster
    from ..output.tables import render_rows
    from ..query.answer import command_line
    from ..query.refusals import input_error

    try:
        if file is not None:
            rosters = [load_roster(file, game)]
        else:
            rosters = [load_roster(None, g) for g in ([game] if game is not None else GAMES)]
    except InputError as error:
        raise input_error(error) from None
    say_not_modelled(*rosters)
    header = {"command": command_line(), "method": None, "trials": None, "seed": None}
    if output_format is Format.JSON:  # the fields themselves, as the roster's schema reads them
        units = [roster.unit_fields(unit) for roster in rosters for unit in roster.units]
        typer.echo(json.dumps({"oddscalc": __version__, "command": header["command"], "units": units}, indent=2))
        return
    rows = []
    for roster in rosters:
        describe = roster.game
        for unit in roster.units:
            weapons = "; ".join(f"{w.name} ({describe.describe_weapon(w)})" for w in unit.weapons) or "-"
            rows.append({"game": roster.game.name, "unit": unit.name, "points": unit.points,
                         "profile": describe.describe_unit(unit), "weapons": weapons, "source": roster.source})
    typer.echo(render_rows(list(rows[0]), rows, output_format, header))


def say_not_modelled(*rosters: Any) -> None:
    """On stderr, what imported lists hold that oddscalc does not model (each list once)."""
    for line in not_modelled(*rosters):
        typer.echo(line, err=True)


def import_list(
    file: Annotated[Path, argument("FILE", "A BattleScribe or New Recruit list: .ros, or "
                                                              ".rosz (zipped).")],
    write: Annotated[Optional[Path], option(
        "--write", metavar="FILE.toml", help="Write the roster as TOML to this file (default: print it).")] = None,
    strict: Annotated[bool, option(
        "--strict", help="Leave out every unit with something oddscalc does not model (default: import it "
                         "without that rule; either way the report on stderr lists it).")] = False,
    join: Annotated[Optional[list[str]], option(
        "--join", metavar="CHARACTER=UNIT", help="The 9th Age: join a character of the list to one of its units "
        "(repeatable): it fights in the unit's front rank in a round of combat (its --character).")] = None,
) -> None:
    """Read an Epic Armageddon or The 9th Age (2nd edition) army list exported by BattleScribe
    or New Recruit, and print it as an oddscalc roster (TOML) to edit or to study.

    Each formation (Epic) or unit (T9A) keeps its name and its points from the list.
    What oddscalc does not model (a rule it does not know, a Firepower it cannot read, a
    war engine's damage capacity) is reported on stderr, one line each: unit, weapon,
    text. A list works wherever a roster file does: grid LIST.rosz --against ENEMY.rosz.
    """
    from ..lists.battlescribe import load
    from ..lists.roster import to_toml
    from ..t9a.joining import join_characters
    from ..core.files import check_writable
    from ..query.answer import write_text
    from ..query.refusals import input_error

    try:
        if write is not None:
            check_writable(write, "write", (".toml",))
        imported = load(file, strict)
        joined = join_characters(imported.data, join or ())
        text = to_toml(imported.data, imported.header())
    except InputError as error:
        raise input_error(error) from None
    for line in [*imported.report(), *imported.apart(), *joined]:
        typer.echo(f"note: {line}", err=True)
    if write is None:
        typer.echo(text, nl=False)
        return
    try:
        write_text(write, text, "write")
    except InputError as error:
        raise input_error(error) from None
    count = len(imported.data["unit"])
    typer.echo(f"wrote {count} unit{'s' if count != 1 else ''} of {imported.game} to {write}")


own("profiles", list_profiles, examples=["oddscalc profiles --game epic",
                                          "oddscalc profiles --file my_army.toml --format markdown"])
own("import", import_list, examples=["oddscalc import my_list.rosz",
                                     "oddscalc import my_list.rosz --write army.toml --strict",
                                     "oddscalc import my_list.rosz --join 'Marshal=Knightly Orders'",
                                     "oddscalc grid my_list.rosz --against their_list.rosz"])
