"""Study commands: `sweep` and `compare` (and the query parsing they share)."""

import inspect
import itertools
import shlex
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import typer

from ..errors import InputError
from ..tables import Format
from .common import (
    COMMON_OPTIONS,
    Common,
    OptionError,
    caption_for,
    capture_attack,
    check_query,
    click_errors,
    command_line,
    command_of,
    examples_epilog,
    input_error,
    one_line,
    progress_for_terminal,
    save_figure,
    with_common,
)

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


def parse_ks(text: str) -> list[int]:
    try:
        ks = [int(k) for k in text.split(",") if k.strip()]
    except ValueError:
        raise InputError("at_least", text, "expected whole numbers separated by commas, like 1,2,3") from None
    if any(k < 0 for k in ks):
        raise InputError("at_least", text, "expected whole numbers ≥ 0")
    return ks


def query_args(text: str) -> list[str]:
    """Split a quoted query into arguments; refuse the options that belong to the study."""
    try:
        args = shlex.split(text)
    except ValueError as error:
        raise OptionError(text, f"the query does not parse ({error})", hint="QUERY") from None
    if args[:1] == ["oddscalc"]:
        args = args[1:]
    for arg in args:
        if arg.split("=")[0] in COMMON_OPTIONS:
            raise OptionError(text, f"put {arg.split('=')[0]} after the quoted query: it applies to every cell",
                              hint="QUERY")
    return args


def attack_of(app: typer.Typer, args: Sequence[str], label: str, varied: Sequence[str] = ()) -> Any:
    """Build the attack of a query, turning its errors into one line about the query.

    An error about one of the `varied` options is blamed on --vary, any other on `label`.
    """
    try:
        return capture_attack(app, args)[0]
    except OptionError as error:
        if error.param_hint == "QUERY":
            raise
        blame = "--vary" if getattr(error.param, "name", None) in varied else label
        raise OptionError(shlex.join(args), one_line(error).removeprefix("error: "), hint=blame) from None
    except click_errors.ClickException as error:
        blame = "--vary" if getattr(getattr(error, "param", None), "name", None) in varied else label
        raise OptionError(shlex.join(args), one_line(error).removeprefix("error: "), hint=blame) from None


def set_option(args: list[str], option: Any, value: str) -> list[str]:
    """Return args with every occurrence of `option` replaced by the given value."""
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in option.opts or arg in option.secondary_opts:
            skip = not option.is_flag
            continue
        if any(arg.startswith(opt + "=") for opt in option.opts):
            continue
        kept.append(arg)
    if option.is_flag:
        truth = value.lower()
        if truth not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
            raise OptionError(value, f"{option.opts[0]} is a switch: vary it over true,false", hint="--vary")
        return kept + ([option.opts[0]] if truth in ("true", "yes", "on", "1") else [])
    return kept + [option.opts[0], value]


def varied_option(app: typer.Typer, args: Sequence[str], spec: str) -> tuple[Any, list[str]]:
    from ..studies import parse_values

    name, equals, values = spec.partition("=")
    if not equals or not name.strip():
        raise OptionError(spec, "expected NAME=A..B or NAME=a,b,c (like bp=1..18)", hint="--vary")
    name = name.strip().lstrip("-").replace("_", "-")
    command = command_of(app, args)
    option = next((p for p in command.params if f"--{name}" in getattr(p, "opts", ())), None)
    if option is None or f"--{name}" in COMMON_OPTIONS:
        options = ", ".join(p.opts[0] for p in command.params
                            if p.param_type_name == "option" and p.opts[0] not in COMMON_OPTIONS
                            and p.opts[0] not in ("--help", "-h"))
        raise OptionError(spec, f"the query has no option --{name}; it has {options or 'none'}", hint="--vary")
    try:
        return option, parse_values(values.strip(), "vary")
    except InputError as error:
        raise OptionError(spec, error.allowed, hint="--vary") from None


def report(columns: Sequence[str], rows: Sequence[dict], common: Common, method: str, seed: Optional[int],
           notes: Sequence[str] = (), extra: Optional[dict] = None) -> str:
    from ..tables import render_rows

    trials = None if method == "exact" else common.trials
    header = {"command": command_line(), "method": method, "trials": trials, "seed": seed}
    return render_rows(columns, rows, common.output_format, header, notes, extra or {})


def run_study(attacks: Sequence[Any], common: Common, scheduler: Optional[str]) -> tuple[list, Optional[int]]:
    from ..studies import run_cells

    common.check()
    progress = progress_for_terminal("cells")
    try:
        return run_cells(attacks, trials=common.trials, seed=common.seed, method=common.method.value,
                         precision=common.precision, workers=common.threads, scheduler=scheduler)
    finally:
        if progress:
            progress.close()


def sweep(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="A query in quotes, e.g. \"epic barrage --units 4 "
                                                                "--armour 4\".")],
    vary: Annotated[list[str], typer.Option("--vary", metavar="NAME=A..B",
                                            help="An option to vary: a range 1..18 (1..18:2 in steps) or a list "
                                                 "2,4,6; repeat for two options.")],
    goal: Annotated[Optional[str], typer.Option(
        "--goal", metavar="STAT>=P",
        help="Find the smallest value reaching it: STAT is mean, sd, median, p10, p90, at_least_K, at_most_K or "
             "exactly_K of the main outcome (OUTCOME.STAT for another), e.g. at_least_3>=0.8.")] = None,
    stat: Annotated[Optional[str], typer.Option("--stat", metavar="STAT",
                                                help="The statistic to plot (default: the goal's, else mean).")]
    = None,
    *,
    at_least: str,
    scheduler: Optional[str],
    common: Common,
) -> None:
    """Run a query with one or two of its options varied: a tidy table and a plot.

    One varied option plots the statistic against it (95 % error bars); two plot a heatmap.
    With --goal, also answer the inverse question: the smallest value that reaches it.
    """
    from ..studies import Goal, Statistic, seek, summary_row
    from . import app

    args = query_args(query)
    check_query(app, args)
    require_vary = vary or []
    if not 1 <= len(require_vary) <= 2:
        raise OptionError(len(require_vary), "vary one or two options (--vary NAME=A..B)", hint="--vary")
    goal_value = Goal.parse(goal) if goal else None
    if goal_value and len(require_vary) != 1:
        raise OptionError(goal, "a goal needs exactly one --vary", hint="--goal")
    statistic = Statistic.parse(stat, "stat") if stat else goal_value.statistic if goal_value else Statistic(None, "mean")
    ks = parse_ks(at_least)
    axes = [varied_option(app, args, spec) for spec in require_vary]
    names = [option.opts[0].lstrip("-") for option, _ in axes]
    cells = list(itertools.product(*(values for _, values in axes)))
    attacks = []
    for cell in cells:
        cell_args = list(args)
        for (option, _), value in zip(axes, cell):
            cell_args = set_option(cell_args, option, value)
        attacks.append(attack_of(app, cell_args, "QUERY", [option.name for option, _ in axes]))
    results, seed = run_study(attacks, common, scheduler)
    rows = []
    for cell, result in zip(cells, results):
        for outcome in result.outcomes:
            rows.append({**dict(zip(names, cell)), **summary_row(result, outcome, ks)})
    notes, extra = [], {}
    if goal_value:
        reached, best = seek([c[0] for c in cells], results, goal_value)
        label = goal_value.statistic.label(results[0].main)
        if reached is None:
            value, error = goal_value.statistic.value(results[best])
            raise OptionError(
                goal, f"no {names[0]} in {require_vary[0].partition('=')[2]} reaches it; the best is "
                f"{names[0]} = {cells[best][0]} with {label} = {value:.4g}" + (f" ± {error:.2g}" if error else ""),
                hint="--goal")
        value, error = goal_value.statistic.value(results[reached])
        notes.append(f"goal {goal_value}: the smallest {names[0]} is {cells[reached][0]} "
                     f"({label} = {value:.4g}" + (f" ± {error:.2g})" if error else ")"))
        extra["goal"] = {"goal": str(goal_value), "option": names[0], "value": cells[reached][0],
                         "statistic": value, "stderr": error}
    columns = list(rows[0])
    text = report(columns, rows, common, results[0].method, seed, notes, extra)
    if common.plot is not None:
        save_figure(sweep_plot(names, cells, results, statistic), common.plot,
                    caption_for(results[0].method, results[0].trials, seed, command_line()))
    typer.echo(text)


def sweep_plot(names: list, cells: list, results: list, statistic: Any) -> Any:
    import numpy as np

    from .. import plots

    values = [statistic.value(result) for result in results]
    label = statistic.label(results[0].main)
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
    ax = plots.heatmap(grid, [f"{names[0]}={r}" for r in rows], [f"{names[1]}={c}" for c in columns], label)
    return ax


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def compare(
    queries: Annotated[list[str], typer.Argument(metavar="QUERY...", help="Two or more queries, each in quotes.")],
    *,
    at_least: str,
    scheduler: Optional[str],
    common: Common,
) -> None:
    """Compare queries' main outcomes: one table, one overlaid plot, and P(#i > #j).

    Queries may come from different games. Each column "P(> #j)" gives the chance that
    this row's main outcome beats query #j's (independent rolls), with its standard error.
    """
    from ..studies import probability_greater, summary_row
    from . import app

    if len(queries) < 2:
        raise OptionError(len(queries), "expected at least two quoted queries to compare", hint="QUERY")
    ks = parse_ks(at_least)
    attacks = [attack_of(app, query_args(query), "QUERY") for query in queries]
    results, seed = run_study(attacks, common, scheduler)
    rows = []
    for i, (query, result) in enumerate(zip(queries, results), 1):
        row = {"#": i, "query": query, **summary_row(result, result.main, ks)}
        for j, other in enumerate(results, 1):
            if j != i:
                p, error = probability_greater(result[result.main], other[other.main])
                row[f"P(> #{j})"] = p
                row[f"P(> #{j})_stderr"] = error
        rows.append(row)
    columns = list(rows[0].keys())[: -2 * (len(results) - 1)]
    columns += [f"P(> #{j}){suffix}" for j in range(1, len(results) + 1) for suffix in ("", "_stderr")]
    text = report(columns, rows, common, results[0].method, seed)
    if common.plot is not None:
        from .. import plots

        ax = plots.overlay([(f"#{i}: {q}", r[r.main]) for i, (q, r) in enumerate(zip(queries, results), 1)],
                           "main outcome")
        save_figure(ax, common.plot, caption_for(results[0].method, results[0].trials, seed, command_line()))
    typer.echo(text)


def _names(values: Optional[list]) -> Optional[list]:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


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
        help="Set an attack option in every cell that has it, e.g. crossfire=true, save=hit, sustained=true.")]
    = None,
    all_outcomes: Annotated[bool, typer.Option("--all-outcomes", help="One row per outcome, not only the main "
                                                                      "one.")] = False,
    *,
    at_least: str,
    scheduler: Optional[str],
    common: Common,
) -> None:
    """Every weapon of every unit against every target: a ranked table and a heatmap.

    One row per (attacker, weapon, target): the main outcome's mean, sd, P(≥ K), the
    chance to wipe out the target unit (p_kill) and the mean per 100 points of the
    attacker. Each cell draws from its own random stream (seed + the attack itself), so
    adding units never changes other rows, and --scheduler gives the same table.
    """
    from .. import plots, profiles
    from ..studies import Statistic, run_grid, setting

    roster = profiles.load(file, game)
    target_roster = profiles.load(against, roster.game) if against is not None else roster
    heat = Statistic.parse(stat, "stat") if stat else None
    ks = parse_ks(at_least)
    common.check()
    progress = progress_for_terminal("cells")
    try:
        result = run_grid(roster, target_roster, attackers=_names(attackers), target_names=_names(targets),
                          settings=[setting(text) for text in settings or []], trials=common.trials,
                          seed=common.seed, method=common.method.value, precision=common.precision,
                          workers=common.threads, scheduler=scheduler)
    finally:
        if progress:
            progress.close()
    column = sort or result.default_sort()
    rows = result.rows(ks, all_outcomes, column)
    text = report(list(dict.fromkeys(key for row in rows for key in row)), rows, common, result.method,
                  result.seed, [f"ranked by {column}"])
    if common.plot is not None:
        values, row_labels, column_labels, label = result.matrix(heat)
        ax = plots.heatmap(values, row_labels, column_labels, label)
        ax.set_xlabel("target")
        ax.set_ylabel("attacker: weapon")
        save_figure(ax, common.plot, caption_for(result.method, result.trials, result.seed, command_line()))
    typer.echo(text)


def list_profiles(
    game: Annotated[Optional[str], typer.Option("--game", metavar="G", help="dust, epic or t9a (default: all "
                                                                             "bundled examples).")] = None,
    file: Annotated[Optional[Path], typer.Option("--file", metavar="F", help="A roster TOML file to list and "
                                                                               "check.")] = None,
    output_format: Annotated[Format, typer.Option("--format", metavar="F", help="table, json, csv, markdown or "
                                                                                  "bbcode.")] = Format.table,
) -> None:
    """List the units and weapons of a roster file, or the bundled examples.

    Listing a file also checks it: errors name the file, the unit and the field.
    """
    from .. import profiles
    from ..tables import render_rows

    try:
        if file is not None:
            rosters = [profiles.load(file, game)]
        else:
            rosters = [profiles.load(None, g) for g in ([game] if game else profiles.GAMES)]
    except InputError as error:
        raise input_error(error) from None
    rows = []
    for roster in rosters:
        module = profiles.game_module(roster.game)
        for unit in roster.units:
            weapons = "; ".join(f"{w.name} ({module.describe_weapon(w)})" for w in unit.weapons) or "-"
            rows.append({"game": roster.game, "unit": unit.name, "points": unit.points,
                         "profile": module.describe(unit), "weapons": weapons, "source": roster.source})
    header = {"command": command_line(), "method": None, "trials": None, "seed": None}
    typer.echo(render_rows(list(rows[0]), rows, output_format, header))


def register(app: typer.Typer) -> None:
    """Add the study commands to the app."""
    app.command("sweep", help=inspect.getdoc(sweep), epilog=examples_epilog([
        'oddscalc sweep "epic barrage --units 4 --armour 4" --vary bp=1..18',
        'oddscalc sweep "roll 2d6" --vary maximised=0..3 --stat at_least_9',
        'oddscalc sweep "roll 6d6 --success 5" --vary success=4..6 --goal at_least_2>=0.5',
    ]))(with_common(sweep, [AT_LEAST, SCHEDULER]))
    app.command("grid", help=inspect.getdoc(grid), epilog=examples_epilog([
        "oddscalc grid --game epic --trials 1e5",
        "oddscalc grid my_army.toml --against enemies.toml --sort p_kill --plot grid.png",
        "oddscalc grid --game epic --set crossfire=true --format markdown",
    ]))(with_common(grid, [AT_LEAST, SCHEDULER]))
    app.command("profiles", help=inspect.getdoc(list_profiles), epilog=examples_epilog([
        "oddscalc profiles --game epic",
        "oddscalc profiles --file my_army.toml --format markdown",
    ]))(list_profiles)
    app.command("compare", help=inspect.getdoc(compare), epilog=examples_epilog([
        'oddscalc compare "roll 2d6" "roll 2d6 --maximised 1" --plot charge.png',
        'oddscalc compare "roll 3d6" "roll 2d6+3" --exact --format markdown',
    ]))(with_common(compare, [AT_LEAST, SCHEDULER]))

