"""Rosters: units and their weapons for one game, read from TOML and checked against the
game's schema.

A roster file names its game and lists units, each with its weapons:

    game = "epic"

    [[unit]]
    name = "Tactical Detachment"
    points = 300
    ...
    [[unit.weapon]]
    name = "Missile launchers"
    ...

What a game must provide to have rosters is the `Game` record below: its schema, how a
weapon meets a target unit (`matchup`), what wipes a target out, and how to describe
units and weapons. `games.py` holds the registry of games and loads files. Errors name
the file, the unit and the field.
"""

from __future__ import annotations

import difflib
from dataclasses import field
from typing import Any, Callable, Iterable

from ..core.dice import DiceExpression, parse_roll
from ..errors import InputError
from ..core.record import record

MAX_NAME = 200  # characters of a unit's or a weapon's name: it is copied into every row, cell and label


@record
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
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError
            try:
                expression = DiceExpression.parse(str(value))
            except InputError:
                raise ValueError from None
            if expression.highest < 1:
                raise ValueError
            return str(expression)
        if self.kind in ("roll", "save"):
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ValueError
            try:
                value = parse_roll(value, "roll", none=self.kind == "save")
            except InputError:
                raise ValueError from None
            if value is None:
                return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ValueError
        return value


@record
class Schema:
    """A game's fields for units and for weapons."""

    unit: dict[str, Field]
    weapon: dict[str, Field]


@record
class Weapon:
    """One weapon (or attack profile) of a unit: its name and its checked fields."""

    name: str
    values: tuple[tuple[str, Any], ...]

    def __getitem__(self, key: str) -> Any:
        return dict(self.values)[key]


@record
class Unit:
    """One unit of a roster: its name, points, checked fields and weapons."""

    name: str
    points: int | None
    values: tuple[tuple[str, Any], ...]
    weapons: tuple[Weapon, ...] = field(default=())

    def __getitem__(self, key: str) -> Any:
        return dict(self.values)[key]


@record
class Game:
    """What a game gives to have rosters: every study of a roster goes through these."""

    name: str  # "epic": the roster's `game = "..."`
    title: str  # "Epic Armageddon"
    schema: Schema
    main: str  # the outcome a grid ranks and plots ("kills")
    matchup: Callable[[Unit, Weapon, Unit], Any]  # the attack a weapon makes on a target, or None
    kill_threshold: Callable[[Unit, Any], int]  # the main outcome that wipes the target unit out
    check_unit: Callable[[Unit], tuple[str, str] | None]  # (field, problem) the schema alone cannot see
    describe_unit: Callable[[Unit], str]
    describe_weapon: Callable[[Weapon], str]
    reaches: Callable[[Weapon, int], bool | None] | None = None  # does a weapon reach N squares (None: no range given)
    together: Callable[[Unit, Unit], Any] | None = None  # every weapon of a unit fired as one attack, or None
    assault: Callable[[Unit, Unit], Any] | None = None  # a unit's engagement of a target (both sides fight), or None
    engages: str = "assault"  # the grid option of that engagement and each of its cells' name (grid --assault)
    cannot_engage: Callable[[Unit], str | None] | None = None  # why a unit takes no part in that engagement
    engages_apart: str = ""  # what a grid of engagements says of the cells it cannot fight
    engages_none: str = ""  # why a grid has no cell to fight
    # (set field, attack field, unit field): a --set of the first fills the second, left empty, from the attacking unit
    from_attacker: tuple[tuple[str, str, str], ...] = ()
    kind: str = ""  # the unit field that says its kind: a balance study judges an entry's outliers among its kind

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


@record
class Roster:
    """The units of one game read from one source."""

    game: Game
    source: str
    units: tuple[Unit, ...]
    notes: tuple[str, ...] = ()  # what an imported list holds that is not modelled (battlescribe)

    def unit_fields(self, unit: Unit) -> dict[str, Any]:
        """A unit as data: its game, name, points, every field, and its weapons' fields."""
        return {"game": self.game.name, "source": self.source, "name": unit.name, "points": unit.points,
                **dict(unit.values), "weapons": [{"name": weapon.name, **dict(weapon.values)}
                                                 for weapon in unit.weapons]}

    def unit(self, name: str) -> Unit:
        """The unit called `name`."""
        return self.select([name], "unit")[0]

    def select(self, names: Iterable[str] | None, option: str) -> tuple[Unit, ...]:
        """The named units (all when names is None), refusing names not in the roster."""
        if names is None:
            return self.units
        known = {unit.name.casefold(): unit for unit in self.units}  # names match whatever their case
        chosen = []
        for name in names:
            if name.casefold() not in known:
                close = difflib.get_close_matches(name, [unit.name for unit in self.units], 1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise InputError(option, name, f"no such unit in {self.source}{hint}; it has "
                                               f"{', '.join(unit.name for unit in self.units)}")
            chosen.append(known[name.casefold()])
        return tuple(chosen)


def _fail(source: str, where: str, field_name: str | None, message: str) -> InputError:
    place = f"{where}, field '{field_name}'" if field_name else where
    return InputError("file", source, f"{place}: {message}")


def _tables(value: Any, source: str, where: str, key: str) -> list[dict[str, Any]]:
    """An array of tables (`[[unit]]`, `[[unit.weapon]]`), or the one-line error saying what it is instead."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise _fail(source, where, key, f"expected an array of tables ([[{'unit.' if key == 'weapon' else ''}"
                                        f"{key}]]), not {type(value).__name__} {value!r:.40}")
    return value


def _checked(raw: dict[str, Any], fields: dict[str, Field], source: str, where: str) -> dict[str, Any]:
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
                if unknown:
                    raise _fail(source, where, name, f"unknown {unknown[0]!r}; {spec.allowed()}") from None
            raise _fail(source, where, name, f"{raw[name]!r:.60} is not allowed; {spec.allowed()}") from None
    return values


def build(data: dict[str, Any], source: str, game: Game) -> Roster:
    """Check a roster's parsed TOML against its game's schema, unit by unit and weapon by weapon."""
    extra = set(data) - {"game", "unit"}
    if extra:
        raise InputError("file", source, f"unknown top-level key {sorted(extra)[0]!r}; expected game and [[unit]]")
    raw_units = _tables(data.get("unit", []), source, "the roster", "unit")
    if not raw_units:
        raise InputError("file", source, "the roster is empty: add [[unit]] tables")
    units, seen = [], set()
    for index, raw in enumerate(raw_units, 1):
        name = raw.get("name")
        where = f"unit {name!r}" if isinstance(name, str) else f"unit #{index}"
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, where, "name", "missing; every unit needs a name")
        if len(name) > MAX_NAME:
            raise _fail(source, f"unit #{index}", "name", f"{len(name):,} characters; at most {MAX_NAME}")
        if name.casefold() in seen:
            raise _fail(source, where, "name", "another unit has this name")
        seen.add(name.casefold())
        values = _checked(raw, game.schema.unit, source, where)
        weapons = []
        for w_index, raw_weapon in enumerate(_tables(raw.get("weapon", []), source, where, "weapon"), 1):
            weapon_name = raw_weapon.get("name")
            w_where = f"{where}, weapon {weapon_name!r}" if isinstance(weapon_name, str) else f"{where}, weapon #{w_index}"
            if isinstance(weapon_name, str) and len(weapon_name) > MAX_NAME:
                raise _fail(source, f"{where}, weapon #{w_index}", "name",
                            f"{len(weapon_name):,} characters; at most {MAX_NAME}")
            weapon_values = _checked(raw_weapon, game.schema.weapon, source, w_where)
            weapons.append(Weapon(weapon_values.pop("name"), tuple(weapon_values.items())))
        values.pop("name")
        points = values.pop("points", None)
        unit = Unit(name, points, tuple(values.items()), tuple(weapons))
        try:
            problem = game.check_unit(unit)
        except InputError as error:  # a pattern the game's parser refused
            raise _fail(source, where, error.name, f"{error.value}: {error.allowed}") from None
        if problem:
            raise _fail(source, where, problem[0], problem[1])
        units.append(unit)
    return Roster(game, source, tuple(units))


def to_toml(data: dict[str, Any], header: Iterable[str] = ()) -> str:
    """Write a roster (`game`, `unit` tables with `weapon` tables) as TOML that `build` reads back.

    `header` lines become comments at the top. Strings use TOML's basic-string escapes.
    """
    import json

    def value(item: Any) -> str:
        if isinstance(item, bool):
            return "true" if item else "false"
        if isinstance(item, (int, float)):
            return str(item)
        if isinstance(item, (list, tuple)):
            return "[" + ", ".join(value(one) for one in item) + "]"
        return json.dumps(str(item), ensure_ascii=False)  # a JSON string is a TOML basic string

    def pairs(table: dict[str, Any]) -> list[str]:
        return [f"{key} = {value(item)}" for key, item in table.items() if item is not None and key != "weapon"]

    lines = [f"# {line}" for line in header] + pairs({k: v for k, v in data.items() if k != "unit"})
    for unit in data.get("unit", []):
        lines += ["", "[[unit]]", *pairs(unit)]
        for weapon in unit.get("weapon", []):
            lines += ["", "[[unit.weapon]]", *pairs(weapon)]
    return "\n".join(lines) + "\n"
