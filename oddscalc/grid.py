"""Grids of rosters: every weapon of some units against some target units, ranked.

Each cell is one attack, built by the game's `matchup` from the roster's fields; its
`query` is the single command line that computes the same cell. Cells run through
`cells.run_cells`, so each has its own random stream.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from . import engine
from .cells import MAX_CELLS, run_cells
from .errors import InputError, did_you_mean, require
from .roster import Game, Roster, Unit, Weapon
from .studies import STAT_HELP, Statistic, run_details, summary_row


@dataclass(frozen=True)
class Matchup:
    """A weapon of an attacking unit against a target unit, and the attack it makes."""

    attacker: Unit
    weapon: Weapon
    target: Unit
    attack: Any  # None when the weapon cannot attack that target


TOGETHER = "all weapons"  # the weapon name of a unit's weapons fired together


def matchups(game: Game, attackers: Iterable[Unit], targets: Iterable[Unit], together: bool = False) -> list[Matchup]:
    """Every weapon of every attacker against every target, in order; with `together`, also
    each attacker's weapons fired as one attack (where the game can combine them)."""
    attackers, targets = tuple(attackers), tuple(targets)
    require(not together or game.together is not None, "together", "on", f"{game.title} rosters fire each "
                                                                       "weapon on its own")
    size = sum(len(attacker.weapons) + together for attacker in attackers) * len(targets)
    require(size <= MAX_CELLS, "cells", f"{size:,}", f"expected at most {MAX_CELLS:,} cells: choose fewer "
                                                     "--attackers or --targets")
    pairs = []
    for attacker in attackers:
        pairs += [Matchup(attacker, weapon, target, game.matchup(attacker, weapon, target))
                  for weapon in attacker.weapons for target in targets]
        combined = [(target, game.together(attacker, target)) for target in targets] if together else []
        pairs += [Matchup(attacker, Weapon(TOGETHER, ()), target, attack) for target, attack in combined if attack]
    return pairs


@dataclass(frozen=True)
class InRange:
    """The attacking units with only their weapons that reach a distance, and the weapons
    ("unit: weapon") that do not, or that have no range (kept: nothing says they cannot fire)."""

    units: tuple[Unit, ...]
    out_of_range: tuple[str, ...] = ()
    no_range: tuple[str, ...] = ()


def in_range(game: Game, units: Iterable[Unit], distance: int | None) -> InRange:
    """Keep the weapons that reach `distance` squares (all of them when it is None)."""
    units = tuple(units)
    if distance is None:
        return InRange(units)
    require(game.reaches is not None, "distance", distance,
            f"{game.title} rosters have no weapon ranges; --distance is for Dust Tactics rosters")
    require(isinstance(distance, int) and 0 <= distance <= 999, "distance", distance,
            "expected the distance in squares, 0 to 999")
    kept, beyond, unknown = [], [], []
    for unit in units:
        weapons = []
        for weapon in unit.weapons:
            reach, label = game.reaches(weapon, distance), f"{unit.name}: {weapon.name}"
            if reach is False:
                beyond.append(label)
                continue
            if reach is None:
                unknown.append(label)
            weapons.append(weapon)
        if weapons:
            kept.append(dataclasses.replace(unit, weapons=tuple(weapons)))
    require(kept, "distance", distance, f"no weapon reaches {distance} squares")
    return InRange(tuple(kept), tuple(beyond), tuple(unknown))


def adjuster(settings: Sequence[tuple[str, Any]], game: Game | None = None) -> Callable[[Any, Unit | None], Any]:
    """A function that applies `--set` values to the attacks that have those fields; an attack
    field the game fills from the attacking unit (`Game.from_attacker`) and that is still empty
    then takes the unit's value (`--set suppressed=2`: of the attacker's own units)."""

    def adjust(attack: Any, attacker: Unit | None = None) -> Any:
        names = {f.name for f in dataclasses.fields(attack)}
        changes = {name: value for name, value in settings if name in names}
        if changes and attacker is not None and game is not None:
            for setting, field, unit_field in game.from_attacker:
                if setting in changes and field not in changes and getattr(attack, field) is None:
                    changes[field] = attacker[unit_field]
        return dataclasses.replace(attack, **changes) if changes else attack

    return adjust


def check_settings(settings: Sequence[tuple[str, Any]], attacks: Sequence[Any]) -> None:
    """Refuse a `--set` name that no attack of the grid has."""
    names = {f.name for attack in attacks if attack is not None for f in dataclasses.fields(attack)}
    for name, value in settings:
        require(name in names, "set", f"{name}={value}",
                f"no attack in this grid has {name}{did_you_mean(name, names)}; they have {', '.join(sorted(names))}")


KEY_COLUMNS = ("rank", "attacker", "weapon", "target", "mean", "p_kill", "per_100_points")
LABELS = {"p_kill": "P(kill the target)", "per_100_points": "{main} per 100 points", "points": "points"}


def grid_rows(game: Game, pairs: Sequence[Matchup], results: Sequence[engine.Result | None], at_least: Sequence[int],
              all_outcomes: bool = False) -> list[dict[str, Any]]:
    """One tidy row per matchup that can hurt its target, and outcome: statistics, P(kill the
    target unit), per 100 points, the query."""
    rows = []
    for pair, result in zip(pairs, results):
        base = {"attacker": pair.attacker.name, "weapon": pair.weapon.name, "target": pair.target.name}
        if result is None:
            continue
        for outcome in result.outcomes if all_outcomes else (result.main,):
            row = {**base, **summary_row(result, outcome, at_least)}
            if outcome == result.main:
                dist = result[outcome]
                p_kill = dist.at_least(game.kill_threshold(pair.target, pair.attack))
                row["p_kill"], row["p_kill_stderr"] = p_kill, dist.stderr(p_kill)
                points = pair.attacker.points
                row["points"] = points
                if points:
                    row["per_100_points"] = dist.mean * 100 / points
                    row["per_100_points_stderr"] = dist.mean_stderr * 100 / points
            row.update(run_details(result))
            row["query"] = pair.attack.query()
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

    def order(row: dict[str, Any]) -> tuple:
        value = row.get(column)
        missing = not isinstance(value, (int, float))
        return missing, 0 if missing else -value, row["attacker"].casefold(), row["weapon"].casefold(), \
            row["target"].casefold()

    return [{"rank": i, **row} for i, row in enumerate(sorted(rows, key=order), 1)]


@dataclass(frozen=True)
class Grid:
    """Every weapon of some units against some targets, run: the matchups and their results."""

    game: Game
    pairs: tuple[Matchup, ...]  # in order
    results: tuple[engine.Result | None, ...]  # None where the weapon cannot attack the target
    seed: int | None
    reach: InRange | None = None  # what a distance left out

    @property
    def method(self) -> str:
        return next(r for r in self.results if r is not None).method

    @property
    def trials(self) -> int | None:
        return next(r for r in self.results if r is not None).trials

    def default_sort(self) -> str:
        """Per 100 points when every attacker has points, else the mean."""
        return "per_100_points" if all(pair.attacker.points for pair in self.pairs) else "mean"

    def rows(self, at_least: Sequence[int] = (1,), all_outcomes: bool = False,
             sort: str | None = None) -> list[dict[str, Any]]:
        """The ranked tidy rows (see `grid_rows`) of the matchups that can hurt their target."""
        rows = grid_rows(self.game, self.pairs, self.results, at_least, all_outcomes)
        return rank(rows, sort or self.default_sort())

    def same_streams(self) -> list[list[str]]:
        """Matchups that are the very same attack: sampled, they share one random stream (a cell's
        stream comes from its attack), so they show the very same figures. Groups of labels."""
        if self.method == "exact":
            return []
        groups: dict[Any, list[str]] = {}
        for pair, result in zip(self.pairs, self.results):
            if result is not None:
                groups.setdefault(pair.attack.key(), []).append(
                    f"{pair.attacker.name}: {pair.weapon.name} → {pair.target.name}")
        return [labels for labels in groups.values() if len(labels) > 1]

    def cannot_hurt(self) -> list[dict[str, str]]:
        """The matchups left out of the ranking: weapons that cannot hurt the target."""
        return [{"attacker": p.attacker.name, "weapon": p.weapon.name, "target": p.target.name}
                for p, r in zip(self.pairs, self.results) if r is None]

    def frame(self, **options: Any):
        """The ranked rows as a pandas DataFrame."""
        from .tables import frame

        return frame(self.rows(**options))

    def matrix(self, statistic: Statistic | str | None = None) -> tuple[np.ndarray, list[str], list[str], str]:
        """A statistic per (attacker: weapon, target): values, rows, columns, label.

        The statistic is one of an outcome (`Statistic`, like `mean` or `broken.at_least_1`)
        or a column of the rows (`p_kill`, `per_100_points`).
        """
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


def _adjusted(pair: Matchup, adjust: Callable[[Any, Unit | None], Any], game: Game,
              settings: Sequence[tuple[str, Any]]) -> Matchup:
    """A matchup with the `--set` values applied; a cell that refuses them is named in the error,
    which blames the setting (not a field the game filled from the attacking unit)."""
    try:
        return dataclasses.replace(pair, attack=adjust(pair.attack, pair.attacker))
    except InputError as error:
        filled = {field: setting for setting, field, _ in game.from_attacker}
        name = filled.get(error.name, error.name)
        value = dict(settings).get(name, error.value)
        raise InputError(name, value, f"{pair.attacker.name}: {pair.weapon.name} → {pair.target.name}: "
                                      f"{error.allowed}") from None


def run_grid(roster: Roster, targets: Roster | None = None, *, attackers: Sequence[str] | None = None,
             target_names: Sequence[str] | None = None, settings: Sequence[tuple[str, Any]] = (),
             trials: int = 100_000, seed: engine.Seed = None, method: str = "monte-carlo",
             precision: float | None = None, workers: int | None = None, scheduler: str | None = None,
             progress: engine.Progress | None = None, distance: int | None = None, together: bool = False) -> Grid:
    """Run every weapon of the roster's units (or `attackers`) against every target.

    Targets come from `targets` (another roster of the same game) or the roster itself;
    `settings` are `--set` values (field, value) applied to every attack that has the field;
    `distance` (squares) keeps only the weapons that reach it (games with ranges);
    `together` adds each attacker's weapons fired as one attack (`TOGETHER`, where it can).
    """
    targets = targets if targets is not None else roster
    require(targets.game is roster.game, "against", targets.source,
            f"holds {targets.game.name} units, not {roster.game.name}")
    reach = in_range(roster.game, roster.select(attackers, "attackers"), distance)
    pairs = matchups(roster.game, reach.units, targets.select(target_names, "targets"), together)
    require(any(pair.attack is not None for pair in pairs), "file", roster.source,
            "no weapon here can attack these targets")
    check_settings(settings, [pair.attack for pair in pairs])
    adjust = adjuster(settings, roster.game)
    pairs = [_adjusted(pair, adjust, roster.game, settings) if pair.attack else pair for pair in pairs]
    live = [i for i, pair in enumerate(pairs) if pair.attack is not None]
    finished, seed = run_cells([pairs[i].attack for i in live], trials=trials, seed=seed, method=method,
                               precision=precision, workers=workers, scheduler=scheduler, progress=progress)
    results: list[engine.Result | None] = [None] * len(pairs)
    for i, result in zip(live, finished):
        results[i] = result
    return Grid(roster.game, tuple(pairs), tuple(results), seed, reach)
