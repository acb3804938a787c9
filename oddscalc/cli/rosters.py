"""Roster commands: `grid` (every weapon against every target, ranked) and `profiles`."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any, TYPE_CHECKING, Annotated, Optional

import typer

from .. import __version__
from ..errors import InputError
from ..games import listed
from ..tables import Format, precision_note
from .common import whole
from .options import Common, Study, command
from .output import Answer, plot_of, progress_bar, sooner, study_answer

if TYPE_CHECKING:
    from ..grid import Grid, View


def _names(values: Optional[list[str]], option: str) -> Optional[list[str]]:
    """The unit names of --attackers or --targets (comma-separated or repeated); given empty, refused."""
    if not values:  # not given (Typer gives an empty list)
        return None
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    if not names:
        raise InputError(option, ",".join(values), "expected unit names of the roster, comma-separated")
    return names


# The longest of grid's options, declared as Typer declares an option, once each
Sort = Annotated[Optional[str], typer.Option(
    "--sort", metavar="COLUMN",
    help="Rank by this column, highest first: mean, p_kill, per_100_points, at_least_K ... (default: "
         "per_100_points when every attacker has points, else mean).")]
HeatmapStat = Annotated[Optional[str], typer.Option(
    "--stat", metavar="STAT",
    help="The statistic of the heatmap (default: mean): any column a grid ranks by (p_kill, per_100_points, "
         "at_least_K ...) or a statistic of an outcome (broken.at_least_1).")]
Columns = Annotated[Optional[str], typer.Option(
    "--columns", metavar="A,B", help="The columns a text table shows (default: rank, attacker, weapon, target, "
                                     "mean, p_kill, per_100_points and the sort column).")]
Together = Annotated[bool, typer.Option(
    "--together", help="Epic: also each formation's shooting weapons fired as one attack (row \"all "
                       "weapons\"): normal hits, then macro-weapon hits onto the units left.")]
AssaultSwitch = Annotated[bool, typer.Option(
    "--assault", help="Epic: each formation's assault on each target instead of its weapons (both sides' close "
                      "combat and firefight, the result roll; the cell: P(win), docs/rules.md §2.9).")]
CombatSwitch = Annotated[bool, typer.Option(
    "--combat", help="The 9th Age: each unit's charge on each target instead of its weapons (a round of close "
                     "combat, the Break Test, the pursuit; the cell: P(win), p_break: P(the target breaks), "
                     "docs/rules.md §3.11).")]


def grid(
    file: Annotated[Optional[str], typer.Argument(  # a name, opened as `given.Files` allow (never at parsing)
        metavar="FILE", help="A roster TOML file (default: the bundled example of --game).")] = None,
    game: Annotated[Optional[str], typer.Option("--game", metavar="G", help=f"{listed()} (read from FILE when it "
                                                                              "says).")] = None,
    attackers: Annotated[Optional[list[str]], typer.Option("--attackers", metavar="NAMES",
                                                          help="Only these attacking units (comma-separated or "
                                                               "repeated).")] = None,
    targets: Annotated[Optional[list[str]], typer.Option("--targets", metavar="NAMES",
                                                        help="Only these target units.")] = None,
    against: Annotated[Optional[str], typer.Option("--against", metavar="FILE",
                                                   help="Take the targets from another roster file.")] = None,
    sort: Sort = None,
    stat: HeatmapStat = None,
    columns: Columns = None,
    wide: Annotated[bool, typer.Option("--wide", help="Show every column in a text table.")] = False,
    settings: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE",
        help="Set an attack option in every cell that has it, read as the query option --NAME reads it: "
             "crossfire=true, save=hit, per-template=4.")] = None,
    all_outcomes: Annotated[bool, typer.Option("--all-outcomes", help="One row per outcome, not only the main "
                                                                      "one.")] = False,
    show_query: Annotated[bool, typer.Option("--show-query", help="Show each row's query: the single command line "
                                                                  "that computes the same cell.")] = False,
    together: Together = False,
    assault: AssaultSwitch = False,
    combat: CombatSwitch = False,
    distance: Annotated[Optional[int], typer.Option(
        "--distance", metavar="N", parser=whole("a number of squares like 12"),
        help="Dust: keep only the weapons whose range reaches N squares (a weapon without a range is kept).")] = None,
    *,
    study: Study,
    common: Common,
) -> Answer:
    """Every weapon of every unit against every target: a ranked table and a heatmap.

    One row per (attacker, weapon, target): the main outcome's mean, sd, P(≥ K), the
    chance to wipe out the target unit (p_kill) and the mean per 100 points of the
    attacker. Each row is a query you can rerun (--show-query; always in CSV and JSON).
    Each cell draws from its own random stream (seed + the attack itself), so adding
    units never changes other rows, and --scheduler gives the same table.
    """
    from ..given import current
    from ..games import load_pair
    from ..grid import View, plan_grid
    options = common.check()
    common.one_query("grid")
    roster, foes = load_pair(file, game, against, current().files)
    imported = not_modelled(roster, foes)
    view = View(sort, stat, study.ks, all_outcomes, columns, wide, show_query, common.outcome)
    plan = plan_grid(roster, foes, attackers=_names(attackers, "attackers"),
                     target_names=_names(targets, "targets"), settings=settings or (),
                     distance=distance, together=together, assault=_engagement(assault, combat))
    view.check(plan)
    with progress_bar("cells", sooner(options)) as progress:
        result = plan.run(options=options, scheduler=study.cluster, progress=progress)
    return grid_answer(result, view, common, imported)


def grid_answer(result: Grid, view: View, common: Common, imported: tuple[str, ...]) -> Answer:
    """A grid's answer: its ranked rows, its heatmap (of --stat, or of --outcome's mean) and its notes."""
    extra = {**result.json(), **({"import_notes": list(imported)} if imported else {})}  # JSON says them too
    rows = study_answer(view.rows(result), result.live, result.seed,
                        [*result.notes(view.ranked_by(result)), *result.outcome_notes(common.outcome)], extra,
                        shown=view.rows(result, text=True))
    heat = view.stat
    if heat is None and common.outcome and all(common.outcome in cell.outcomes for cell in result.live):
        from ..studies import Statistic

        heat = Statistic(common.outcome, "mean")  # the heatmap of the outcome asked for
    plot = plot_of(common.plot, lambda plots: plots.grid_heatmap(result, heat), result.live[0], result.seed)
    notes = imported + precision_note(result.live, common.precision)
    return Answer(rows, common.output_format, plot, notes, result.outside_bounds(), options=common.run)


def list_profiles(
    game: Annotated[Optional[str], typer.Option("--game", metavar="G", help=f"{listed()} (default: all bundled "
                                                                              "examples).")] = None,
    file: Annotated[Optional[Path], typer.Option("--file", metavar="F", help="A roster TOML file to list and "
                                                                               "check.")] = None,
    output_format: Annotated[Format, typer.Option("--format", metavar="F", help="table, json, csv, markdown or "
                                                                                  "bbcode.")] = Format.TABLE,
) -> None:
    """List the units and weapons of a roster file, or the bundled examples.

    Listing a file also checks it: errors name the file, the unit and the field.
    """
    from ..games import GAMES, load_roster
    from ..tables import render_rows
    from .errors import input_error
    from .output import command_line

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


def not_modelled(*rosters: Any) -> tuple[str, ...]:
    """The lines that say what imported lists hold that oddscalc does not model (each list once)."""
    return tuple(f"note ({Path(roster.source).name}): {line}" for index, roster in enumerate(rosters)
                 if all(roster is not other for other in rosters[:index]) for line in roster.notes)


def say_not_modelled(*rosters: Any) -> None:
    """On stderr, what imported lists hold that oddscalc does not model (each list once)."""
    for line in not_modelled(*rosters):
        typer.echo(line, err=True)


def import_list(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A BattleScribe or New Recruit list: .ros, or "
                                                              ".rosz (zipped).")],
    write: Annotated[Optional[Path], typer.Option(
        "--write", metavar="FILE.toml", help="Write the roster as TOML to this file (default: print it).")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Leave out every unit with something oddscalc does not model (default: import it "
                         "without that rule; either way the report on stderr lists it).")] = False,
    join: Annotated[Optional[list[str]], typer.Option(
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
    from ..battlescribe import load
    from ..roster import to_toml
    from ..t9a.joining import join_characters
    from .errors import input_error
    from ..files import check_writable
    from .output import write_text

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


def register(app: typer.Typer) -> None:
    """Add the roster commands to the app."""
    command(app, "grid", grid, study=True, examples=[
        "oddscalc grid --game epic --trials 1e5",
        "oddscalc grid my_army.toml --against enemies.toml --sort p_kill --plot grid.png",
        "oddscalc grid --game epic --set crossfire=true --format markdown --show-query",
    ])
    app.command("profiles", help=inspect.getdoc(list_profiles), epilog="Examples:\n\n\b\n"
                "  oddscalc profiles --game epic\n  oddscalc profiles --file my_army.toml --format markdown")(
        list_profiles)
    app.command("import", help=inspect.getdoc(import_list), epilog="Examples:\n\n\b\n"
                "  oddscalc import my_list.rosz\n  oddscalc import my_list.rosz --write army.toml --strict\n"
                "  oddscalc import my_list.rosz --join 'Marshal=Knightly Orders'\n"
                "  oddscalc grid my_list.rosz --against their_list.rosz")(import_list)


def _engagement(assault: bool, combat: bool) -> bool | str:
    """grid --assault or --combat: the engagement named (one of them), or none."""
    from ..errors import require

    require(not (assault and combat), "combat", "on", "--assault fights Epic formations, --combat The 9th Age's "
                                                      "units: give one of them")
    return "assault" if assault else "combat" if combat else False
