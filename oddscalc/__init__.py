"""oddscalc: Monte Carlo and exact odds for Dust Tactics, Epic Armageddon and The 9th Age.

The public API, imported on first use (so that `import oddscalc` and the command line
stay quick)::

    from oddscalc import EpicShoot, run
    result = run(EpicShoot(shots=12, to_hit="4+", units=6, armour="4+"), trials=10**6, seed=1)
    result["kills"].mean, result["kills"].at_least(3)
"""

from __future__ import annotations

import sys

STOPS_WHILE_STARTING: list[int] = []  # started as the command line: the stops that came before console.py ran


def is_the_command_line(argv: list[str]) -> bool:
    """Whether the process was started as the command line (`argv` as Python was given it, `sys.orig_argv`):
    `python [flags] -m oddscalc …`, or the console script `oddscalc …`."""
    if "-m" in argv[1:]:
        at = argv.index("-m", 1)
        return argv[at + 1:at + 2] == ["oddscalc"]
    return len(argv) > 1 and argv[1].replace("\\", "/").rsplit("/", 1)[-1] == "oddscalc"


def _kept(number: int, frame: object) -> None:
    STOPS_WHILE_STARTING.append(number)


if is_the_command_line(list(getattr(sys, "orig_argv", ()))):  # from our first line, a stop is kept, and console.py
    import signal  # says it in one line once the command line has loaded (a Ctrl-C here printed Python's traceback)

    for _number in (signal.SIGINT, signal.SIGTERM, *((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())):
        signal.signal(_number, _kept)

from importlib import import_module  # noqa: E402  (after the stops are held)
from importlib.util import find_spec  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    # values and running
    "Distribution": "core.distribution", "Result": "core.engine", "run": "core.engine", "exact": "core.engine",
    "monte_carlo": "core.engine", "Attack": "core.attack", "InputError": "errors", "RunOptions": "core.options",
    "Cancel": "core.options", "Cancelled": "core.options", "ask": "query.asking", "Asked": "query.asking",
    "Refusal": "errors",
    # game-free attacks
    "DiceExpression": "core.dice", "Roll": "core.roll", "HitAndSave": "core.hits",
    # studies and rosters
    "sweep": "studies.sweeps", "compare": "studies.sweeps", "Statistic": "studies.sweeps", "Goal": "studies.sweeps",
    "run_cells": "studies.cells", "run_grid": "studies.grid", "load_roster": "lists.games", "GAMES": "lists.games",
}  # and each game's `EXPORTS` (its attacks and their choices), found through the registry of games
_MODULES = {"engine": "core.engine", "plots": "output.plots"}  # the modules it offers by their short names
# (`from oddscalc import engine, plots`, as the notebooks do); `oddscalc.studies` is a package that offers its own


def _games() -> dict[str, Any]:
    """Each game's package, in the registry's order."""
    from . import contract

    return {name: contract.package(name) for name in contract.names()}


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is used (PEP 562): a game-free
    one from its module, a game's from the game that exports it."""
    if name == "__all__":
        return ["__version__", *_EXPORTS, *(export for game in _games().values() for export in game.EXPORTS)]
    module = _EXPORTS.get(name)
    if name in _MODULES:
        value = import_module(f".{_MODULES[name]}", __name__)
    elif module is not None:
        value = getattr(import_module(f".{module}", __name__), name)
    elif name.startswith("_") or find_spec(f"{__name__}.{name}") is not None:  # a submodule not imported yet
        raise AttributeError(f"module 'oddscalc' has no attribute {name!r}")
    else:
        owner = next((game for game in _games().values() if name in game.EXPORTS), None)
        if owner is None:
            raise AttributeError(f"module 'oddscalc' has no attribute {name!r}")
        value = getattr(owner, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__getattr__("__all__"))
