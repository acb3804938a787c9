"""A balance study: every entry of a game's army books against the same reference targets, by points.

What the committees that balance these games do: judge each entry of each army book against the same
targets, per point, and look for the outliers. `catalogue_entries` builds every entry of every
catalogue in a folder into a list the way the apps save one and imports it (as the catalogue sweep
does); `study` runs what each entry does to each reference target as cells, each the attack of a query
a player can rerun, and `Balance` gives each entry its figures per 100 points, an index (1: the game's
median per point), its rank within its army and across the game, and the outliers: entries whose index
is more than `far` times, or less than 1/`far` of, the median index of the entries of their kind.

A study keeps each entry it built and each cell it computed in a store (`Store`, JSON lines, under the
catalogue's bytes or the cell's query, with the seed when sampled): stopped and run again, it builds and
computes only what is missing, and gives the same bytes as a run that was never stopped.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections import Counter
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

from .cells import run_cells, study_seed
from ..core.options import every_core
from .processes import in_processes
from ..errors import InputError, require
from ..core.options import Method, RunOptions
from .ranking import Apart, compare, compare_notes, rank
from .releases import releases as releases
from ..lists.roster import Game, Roster, Unit, build
from ..output.style import clean
from ..core.record import record

FAR = 2.0  # an outlier's index is this many times its kind's median index, or this many times less
BATCH = 256  # cells run, then kept in the store, together
Progress = Callable[[int, int], None]


@record
class Entry:
    """One catalogue entry imported as roster units: its army (the catalogue), its name, its units, and how
    many lines of the import's report say what is not modelled."""

    army: str
    name: str
    units: tuple[Unit, ...]
    notes: int = 0

    @property
    def points(self) -> int:
        return sum(unit.points or 0 for unit in self.units)

    def kind(self, game: Game) -> str:
        """What its outliers are judged among: its first unit's kind, as its game names the field (`Game.kind`:
        Epic's `kind`, The 9th Age's `height`); one kind for a game that names none."""
        value = self.units[0][game.kind] if game.kind else None
        return game.name if value is None else str(value)


class Store:
    """What a study computed, by key, in a JSON-lines file (or in memory without one): read when opened, each
    new value appended and flushed at once, so a study stopped at any moment keeps all it finished."""

    def __init__(self, path: Path | None = None) -> None:
        self.path, self.values = path, {}
        if path is None:
            return
        if not path.exists():  # made at the first value kept: a study refused before then leaves no file
            if not (path.parent.is_dir() and os.access(path.parent, os.W_OK)):
                raise InputError("store", str(path), "cannot keep a study there (no folder to write it in)")
            return
        try:
            if not path.is_file() or not os.access(path, os.W_OK):
                raise IsADirectoryError(0, "not a file to append to" if path.is_file() else "not a file")
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise InputError("store", str(path), f"cannot keep a study there ({_why(error)})") from None
        for number, line in enumerate(lines, 1):
            try:
                kept = json.loads(line)
                self.values[kept["key"]] = kept["value"]
            except (ValueError, KeyError, TypeError):
                if number < len(lines):  # only the last line may be cut short (a study stopped while writing)
                    raise InputError("store", str(path), f"line {number} is not a balance study's: expected a "
                                                         "store this command wrote (a new file is made)") from None

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def put_all(self, values: dict[str, Any]) -> None:
        self.values.update(values)
        if self.path is not None and values:
            try:
                with self.path.open("a", encoding="utf-8") as file:
                    file.write("".join(json.dumps({"key": key, "value": value}) + "\n"
                                       for key, value in values.items()))
            except OSError as error:  # (a full disk): what is kept so far stays
                raise InputError("store", str(self.path), f"cannot keep a study there ({_why(error)})") from None


def _why(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)


def army_of(catalogue: str) -> str:
    """A catalogue's file name as its army's: `Orks - Ghazghkull's Waaagh - EA.cat` → `Orks - Ghazghkull's Waaagh`."""
    return Path(catalogue).stem.removesuffix(" - EA").removeprefix("2nd-")


def catalogue_entries(folder: Path, game: Game, store: Store, progress: Progress | None = None
                      ) -> tuple[list[Entry], list[Apart]]:
    """Every root entry of every catalogue of `game` in `folder`, built and imported (each kept in `store`
    under its catalogue's bytes and its name: a study run again does not build it again)."""
    from .. import contract
    from ..lists.battlescribe.sweep import catalogues, study_entries

    require(contract.importer(game.name) is not None, "game", game.name, "has no BattleScribe catalogues")
    paths = catalogues(Path(folder), game.name) if Path(folder).is_dir() else []
    require(bool(paths), "folder", str(folder), f"expected a folder of {game.title} catalogues (.cat), like a "
                                                "checkout of its BSData repository")
    keys = {path: f"catalogue {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}" for path in paths}
    missing = [path for path in paths if store.get(keys[path]) is None]
    done = len(paths) - len(missing)
    for kept, path in zip(in_processes(partial(study_entries, folder=folder), missing, every_core()), missing):
        store.put_all({keys[path]: kept})  # each kept as it comes: a study stopped keeps what was built
        done += 1
        if progress:
            progress(done, len(paths))
    entries: list[Entry] = []
    apart: list[Apart] = []
    for path in paths:
        army = army_of(path.name)
        for name, imported in store.get(keys[path]):
            if "reason" in imported:
                apart.append(Apart(army, name, imported["reason"]))
            else:
                roster = build(imported["data"], f"{path.name}: {name}", game)
                entries.append(Entry(army, name, roster.units, imported["notes"]))
    return entries, apart


# --- the cells ------------------------------------------------------------------------------


def attacks_of(game: Game, unit: Unit, target: Unit) -> list[Any]:
    """What a unit can do to a target: its weapons fired together where the game combines them, else each
    weapon that can hurt it (the study keeps the best); nothing a refused value makes."""
    try:
        together = game.together(unit, target) if game.together is not None else None
        if together is not None:
            return [together]
        return [attack for weapon in unit.weapons if (attack := game.matchup(unit, weapon, target)) is not None]
    except InputError:
        return []


def engagement_of(game: Game, unit: Unit, target: Unit) -> Any:
    """The unit's engagement of the target (an Epic assault, a 9th Age charge), or None."""
    if game.assault is None:
        return None
    try:
        return game.assault(unit, target)
    except InputError:
        return None


def cell_key(attack: Any, method: str, seed: int | None) -> str:
    """A cell's key in the store: its query's key, and its seed when sampled."""
    return f"cell {attack.key()} {method}" + ("" if seed is None else f" seed {seed}")


def figures(game: Game, target: Unit, attack: Any, result: Any) -> dict[str, float]:
    """A cell as the study reads it: the mean of the game's main outcome, the share of the target that is
    on average destroyed (the mean over what wipes it out), P(kill or break) (the target formation broken
    where the attack says, else wiped out); and P(win) of an engagement; each with its standard error (0 exact)."""
    if "win" in result.outcomes:
        win = result["win"].at_least(1)
        return {"win": win, "win_stderr": result["win"].stderr(win)}
    main, whole = result[game.main], game.kill_threshold(target, attack)
    event = result["broken"] if "broken" in result.outcomes else main
    broken = event.at_least(1 if event is not main else whole)
    return {"mean": main.mean, "mean_stderr": main.mean_stderr, "share": min(main.mean / whole, 1.0), "p": broken,
            "p_stderr": event.stderr(broken)}


def compute(cells: list[tuple[Any, Unit]], game: Game, store: Store, options: RunOptions,
            scheduler: Any = None, progress: Progress | None = None) -> dict[str, dict[str, float]]:
    """Every cell's figures by its key: those in the store as kept, the others run (in batches, each kept
    as it finishes) with the study's one seed, so that every cell draws the same stream however it is run."""
    seed = None if options.method == Method.EXACT else study_seed(options.seed)
    method = str(options.method)
    unique = {cell_key(attack, method, seed): (attack, target) for attack, target in cells}
    missing = [key for key in unique if store.get(key) is None]
    batches = [missing[start:start + BATCH] for start in range(0, len(missing), BATCH)]
    workers = options.cores if seed is None and scheduler is None else 1  # exact cells: Python, on every core
    run = options.replace(seed=seed, **({"cancel": None, "threads": 1} if workers > 1 else {}))  # a worker's own
    work = partial(_figures, game.name, run, scheduler)
    done = 0
    for found, keys in zip(in_processes(work, [[unique[key] for key in keys] for keys in batches], workers), batches):
        store.put_all(dict(zip(keys, found)))
        done += len(keys)
        if progress:
            progress(done, len(missing))
    return {key: store.get(key) for key in unique}


def _figures(game_name: str, options: RunOptions, scheduler: Any, cells: list[tuple[Any, Unit]]
             ) -> list[dict[str, Any]]:
    """The figures of a batch of cells (`figures`), or for an exact cell too costly to answer its line."""
    from ..lists.games import game

    refused: list[str | None] = []
    results, _ = run_cells([attack for attack, _ in cells], options=options, scheduler=scheduler, refused=refused)
    return [{"refused": line} if line else figures(game(game_name), target, attack, result)
            for (attack, target), result, line in zip(cells, results, refused or [None] * len(cells))]


# --- the study ------------------------------------------------------------------------------


@record
class Balance:
    """A study's answer: each entry's row (figures against each target, per 100 points, index, ranks,
    outlier), the entries apart, and how it was run."""

    game: Game
    targets: tuple[Unit, ...]
    rows: tuple[dict[str, Any], ...]
    apart: tuple[Apart, ...]
    method: str
    trials: int | None
    seed: int | None
    far: float
    refused: int = 0  # cells whose exact answer would take too long: their figures left out
    compared: dict[str, Any] | None = None  # against an old release (`compared`): what moved

    def outliers(self) -> list[dict[str, Any]]:
        return [row for row in self.rows if row["outlier"]]

    def notes(self, top: int = 10) -> list[str]:
        """What the study found, in lines: the outliers by name, and how many entries are apart and why."""
        lines = []
        high = [row for row in self.rows if row["outlier"] == "high"]
        low = [row for row in reversed(self.rows) if row["outlier"] == "low"]  # the weakest first
        for label, found in (("strong", high), ("weak", low)):
            if found:
                shown = ", ".join(f"{row['entry']} ({row['army']}, {row['index']:.2f})" for row in found[:top])
                more = f" and {len(found) - top} more" if len(found) > top else ""
                lines.append(f"outliers, {label} for their points (index over {self.far:g}× or under 1/{self.far:g} "
                             f"of their kind's median): {shown}{more}")
        if self.refused:
            lines.append(f"{self.refused} cells too costly to answer exactly (an engagement of many units, most "
                         "often) are left out of their rows: sample them (leave out --exact)")
        if self.apart:
            reasons = Counter(re.sub(r" as .*: .* \(its points", " as another entry (its points",  # one copy's
                                     entry.reason.removeprefix(f"{entry.name}: ")) for entry in self.apart)
            common = "; ".join(f"{count} × {reason}" for reason, count in reasons.most_common(4))
            lines.append(f"{len(self.apart)} entries not ranked (the JSON lists each with its reason), most: {common}")
        return lines + (compare_notes(self.compared) if self.compared is not None else [])

    def json(self) -> dict[str, Any]:
        return {"targets": [target.name for target in self.targets], "notes": self.notes(), "refused": self.refused,
                "apart": [{"army": entry.army, "entry": entry.name, "reason": entry.reason} for entry in self.apart],
                **({"compared": self.compared} if self.compared is not None else {})}


def study(entries: Sequence[Entry], targets: Roster, apart: Sequence[Apart] = (), *, options: RunOptions,
          engage: bool = False, far: float = FAR, store: Store | None = None, scheduler: Any = None,
          progress: Progress | None = None) -> Balance:
    """Every entry against every target (and, with `engage`, its engagement of each), ranked by points."""
    require(far > 1, "far", far, "expected a factor above 1, like 2")
    game, store = targets.game, store or Store()
    require(bool(entries), "folder", "the catalogues", "hold no entry oddscalc can model")
    free = [entry.name for entry in entries if entry.points <= 0]
    require(not free, "points", ", ".join(free[:3]), "expected every entry to have points (a study is per point)")
    method, seed = str(options.method), None if options.method == Method.EXACT else study_seed(options.seed)
    plan = [[[attacks_of(game, unit, target) for unit in entry.units] for target in targets.units]
            for entry in entries]
    fights = [[engagement_of(game, entry.units[0], target) if engage else None for target in targets.units]
              for entry in entries]
    cells = [(attack, target) for entry_plan in plan for target, units in zip(targets.units, entry_plan)
             for attacks in units for attack in attacks]
    cells += [(fight, target) for row in fights for fight, target in zip(row, targets.units) if fight is not None]
    found = compute(cells, game, store, options.replace(seed=seed), scheduler, progress)
    refused = sum(1 for cell in found.values() if "refused" in cell)
    rows = [_row(game, entry, targets.units, entry_plan, fight_row, found, method, seed, engage)
            for entry, entry_plan, fight_row in zip(entries, plan, fights)]
    ranked, unranked = rank(rows, far)
    if seed is None:  # exact figures without their float noise (0.9999999999999998 is 1), as every exact answer
        ranked = [{key: clean(value) if isinstance(value, float) else value for key, value in row.items()}
                  for row in ranked]
    return Balance(game, targets.units, tuple(ranked), (*apart, *unranked), method,
                   None if seed is None else options.trials, seed, far, refused)


def _row(game: Game, entry: Entry, targets: Sequence[Unit], plan: list[list[list[Any]]], fights: list[Any],
         found: dict[str, dict[str, float]], method: str, seed: int | None, engage: bool) -> dict[str, Any]:
    """An entry's row: its figures against each target (each unit's best attack; the entry's mean the sum,
    its P(kill or break) its best unit's), per 100 points, its value (and engagement value), what drives it,
    and the queries that give them."""
    row: dict[str, Any] = {"army": entry.army, "entry": entry.name, "kind": entry.kind(game), "points": entry.points,
                           "notes": entry.notes}
    queries: dict[str, list[str]] = {}
    shares: list[tuple[float, str]] = []  # (share of a target, what took it) for the row's `driver`
    errors: list[float] = []
    fights_found: list[tuple[Unit, dict[str, Any]]] = []
    for target, units, fight in zip(targets, plan, fights):
        def cell(attack: Any) -> dict[str, float]:
            return found[cell_key(attack, method, seed)]

        computed = [[attack for attack in attacks if "refused" not in cell(attack)] for attacks in units]
        best = [max(attacks, key=lambda attack: cell(attack)["mean"]) if attacks else None for attacks in computed]
        chosen = [attack for attack in best if attack is not None]
        mean = sum(cell(attack)["mean"] for attack in chosen)
        share = min(sum(cell(attack)["share"] for attack in chosen), 1.0)
        cells = [cell(attack) for attack in chosen]
        likeliest = max(cells, key=lambda cell: cell["p"], default={"p": 0.0, "p_stderr": 0.0})
        row[f"{target.name}.mean"] = mean
        row[f"{target.name}.P(kill or break)"] = likeliest["p"]
        row[f"{target.name}.per_100_points"] = 100 * mean / entry.points
        whole = game.kill_threshold(target, chosen[0]) if chosen else 1
        errors += [c["mean_stderr"] / whole for c in cells] if share < 1.0 else []
        if chosen:
            shares.append((share, f"{target.name}: {_what(max(chosen, key=lambda a: cell(a)['share']))}"))
        if seed is not None:  # sampled: each figure's standard error (the cells' are independent)
            row[f"{target.name}.mean_stderr"] = math.sqrt(sum(cell["mean_stderr"] ** 2 for cell in cells))
            row[f"{target.name}.P(kill or break)_stderr"] = likeliest["p_stderr"]
        row["value"] = row.get("value", 0.0) + 100 * share / entry.points
        fought_cell = found[cell_key(fight, method, seed)] if fight is not None else {}
        if engage:  # None where the entry or the target cannot fight it: `engage_why` says why
            row[f"{target.name}.P(win)"] = fought_cell.get("win")
            if seed is not None:
                row[f"{target.name}.P(win)_stderr"] = fought_cell.get("win_stderr")
            fights_found.append((target, fought_cell))
        queries[target.name] = [attack.query() for attack in chosen] + ([fight.query()] if "win" in fought_cell
                                                                           else [])
    row["value_stderr"] = 100 * math.sqrt(sum(error ** 2 for error in errors)) / entry.points
    if engage:
        row.update(_engaged(game, entry, fights_found))
    row["driver"] = max(shares)[1] if shares else ""
    row["queries"] = queries
    return row


WEAPON_WORDS = ("weapon", "killer", "ignore cover", "sniper", "disrupt", "crossfire")  # a description's words of the
# weapon, not of its target ("reinforced", "armour 4+")


def _engaged(game: Game, entry: Entry, fights: list[tuple[Unit, dict[str, Any]]]) -> dict[str, Any]:
    """An entry's engagement value (its mean P(win) over the targets it fights, per 100 points), its standard
    error, and why it has no P(win) of a target (once when the entry itself cannot fight)."""
    wins = [cell for _, cell in fights if "win" in cell]
    why = [(target, _why_not_fought(game, entry, target, cell)) for target, cell in fights if "win" not in cell]
    own = next((reason for _, reason in why if reason.startswith("this entry")), None)
    value = 100 * sum(cell["win"] for cell in wins) / len(wins) / entry.points if wins else None
    error = (100 * math.sqrt(sum(cell["win_stderr"] ** 2 for cell in wins)) / len(wins) / entry.points
             if wins else None)
    return {"engage_value": value, "engage_value_stderr": error,
            "engage_why": own or "; ".join(f"{target.name}: {reason}" for target, reason in why)}


def _what(attack: Any) -> str:
    """An attack in a few words, as a row's `driver` says it: its description less its query's name and its target
    ("20 shots at 3+", "4 BP, macro weapon")."""
    words = attack.describe().split(": ", 1)[-1]
    weapon, _, target = words.partition(" on ")
    extra = [part for part in target.split(", ")[1:] if any(word in part for word in WEAPON_WORDS)]
    return ", ".join([weapon, *extra]) if target else words


def _why_not_fought(game: Game, entry: Entry, target: Unit, cell: dict[str, Any]) -> str:
    """Why an entry's engagement of a target has no P(win): which side cannot fight it, or its exact answer too
    costly."""
    if "refused" in cell:
        return "not computed: too costly to answer exactly (sample it)"
    for unit, who in ((entry.units[0], "this entry"), (target, "the target")):
        reason = game.cannot_engage(unit) if game.cannot_engage is not None else None
        if reason:
            return f"{who} cannot fight ({reason})"
    return f"{game.title} has no engagement of these two"


def compared(new: Balance, old: Balance) -> Balance:
    """A study with an old release's beside it: each row its old points and index and how far they moved, and what
    moved (`ranking.compare`)."""
    rows, moved = compare(new.rows, old.rows)
    return replace(new, rows=tuple(rows), compared=moved)


def reference(game: Game) -> Roster:
    """The game's reference targets, shipped with oddscalc (`data/<game>_reference.toml`; docs/balance.md)."""
    from importlib import resources

    from ..lists.games import parse_roster

    name = f"{game.name}_reference.toml"
    source = resources.files("oddscalc.data") / name
    require(source.is_file(), "targets", game.name, "has no reference targets: give a roster with --targets")
    return parse_roster(source.read_text(encoding="utf-8"), name)


def ends(found: Balance, top: int) -> list[dict[str, Any]]:
    """The top and bottom `top` ranked rows (every row once, however few)."""
    return list(found.rows[:top]) + [row for row in found.rows[max(top, len(found.rows) - top):]]


def matrix(found: Balance, top: int) -> tuple[Any, list[str], list[str]]:
    """The heatmap's values: the top and bottom `top` entries by index, each target's figure per 100 points."""
    import numpy as np

    shown = ends(found, top)
    columns = [f"{target.name}" for target in found.targets]
    values = np.array([[row[f"{name}.per_100_points"] for name in columns] for row in shown], dtype=float)
    return values, [f"{row['rank']}. {row['entry']} ({row['army']})" for row in shown], columns
