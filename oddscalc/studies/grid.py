"""Grids of rosters: every weapon of some units against some target units, ranked.

Each cell is one attack, built by the game's `matchup` from the roster's fields; its
`query` is the single command line that computes the same cell. Cells run through
`cells.run_cells`, so each has its own random stream.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from ..core import engine
from .cells import MAX_CELLS, cell_seed, outside_bounds, run_cells
from ..errors import InputError, did_you_mean, require
from ..core.options import Method, RunOptions
from ..lists.roster import Game, Roster, Unit, Weapon
from .grid_cells import TOGETHER, InRange, Matchup, adjusted, adjuster, assault_of, attack_of, in_range, read_settings
from .grid_cells import attack_of as _attack  # noqa: F401  (its name before grid_cells.py, as a test knows it)
from .goals import STAT_HELP, Statistic, figure, run_details, summary_row
from ..core.record import record


KEY_COLUMNS = ("rank", "attacker", "weapon", "target", "mean", "probability", "p_kill", "p_break", "per_100_points")
LABELS = {"p_kill": "P(kill the target)", "p_break": "P(break it)", "per_100_points": "{main} per 100 points",
          "points": "points"}


def grid_rows(game: Game, pairs: Sequence[Matchup], results: Sequence[engine.Result | None], at_least: Sequence[int],
              all_outcomes: bool = False, outcome: str | None = None, seed: int | None = None) -> list[dict[str, Any]]:
    """One tidy row per matchup that can hurt its target, and outcome: statistics, P(kill the
    target unit), per 100 points (of `outcome` where the cell has it, else of its main one), the
    query that computes the same figures (an exact cell's with --exact, a sampled cell's with its trials and its
    own stream's seed, from the study's `seed`)."""
    rows = []
    for pair, result in zip(pairs, results):
        base = {"attacker": pair.attacker.name, "weapon": pair.weapon.name, "target": pair.target.name}
        if result is None:
            continue
        ranked = outcome if outcome in result.outcomes else result.main
        for shown in result.outcomes if all_outcomes else (ranked,):
            row = {**base, **summary_row(result, shown, at_least)}
            if shown == ranked:
                counted = getattr(pair.attack, "kill_outcome", "kills" if "kills" in result.outcomes else result.main)
                dist, kills = result[shown], result[counted]
                p_kill = kills.at_least(game.kill_threshold(pair.target, pair.attack))
                row["p_kill"], row["p_kill_stderr"] = figure(result, p_kill), kills.stderr(p_kill)
                if hasattr(pair.attack, "break_outcome"):  # an engagement's: the target broke
                    broke = result[pair.attack.break_outcome]
                    row["p_break"] = figure(result, broke.at_least(1))
                    row["p_break_stderr"] = broke.stderr(broke.at_least(1))
                points = pair.attacker.points
                row["points"] = points
                if points:
                    row["per_100_points"] = figure(result, dist.mean * 100 / points)
                    row["per_100_points_stderr"] = dist.mean_stderr * 100 / points
            row.update(run_details(result))
            row["query"] = pair.attack.query()
            if result.method == Method.EXACT:
                row["query"] += " --exact"
            elif seed is not None:  # the cell's own stream: its figures again
                row["query"] += f" --trials {result.trials} --seed {cell_seed(seed, pair.attack)}"
            rows.append(row)
    return rows


def sort_keys(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The columns rows can be ranked by (and a heatmap drawn of)."""
    return sorted({key for row in rows for key, value in row.items() if isinstance(value, (int, float))
                   and not isinstance(value, bool) and not key.endswith("_stderr") and key != "rank"})


def rank(rows: list[dict[str, Any]], column: str) -> list[dict[str, Any]]:
    """Sort rows by a column, highest first (rows without it last, ties by name), and number them."""
    keys = sort_keys(rows)
    require(column in keys, "sort", column, f"expected a column to rank by{did_you_mean(column, keys)}: "
                                             f"{', '.join(keys)}")

    def order(row: dict[str, Any]) -> tuple[bool, float, str, str, str]:
        value = row.get(column)
        figure = isinstance(value, (int, float))  # a row without one sorts last
        return not figure, -value if figure and value is not None else 0, row["attacker"].casefold(), row["weapon"].casefold(), \
            row["target"].casefold()

    return [{"rank": i, **row} for i, row in enumerate(sorted(rows, key=order), 1)]


def matchups(game: Game, attackers: Iterable[Unit], targets: Iterable[Unit], together: bool = False,
             sources: tuple[str, str] = ("the roster", "the roster"), assault: bool | str = False) -> list[Matchup]:
    """Every weapon of every attacker against every target, in order; with `together`, also
    each attacker's weapons fired as one attack (where the game can combine them); with
    `assault`, instead each attacker's assault on each target (both sides fight). A value the
    attack refuses is named as the roster's: its file (`sources`: the attackers', the targets'),
    unit, weapon and field."""
    attackers, targets = tuple(attackers), tuple(targets)
    if assault:
        flag = assault if isinstance(assault, str) else game.engages
        engage = game.assault
        if engage is None or game.engages != flag:
            raise InputError(flag, "on", f"{game.title} rosters have no {flag} here: " + (
                f"theirs is grid --{game.engages}" if engage is not None else
                "grid --assault is for Epic Armageddon rosters, --combat for The 9th Age's"))
        require(not together, "together", "on", f"fires each formation's weapons together; --{flag} fights "
                                                "instead: give one of them")
        require(len(attackers) * len(targets) <= MAX_CELLS, "cells", f"{len(attackers) * len(targets):,}",
                f"expected at most {MAX_CELLS:,} cells: choose fewer --attackers or --targets")
        return [Matchup(attacker, Weapon(game.engages, ()), target, assault_of(engage, game, attacker, target, sources))
                for attacker in attackers for target in targets]
    join = game.together if together else None
    require(not together or join is not None, "together", "on", f"{game.title} rosters fire each weapon on its own")
    size = sum(len(attacker.weapons) + together for attacker in attackers) * len(targets)
    require(size <= MAX_CELLS, "cells", f"{size:,}", f"expected at most {MAX_CELLS:,} cells: choose fewer "
                                                     "--attackers or --targets")
    pairs = []
    for attacker in attackers:
        pairs += [Matchup(attacker, weapon, target, attack_of(game, attacker, weapon, target, sources))
                  for weapon in attacker.weapons for target in targets]
        combined = [(target, join(attacker, target)) for target in targets] if join is not None else []
        pairs += [Matchup(attacker, Weapon(TOGETHER, ()), target, attack) for target, attack in combined if attack]
    return pairs


def apart_why(game: Game, pair: Matchup) -> str | None:
    """Why an engagement's cell is not fought: which side cannot take part, and why (`Game.cannot_engage`); None
    for a weapon's cell, or one that is fought."""
    if pair.attack is not None or game.cannot_engage is None or pair.weapon != Weapon(game.engages, ()):
        return None
    for unit in (pair.attacker, pair.target):
        why = game.cannot_engage(unit)
        if why:
            return f"{unit.name}: {why}"
    return None


@record
class Grid:
    """Every weapon of some units against some targets, run: the matchups and their results."""

    game: Game
    pairs: tuple[Matchup, ...]  # in order
    results: tuple[engine.Result | None, ...]  # None where the weapon cannot attack the target
    seed: int | None
    reach: InRange | None = None  # what a distance left out
    costly: tuple[str | None, ...] = ()  # by pair: why its exact answer was not computed (too costly), or None

    @property
    def method(self) -> str:
        return next(r for r in self.results if r is not None).method

    @property
    def trials(self) -> int | None:
        return next(r for r in self.results if r is not None).trials

    @property
    def assaults(self) -> bool:
        """Every cell an engagement (grid --assault, grid --combat)."""
        return self.game.assault is not None and all(pair.weapon == Weapon(self.game.engages, ())
                                                      for pair in self.pairs)

    def default_sort(self) -> str:
        """P(win) in a grid of assaults; else per 100 points when every attacker has points, else the mean."""
        if self.assaults:
            return "probability"
        return "per_100_points" if all(pair.attacker.points for pair in self.pairs) else "mean"

    def rows(self, at_least: Sequence[int] = (1,), all_outcomes: bool = False,
             sort: str | None = None, outcome: str | None = None) -> list[dict[str, Any]]:
        """The ranked tidy rows (see `grid_rows`) of the matchups that can hurt their target."""
        rows = grid_rows(self.game, self.pairs, self.results, at_least, all_outcomes, outcome, self.seed)
        return rank(rows, sort or self.default_sort())

    def outcome_notes(self, outcome: str | None) -> list[str]:
        """Which outcome the figures are of, when one was asked for: the cells that have it, and those
        that do not (their main outcome)."""
        if outcome is None:
            return []
        live = [(pair, result) for pair, result in zip(self.pairs, self.results) if result is not None]
        without = sorted({result.main for _, result in live if outcome not in result.outcomes})
        said = f"the figures are of {outcome}"
        if without:
            said += f" where a cell has it, else of its main outcome ({', '.join(without)}): see the outcome column"
        return [said]

    def same_streams(self) -> list[list[str]]:
        """Matchups that are the very same attack: sampled, they share one random stream (a cell's
        stream comes from its attack), so they show the very same figures. Groups of labels."""
        if self.method == Method.EXACT:
            return []
        groups: dict[Any, list[str]] = {}
        for pair, result in zip(self.pairs, self.results):
            if result is not None:
                groups.setdefault(pair.attack.key(), []).append(
                    f"{pair.attacker.name}: {pair.weapon.name} → {pair.target.name}")
        return [labels for labels in groups.values() if len(labels) > 1]

    def notes(self, sort: str) -> list[str]:
        """What a reader of the table is told: the ranking column, what a distance left out, the
        matchups left out, the cells too costly to answer exactly, and the cells that share a stream."""
        apart = "; ".join(f"{c['attacker']}: {c['weapon']} → {c['target']}" + (f" ({c['why']})" if "why" in c else "")
                          for c in self.cannot_hurt())
        costly = "; ".join(f"{c['attacker']}: {c['weapon']} → {c['target']}" for c in self.too_costly())
        same = "; ".join(" = ".join(group) for group in self.same_streams())
        return ([f"ranked by {sort}"] + (self.reach.notes() if self.reach else [])
                + [f"{self.game.engages_apart if self.assaults else 'cannot hurt (not ranked)'}: {apart}"] * bool(apart)
                + [f"not computed, too costly to answer exactly (sample them: leave out --exact): {costly}"]
                * bool(costly)
                + [f"the same attack, so one random stream and the very same figures: {same}"] * bool(same))

    def too_costly(self) -> list[dict[str, str]]:
        """The cells whose exact answer would take too long: not computed, each with its query and why."""
        return [{"attacker": p.attacker.name, "weapon": p.weapon.name, "target": p.target.name,
                 "query": p.attack.query(), "why": why} for p, why in zip(self.pairs, self.costly) if why]

    def json(self) -> dict[str, Any]:
        """What JSON carries beside the rows: the matchups left out, the cells too costly to answer exactly, and a
        distance's leavings."""
        costly = self.too_costly()
        return {"cannot_hurt": self.cannot_hurt(), **({"too_costly": costly} if costly else {}),
                **(self.reach.json() if self.reach else {})}

    @property
    def live(self) -> list[engine.Result]:
        """The results of the matchups that ran (those that can hurt their target)."""
        return [result for result in self.results if result is not None]

    def outside_bounds(self) -> str | None:
        """With verify, the one line naming the cells whose sampled CDF is outside its DKW bound."""
        labels = [f"{p.attacker.name}: {p.weapon.name} → {p.target.name}" for p, r in zip(self.pairs, self.results)
                  if r is not None]
        return outside_bounds(labels, self.live)

    def cannot_hurt(self) -> list[dict[str, str]]:
        """The matchups left out of the ranking: weapons that cannot hurt the target."""
        costly = self.costly or (None,) * len(self.pairs)
        return [{"attacker": p.attacker.name, "weapon": p.weapon.name, "target": p.target.name,
                 **({"why": why} if (why := apart_why(self.game, p)) else {})}
                for p, r, too in zip(self.pairs, self.results, costly) if r is None and not too]

    def blank_means(self, values: np.ndarray) -> str:
        """What a blank cell of its heatmap (`matrix`) means, said after its label ("" when none is blank): an
        engagement that cannot be fought, a weapon that cannot hurt, or a cell not computed (too costly exactly)."""
        if not np.isnan(values).any():
            return ""
        never = [pair.attack is None for pair in self.pairs]
        why = [self.game.engages_apart.removesuffix(" (not ranked)") if self.assaults
               else "the weapon cannot hurt the target"] * any(never)
        why += ["not computed (too costly exactly: sample it)"] * any(self.costly)
        return "; a blank cell: " + " or ".join(why or ["no value"])

    @property
    def heading(self) -> str:
        """A heatmap's title: what each cell is."""
        if self.assaults:
            return f"{self.game.title}: each attacker's {self.game.engages} against each target"
        return f"{self.game.title}: every weapon against every target"

    def frame(self, **options: Any) -> Any:
        """The ranked rows as a pandas DataFrame."""
        from ..output.tables import frame

        return frame(self.rows(**options))

    def matrix(self, statistic: Statistic | str | None = None) -> tuple[np.ndarray, list[str], list[str], str]:
        """A statistic per (attacker: weapon, target): values, rows, columns, label. The statistic is one of an
        outcome (`Statistic`, like `mean` or `broken.at_least_1`) or a column of the rows (`p_kill`, `p_break`)."""
        statistic = statistic or Statistic(None, "mean")
        rows = list(dict.fromkeys(f"{p.attacker.name}: {p.weapon.name}" for p in self.pairs))
        columns = list(dict.fromkeys(p.target.name for p in self.pairs))
        values = np.full((len(rows), len(columns)), np.nan)
        first = next(r for r in self.results if r is not None)
        if isinstance(statistic, str):  # a column of the rows
            found = grid_rows(self.game, self.pairs, self.results, ())
            require(statistic in sort_keys(found), "stat", statistic,
                    f"expected a statistic ({STAT_HELP}) or a column: {', '.join(sort_keys(found))}")
            for row in found:
                values[rows.index(f"{row['attacker']}: {row['weapon']}"), columns.index(row["target"])] = \
                    row.get(statistic, np.nan)
            return values, rows, columns, LABELS.get(statistic, statistic).format(main=first.main)
        for pair, result in zip(self.pairs, self.results):
            if result is not None:
                values[rows.index(f"{pair.attacker.name}: {pair.weapon.name}"),
                       columns.index(pair.target.name)] = statistic.value(result)[0]
        return values, rows, columns, statistic.label(first)


ROW_COLUMNS = ("p_kill", "p_break", "points", "per_100_points")  # columns of a grid's rows a heatmap can show
STATISTICS = ("mean", "sd", "median", "p10", "p90")


@record
class View:
    """How a grid is shown: the column it is ranked by (`sort`, default per 100 points when
    every attacker has points, else the mean), the heatmap's statistic (`stat`), the P(≥ K)
    columns (`at_least`), one row per outcome (`all_outcomes`), and the columns a text table
    shows (`columns`; every one with `wide`; the query too with `show_query`). Checked when
    made, before any cell runs."""

    sort: str | None = None
    stat: Statistic | str | None = None
    at_least: tuple[int, ...] = (1,)
    all_outcomes: bool = False
    columns: str | None = None
    wide: bool = False
    show_query: bool = False
    outcome: str | None = None  # the outcome the rows' figures are of, where a cell has it (--outcome)

    def __post_init__(self) -> None:
        sortable = [*STATISTICS, *ROW_COLUMNS, *(f"at_least_{k}" for k in self.at_least)]
        require(self.sort is None or self.sort in sortable, "sort", self.sort,
                f"expected a column to rank by{did_you_mean(str(self.sort), sortable)}: {', '.join(sortable)}")
        if isinstance(self.stat, str) and self.stat not in ROW_COLUMNS:
            object.__setattr__(self, "stat", Statistic.parse(self.stat, "stat"))

    def check(self, plan: Plan) -> None:
        """Refuse, before the grid runs, a heatmap statistic, or an outcome, that no attack has."""
        every = sorted({name for attack in plan.attacks for name in attack.outcomes})
        if isinstance(self.stat, Statistic):
            self.stat.check(every, "stat")
        require(self.outcome is None or self.outcome in every, "outcome", self.outcome,
                f"no cell of this grid has it; they have {', '.join(every)}")

    def ranked_by(self, grid: Grid) -> str:
        return self.sort or grid.default_sort()

    def rows(self, grid: Grid, text: bool = False) -> list[dict[str, Any]]:
        """The grid's ranked rows; for a text table (`text`), only the columns it shows."""
        sort = self.ranked_by(grid)
        rows = grid.rows(self.at_least, self.all_outcomes, sort, self.outcome)
        if not text or not rows:
            return rows
        shown = self.shown(rows, sort)
        return [{key: row.get(key) for key in shown if key in row or key.endswith("_stderr")} for row in rows]

    def shown(self, rows: list[dict[str, Any]], sort: str) -> list[str]:
        """The columns a text grid shows: its key columns (they fit a terminal), `columns`, or all
        with `wide`; each with its standard error where it has one."""
        every = list(dict.fromkeys(key for row in rows for key in row))
        if self.wide:
            return every
        if self.columns is not None:
            keys = [name.strip() for name in self.columns.split(",") if name.strip()]
            require(bool(keys) and all(key in every for key in keys), "columns", self.columns,
                    f"expected columns among {', '.join(c for c in every if not c.endswith('_stderr'))}")
        else:
            keys = [*KEY_COLUMNS[:4], *(["outcome"] if self.all_outcomes or self.outcome else []), *KEY_COLUMNS[4:],
                    sort,
                    "trials", "precision_reached", "cdf_gap", "dkw_bound", "verified"]  # with --precision, --verify
            keys = [key for key in dict.fromkeys(keys) if key in every]
        keys += ["query"] if self.show_query and "query" not in keys else []
        return [*keys, *(f"{key}_stderr" for key in keys if f"{key}_stderr" in every or key == "mean")]


@record
class Plan:
    """A grid made ready to run: its matchups (with the `--set` values applied) and what a
    distance left out. `run` runs its cells."""

    game: Game
    pairs: tuple[Matchup, ...]
    reach: InRange | None = None

    @property
    def attacks(self) -> list[Any]:
        return [pair.attack for pair in self.pairs if pair.attack is not None]

    def run(self, *, options: RunOptions | None = None, scheduler: str | None = None,
            progress: engine.Progress | None = None, **settings: Any) -> Grid:
        """Run every cell (`options` or its fields as keywords, see `RunOptions`)."""
        options = RunOptions.of(options, **settings)
        live = [i for i, pair in enumerate(self.pairs) if pair.attack is not None]
        refused: list[str | None] | None = [] if options.method == Method.EXACT else None
        finished, seed = run_cells([self.pairs[i].attack for i in live], options=options, scheduler=scheduler,
                                   progress=progress, refused=refused)
        results: list[engine.Result | None] = [None] * len(self.pairs)
        costly: list[str | None] = [None] * len(self.pairs)
        for i, result, why in zip(live, finished, refused or [None] * len(live)):
            results[i], costly[i] = result, why
        if live and all(result is None for result in results):  # every cell refused: the first one's line
            first = live[0]
            raise InputError("exact", self.pairs[first].attack.describe(), str(costly[first]))
        return Grid(self.game, self.pairs, tuple(results), seed, self.reach, tuple(costly))


def plan_grid(roster: Roster, targets: Roster | None = None, *, attackers: Sequence[str] | None = None,
              target_names: Sequence[str] | None = None, settings: Sequence[str | tuple[str, Any]] = (),
              distance: int | None = None, together: bool = False, assault: bool | str = False) -> Plan:
    """Every weapon of the roster's units (or `attackers`) against every target, ready to run.

    Targets come from `targets` (another roster of the same game) or the roster itself; `settings` are `--set`
    values ("NAME=VALUE" text, or (field, value)) applied to every attack that has the field; `distance` (squares)
    keeps only the weapons that reach it (games with ranges); `together` adds each attacker's weapons fired as one
    attack (`TOGETHER`, where it can); `assault` makes each cell an attacker's engagement of a target (both sides
    fight: the game's `engages`, or the one named, "assault" or "combat", which must be the game's)."""
    targets = targets if targets is not None else roster
    require(targets.game is roster.game, "against", targets.source,
            f"holds {targets.game.name} units, not {roster.game.name}")
    reach = in_range(roster.game, roster.select(attackers, "attackers"), distance)
    pairs = matchups(roster.game, reach.units, targets.select(target_names, "targets"), together,
                     (roster.source, targets.source), assault)
    if not any(pair.attack is not None for pair in pairs):
        whys = "; ".join(dict.fromkeys(why for pair in pairs if (why := apart_why(roster.game, pair))))
        raise InputError("file", roster.source, (roster.game.engages_none + (f": {whys}" if whys else "")) if assault
                         else "no weapon here can attack these targets")
    chosen = read_settings(settings, [pair.attack for pair in pairs])
    adjust = adjuster(chosen, roster.game)
    pairs = [adjusted(pair, adjust, roster.game, chosen) if pair.attack else pair for pair in pairs]
    return Plan(roster.game, tuple(pairs), reach)


def run_grid(roster: Roster, targets: Roster | None = None, *, attackers: Sequence[str] | None = None,
             target_names: Sequence[str] | None = None, settings: Sequence[str | tuple[str, Any]] = (),
             distance: int | None = None, together: bool = False, assault: bool = False,
             options: RunOptions | None = None,
             scheduler: str | None = None, progress: engine.Progress | None = None, **run_settings: Any) -> Grid:
    """Run every weapon of the roster's units (or `attackers`) against every target (see
    `plan_grid`); `options` (or its fields as keywords: `trials`, `seed`, `method`, ...) say
    how every cell runs (`RunOptions`)."""
    options = RunOptions.of(options, **run_settings)
    plan = plan_grid(roster, targets, attackers=attackers, target_names=target_names, settings=settings,
                     distance=distance, together=together, assault=assault)
    return plan.run(options=options, scheduler=scheduler, progress=progress)
