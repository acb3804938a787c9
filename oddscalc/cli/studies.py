"""Study commands: `sweep` and `compare` (parse, call the library, render); `grid` and
`profiles` are in `rosters.py`."""

from __future__ import annotations

import dataclasses
import shlex
from typing import Annotated, Any, Optional, Sequence

import typer

from ..attack import text as text_of
from ..cells import DASK_TIMEOUT, Cluster, outside_bounds
from ..errors import InputError
from ..style import percent
from ..tables import precision_note
from . import rosters
from .errors import OptionError
from .options import (
    Common,
    command,
    convert,
    find_query,
    option,
    option_of,
    parse_number,
    parse_query,
    query_args,
)
from .output import caption, finish, progress_bar

SCHEDULER = option("scheduler", Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Run the cells on the Dask cluster at ADDRESS (tcp://host:8786; needs the dask extra). Exact runs stay "
         "in process.")], None)
SCHEDULER_TIMEOUT = option("scheduler_timeout", Annotated[float, typer.Option(
    "--scheduler-timeout", metavar="S", parser=parse_number,
    help="Seconds to wait for the scheduler, a first worker, or a lost cluster to come back (default 10).")],
    DASK_TIMEOUT)
AT_LEAST = option("at_least", Annotated[str, typer.Option(
    "--at-least", metavar="K,K", help="Add P(≥ K) columns for these K (comma-separated).")], "1")
STUDY = [AT_LEAST, SCHEDULER, SCHEDULER_TIMEOUT]


def cluster(scheduler: Optional[str], timeout: float) -> Optional[Cluster]:
    """The Dask cluster the cells run on (None: local threads)."""
    if scheduler is None and timeout != DASK_TIMEOUT:
        raise OptionError(timeout, "applies only with --scheduler ADDRESS", hint="--scheduler-timeout")
    if scheduler is not None and not scheduler.startswith("tcp://"):
        raise OptionError(scheduler[:80] or "''", "expected a scheduler address like tcp://host:8786 (a scheduler in "
                                          "another process, as `dask scheduler` prints it)", hint="--scheduler")
    return None if scheduler is None else Cluster(scheduler, timeout)


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
    from .output import command_line, width

    columns = list(dict.fromkeys(key for row in rows for key in row))
    header = {"command": command_line(), "method": method, "trials": None if method == "exact" else trials,
              "seed": seed}
    return render_rows(columns, rows, common.output_format, header, notes, extra or {}, width=width())


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
    scheduler_timeout: float,
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
    common.one_query("sweep")
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
    outcome = common.outcome_of([parsed.attack])
    if outcome is not None and not stat and not goal_value:
        statistic = studies.Statistic(outcome, "mean")
    statistic.check(parsed.attack.outcomes, "stat")
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
                                   workers=common.threads, scheduler=cluster(scheduler, scheduler_timeout),
                                   progress=progress)
        except InputError as error:
            if error.name not in values:
                raise
            option = "--" + error.name.replace("_", "-")
            raise OptionError(f"{option} {error.value}", error.allowed, hint="--vary") from None
    note, failed = result.goal_report(vary[0].partition("=")[2])
    extra_json = {}
    if goal_value:
        reached = result.reached
        extra_json["goal"] = {"goal": str(goal_value), "option": result.names[0].replace("_", "-"), "seek": seek,
                              "reached": reached is not None,
                              "value": None if reached is None else text_of(result.cells[reached][0])}
    first = result.results[0]
    table = report(result.rows(ks, [outcome] if outcome else None), common, first.method, first.trials, result.seed,
                   (note,) if note else (), extra_json)
    if failed is None:
        labels = [", ".join(f"{n}={text_of(v)}" for n, v in zip(result.names, cell)) for cell in result.cells]
        failed = outside_bounds(labels, result.results)
    plot = None
    if common.plot is not None:
        from .. import plots

        varied = "; ".join(f"{name.replace('_', '-')} from {text_of(result.cells[0][i])} to "
                           f"{text_of(result.cells[-1][i])}" for i, name in enumerate(result.names))
        # the query without the varied options' own values (the plot shows them all), then their ranges
        title = f"{without_options(query, [param for param, _ in axes.values()])}, {varied}"
        plot = (lambda: plots.sweep_plot(result, statistic, title=title), common.plot,
                caption(first.method, first.trials, result.seed, per_cell=True))
    return finish(table, plot=plot, notes=precision_note(result.results, common.precision), failed=failed)


def without_options(query: str, params: Sequence[Any]) -> str:
    """A quoted query without the given options and their values (`--shots 6` of a sweep over shots)."""
    names = {name for param in params for name in param.opts}
    flags = {name for param in params if param.is_flag for name in param.opts}
    kept, skip = [], False
    for word in shlex.split(query):
        if skip:
            skip = False
        elif word in names:
            skip = word not in flags
        elif not any(word.startswith(f"{name}=") for name in names):
            kept.append(word)
    return shlex.join(kept)


# --- compare -----------------------------------------------------------------------------


def compare(
    queries: Annotated[list[str], typer.Argument(metavar="QUERY...", help="Two or more queries, each in quotes.")],
    *,
    at_least: str,
    scheduler: Optional[str],
    scheduler_timeout: float,
    common: Common,
) -> int:
    """Compare queries' main outcomes: one table, one overlaid plot, and P(#i > #j).

    Queries may come from different games. Each column "P(> #j)" gives the chance that
    this row's main outcome beats query #j's (independent rolls), with its standard error.
    """
    from .. import studies
    from . import root_command

    common.check()
    common.one_query("compare")
    if len(queries) < 2:
        raise OptionError(len(queries), "expected at least two quoted queries to compare", hint="QUERY")
    ks = parse_ks(at_least)
    attacks = [parse_query(root_command(), text).attack for text in queries]
    with progress_bar("cells") as progress:
        result = studies.compare(attacks, outcome=common.outcome, trials=common.trials, seed=common.seed,
                                 method=common.method.value,
                                 precision=common.precision, workers=common.threads,
                                 scheduler=cluster(scheduler, scheduler_timeout), progress=progress)
    rows = result.rows(ks)
    for row, text in zip(rows, queries):
        row["query"] = text
    first = result.results[0]
    table = report(rows, common, first.method, first.trials, result.seed)
    plot = None
    if common.plot is not None:
        from .. import plots

        labels = [f"#{i}: {attack.describe()} ({name})" for i, (attack, name) in
                  enumerate(zip(result.attacks, result.outcomes), 1)]
        odds = "; ".join(f"P(#{i + 1} > #{i + 2}) = {percent(result.greater(i, i + 1)[0])}"
                         for i in range(len(labels) - 1))
        plot = (lambda: plots.overlay([(label, result.distribution(i)) for i, label in enumerate(labels)],
                                      common.outcome or "outcome", title=f"Comparison: {odds}"),
                common.plot, caption(first.method, first.trials, result.seed, per_cell=True))
    failed = outside_bounds([f"#{i}" for i in range(1, len(queries) + 1)], result.results)
    return finish(table, plot=plot, notes=precision_note(result.results, common.precision), failed=failed)


app = typer.Typer(rich_markup_mode=None, add_completion=False)


def register(app: typer.Typer) -> None:
    """Add the study commands to `app`."""
    command(app, "sweep", sweep, extra=STUDY, examples=[
        'oddscalc sweep "epic barrage --units 4 --armour 4" --vary bp=1..18',
        'oddscalc sweep "roll 2d6" --vary maximised=0..3 --stat at_least_9',
        'oddscalc sweep "roll 6d6 --success 5" --vary success=4..6 --goal at_least_2>=0.5',
    ])
    rosters.register(app, STUDY)
    command(app, "compare", compare, extra=STUDY, examples=[
        'oddscalc compare "roll 2d6" "roll 2d6 --maximised 1" --plot charge.png',
        'oddscalc compare "roll 3d6" "roll 2d6+3" --exact --format markdown',
    ])


register(app)
