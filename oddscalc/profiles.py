"""Unit and weapon data from TOML files: one schema per game, checked on load.

A roster file names its game and lists units, each with its weapons:

    game = "epic"

    [[unit]]
    name = "Tactical Detachment"
    points = 300
    ...
    [[unit.weapon]]
    name = "Missile launchers"
    ...

Each game's schema and the way a weapon meets a target live in `<game>_profiles.py`
(`SCHEMA`, `MAIN`, `matchup`, `kill_threshold`). Errors name the file, the unit and
the field.
"""

from __future__ import annotations

import difflib
import importlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import InputError

GAMES = ("dust", "epic", "t9a")
BUNDLED = {game: f"{game}_example.toml" for game in GAMES}


@dataclass(frozen=True)
class Field:
    """One field of a unit or a weapon: its kind and the values allowed."""

    kind: str  # "int", "text", "bool", "roll" (2+..6+ as 4 or "4+"), "save" (a roll or "none"), "list",
    #            "dice" (a number or a dice expression like "2d6", "d3+1")
    help: str
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    default: Any = None

    def allowed(self) -> str:
        if self.kind == "bool":
            return "expected true or false"
        if self.kind == "list":
            return f"expected a list of {', '.join(self.choices)}" if self.choices else "expected a list of text"
        if self.kind == "dice":
            return 'expected a number or dice like 10, "2d6" or "d3+1"'
        if self.choices:
            return f"expected one of {', '.join(self.choices)}"
        if self.kind in ("roll", "save"):
            none = ', or "none"' if self.kind == "save" else ""
            return f'expected a roll from {self.low}+ to {self.high}+ (4 or "4+"){none}'
        if self.kind == "int":
            bounds = f" from {self.low}" if self.low is not None else ""
            bounds += f" to {self.high}" if self.high is not None else ""
            return f"expected a whole number{bounds}"
        return "expected text"

    def read(self, value: Any) -> Any:
        """Return the checked value, or raise ValueError."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError
            return value
        if self.kind == "text":
            if not isinstance(value, str) or not value.strip() or (self.choices and value not in self.choices):
                raise ValueError
            return value
        if self.kind == "list":
            if not isinstance(value, list) or any(not isinstance(item, str) for item in value):
                raise ValueError
            if self.choices and any(item not in self.choices for item in value):
                raise ValueError
            return tuple(value)
        if self.kind == "dice":
            from .dice import DiceExpression

            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError
            try:
                expression = DiceExpression.parse(str(value))
            except InputError:
                raise ValueError from None
            if expression.highest < 1:
                raise ValueError
            return str(expression)
        if self.kind == "save" and isinstance(value, str) and value.strip().lower() == "none":
            return None
        if self.kind in ("roll", "save") and isinstance(value, str) and value.strip().endswith("+"):
            value = value.strip()[:-1]
            value = int(value) if value.isdigit() else value
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ValueError
        return value


@dataclass(frozen=True)
class Schema:
    """A game's fields for units and for weapons."""

    unit: dict[str, Field]
    weapon: dict[str, Field]


@dataclass(frozen=True)
class Weapon:
    name: str
    values: tuple[tuple[str, Any], ...]

    def __getitem__(self, key: str) -> Any:
        return dict(self.values)[key]


@dataclass(frozen=True)
class Unit:
    name: str
    points: int | None
    values: tuple[tuple[str, Any], ...]
    weapons: tuple[Weapon, ...] = field(default=())

    def __getitem__(self, key: str) -> Any:
        return dict(self.values)[key]


@dataclass(frozen=True)
class Roster:
    """The units of one game read from one file."""

    game: str
    source: str
    units: tuple[Unit, ...]

    def unit(self, name: str) -> Unit:
        for unit in self.units:
            if unit.name == name:
                return unit
        raise InputError("unit", name, f"expected one of {', '.join(u.name for u in self.units)}")

    def select(self, names: Iterable[str] | None, option: str) -> tuple[Unit, ...]:
        """The named units (all when names is None), refusing names not in the roster."""
        if names is None:
            return self.units
        known = {unit.name: unit for unit in self.units}
        chosen = []
        for name in names:
            if name not in known:
                close = difflib.get_close_matches(name, known, 1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise InputError(option, name, f"no such unit in {self.source}{hint}; it has {', '.join(known)}")
            chosen.append(known[name])
        return tuple(chosen)


def game_module(game: str):
    """Return the module that holds a game's schema and matchups."""
    if game not in GAMES:
        raise InputError("game", game, f"expected one of {', '.join(GAMES)}")
    return importlib.import_module(f".{game}_profiles", __package__)


def _fail(source: str, where: str, field_name: str | None, message: str) -> InputError:
    place = f"{where}, field '{field_name}'" if field_name else where
    return InputError("file", source, f"{place}: {message}")


def _checked(raw: dict, fields: dict[str, Field], source: str, where: str) -> dict[str, Any]:
    values = {}
    for key in raw:
        if key not in fields and key != "weapon":
            close = difflib.get_close_matches(key, fields, 1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise _fail(source, where, key, f"unknown field{hint}; fields: {', '.join(fields)}")
    for name, spec in fields.items():
        if name not in raw:
            if spec.required:
                raise _fail(source, where, name, f"missing; {spec.allowed()} ({spec.help})")
            values[name] = spec.default
            continue
        try:
            values[name] = spec.read(raw[name])
        except ValueError:
            if spec.kind == "list" and isinstance(raw[name], list):
                unknown = [item for item in raw[name] if item not in spec.choices]
                raise _fail(source, where, name, f"unknown {unknown[0]!r}; {spec.allowed()}") from None
            raise _fail(source, where, name, f"{raw[name]!r} is not allowed; {spec.allowed()}") from None
    return values


def parse(text: str, source: str, game: str | None = None) -> Roster:
    """Read a roster from TOML text, checking every unit and weapon against its game's schema."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError("file", source, f"TOML syntax error: {error}") from None
    declared = data.get("game")
    if declared is None and game is None:
        raise InputError("file", source, f'missing game = "..." ({", ".join(GAMES)})')
    if declared is not None and declared not in GAMES:
        raise InputError("file", source, f"game {declared!r} is not one of {', '.join(GAMES)}")
    if game is not None and declared is not None and declared != game:
        raise InputError("file", source, f"holds {declared} units, not {game}")
    game = game or declared
    schema: Schema = game_module(game).SCHEMA
    extra = set(data) - {"game", "unit"}
    if extra:
        raise InputError("file", source, f"unknown top-level key {sorted(extra)[0]!r}; expected game and [[unit]]")
    raw_units = data.get("unit", [])
    if not isinstance(raw_units, list) or not raw_units:
        raise InputError("file", source, "the roster is empty: add [[unit]] tables")
    units, seen = [], set()
    for index, raw in enumerate(raw_units, 1):
        name = raw.get("name")
        where = f"unit {name!r}" if isinstance(name, str) else f"unit #{index}"
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, where, "name", "missing; every unit needs a name")
        if name in seen:
            raise _fail(source, where, "name", "another unit has this name")
        seen.add(name)
        values = _checked(raw, schema.unit, source, where)
        weapons = []
        for w_index, raw_weapon in enumerate(raw.get("weapon", []), 1):
            weapon_name = raw_weapon.get("name")
            w_where = f"{where}, weapon {weapon_name!r}" if isinstance(weapon_name, str) else f"{where}, weapon #{w_index}"
            weapon_values = _checked(raw_weapon, schema.weapon, source, w_where)
            weapons.append(Weapon(weapon_values.pop("name"), tuple(weapon_values.items())))
        values.pop("name")
        points = values.pop("points", None)
        units.append(Unit(name, points, tuple(values.items()), tuple(weapons)))
        check = getattr(game_module(game), "check_unit", None)
        if check is not None:
            try:
                problem = check(units[-1])
            except InputError as error:  # a pattern the game's parser refused
                raise _fail(source, where, error.name, f"{error.value}: {error.allowed}") from None
            if problem:
                raise _fail(source, where, problem[0], problem[1])
    return Roster(game, source, tuple(units))


def load(path: str | Path | None = None, game: str | None = None) -> Roster:
    """Read a roster file, or a game's bundled example when `path` is None."""
    if path is None:
        if game is None:
            raise InputError("game", None, f"name a game ({', '.join(GAMES)}) or a file")
        game_module(game)
        text = resources.files("oddscalc.data").joinpath(BUNDLED[game]).read_text()
        return parse(text, f"bundled {BUNDLED[game]}", game)
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise InputError("file", str(path), "no such file") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as error:
        raise InputError("file", str(path), f"cannot be read ({type(error).__name__})") from None
    return parse(text, str(path), game)


@dataclass(frozen=True)
class Matchup:
    """A weapon of an attacking unit against a target unit, and the attack it makes."""

    attacker: Unit
    weapon: Weapon
    target: Unit
    attack: Any  # None when the weapon cannot attack that target


def matchups(game: str, attackers: Iterable[Unit], targets: Iterable[Unit],
             adjust: Callable[[Any], Any] = lambda attack: attack) -> list[Matchup]:
    """Every weapon of every attacker against every target, in order."""
    module = game_module(game)
    targets = tuple(targets)
    pairs = []
    for attacker in attackers:
        for weapon in attacker.weapons:
            for target in targets:
                attack = module.matchup(attacker, weapon, target)
                pairs.append(Matchup(attacker, weapon, target, None if attack is None else adjust(attack)))
    return pairs
