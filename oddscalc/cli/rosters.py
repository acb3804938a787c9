"""Roster commands: `grid` (every weapon against every target, ranked) and `profiles`."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import typer

from .. import __version__
from ..cells import outside_bounds
from ..errors import InputError, did_you_mean
from ..grid import KEY_COLUMNS
from ..tables import Format, precision_note
from .errors import OptionError
from .options import Common, blank_context, command, command_for, convert, option_of
from .output import caption, finish, progress_bar


def _names(values: Optional[list]) -> Optional[list]:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def shown_columns(rows: list[dict], sort: str, chosen: Optional[str], wide: bool, show_query: bool,
                  all_outcomes: bool, ks: list[int]) -> list[str]:
    """The columns a text grid shows: its key columns (they fit a terminal), --columns, or all with --wide."""
    every = list(dict.fromkeys(key for row in rows for key in row))
    if wide:
        return every
    if chosen is not None:
        names = [name.strip() for name in chosen.split(",") if name.strip()]
        unknown = [name for name in names if name not in every]
        if unknown or not names:
            raise OptionError(chosen, f"expected columns among {', '.join(c for c in every if not c.endswith('_stderr'))}",
                              hint="--columns")
        keys = names
    else:
        keys = [*KEY_COLUMNS[:4], *(["outcome"] if all_outcomes else []), *KEY_COLUMNS[4:], sort,
                "trials", "precision_reached", "cdf_gap", "dkw_bound", "verified"]  # when --precision, --verify
        keys = [key for key in dict.fromkeys(keys) if key in every]
    keys += ["query"] if show_query and "query" not in keys else []
    return [*keys, *(f"{key}_stderr" for key in keys if f"{key}_stderr" in every or key == "mean")]


def read_settings(texts: list[str], attacks: list) -> list[tuple[str, Any]]:
    """Read `--set NAME=VALUE` with the parser of the query option `--NAME` of the grid's attacks."""
    from . import root_command

    settings = []
    kinds = {type(attack): attack for attack in attacks if attack is not None}
    for text in texts:
        name, equals, value = text.partition("=")
        blame = f"--set {name.strip()}"
        if not equals or not name.strip():
            raise OptionError(text, "expected NAME=VALUE, like crossfire=true", hint="--set")
        field = name.strip().replace("-", "_")
        having = [attack for attack in kinds.values() if field in {f.name for f in dataclasses.fields(attack)}]
        if not having:
            names = sorted({f.name.replace("_", "-") for a in kinds.values() for f in dataclasses.fields(a)})
            raise OptionError(text, f"no attack in this grid has {name.strip()}{did_you_mean(name.strip(), names)}; "
                                    f"they have {', '.join(names)}", hint="--set")
        converted = None
        for attack in having:  # every kind of attack that takes it must read it the same way
            path = attack.COMMAND
            click_command = command_for(root_command(), path)
            param = option_of(click_command, path, field, blame, text)
            converted = convert(blank_context(click_command, path), param, value.strip(), blame)
        settings.append((field, converted))
    return settings


def grid(
    file: Annotated[Optional[Path], typer.Argument(
        metavar="FILE", help="A roster TOML file (default: the bundled example of --game).")] = None,
    game: Annotated[Optional[str], typer.Option("--game", metavar="G", help="dust, epic or t9a (read from FILE "
                                                                             "when it says).")] = None,
    attackers: Annotated[Optional[list[str]], typer.Option("--attackers", metavar="NAMES",
                                                          help="Only these attacking units (comma-separated or "
                                                               "repeated).")] = None,
    targets: Annotated[Optional[list[str]], typer.Option("--targets", metavar="NAMES",
                                                        help="Only these target units.")] = None,
    against: Annotated[Optional[Path], typer.Option("--against", metavar="FILE",
                                                    help="Take the targets from another roster file.")] = None,
    sort: Annotated[Optional[str], typer.Option(
        "--sort", metavar="COLUMN",
        help="Rank by this column, highest first: mean, p_kill, per_100_points, at_least_K ... (default: "
             "per_100_points when every attacker has points, else mean).")] = None,
    stat: Annotated[Optional[str], typer.Option(
        "--stat", metavar="STAT",
        help="The statistic of the heatmap (default: mean): any column a grid ranks by (p_kill, per_100_points, "
             "at_least_K ...) or a statistic of an outcome (broken.at_least_1).")] = None,
    columns: Annotated[Optional[str], typer.Option(
        "--columns", metavar="A,B", help="The columns a text table shows (default: rank, attacker, weapon, target, "
                                         "mean, p_kill, per_100_points and the sort column).")] = None,
    wide: Annotated[bool, typer.Option("--wide", help="Show every column in a text table.")] = False,
    settings: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE",
        help="Set an attack option in every cell that has it, read as the query option --NAME reads it: "
             "crossfire=true, save=hit, per-template=4.")] = None,
    all_outcomes: Annotated[bool, typer.Option("--all-outcomes", help="One row per outcome, not only the main "
                                                                      "one.")] = False,
    show_query: Annotated[bool, typer.Option("--show-query", help="Show each row's query: the single command line "
                                                                  "that computes the same cell.")] = False,
    together: Annotated[bool, typer.Option(
        "--together", help="Epic: also each formation's shooting weapons fired as one attack (row \"all "
                           "weapons\"): normal hits, then macro-weapon hits onto the units left.")] = False,
    distance: Annotated[Optional[int], typer.Option(
        "--distance", metavar="N", help="Dust: keep only the weapons whose range reaches N squares (a weapon "
                                        "without a range is kept).")] = None,
    *,
    at_least: str,
    scheduler: Optional[str],
    scheduler_timeout: float,
    common: Common,
) -> int:
    """Every weapon of every unit against every target: a ranked table and a heatmap.

    One row per (attacker, weapon, target): the main outcome's mean, sd, P(≥ K), the
    chance to wipe out the target unit (p_kill) and the mean per 100 points of the
    attacker. Each row is a query you can rerun (--show-query; always in CSV and JSON).
    Each cell draws from its own random stream (seed + the attack itself), so adding
    units never changes other rows, and --scheduler gives the same table.
    """
    from ..games import load_roster
    from ..grid import in_range, matchups, run_grid
    from ..studies import Statistic
    from .studies import cluster, parse_ks

    common.check()
    common.one_query("grid")
    roster = load_roster(file, game)
    try:
        target_roster = load_roster(against, roster.game.name) if against is not None else roster
    except InputError as error:  # blame the option the user typed, not FILE
        raise OptionError(error.value, error.allowed, hint="--against") from None
    say_not_modelled(roster, target_roster)
    ks = parse_ks(at_least)
    sortable = ["mean", "sd", "median", "p10", "p90", "p_kill", "points", "per_100_points",
                *(f"at_least_{k}" for k in ks)]
    heat = stat if stat in ("p_kill", "points", "per_100_points") else Statistic.parse(stat, "stat") if stat else None
    if sort is not None and sort not in sortable:
        raise OptionError(sort, f"expected a column to rank by{did_you_mean(sort, sortable)}: {', '.join(sortable)}",
                          hint="--sort")
    pairs = matchups(roster.game, in_range(roster.game, roster.select(_names(attackers), "attackers"), distance).units,
                     target_roster.select(_names(targets), "targets"), together)
    attacks = [pair.attack for pair in pairs]
    if isinstance(heat, Statistic):
        heat.check(sorted({name for attack in attacks if attack is not None for name in attack.outcomes}), "stat")
    chosen = read_settings(settings or [], attacks)
    with progress_bar("cells") as progress:
        try:
            result = run_grid(roster, target_roster, attackers=_names(attackers), target_names=_names(targets),
                              settings=chosen, trials=common.trials, seed=common.seed, method=common.method.value,
                              precision=common.precision, workers=common.threads,
                              scheduler=cluster(scheduler, scheduler_timeout), progress=progress,
                              distance=distance, together=together)
        except InputError as error:  # a --set value an attack refuses: blame --set NAME, not --NAME
            if error.name not in dict(chosen):
                raise
            raise OptionError(error.value, error.allowed, hint=f"--set {error.name.replace('_', '-')}") from None
    column = sort or result.default_sort()
    rows = result.rows(ks, all_outcomes, column)
    apart = result.cannot_hurt()
    notes = [f"ranked by {column}"]
    extra: dict = {}
    if distance is not None:
        reach = result.reach
        notes += ([f"out of range at {distance} squares (left out): {'; '.join(reach.out_of_range)}"]
                  if reach.out_of_range else [])
        notes += [f"no range given (kept): {'; '.join(reach.no_range)}"] if reach.no_range else []
        extra = {"distance": distance, "out_of_range": list(reach.out_of_range), "no_range": list(reach.no_range)}
    if apart:
        notes.append("cannot hurt (not ranked): " + "; ".join(f"{c['attacker']}: {c['weapon']} → {c['target']}"
                                                                for c in apart))
    same = result.same_streams()
    notes += ["the same attack, so one random stream and the very same figures: "
              + "; ".join(" = ".join(group) for group in same)] if same else []
    if common.output_format in (Format.TABLE, Format.MARKDOWN, Format.BBCODE) and rows:
        shown = shown_columns(rows, column, columns, wide, show_query, all_outcomes, ks)
        rows = [{key: row.get(key) for key in shown if key in row or key.endswith("_stderr")} for row in rows]
    from .studies import report

    text = report(rows, common, result.method, result.trials, result.seed, tuple(notes),
                  {"cannot_hurt": apart, **extra})
    plot = None
    if common.plot is not None:
        from .. import plots

        plot = (lambda: plots.grid_heatmap(result, heat), common.plot,
                caption(result.method, result.trials, result.seed, per_cell=True))
    live = [r for r in result.results if r is not None]
    labels = [f"{p.attacker.name}: {p.weapon.name} → {p.target.name}" for p, r in zip(result.pairs, result.results)
              if r is not None]
    return finish(text, plot=plot, notes=precision_note(live, common.precision), failed=outside_bounds(labels, live))


def list_profiles(
    game: Annotated[Optional[str], typer.Option("--game", metavar="G", help="dust, epic or t9a (default: all "
                                                                             "bundled examples).")] = None,
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


def say_not_modelled(*rosters) -> None:
    """On stderr, what imported lists hold that oddscalc does not model (each list once)."""
    for index, roster in enumerate(rosters):
        if all(roster is not other for other in rosters[:index]):
            for line in roster.notes:
                typer.echo(f"note ({Path(roster.source).name}): {line}", err=True)


def import_list(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A BattleScribe or New Recruit list: .ros, or "
                                                              ".rosz (zipped).")],
    write: Annotated[Optional[Path], typer.Option(
        "--write", metavar="FILE.toml", help="Write the roster as TOML to this file (default: print it).")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Leave out every unit with something oddscalc does not model (default: import it "
                         "without that rule; either way the report on stderr lists it).")] = False,
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
    from .errors import input_error
    from ..files import check_writable
    from .output import write_text

    try:
        if write is not None:
            check_writable(write, "write", (".toml",))
        imported = load(file, strict)
        text = to_toml(imported.data, imported.header())
    except InputError as error:
        raise input_error(error) from None
    for line in imported.report():
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


def register(app: typer.Typer, extra: Sequence[inspect.Parameter]) -> None:
    """Add the roster commands to the app (`extra`: the options every study takes)."""
    command(app, "grid", grid, extra=extra, examples=[
        "oddscalc grid --game epic --trials 1e5",
        "oddscalc grid my_army.toml --against enemies.toml --sort p_kill --plot grid.png",
        "oddscalc grid --game epic --set crossfire=true --format markdown --show-query",
    ])
    app.command("profiles", help=inspect.getdoc(list_profiles), epilog="Examples:\n\n\b\n"
                "  oddscalc profiles --game epic\n  oddscalc profiles --file my_army.toml --format markdown")(
        list_profiles)
    app.command("import", help=inspect.getdoc(import_list), epilog="Examples:\n\n\b\n"
                "  oddscalc import my_list.rosz\n  oddscalc import my_list.rosz --write army.toml --strict\n"
                "  oddscalc grid my_list.rosz --against their_list.rosz")(import_list)
