"""The study commands: `sweep` and `compare` here, `grid` (`grids.py`) and `balance` (`balancing.py`);
importing this module registers them all."""

from __future__ import annotations

from typing import Annotated, Any, Optional, Sequence

from ..studies import sweeps as studies
from ..core.attack import Attack, field_of, kind_of
from ..core.attack import text as text_of
from ..studies.cells import outside_bounds
from ..output.tables import precision_note
from .answer import Answer, plot_of, progress_bar, sooner, study_answer
from .common import Common, Study
from .grammar import argument, option
from .refusals import OptionError
from .registry import command
from .words import find_query, parse_query, query_args

# --- sweep -----------------------------------------------------------------------------


def sweep(
    query: Annotated[str, argument("QUERY", "A query in quotes, e.g. \"epic barrage --units 4 "
                                                                "--armour 4\".")],
    vary: Annotated[list[str], option("--vary", metavar="NAME=A..B",
                                            help="An option to vary: a range 1..18 (1..18:2 in steps) or a list "
                                                 "2,4,6; repeat for two options.")],
    goal: Annotated[Optional[str], option(
        "--goal", metavar="STAT>=P",
        help="Find the smallest value reaching it (--seek largest: the largest): STAT is mean, sd, median, p10, "
             "p90, at_least_K, at_most_K or exactly_K of the main outcome (OUTCOME.STAT for another), e.g. "
             "at_least_3>=0.8.")] = None,
    seek: Annotated[str, option("--seek", metavar="WHICH",
                                      help="smallest (default) or largest value reaching --goal.")] = "smallest",
    stat: Annotated[Optional[str], option("--stat", metavar="STAT",
                                                help="The statistic to plot (default: the goal's, else mean).")]
    = None,
    *,
    study: Study,
    common: Common,
) -> Answer:
    """Run a query with one or two of its options varied: a tidy table and a plot.

    One varied option plots the statistic against it (95 % error bars); two plot a heatmap.
    With --goal, also answer the inverse question: the smallest (or, with --seek largest,
    the largest) value that reaches it. The table and plot print even when no value
    reaches the goal; the exit code is then 1.
    """
    options = common.check()
    common.one_query("sweep")
    wanted = studies.Goal.parse(goal) if goal else None
    kind = find_query(query_args(query), query)[0].attack
    values = studies.read_vary(kind, vary)
    attack = parse_query(query, extra=first_values(kind, values)).attack
    outcome = common.outcome_of([attack])
    statistic = studies.Statistic.chosen(stat, wanted, outcome, attack.outcomes)
    with progress_bar("cells", sooner(options)) as progress:
        result = studies.sweep(attack, values, goal=wanted, seek=seek, options=options,
                               scheduler=study.cluster, progress=progress)
    note, failed = result.goal_report(vary[0].partition("=")[2])
    first = result.results[0]
    rows = study_answer(result.rows(study.ks, [outcome] if outcome else None), result.results, result.seed,
                        (note,) if note else (), result.goal_json())
    title = f"{without_options(query, kind, list(values))}, {result.ranges()}"  # the query less the varied values
    plot = plot_of(common.plot, lambda plots: plots.sweep_plot(result, statistic, title=title), first, result.seed)
    notes = precision_note(result.results, common.precision)
    return Answer(rows, common.output_format, plot, notes, failed or outside_bounds(result.labels(), result.results),
                  options=options)


def first_values(attack: type, values: dict[str, list[Any]]) -> list[str]:
    """The varied options with their first values, as arguments: they stand in for an option
    the quoted query needs and leaves out (a switch needs none)."""
    words = []
    for name, read in values.items():
        field = field_of(attack, name)
        if kind_of(attack, field)[0] is not bool:
            words += ["--" + name.replace("_", "-"), text_of(read[0], field)]
    return words


def without_options(query: str, attack: type[Attack], names: Sequence[str]) -> str:
    """A quoted query without the given options and their values (`--shots 6` of a sweep over shots)."""
    import shlex

    spelled = {"--" + name.replace("_", "-"): kind_of(attack, field_of(attack, name))[0] is bool for name in names}
    kept, skip = [], False
    for word in shlex.split(query):
        if skip:
            skip = False
        elif word in spelled:
            skip = not spelled[word]
        elif not any(word.startswith(f"{name}=") for name in spelled):
            kept.append(word)
    return shlex.join(kept)


# --- compare -----------------------------------------------------------------------------


def compare(
    queries: Annotated[list[str], argument("QUERY...", "Two or more queries, each in quotes.")],
    *,
    study: Study,
    common: Common,
) -> Answer:
    """Compare queries' main outcomes: one table, one overlaid plot, and P(#i > #j).

    Queries may come from different games. Each column "P(> #j)" gives the chance that
    this row's main outcome beats query #j's (independent rolls), with its standard error.
    """
    options = common.check()
    common.one_query("compare")
    if len(queries) < 2:
        raise OptionError(len(queries), "expected at least two quoted queries to compare", "QUERY")
    attacks = [parse_query(text).attack for text in queries]
    with progress_bar("cells", sooner(options)) as progress:
        result = studies.compare(attacks, outcome=common.outcome, options=options,
                                 scheduler=study.cluster, progress=progress)
    rows = [{**row, "query": text} for row, text in zip(result.rows(study.ks), queries)]  # each query as typed
    first = result.results[0]
    plot = plot_of(common.plot, lambda plots: plots.overlay(
        list(zip(result.labels(), map(result.distribution, range(len(attacks))))), common.outcome or "outcome",
        title=f"Comparison: {result.odds()}"), first, result.seed)
    failed = outside_bounds([f"#{i}" for i in range(1, len(queries) + 1)], result.results)
    return Answer(study_answer(rows, result.results, result.seed), common.output_format, plot,
                  precision_note(result.results, common.precision), failed, options=options)


command("sweep", sweep, study=True, examples=[
    'oddscalc sweep "epic barrage --units 4 --armour 4" --vary bp=1..18',
    'oddscalc sweep "roll 2d6" --vary maximised=0..3 --stat at_least_9',
    'oddscalc sweep "roll 6d6 --success 5" --vary success=4..6 --goal at_least_2>=0.5',
])
from . import balancing, grids  # noqa: E402,F401  (they register grid and balance, in --help's order)

command("compare", compare, study=True, examples=[
    'oddscalc compare "roll 2d6" "roll 2d6 --maximised 1" --plot charge.png',
    'oddscalc compare "roll 3d6" "roll 2d6+3" --exact --format markdown',
])
