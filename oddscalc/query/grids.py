"""The study `grid`: every weapon of every unit against every target, ranked (the study is `oddscalc.studies.grid`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

from ..errors import InputError
from ..lists.games import listed
from ..output.tables import precision_note
from .answer import Answer, plot_of, progress_bar, sooner, study_answer
from .common import Common, Study
from .grammar import argument, option
from .numbers import whole
from .registry import command

if TYPE_CHECKING:
    from ..studies.grid import Grid, View


def _names(values: Optional[list[str]], option: str) -> Optional[list[str]]:
    """The unit names of --attackers or --targets (comma-separated or repeated); given empty, refused."""
    if not values:  # not given (Typer gives an empty list)
        return None
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    if not names:
        raise InputError(option, ",".join(values), "expected unit names of the roster, comma-separated")
    return names


# The longest of grid's options, declared once each
Sort = Annotated[Optional[str], option(
    "--sort", metavar="COLUMN",
    help="Rank by this column, highest first: mean, p_kill, per_100_points, at_least_K ... (default: "
         "per_100_points when every attacker has points, else mean).")]
HeatmapStat = Annotated[Optional[str], option(
    "--stat", metavar="STAT",
    help="The statistic of the heatmap (default: mean): any column a grid ranks by (p_kill, per_100_points, "
         "at_least_K ...) or a statistic of an outcome (broken.at_least_1).")]
Columns = Annotated[Optional[str], option(
    "--columns", metavar="A,B", help="The columns a text table shows (default: rank, attacker, weapon, target, "
                                     "mean, p_kill, per_100_points and the sort column).")]
Together = Annotated[bool, option(
    "--together", help="Epic: also each formation's shooting weapons fired as one attack (row \"all "
                       "weapons\"): normal hits, then macro-weapon hits onto the units left.")]
AssaultSwitch = Annotated[bool, option(
    "--assault", help="Epic: each formation's assault on each target instead of its weapons (both sides' close "
                      "combat and firefight, the result roll; the cell: P(win), docs/rules.md §2.9).")]
CombatSwitch = Annotated[bool, option(
    "--combat", help="The 9th Age: each unit's charge on each target instead of its weapons (a round of close "
                     "combat, the Break Test, the pursuit; the cell: P(win), p_break: P(the target breaks), "
                     "docs/rules.md §3.11).", excludes=("--assault",),
    why="--assault fights Epic formations, --combat The 9th Age's units: give one of them")]


def grid(
    file: Annotated[Optional[str], argument(  # a name, opened as `given.Files` allow (never at parsing)
        "FILE", "A roster TOML file (default: the bundled example of --game).")] = None,
    game: Annotated[Optional[str], option("--game", metavar="G", help=f"{listed()} (read from FILE when it "
                                                                              "says).")] = None,
    attackers: Annotated[Optional[list[str]], option("--attackers", metavar="NAMES",
                                                          help="Only these attacking units (comma-separated or "
                                                               "repeated).")] = None,
    targets: Annotated[Optional[list[str]], option("--targets", metavar="NAMES",
                                                        help="Only these target units.")] = None,
    against: Annotated[Optional[str], option("--against", metavar="FILE",
                                                   help="Take the targets from another roster file.")] = None,
    sort: Sort = None,
    stat: HeatmapStat = None,
    columns: Columns = None,
    wide: Annotated[bool, option("--wide", help="Show every column in a text table.")] = False,
    settings: Annotated[Optional[list[str]], option(
        "--set", metavar="NAME=VALUE",
        help="Set an attack option in every cell that has it, read as the query option --NAME reads it: "
             "crossfire=true, save=hit, per-template=4.")] = None,
    all_outcomes: Annotated[bool, option("--all-outcomes", help="One row per outcome, not only the main "
                                                                      "one.")] = False,
    show_query: Annotated[bool, option("--show-query", help="Show each row's query: the single command line "
                                                                  "that computes the same cell.")] = False,
    together: Together = False,
    assault: AssaultSwitch = False,
    combat: CombatSwitch = False,
    distance: Annotated[Optional[int], option(
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
    from ..core.given import current
    from ..lists.games import load_pair
    from ..studies.grid import View, plan_grid
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
        from ..studies.sweeps import Statistic

        heat = Statistic(common.outcome, "mean")  # the heatmap of the outcome asked for
    plot = plot_of(common.plot, lambda plots: plots.grid_heatmap(result, heat), result.live[0], result.seed)
    notes = imported + precision_note(result.live, common.precision)
    return Answer(rows, common.output_format, plot, notes, result.outside_bounds(), options=common.run)


def not_modelled(*rosters: Any) -> tuple[str, ...]:
    """The lines that say what imported lists hold that oddscalc does not model (each list once)."""
    return tuple(f"note ({Path(roster.source).name}): {line}" for index, roster in enumerate(rosters)
                 if all(roster is not other for other in rosters[:index]) for line in roster.notes)


def _engagement(assault: bool, combat: bool) -> bool | str:
    """grid --assault or --combat: the engagement named (the grammar refuses both: `--combat`'s rule), or none."""
    return "assault" if assault else "combat" if combat else False


command("grid", grid, study=True, examples=[
    "oddscalc grid --game epic --trials 1e5",
    "oddscalc grid my_army.toml --against enemies.toml --sort p_kill --plot grid.png",
    "oddscalc grid --game epic --set crossfire=true --format markdown --show-query",
])
