"""oddscalc: Monte Carlo and exact odds for Dust Tactics, Epic Armageddon and The 9th Age.

The public API, imported on first use (so that `import oddscalc` and the command line
stay quick)::

    from oddscalc import EpicShoot, run
    result = run(EpicShoot(shots=12, to_hit="4+", units=6, armour="4+"), trials=10**6, seed=1)
    result["kills"].mean, result["kills"].at_least(3)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    # values and running
    "Distribution": "distribution", "Result": "engine", "run": "engine", "exact": "engine",
    "monte_carlo": "engine", "Attack": "attack", "InputError": "errors", "RunOptions": "options",
    "Cancel": "options", "Cancelled": "options",
    # game-free attacks
    "DiceExpression": "dice", "Roll": "roll", "HitAndSave": "roll",
    # Dust Tactics
    "WeaponLine": "dust", "Phaser": "dust", "Salvo": "dust", "Incendiary": "dust",
    "ArmourPiercingIncendiary": "dust", "Reactive": "dust", "CoverSave": "dust", "Board": "dust",
    "line_of_sight": "dust",
    # Epic Armageddon
    "EpicShoot": "epic", "Barrage": "epic", "Assault": "epic", "Ability": "epic",
    # The 9th Age
    "Melee": "t9a", "T9AShoot": "t9a", "T9AHits": "t9a", "Charge": "t9a", "DisciplineTest": "t9a", "Direction": "t9a",
    "Reroll": "t9a",
    # studies and rosters
    "sweep": "studies", "compare": "studies", "Statistic": "studies", "Goal": "studies",
    "run_cells": "cells", "run_grid": "grid", "load_roster": "games", "GAMES": "games",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is used (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'oddscalc' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
