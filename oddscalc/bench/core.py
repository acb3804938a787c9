"""Core cases of the benchmark: the canonical attack and a maximised roll, with plain numpy
baselines; `Case` and `ExactCase`, what every game's cases (`<game>/benchmark.py`) are
made of; and the helpers of the measuring (`best_time`, `verdict`, `grid_roster`)."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from ..core.attack import Attack
from ..core.dice import DiceExpression
from ..core.hits import HitAndSave
from ..core.roll import Roll
from ..core.record import record


@record
class Case:
    """An attack, a plain numpy baseline for the same attack, and the ratio to reach."""

    name: str
    attack: Attack
    baseline: Callable[[np.random.Generator, int], np.ndarray]  # returns the main outcome per trial
    dice: int  # dice per trial, for the effective dice rate
    target: float | None = None


@record
class ExactCase:
    """One query: the oddscalc attack and outcome, and the same pmf built with icepool."""

    name: str
    attack: Attack
    outcome: str
    icepool: Callable[[Any], Any]  # icepool module -> Die


QUICK = False  # a smoke run: sizes too small to judge the targets


def verdict(value: float, target: float | None, above: bool = True) -> str:
    """`  (target ≥ 10: met)`, or nothing on a smoke run or without a target."""
    if target is None or QUICK:
        return ""
    met = value >= target if above else value <= target
    return f"  (target {'≥' if above else '<'} {target:g}: {'met' if met else 'NOT met'})"


def best_time(function: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


@lru_cache(maxsize=1)
def _bytecode_folder() -> str:
    folder = tempfile.mkdtemp(prefix="oddscalc-bench-bytecode-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def fresh_process(arguments: list[str], compiled: bool = True, **options: Any) -> subprocess.CompletedProcess[Any]:
    """Run `python ARGUMENTS` in a fresh process as an installed package runs: its modules' bytecode
    cached after the first run (in this run's own folder, PYTHONPYCACHEPREFIX), whatever
    PYTHONDONTWRITEBYTECODE says here. numpy and icepool bring theirs from their install; without
    this, a checkout's modules alone would be compiled from source in every process. Not `compiled`:
    no bytecode at all, every module (Python's own, numpy's, icepool's, ours) compiled from source."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="oddscalc-bench-source-") as empty:
        environment["PYTHONPYCACHEPREFIX"] = _bytecode_folder() if compiled else empty
        if not compiled:
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return subprocess.run([sys.executable, *arguments], env=environment, **options)


def grid_roster(size: int) -> str:
    """A made-up Epic roster of `size` formations, each with one weapon that can fire at every kind."""
    units = []
    kinds = ("infantry", "light-vehicle", "armoured-vehicle")
    for i in range(size):
        units.append(
            f'[[unit]]\nname = "Formation {i + 1}"\npoints = {150 + 25 * (i % 8)}\nkind = "{kinds[i % 3]}"\n'
            f'units = {2 + i % 9}\narmour = "{3 + i % 4}+"\n'
            f'[[unit.weapon]]\nname = "Guns {i + 1}"\nshots = {2 + (3 * i) % 11}\nap = "{4 + i % 3}+"\n'
            f'at = "{4 + (i + 1) % 3}+"\n'
        )
    return 'game = "epic"\n\n' + "\n".join(units)


def combat_roster(size: int) -> str:
    """A made-up 9th Age roster of `size` units, each able to charge every other (grid --combat)."""
    units = []
    for i in range(size):
        units.append(
            f'[[unit]]\nname = "Unit {i + 1}"\npoints = {150 + 20 * (i % 9)}\nmodels = {5 + (7 * i) % 21}\n'
            f'offensive = {3 + i % 3}\ndefensive = {3 + (i + 1) % 3}\nstrength = {3 + i % 2}\n'
            f'resilience = {3 + (i + 1) % 2}\narmour = {i % 4}\nattack_value = {1 + i % 2}\nagility = {2 + i % 4}\n'
            f'discipline = {6 + i % 3}\nwidth = 5\n'
            f'[[unit.weapon]]\nname = "Blades {i + 1}"\nattacks = {5 + (3 * i) % 11}\n'
        )
    return 'game = "t9a"\n\n' + "\n".join(units)


def count_outcomes(*outcomes: np.ndarray) -> np.ndarray:
    """Histogram every outcome, as the engine does; return the main one's values (for checks)."""
    for values in outcomes:
        np.bincount(values)
    return outcomes[0]


def baseline_canonical(rng: np.random.Generator, trials: int) -> np.ndarray:
    """10 dice hit on 4+, then a 5+ save per hit: plain numpy, stage by stage."""
    hit = rng.integers(1, 7, size=(trials, 10)) >= 4
    saved = rng.integers(1, 7, size=(trials, 10)) >= 5
    return count_outcomes((hit & ~saved).sum(axis=1), hit.sum(axis=1))


def baseline_maximised_2d6(rng: np.random.Generator, trials: int) -> np.ndarray:
    faces = np.sort(rng.integers(1, 7, size=(trials, 3)), axis=1)
    return count_outcomes(faces[:, 1:].sum(axis=1))


def cases() -> list[Case]:
    """The game-free cases."""
    return [
        Case("canonical: 10 dice hit 4+, save 5+", HitAndSave(10, 4, 5), baseline_canonical, 10, 10.0),
        Case("maximised 2d6", Roll(DiceExpression.parse("2d6"), maximised=1), baseline_maximised_2d6, 3),
    ]


