"""Study commands: `sweep`, `compare`, `grid`, `profiles` (parse, call the library, render)."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..errors import InputError
from ..tables import Format
from .errors import OptionError
from .options import (
    Common,
    blank_context,
    command,
    command_for,
    convert,
    find_query,
    option_of,
    parse_query,
    query_args,
)
from .output import caption, finish, precision_note, progress_bar

SCHEDULER = inspect.Parameter(
    "scheduler", inspect.Parameter.KEYWORD_ONLY, default=None,
    annotation=Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="ADDRESS",
        help="Run the cells on the Dask cluster at ADDRESS (tcp://host:8786; needs the dask extra). "
             "Exact runs stay in process.")],
)
AT_LEAST = inspect.Parameter(
    "at_least", inspect.Parameter.KEYWORD_ONLY, default="1",
    annotation=Annotated[str, typer.Option("--at-least", metavar="K,K",
                                           help="Add P(≥ K) columns for these K (comma-separated).")],
)
STUDY = [AT_LEAST, SCHEDULER]


def parse_ks(text: str) -> list[int]:
    try:
        ks = [int(k) for k in text.split(",") if k.strip()]
    except ValueError:
        raise InputError("at_least", text, "expected whole numbers separated by commas, like 1,2,3") from None
    if any(k < 0 for k in ks):
        raise InputError("at_least", text, "expected whole numbers ≥ 0")
    return ks


def report(rows: list[dict], common: Common, method: str, trials: Optional[int], seed: Optional[int],
           notes: tuple[str, ...] = (), extra: Optional[dict] = None) -> str:
    from ..tables import render_rows
    from .output import command_line

    columns = list(dict.fromkeys(key for row in rows for key in row))
    header = {"command": command_line(), "method": method, "trials": None if method == "exact" else trials,
              "seed": seed}
    return render_rows(columns, rows, common.output_format, header, notes, extra or {})


def failed_cells(labels: list[str], results: list) -> Optional[str]:
    """The one-line summary of the cells whose sampled CDF is outside its DKW bound (None when all are in)."""
    outside = [label for label, result in zip(labels, results) if result is not None and not result.verified]
    if not outside:
        return None
    shown = ", ".join(outside[:8]) + (f" and {len(outside) - 8} more" if len(outside) > 8 else "")
    return f"verify: {len(outside)} of {len(labels)} cells outside the DKW bound: {shown}"


# --- sweep -----------------------------------------------------------------------------


def sweep(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="A query in quotes, e.g. \"epic barrage --units 4 "
                                                                "--armour 4\".")],
    vary: Annotated[list[str], typer.Option("--vary", metavar="NAME=A..B",
                                            help="An option to vary: a range 1..18 (1..18:2 in steps) or a list "
                                                 "2,4,6; repeat for two options.")],
    goal: Annotated[Optional[str], typer.Option(
        "--goal", metavar="STAT>=P",
        help="Find the smallest value reaching it (--seek largest: the largest): STAT is mean, sd, median, p10, "
             "p90, at_least_K, at_most_K or exactly_K of the main outcome (OUTCOME.STAT for another), e.g. "
             "at_least_3>=0.8.")] = None,
    seek: Annotated[str, typer.Option("--seek", metavar="WHICH",
                                      help="smallest (default) or largest value reaching --goal.")] = "smallest",
    stat: Annotated[Optional[str], typer.Option("--stat", metavar="STAT",
                                                help="The statistic to plot (default: the goal's, else mean).")]
    = None,
    *,
    at_least: str,
    scheduler: Optional[str],
    common: Common,
) -> int:
    """Run a query with one or two of its options varied: a tidy table and a plot.

    One varied option plots the statistic against it (95 % error bars); two plot a heatmap.
    With --goal, also answer the inverse question: the smallest (or, with --seek largest,
    the largest) value that reaches it. The table and plot print even when no value
    reaches the goal; the exit code is then 1.
    """
    from .. import studies
    from . import root_command

    common.check()
    if not 1 <= len(vary) <= 2:
        raise OptionError(len(vary), "vary one or two options (--vary NAME=A..B)", hint="--vary")
    goal_value = studies.Goal.parse(goal) if goal else None
    if goal_value and len(vary) != 1:
        raise OptionError(goal, "a goal needs exactly one --vary", hint="--goal")
    if seek not in ("smallest", "largest"):
        raise OptionError(seek, "expected smallest or largest", hint="--seek")
    statistic = studies.Statistic.parse(stat, "stat") if stat else goal_value.statistic if goal_value else \
        studies.Statistic(None, "mean")
    ks = parse_ks(at_least)
    root = root_command()
    found, click_command, _ = find_query(root, query_args(query), query)
    axes, extra = {}, []
    for spec in vary:
        name, equals, text = spec.partition("=")
        if not equals or not name.strip():
            raise OptionError(spec, "expected NAME=A..B or NAME=a,b,c (like bp=1..18)", hint="--vary")
        param = option_of(click_command, found.path, name, "--vary", spec)
        if param.name in axes:
            raise OptionError(spec, f"{param.opts[0]} is varied twice; give it one range or list", hint="--vary")
        try:
            axes[param.name] = (param, studies.parse_values(text.strip(), "vary"))
        except InputError as error:
            raise OptionError(spec, error.allowed, hint="--vary") from None
        if not param.is_flag:  # the first value stands in for a required option the query leaves out
            extra += [param.opts[0], axes[param.name][1][0]]
    parsed = parse_query(root, query, extra=extra)
    fields = {field.name for field in dataclasses.fields(parsed.attack)}
    values = {}
    for name, (param, texts) in axes.items():
        if name not in fields:
            raise OptionError(param.opts[0], "this option sets up the query but is not one of the attack's own; "
                              "vary an option of the attack", hint="--vary")
        values[name] = [convert(parsed.context, param, text, f"--vary {name.replace('_', '-')}") for text in texts]
    with progress_bar("cells") as progress:
        try:
            result = studies.sweep(parsed.attack, values, goal=goal_value, seek=seek, trials=common.trials,
                                   seed=common.seed, method=common.method.value, precision=common.precision,
                                   workers=common.threads, scheduler=scheduler, progress=progress)
        except InputError as error:
            if error.name not in values:
                raise
            option = "--" + error.name.replace("_", "-")
            raise OptionError(f"{option} {error.value}", error.allowed, hint="--vary") from None
    names = [name.replace("_", "-") for name in result.names]
    notes, extra_json, failed = [], {}, None
    if goal_value:
        reached = result.reached
        label = goal_value.statistic.label(result.results[0].main)
        if reached is None:
            best = result.best
            value, error = goal_value.statistic.value(result.results[best])
            failed = (f"error: --goal {goal_value}: no {names[0]} in {vary[0].partition('=')[2]} reaches it; the best "
                      f"is {names[0]} = {_shown(result.cells[best][0])} with {label} = {value:.4g}"
                      + (f" ± {error:.2g}" if error else ""))
        else:
            value, error = goal_value.statistic.value(result.results[reached])
            notes.append(f"goal {goal_value}: the {seek} {names[0]} is {_shown(result.cells[reached][0])} "
                         f"({label} = {value:.4g}" + (f" ± {error:.2g})" if error else ")"))
        extra_json["goal"] = {"goal": str(goal_value), "option": names[0], "seek": seek, "reached": reached is not None,
                              "value": None if reached is None else _shown(result.cells[reached][0])}
    rows = result.rows(ks)
    text = report(rows, common, result.results[0].method, result.results[0].trials, result.seed, tuple(notes),
                  extra_json)
    if failed is None:
        labels = [", ".join(f"{n}={_shown(v)}" for n, v in zip(names, cell)) for cell in result.cells]
        failed = failed_cells(labels, list(result.results))
    plot = None
    if common.plot is not None:
        plot = (lambda: sweep_plot(names, result, statistic), common.plot,
                caption(result.results[0].method, result.results[0].trials, result.seed, per_cell=True))
    return finish(text, plot=plot, notes=precision_note(list(result.results), common.precision), failed=failed)


def _shown(value: Any) -> str:
    from ..attack import text

    return text(value)


def sweep_plot(names: list[str], result: Any, statistic: Any) -> Any:
    import numpy as np

    from .. import plots

    values = [statistic.value(r) for r in result.results]
    label = statistic.label(result.results[0].main)
    cells = [[_shown(v) for v in cell] for cell in result.cells]
    if len(names) == 1:
        xs = [cell[0] for cell in cells]
        numeric = all(_is_number(x) for x in xs)
        positions = [float(x) for x in xs] if numeric else list(range(len(xs)))
        ax = plots.line(positions, [(label, [v for v, _ in values])], names[0], label)
        ax.errorbar(positions, [v for v, _ in values], yerr=[1.96 * e for _, e in values], fmt="none",
                    ecolor="black", capsize=2)
        if not numeric:
            ax.set_xticks(positions, xs)
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        return ax
    rows = list(dict.fromkeys(cell[0] for cell in cells))
    columns = list(dict.fromkeys(cell[1] for cell in cells))
    grid = np.full((len(rows), len(columns)), np.nan)
    for cell, (value, _) in zip(cells, values):
        grid[rows.index(cell[0]), columns.index(cell[1])] = value
    return plots.heatmap(grid, [f"{names[0]}={r}" for r in rows], [f"{names[1]}={c}" for c in columns], label)


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


# --- compare -----------------------------------------------------------------------------


def compare(
    queries: Annotated[list[str], typer.Argument(metavar="QUERY...", help="Two or more queries, each in quotes.")],
    *,
    at_least: str,
    scheduler: Optional[str],
    common: Common,
) -> int:
    """Compare queries' main outcomes: one table, one overlaid plot, and P(#i > #j).

    Queries may come from different games. Each column "P(> #j)" gives the chance that
    this row's main outcome beats query #j's (independent rolls), with its standard error.
    """
    from .. import studies
    from . import root_command

    common.check()
    if len(queries) < 2:
        raise OptionError(len(queries), "expected at least two quoted queries to compare", hint="QUERY")
    ks = parse_ks(at_least)
    attacks = [parse_query(root_command(), text).attack for text in queries]
    with progress_bar("cells") as progress:
        result = studies.compare(attacks, trials=common.trials, seed=common.seed, method=common.method.value,
                                 precision=common.precision, workers=common.threads, scheduler=scheduler,
                                 progress=progress)
    rows = result.rows(ks)
    for row, text in zip(rows, queries):
        row["query"] = text
    first = result.results[0]
    table = report(rows, common, first.method, first.trials, result.seed)
    plot = None
    if common.plot is not None:
        from .. import plots

        plot = (lambda: plots.overlay([(f"#{i}: {q}", result.distribution(i - 1)) for i, q in enumerate(queries, 1)],
                                      "main outcome"),
                common.plot, caption(first.method, first.trials, result.seed, per_cell=True))
    failed = failed_cells([f"#{i}" for i in range(1, len(queries) + 1)], list(result.results))
    return finish(table, plot=plot, notes=precision_note(list(result.results), common.precision), failed=failed)


# --- grid and profiles -------------------------------------------------------------------


def _names(values: Optional[list]) -> Optional[list]:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


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
            raise OptionError(text, f"no attack in this grid has {name.strip()}; they have {', '.join(names)}",
                              hint="--set")
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
    stat: Annotated[Optional[str], typer.Option("--stat", metavar="STAT",
                                                help="The statistic of the heatmap (default: mean).")] = None,
    settings: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE",
        help="Set an attack option in every cell that has it, read as the query option --NAME reads it: "
             "crossfire=true, save=hit, per-template=4.")] = None,
    all_outcomes: Annotated[bool, typer.Option("--all-outcomes", help="One row per outcome, not only the main "
                                                                      "one.")] = False,
    show_query: Annotated[bool, typer.Option("--show-query", help="Show each row's query: the single command line "
                                                                  "that computes the same cell.")] = False,
    *,
    at_least: str,
    scheduler: Optional[str],
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
    from ..grid import matchups, run_grid
    from ..studies import Statistic

    common.check()
    roster = load_roster(file, game)
    target_roster = load_roster(against, roster.game.name) if against is not None else roster
    heat = Statistic.parse(stat, "stat") if stat else None
    ks = parse_ks(at_least)
    pairs = matchups(roster.game, roster.select(_names(attackers), "attackers"),
                     target_roster.select(_names(targets), "targets"))
    attacks = [pair.attack for pair in pairs]
    with progress_bar("cells") as progress:
        result = run_grid(roster, target_roster, attackers=_names(attackers), target_names=_names(targets),
                          settings=read_settings(settings or [], attacks), trials=common.trials,
                          seed=common.seed, method=common.method.value, precision=common.precision,
                          workers=common.threads, scheduler=scheduler, progress=progress)
    column = sort or result.default_sort()
    rows = result.rows(ks, all_outcomes, column)
    if not show_query and common.output_format in (Format.TABLE, Format.MARKDOWN, Format.BBCODE):
        rows = [{key: value for key, value in row.items() if key != "query"} for row in rows]
    text = report(rows, common, result.method, result.trials, result.seed, (f"ranked by {column}",))
    plot = None
    if common.plot is not None:
        def draw() -> Any:
            from .. import plots

            values, row_labels, column_labels, label = result.matrix(heat)
            ax = plots.heatmap(values, row_labels, column_labels, label)
            ax.set_xlabel("target")
            ax.set_ylabel("attacker: weapon")
            return ax

        plot = (draw, common.plot, caption(result.method, result.trials, result.seed, per_cell=True))
    live = [r for r in result.results if r is not None]
    labels = [f"{p.attacker.name}: {p.weapon.name} → {p.target.name}" for p, r in zip(result.pairs, result.results)
              if r is not None]
    return finish(text, plot=plot, notes=precision_note(live, common.precision), failed=failed_cells(labels, live))


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
    rows = []
    for roster in rosters:
        describe = roster.game
        for unit in roster.units:
            weapons = "; ".join(f"{w.name} ({describe.describe_weapon(w)})" for w in unit.weapons) or "-"
            rows.append({"game": roster.game.name, "unit": unit.name, "points": unit.points,
                         "profile": describe.describe_unit(unit), "weapons": weapons, "source": roster.source})
    header = {"command": command_line(), "method": None, "trials": None, "seed": None}
    typer.echo(render_rows(list(rows[0]), rows, output_format, header))


def register(app: typer.Typer) -> None:
    """Add the study commands to the app."""
    command(app, "sweep", sweep, extra=STUDY, examples=[
        'oddscalc sweep "epic barrage --units 4 --armour 4" --vary bp=1..18',
        'oddscalc sweep "roll 2d6" --vary maximised=0..3 --stat at_least_9',
        'oddscalc sweep "roll 6d6 --success 5" --vary success=4..6 --goal at_least_2>=0.5',
    ])
    command(app, "grid", grid, extra=STUDY, examples=[
        "oddscalc grid --game epic --trials 1e5",
        "oddscalc grid my_army.toml --against enemies.toml --sort p_kill --plot grid.png",
        "oddscalc grid --game epic --set crossfire=true --format markdown --show-query",
    ])
    app.command("profiles", help=inspect.getdoc(list_profiles), epilog="Examples:\n\n\b\n"
                "  oddscalc profiles --game epic\n  oddscalc profiles --file my_army.toml --format markdown")(
        list_profiles)
    command(app, "compare", compare, extra=STUDY, examples=[
        'oddscalc compare "roll 2d6" "roll 2d6 --maximised 1" --plot charge.png',
        'oddscalc compare "roll 3d6" "roll 2d6+3" --exact --format markdown',
    ])
