"""Many attacks at once: grids, sweeps and comparisons.

Each cell (one attack) draws from its own random stream, derived from the seed and the
cell's identity (the attack's full description), so adding a row never changes another
row's numbers, and cells give the same answers run in series, on threads, or on a Dask
cluster. The game-free parts live here; the command line builds the attacks.
"""

from __future__ import annotations

import hashlib
import math
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from . import engine
from .distribution import Distribution
from .errors import InputError, require

MAX_CELLS = 10_000
DASK_TIMEOUT = "10s"  # how long to wait for a scheduler to answer


def cell_identity(attack: Any) -> str:
    """The text that names a cell: the attack's type and every field (its repr)."""
    return f"{type(attack).__module__}.{repr(attack)}"


def cell_seed(seed: int, attack: Any) -> int:
    """The seed of one cell: a hash of the study's seed and the cell's identity."""
    digest = hashlib.sha256(cell_identity(attack).encode()).digest()
    words = np.frombuffer(digest, dtype=np.uint32)
    state = np.random.SeedSequence([seed, *words.tolist()]).generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def run_cell(attack: Any, seed: int | None, trials: int, method: str, precision: float | None) -> engine.Result:
    """Run one cell on one thread, from its own stream (the unit of work a worker gets)."""
    cell = None if seed is None else cell_seed(seed, attack)
    return engine.run(attack, trials, cell, method, precision, threads=1)


def run_cells(
    attacks: Sequence[Any],
    *,
    trials: int = 100_000,
    seed: int | None = None,
    method: str = "monte-carlo",
    precision: float | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> tuple[list[engine.Result], int | None]:
    """Run every cell; return the results in order and the seed used.

    Cells run on `workers` local threads (default: every core), or on the Dask cluster at
    `scheduler`. Exact cells always run in process.
    """
    require(len(attacks) <= MAX_CELLS, "cells", len(attacks), f"expected at most {MAX_CELLS} cells")
    engine.check_trials(trials)
    workers = engine.check_threads(workers)
    if method != "exact" and seed is None:
        seed = engine.fresh_seed()
    if method == "exact":
        seed = None
    arguments = [(attack, seed, trials, method, precision) for attack in attacks]
    if scheduler and method != "exact":
        return _run_on_dask(scheduler, arguments), seed
    return parallel_map(lambda args: run_cell(*args), arguments, workers), seed


def _run_on_dask(address: str, arguments: list[tuple]) -> list[engine.Result]:
    try:
        from distributed import Client
    except ImportError:
        raise InputError("scheduler", address, "Dask is not installed: pip install 'oddscalc[dask]'") from None
    try:
        client = Client(address, timeout=DASK_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError("scheduler", address, f"no Dask scheduler answered there ({error})") from None
    with client:
        futures = client.map(run_cell, *zip(*arguments), pure=False)
        return client.gather(futures)


# --- values to vary -----------------------------------------------------------------

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+))?\s*$")


def parse_values(text: str, name: str = "vary") -> list[str]:
    """Read `A..B` (whole numbers, inclusive; `A..B:S` in steps of S) or a list `a,b,c`."""
    match = _RANGE.match(text)
    if match:
        start, stop, step = int(match.group(1)), int(match.group(2)), int(match.group(3) or 1)
        require(step >= 1 and start <= stop, name, text, "expected a range low..high (like 1..18 or 2..12:2)")
        values = [str(v) for v in range(start, stop + 1, step)]
        require(len(values) <= MAX_CELLS, name, text, f"expected at most {MAX_CELLS} values")
        return values
    if ".." in text:
        raise InputError(name, text, "expected a range of whole numbers like 1..18 (or a list like 2,4,6)")
    values = [value.strip() for value in text.split(",")]
    require(all(values), name, text, "expected a range like 1..18 or a list like 2,4,6")
    return values


# --- statistics and goals -----------------------------------------------------------

_STAT = re.compile(r"^(?:(?P<outcome>[a-z_]+)\.)?(?P<stat>mean|sd|median|p10|p90|at_least_\d+|at_most_\d+|"
                   r"exactly_\d+)$")
_GOAL = re.compile(r"^\s*(?P<stat>[a-z_.0-9]+)\s*(?P<op>>=|<=)\s*(?P<target>-?[0-9.]+(?:e-?\d+)?)\s*$")
STAT_HELP = "mean, sd, median, p10, p90, at_least_K, at_most_K or exactly_K, optionally OUTCOME.STAT"


@dataclass(frozen=True)
class Statistic:
    """A number read off one outcome's distribution: `mean`, `at_least_3`, `broken.at_least_1`..."""

    outcome: str | None
    name: str

    @classmethod
    def parse(cls, text: str, option: str = "stat") -> Statistic:
        match = _STAT.match(text.strip())
        if not match:
            raise InputError(option, text, f"expected {STAT_HELP}")
        return cls(match.group("outcome"), match.group("stat"))

    def __str__(self) -> str:
        return f"{self.outcome}.{self.name}" if self.outcome else self.name

    def label(self, main: str) -> str:
        outcome = self.outcome or main
        kind, _, k = self.name.rpartition("_")
        if kind == "at_least":
            return f"P({outcome} ≥ {k})"
        if kind == "at_most":
            return f"P({outcome} ≤ {k})"
        if kind == "exactly":
            return f"P({outcome} = {k})"
        return f"{self.name} {outcome}"

    def value(self, result: engine.Result) -> tuple[float, float]:
        """The statistic and its standard error (0 when exact)."""
        outcome = self.outcome or result.main
        if outcome not in result.outcomes:
            raise InputError("goal", str(self), f"the query has no outcome {outcome}; it has {', '.join(result.outcomes)}")
        dist = result[outcome]
        kind, _, k = self.name.rpartition("_")
        if kind in ("at_least", "at_most", "exactly"):
            k = int(k)
            p = {"at_least": dist.at_least, "at_most": dist.at_most, "exactly": dist.probability}[kind](k)
            return p, dist.stderr(p)
        if self.name == "mean":
            return dist.mean, dist.mean_stderr
        if self.name == "sd":
            return dist.sd, 0.0
        q = {"median": 0.5, "p10": 0.1, "p90": 0.9}[self.name]
        return float(dist.quantile(q)), 0.0


@dataclass(frozen=True)
class Goal:
    """`STAT>=P` or `STAT<=P`: the condition a swept value must reach."""

    statistic: Statistic
    at_least: bool
    target: float

    @classmethod
    def parse(cls, text: str) -> Goal:
        match = _GOAL.match(text)
        if not match:
            raise InputError("goal", text, f"expected STAT>=P or STAT<=P, with STAT one of {STAT_HELP}")
        try:
            target = float(match.group("target"))
        except ValueError:
            raise InputError("goal", text, "expected a number after >= or <=") from None
        return cls(Statistic.parse(match.group("stat"), "goal"), match.group("op") == ">=", target)

    def __str__(self) -> str:
        return f"{self.statistic}{'>=' if self.at_least else '<='}{self.target:g}"

    def reached(self, value: float) -> bool:
        return value >= self.target if self.at_least else value <= self.target


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
    if not first.exact:
        variance += float(x @ below_y**2 - p**2) / first.trials
    if not second.exact:
        variance += float(y @ above_x**2 - p**2) / second.trials
    return p, math.sqrt(max(variance, 0.0))


def summary_row(result: engine.Result, outcome: str, at_least: Iterable[int] = ()) -> dict[str, Any]:
    """The statistics of one outcome as a flat row (for tidy tables)."""
    dist = result[outcome]
    row: dict[str, Any] = {
        "outcome": outcome,
        "mean": dist.mean,
        "mean_stderr": dist.mean_stderr,
        "sd": dist.sd,
        "median": dist.median,
        "p10": dist.quantile(0.1),
        "p90": dist.quantile(0.9),
    }
    for k in at_least:
        row[f"at_least_{k}"] = dist.at_least(k)
        row[f"at_least_{k}_stderr"] = dist.at_least_stderr(k)
    return row


def seek(values: Sequence[Any], results: Sequence[engine.Result], goal: Goal) -> tuple[int | None, int]:
    """Index of the first value reaching the goal (None if none does), and of the best one."""
    scores = [goal.statistic.value(result)[0] for result in results]
    reached = next((i for i, score in enumerate(scores) if goal.reached(score)), None)
    best = int(np.argmax(scores) if goal.at_least else np.argmin(scores))
    return reached, best


def parallel_map(function: Callable[[Any], Any], items: Sequence[Any], workers: int | None = None) -> list[Any]:
    """Map over items on local threads (numpy releases the GIL)."""
    workers = engine.check_threads(workers)
    if workers <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, items))


# --- grids of matchups from profiles -------------------------------------------------


def setting(text: str) -> tuple[str, Any]:
    """Read `NAME=VALUE` for `--set`: true/false, none, whole numbers, or text."""
    name, equals, value = text.partition("=")
    require(bool(equals) and bool(name.strip()), "set", text, "expected NAME=VALUE, like crossfire=true")
    value = value.strip()
    lowered = value.lower()
    if lowered in ("true", "false"):
        return name.strip().replace("-", "_"), lowered == "true"
    if lowered == "none":
        return name.strip().replace("-", "_"), None
    try:
        return name.strip().replace("-", "_"), int(value.removesuffix("+"))
    except ValueError:
        return name.strip().replace("-", "_"), value


def adjuster(settings: Sequence[tuple[str, Any]]) -> Callable[[Any], Any]:
    """A function that applies `--set` values to the attacks that have those fields."""
    import dataclasses

    def adjust(attack: Any) -> Any:
        names = {f.name for f in dataclasses.fields(attack)}
        changes = {name: value for name, value in settings if name in names}
        return dataclasses.replace(attack, **changes) if changes else attack

    return adjust


def check_settings(settings: Sequence[tuple[str, Any]], attacks: Sequence[Any]) -> None:
    """Refuse a `--set` name that no attack of the grid has."""
    import dataclasses

    names = {f.name for attack in attacks if attack is not None for f in dataclasses.fields(attack)}
    for name, value in settings:
        require(name in names, "set", f"{name}={value}",
                f"no attack in this grid has {name}; they have {', '.join(sorted(names))}")


def grid_rows(game: str, pairs: Sequence[Any], results: Sequence[engine.Result | None], at_least: Sequence[int],
              all_outcomes: bool = False) -> list[dict[str, Any]]:
    """One tidy row per matchup and outcome: statistics, P(kill the target unit), per 100 points."""
    from .profiles import game_module

    module = game_module(game)
    rows = []
    for pair, result in zip(pairs, results):
        base = {"attacker": pair.attacker.name, "weapon": pair.weapon.name, "target": pair.target.name}
        if result is None:
            rows.append({**base, "outcome": module.MAIN, "mean": None})
            continue
        for outcome in result.outcomes if all_outcomes else (result.main,):
            row = {**base, **summary_row(result, outcome, at_least)}
            if outcome == result.main:
                dist = result[outcome]
                p_kill = dist.at_least(module.kill_threshold(pair.target, pair.attack))
                row["p_kill"], row["p_kill_stderr"] = p_kill, dist.stderr(p_kill)
                points = pair.attacker.points
                row["points"] = points
                if points:
                    row["per_100_points"] = dist.mean * 100 / points
                    row["per_100_points_stderr"] = dist.mean_stderr * 100 / points
            rows.append(row)
    return rows


def rank(rows: list[dict[str, Any]], column: str) -> list[dict[str, Any]]:
    """Sort rows by a column, highest first (rows without it last), and number them."""
    numeric = {key for row in rows for key, value in row.items()
               if isinstance(value, (int, float)) and not key.endswith("_stderr")}
    require(column in numeric, "sort", column, f"expected a column to rank by: {', '.join(sorted(numeric))}")
    present = [row for row in rows if isinstance(row.get(column), (int, float))]
    missing = [row for row in rows if not isinstance(row.get(column), (int, float))]
    ordered = sorted(present, key=lambda row: -row[column]) + missing
    return [{"rank": i, **row} for i, row in enumerate(ordered, 1)]


@dataclass(frozen=True)
class Grid:
    """Every weapon of some units against some targets, run: the matchups and their results."""

    game: str
    pairs: tuple[Any, ...]  # profiles.Matchup, in order
    results: tuple[engine.Result | None, ...]  # None where the weapon cannot attack the target
    seed: int | None

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
        """The ranked tidy rows (see `grid_rows`)."""
        rows = grid_rows(self.game, self.pairs, self.results, at_least, all_outcomes)
        return rank(rows, sort or self.default_sort())

    def frame(self, **options: Any):
        """The ranked rows as a pandas DataFrame."""
        from .tables import frame

        return frame(self.rows(**options))

    def matrix(self, statistic: Statistic | None = None) -> tuple[np.ndarray, list[str], list[str], str]:
        """A statistic of the main outcome per (attacker: weapon, target): values, rows, columns, label."""
        statistic = statistic or Statistic(None, "mean")
        rows = list(dict.fromkeys(f"{p.attacker.name}: {p.weapon.name}" for p in self.pairs))
        columns = list(dict.fromkeys(p.target.name for p in self.pairs))
        values = np.full((len(rows), len(columns)), np.nan)
        for pair, result in zip(self.pairs, self.results):
            if result is not None:
                values[rows.index(f"{pair.attacker.name}: {pair.weapon.name}"),
                       columns.index(pair.target.name)] = statistic.value(result)[0]
        main = next(r for r in self.results if r is not None).main
        return values, rows, columns, statistic.label(main)


def run_grid(roster: Any, targets: Any = None, *, attackers: Sequence[str] | None = None,
             target_names: Sequence[str] | None = None, settings: Sequence[tuple[str, Any]] = (),
             trials: int = 100_000, seed: int | None = None, method: str = "monte-carlo",
             precision: float | None = None, workers: int | None = None, scheduler: str | None = None) -> Grid:
    """Run every weapon of the roster's units (or `attackers`) against every target.

    Targets come from `targets` (another roster of the same game) or the roster itself;
    `settings` are `--set` values applied to every attack that has the field.
    """
    from .profiles import matchups

    targets = targets if targets is not None else roster
    pairs = matchups(roster.game, roster.select(attackers, "attackers"), targets.select(target_names, "targets"))
    require(any(pair.attack is not None for pair in pairs), "file", roster.source,
            "no weapon here can attack these targets")
    check_settings(settings, [pair.attack for pair in pairs])
    adjust = adjuster(settings)
    pairs = [type(pair)(pair.attacker, pair.weapon, pair.target, adjust(pair.attack) if pair.attack else None)
             for pair in pairs]
    live = [i for i, pair in enumerate(pairs) if pair.attack is not None]
    finished, seed = run_cells([pairs[i].attack for i in live], trials=trials, seed=seed, method=method,
                               precision=precision, workers=workers, scheduler=scheduler)
    results: list[engine.Result | None] = [None] * len(pairs)
    for i, result in zip(live, finished):
        results[i] = result
    return Grid(roster.game, tuple(pairs), tuple(results), seed)
