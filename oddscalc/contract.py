"""The game contract, written once: what a game package provides, and the one door to it.

A game is one line of the registry (`registry.PACKAGES`) and a package `oddscalc/<name>/` with:

- `__init__.py`: `EXPORTS`, the names `oddscalc` offers at its top level (its attacks, their choices);
- `roster.py`: `GAME`, its `roster.Game` record (the roster schema; how a unit's weapon meets a target);
- `commands.py`: `HELP`, what its group of queries is (`oddscalc <name> --help`); importing it registers the
  game's queries (`query.registry.query`), which `ask`, both shells, `sweep`, `compare` and the page read;
- `benchmark.py`: `cases()` and `exact_cases()`, its Monte Carlo cases (with plain numpy baselines)
  and its exact ones (with icepool's twins);
- where the game has BattleScribe catalogues: an importer, `oddscalc/lists/battlescribe/<name>.py`
  (`SYSTEM`, what its lists are; `mapped_units`, a list's units as roster data).

Everything that lists games reads the registry through `names()` and reaches a game's parts through
`package`, `roster`, `commands`, `benchmark` and `importer`, which import a part and check it against its
protocol here, so a fourth game is its
package and its registry line (tests/test_contract.py proves it with a toy game of the tests' own).
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from . import registry

if TYPE_CHECKING:
    from .lists.battlescribe.reader import RosterFile
    from .lists.battlescribe.report import Mapped, System
    from .bench.core import Case, ExactCase
    from .lists.roster import Game


@runtime_checkable
class GamePackage(Protocol):
    """`oddscalc/<name>/__init__.py`."""

    EXPORTS: tuple[str, ...]  # the names `oddscalc` offers at its top level


@runtime_checkable
class GameRoster(Protocol):
    """`oddscalc/<name>/roster.py`."""

    GAME: Game


@runtime_checkable
class GameCommands(Protocol):
    """`oddscalc/<name>/commands.py`."""

    HELP: str  # what its queries are: importing the module registers them (`query.registry`)


@runtime_checkable
class GameBenchmark(Protocol):
    """`oddscalc/<name>/benchmark.py`."""

    def cases(self) -> list[Case]: ...

    def exact_cases(self) -> list[ExactCase]: ...


@runtime_checkable
class GameImporter(Protocol):
    """`oddscalc/lists/battlescribe/<name>.py`, for a game with BattleScribe catalogues."""

    SYSTEM: System

    def mapped_units(self, roster: RosterFile) -> list[Mapped]: ...


WHERE: dict[type, str] = {  # each part's module, by the game's name
    GamePackage: "oddscalc.{name}", GameRoster: "oddscalc.{name}.roster", GameCommands: "oddscalc.{name}.commands",
    GameBenchmark: "oddscalc.{name}.benchmark", GameImporter: "oddscalc.lists.battlescribe.{name}",
}


def names() -> tuple[str, ...]:
    """The registered games' names, in the registry's order (read when asked: a test may register one)."""
    return registry.PACKAGES


def package(name: str) -> GamePackage:
    return cast(GamePackage, _load(GamePackage, name))


def roster(name: str) -> GameRoster:
    return cast(GameRoster, _load(GameRoster, name))


def commands(name: str) -> GameCommands:
    return cast(GameCommands, _load(GameCommands, name))


def benchmark(name: str) -> GameBenchmark:
    return cast(GameBenchmark, _load(GameBenchmark, name))


def importer(name: str) -> GameImporter | None:
    """A game's BattleScribe importer, or None for a game without catalogues."""
    if find_spec(WHERE[GameImporter].format(name=name)) is None:
        return None
    return cast(GameImporter, _load(GameImporter, name))


def _load(kind: type, name: str) -> object:
    """A game's part, imported and checked against its protocol (`kind`)."""
    where = WHERE[kind].format(name=name)
    module = import_module(where)
    if not isinstance(module, kind):
        missing = [member for member in members(kind) if not hasattr(module, member)]
        raise TypeError(f"{where} breaks the game contract (oddscalc/contract.py): it lacks {', '.join(missing)}")
    return module


def members(kind: type) -> list[str]:
    """The names a part must have: its protocol's attributes and functions."""
    own = [name for name in vars(kind) if not name.startswith("_")]
    return list(dict.fromkeys([*getattr(kind, "__annotations__", {}), *own]))
