"""Studies of many attacks: sweeps of an attack's options, and comparisons of attacks.

`sweep` varies an attack's fields (`dataclasses.replace`) and runs every variant as a
cell (`cells.run_cells`), optionally seeking the smallest or largest value that reaches
a goal; `compare` runs several attacks, even of different games, and gives P(A > B) with
its standard error. Both return values that tables, plots and notebooks use directly.
Grids of rosters are in `grid.py`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from typing import Any, Mapping, Sequence

import numpy as np

from ..core import engine
from ..output import style
from ..core.attack import Attack, field_named, text
from .cells import MAX_CELLS, run_cells
from ..core.distribution import Distribution
from ..errors import InputError, require
from .goals import STAT_HELP as STAT_HELP  # what a study reads, as the studies' importers know it
from .goals import Goal as Goal
from .goals import Statistic as Statistic
from .goals import run_details as run_details
from .goals import summary_row as summary_row
from ..core.options import RunOptions
from ..core.record import record

# --- values to vary -----------------------------------------------------------------

_RANGE = re.compile(r"^\s*(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})\s*(?::\s*([0-9]{1,18}))?\s*$")


def parse_values(text: str, name: str = "vary") -> list[str]:
    """Read `A..B` (whole numbers, inclusive; `A..B:S` in steps of S) or a list `a,b,c`."""
    match = _RANGE.match(text)
    if match:
        start, stop, step = int(match.group(1)), int(match.group(2)), int(match.group(3) or 1)
        require(step >= 1 and start <= stop, name, text, "expected a range low..high (like 1..18 or 2..12:2)")
        require((stop - start) // step + 1 <= MAX_CELLS, name, text, f"expected at most {MAX_CELLS:,} values")
        return [str(v) for v in range(start, stop + 1, step)]  # counted before it is built
    if ".." in text:
        raise InputError(name, text, "expected a range of whole numbers like 1..18 (or a list like 2,4,6)")
    require(text.count(",") < MAX_CELLS, name, f"{text[:40]}…" if len(text) > 40 else text,
            f"expected at most {MAX_CELLS:,} values")
    values = [value.strip() for value in text.split(",")]
    require(all(values), name, text, "expected a range like 1..18 or a list like 2,4,6")
    return values


def parse_at_least(text: str) -> tuple[int, ...]:
    """Read the K of the P(≥ K) columns: whole numbers ≥ 0 separated by commas (`1,2,3`)."""
    try:
        ks = tuple(int(k) for k in text.split(",") if k.strip())
    except ValueError:
        raise InputError("at_least", text, "expected whole numbers separated by commas, like 1,2,3") from None
    require(all(k >= 0 for k in ks), "at_least", text, "expected whole numbers ≥ 0")
    return ks


# --- sweeps --------------------------------------------------------------------------


@record
class Sweep:
    """An attack run with one or two of its fields varied: every cell's values and result."""

    names: tuple[str, ...]  # the varied fields
    cells: tuple[tuple[Any, ...], ...]  # each cell's values, in the order of `names`
    attacks: tuple[Any, ...]
    results: tuple[engine.Result, ...]
    seed: int | None
    goal: Goal | None = None
    seek: str = "smallest"

    def rows(self, at_least: Sequence[int] = (1,), outcomes: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """One tidy row per cell and outcome (every outcome unless `outcomes` names some)."""
        rows = []
        for cell, result in zip(self.cells, self.results):
            values = {name: plain(value) for name, value in zip(self.names, cell)}
            for outcome in outcomes or result.outcomes:
                row = {**values, **summary_row(result, outcome, at_least), **run_details(result)}
                goal = self.goal.statistic if self.goal is not None else None
                shown = goal is not None and (goal.name in row or (outcome in result.events and goal.name in (
                    "mean", "at_least_1", "exactly_1")))  # a column that already holds it (probability for an event)
                if goal is not None and not shown and outcome == (goal.outcome or result.main):
                    row[str(goal)], row[f"{goal}_stderr"] = goal.value(result)
                rows.append(row)
        return rows

    @property
    def goal_needed(self) -> Goal:
        """The study's goal (refused when it has none)."""
        if self.goal is None:
            raise InputError("goal", None, "is needed to score the cells")
        return self.goal

    def scores(self) -> list[float]:
        return [self.goal_needed.statistic.value(result)[0] for result in self.results]

    @property
    def reached(self) -> int | None:
        """The index of the smallest (or largest, by `seek`) value that reaches the goal; None if none does."""
        goal = self.goal
        if goal is None:
            return None
        hits = [i for i, score in enumerate(self.scores()) if goal.reached(score)]
        if not hits:
            return None
        return hits[0] if self.seek == "smallest" else hits[-1]

    def goal_report(self, values: str = "") -> tuple[str | None, str | None]:
        """Say what the goal found: (a note when it is reached, the one-line error when it is not)."""
        goal = self.goal
        if goal is None:
            return None, None
        name, label = self.names[0].replace("_", "-"), goal.statistic.label(self.results[0])
        index = self.reached
        found = self.best if index is None else index
        value, error = goal.statistic.value(self.results[found])
        shown = f"{label} = {goal.shown(value, error, self.results[found])}"
        wanted = goal.words(self.results[0])
        if index is None:
            return None, (f"error: --goal {goal}: no {name} in {values or 'the values'} reaches {wanted}; the "
                          f"best is {name} = {text(self.cells[found][0])} with {shown}")
        return f"goal {wanted}: the {self.seek} {name} is {text(self.cells[found][0])} ({shown})", None

    @property
    def best(self) -> int:
        """The index of the cell whose score comes nearest the goal's side."""
        scores = self.scores()
        return int(np.argmax(scores) if self.goal_needed.at_least else np.argmin(scores))

    def goal_json(self) -> dict[str, Any]:
        """What the goal found, as JSON carries it (nothing without a goal)."""
        if self.goal is None:
            return {}
        reached = self.reached
        return {"goal": {"goal": str(self.goal), "option": self.names[0].replace("_", "-"), "seek": self.seek,
                         "reached": reached is not None,
                         "value": None if reached is None else plain(self.cells[reached][0])}}

    def labels(self) -> list[str]:
        """Each cell's values in words: `bp=6`, `shots=4, crossfire=true`."""
        return [", ".join(f"{name}={text(value)}" for name, value in zip(self.names, cell)) for cell in self.cells]

    def ranges(self) -> str:
        """The varied options and their first and last values: `bp from 1 to 18`."""
        return "; ".join(f"{name.replace('_', '-')} from {text(self.cells[0][i])} to {text(self.cells[-1][i])}"
                         for i, name in enumerate(self.names))


def read_vary(attack: type, specs: Sequence[str]) -> dict[str, list[Any]]:
    """Read `NAME=A..B` or `NAME=a,b,c` (the command line's --vary) for one or two options of
    an attack type: each value read as the option reads it (`Attack.read`: "4+", "true")."""
    require(1 <= len(specs) <= 2, "vary", len(specs), "vary one or two options (--vary NAME=A..B)")
    values: dict[str, list[Any]] = {}
    for spec in specs:
        name, equals, texts = spec.partition("=")
        require(bool(equals and name.strip()), "vary", spec, "expected NAME=A..B or NAME=a,b,c (like bp=1..18)")
        try:
            field = field_named(attack, name).name
            require(field not in values, "vary", spec, f"--{field.replace('_', '-')} is varied twice; give it one "
                                                       "range or list")
            try:
                listed = parse_values(texts.strip(), "vary")
            except InputError as error:  # echoed whole, as typed: bp=1..100000000000
                raise InputError("vary", spec, error.allowed) from None
            values[field] = [_read(attack, field, one) for one in listed]
        except InputError as error:
            raise InputError("vary", error.value if error.name == "vary" else spec, error.allowed) from None
    return values


def _read(attack: type[Attack], field: str, text: str) -> Any:
    try:
        return attack.read(field, text)
    except InputError as error:
        raise InputError("vary", f"{field.replace('_', '-')}={text}", error.allowed) from None


def plain(value: Any) -> Any:
    """A varied value as a row carries it: a number or a switch as itself, a choice as its word."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return text(value)


def sweep(attack: Any, vary: Mapping[str, Sequence[Any]], *, goal: Goal | None = None, seek: str = "smallest",
          options: RunOptions | None = None, scheduler: str | None = None, progress: engine.Progress | None = None,
          **settings: Any) -> Sweep:
    """Run `attack` with each combination of the `vary` values of its fields.

    `vary` maps one or two fields (or their options, `to-hit`) to their values
    (`{"bp": range(1, 19)}`; text is read as the option reads it: `{"to_hit": ["3+", "4+"]}`).
    With a `goal` (one field only), the sweep also finds the smallest value that reaches
    it, or the largest with `seek="largest"`. `options` (or its fields as keywords:
    `trials`, `seed`, `method`, ...) say how every cell runs (`RunOptions`). A value the
    attack refuses is named as `vary NAME=VALUE`.
    """
    options = RunOptions.of(options, **settings)
    require(1 <= len(vary) <= 2, "vary", len(vary), "vary one or two options")
    read: dict[str, tuple[Any, ...]] = {}
    for name, values in vary.items():
        try:
            field = field_named(type(attack), name).name
        except InputError as error:
            raise InputError("vary", name, error.allowed) from None
        read[field] = tuple(_read(type(attack), field, v) if isinstance(v, str) else v for v in values)
        require(len(read[field]) >= 1, "vary", name, "expected at least one value")
    require(goal is None or len(vary) == 1, "goal", goal, "a goal needs exactly one varied option")
    require(seek in ("smallest", "largest"), "seek", seek, "expected smallest or largest")
    size = math.prod(len(values) for values in read.values())
    require(size <= MAX_CELLS, "vary", f"{size:,} cells", f"expected at most {MAX_CELLS:,} cells; vary fewer values")
    if goal is not None:
        goal.statistic.check(attack.outcomes, "goal")
    names = tuple(read)
    cells = tuple(itertools.product(*read.values()))
    attacks = []
    for cell in cells:
        try:
            attacks.append(dataclasses.replace(attack, **dict(zip(names, cell))))
        except InputError as error:  # a varied value the attack refuses (not one the query set)
            if error.name not in names:
                raise
            value = text(cell[names.index(error.name)])
            raise InputError("vary", f"{error.name.replace('_', '-')}={value}", error.allowed) from None
    results, seed = run_cells(attacks, options=options, scheduler=scheduler, progress=progress)
    return Sweep(names, cells, tuple(attacks), tuple(results), seed, goal, seek)


# --- comparisons --------------------------------------------------------------------


def probability_greater(first: Distribution, second: Distribution) -> tuple[float, float]:
    """P(X > Y) for independent X ~ first, Y ~ second, and its standard error.

    The standard error is that of the two-sample U-statistic (Mann–Whitney): the
    variance of P(Y < X | X) over X's trials plus that of P(X > Y | Y) over Y's.
    """
    size = max(len(first.pmf), len(second.pmf)) + 1
    x = np.pad(first.pmf, (0, size - len(first.pmf)))
    y = np.pad(second.pmf, (0, size - len(second.pmf)))
    below_y = np.concatenate([[0.0], np.cumsum(y)[:-1]])  # P(Y < k)
    above_x = 1 - np.cumsum(x)  # P(X > k)
    p = float(x @ below_y)
    variance = 0.0
    if first.trials is not None:
        variance += float(x @ below_y**2 - p**2) / first.trials
    if second.trials is not None:
        variance += float(y @ above_x**2 - p**2) / second.trials
    return p, math.sqrt(max(variance, 0.0))


@record
class Comparison:
    """Several attacks run side by side, each compared on one of its outcomes (the main one by default)."""

    attacks: tuple[Any, ...]
    results: tuple[engine.Result, ...]
    seed: int | None
    outcomes: tuple[str, ...]  # the outcome compared, per attack

    def distribution(self, i: int) -> Distribution:
        return self.results[i][self.outcomes[i]]

    def greater(self, i: int, j: int) -> tuple[float, float]:
        """P(attack i's outcome > attack j's) and its standard error."""
        return probability_greater(self.distribution(i), self.distribution(j))

    def labels(self) -> list[str]:
        """Each attack in words, numbered, with the outcome compared: `#1: Roll 2d6 (sum)`."""
        return [f"#{i}: {attack.describe()} ({name})" for i, (attack, name) in enumerate(zip(self.attacks,
                                                                                              self.outcomes), 1)]

    def odds(self) -> str:
        """P(#i > #i+1) for each attack and the next: `P(#1 > #2) = 41.67%`."""
        return "; ".join(f"P(#{i + 1} > #{i + 2}) = {style.percent(self.greater(i, i + 1)[0])}"
                         for i in range(len(self.attacks) - 1))

    def rows(self, at_least: Sequence[int] = (1,)) -> list[dict[str, Any]]:
        """One row per attack: its query, its outcome's statistics, and P(> #j) for every other."""
        rows = []
        for i, (attack, result) in enumerate(zip(self.attacks, self.results)):
            query = attack.query().removeprefix("oddscalc ")
            row = {"#": i + 1, "query": query, **summary_row(result, self.outcomes[i], at_least),
                   **run_details(result)}
            for j in range(len(self.attacks)):
                if j != i:
                    row[f"P(> #{j + 1})"], row[f"P(> #{j + 1})_stderr"] = self.greater(i, j)
            rows.append(row)
        return rows


def compare(attacks: Sequence[Any], *, outcome: str | None = None, options: RunOptions | None = None,
            scheduler: str | None = None, progress: engine.Progress | None = None, **settings: Any) -> Comparison:
    """Run the attacks and compare their main outcomes (or `outcome`, which each must have);
    `options` (or its fields as keywords) say how (`RunOptions`)."""
    options = RunOptions.of(options, **settings)
    require(len(attacks) >= 2, "attacks", len(attacks), "expected at least two attacks to compare")
    for attack in attacks:
        require(outcome is None or outcome in attack.outcomes, "outcome", outcome,
                f"{attack.describe()} has the outcomes {', '.join(attack.outcomes)}")
    chosen = [outcome or attack.outcomes[0] for attack in attacks]
    kinds = {name in getattr(attack, "events", ()) for attack, name in zip(attacks, chosen)}
    require(len(kinds) == 1, "outcome", outcome or "the main outcomes",
            "compares a yes/no outcome with a count: " + "; ".join(
                f"#{i} {name} ({'yes/no' if name in getattr(attack, 'events', ()) else 'a count'})"
                for i, (attack, name) in enumerate(zip(attacks, chosen), 1))
            + "; give --outcome to compare outcomes of one kind")
    results, seed = run_cells(attacks, options=options, scheduler=scheduler, progress=progress)
    outcomes = tuple(outcome or result.main for result in results)
    return Comparison(tuple(attacks), tuple(results), seed, outcomes)
