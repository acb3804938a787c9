"""A roster grid's cells: the attack a unit's weapon makes on a target (`attack_of`, `assault_of`, with
`grid.matchups` choosing the pairs), which weapons reach (`in_range`), and the `--set` values applied to
them (`read_settings`, `adjuster`, `adjusted`).

A cell's attack is built by the game's `matchup` (or its `assault`, or `together`) from the roster's
fields; a value an attack refuses is named where the roster writes it: its file, unit, weapon and field.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable, Sequence

from ..core.attack import option_fields, text
from ..errors import InputError, did_you_mean, require
from ..lists.roster import Game, Unit, Weapon
from ..core.record import record


@record
class Matchup:
    """A weapon of an attacking unit against a target unit, and the attack it makes."""

    attacker: Unit
    weapon: Weapon
    target: Unit
    attack: Any  # None when the weapon cannot attack that target


TOGETHER = "all weapons"  # the weapon name of a unit's weapons fired together


def attack_of(game: Game, attacker: Unit, weapon: Weapon, target: Unit, sources: tuple[str, str]) -> Any:
    """The attack of one cell; a value of the roster that the attack refuses, named where it is written."""
    try:
        return game.matchup(attacker, weapon, target)
    except InputError as error:
        field = error.name
        if field in game.schema.weapon:
            place, source = f"unit {attacker.name!r}, weapon {weapon.name!r}", sources[0]
        elif field in game.schema.unit:
            holders = [(unit, source) for unit, source in ((attacker, sources[0]), (target, sources[1]))
                       if str(unit[field]) == str(error.value)] or [(attacker, sources[0]), (target, sources[1])]
            place = " or ".join(dict.fromkeys(f"unit {unit.name!r}" for unit, _ in holders))
            source = holders[0][1]
        else:
            raise
        raise InputError("file", source, f"{place}, field '{field}': {error.value}: {error.allowed}") from None


def assault_of(engage: Callable[[Unit, Unit], Any], game: Game, attacker: Unit, target: Unit,
             sources: tuple[str, str]) -> Any:
    """The assault of one cell (`engage`: the game's); a value the assault refuses named where the roster writes
    it (an `enemy_` field is the target's)."""
    try:
        return engage(attacker, target)
    except InputError as error:
        field = error.name.removeprefix("enemy_")
        unit, source = (target, sources[1]) if error.name.startswith("enemy_") else (attacker, sources[0])
        if field not in game.schema.unit:
            raise
        raise InputError("file", source, f"unit {unit.name!r}, field '{field}': {error.value}: {error.allowed}") \
            from None


@record
class InRange:
    """The attacking units with only their weapons that reach a distance, and the weapons
    ("unit: weapon") that do not, or that have no range (kept: nothing says they cannot fire)."""

    units: tuple[Unit, ...]
    out_of_range: tuple[str, ...] = ()
    no_range: tuple[str, ...] = ()
    distance: int | None = None  # None: every weapon kept, none checked

    def notes(self) -> list[str]:
        """What the distance left out, and kept without knowing, in words."""
        if self.distance is None:
            return []
        beyond = [f"out of range at {self.distance} squares (left out): {'; '.join(self.out_of_range)}"]
        unknown = [f"no range given (kept): {'; '.join(self.no_range)}"]
        return beyond * bool(self.out_of_range) + unknown * bool(self.no_range)

    def json(self) -> dict[str, Any]:
        """The same, as JSON carries it (nothing without a distance)."""
        if self.distance is None:
            return {}
        return {"distance": self.distance, "out_of_range": list(self.out_of_range), "no_range": list(self.no_range)}


def in_range(game: Game, units: Iterable[Unit], distance: int | None) -> InRange:
    """Keep the weapons that reach `distance` squares (all of them when it is None)."""
    units = tuple(units)
    if distance is None:
        return InRange(units)
    reaches = game.reaches
    if reaches is None:
        raise InputError("distance", distance,
                         f"{game.title} rosters have no weapon ranges; --distance is for Dust Tactics rosters")
    require(isinstance(distance, int) and 0 <= distance <= 999, "distance", distance,
            "expected the distance in squares, 0 to 999")
    kept, beyond, unknown = [], [], []
    for unit in units:
        weapons = []
        for weapon in unit.weapons:
            reach, label = reaches(weapon, distance), f"{unit.name}: {weapon.name}"
            if reach is False:
                beyond.append(label)
                continue
            if reach is None:
                unknown.append(label)
            weapons.append(weapon)
        if weapons:
            kept.append(dataclasses.replace(unit, weapons=tuple(weapons)))
    require(bool(kept), "distance", distance, f"no weapon reaches {distance} squares")
    return InRange(tuple(kept), tuple(beyond), tuple(unknown), distance)


def adjuster(settings: Sequence[tuple[str, Any]], game: Game | None = None) -> Callable[[Any, Unit | None], Any]:
    """A function that applies `--set` values to the attacks that have those fields; an attack
    field the game fills from the attacking unit (`Game.from_attacker`) and that is still empty
    then takes the unit's value (`--set suppressed=2`: of the attacker's own units)."""

    def adjust(attack: Any, attacker: Unit | None = None) -> Any:
        names = {f.name for f in option_fields(type(attack))}
        changes = {name: value for name, value in settings if name in names}
        if changes and attacker is not None and game is not None:
            for setting, field, unit_field in game.from_attacker:
                if setting in changes and field not in changes and getattr(attack, field) is None:
                    changes[field] = attacker[unit_field]
        return dataclasses.replace(attack, **changes) if changes else attack

    return adjust


def read_settings(settings: Sequence[str | tuple[str, Any]], attacks: Sequence[Any]) -> list[tuple[str, Any]]:
    """Read `--set NAME=VALUE` (or (name, value) pairs) for the grid's attacks: the field of an
    attack that has it, its text read as that option reads it (`Attack.read`). A name that
    no attack has, or a value an attack refuses, is named as `set NAME=VALUE`."""
    kinds = list(dict.fromkeys(type(attack) for attack in attacks if attack is not None))
    names = sorted({f.name.replace("_", "-") for kind in kinds for f in option_fields(kind)})
    read = []
    for setting in settings:
        name, equals, value = setting.partition("=") if isinstance(setting, str) else (setting[0], "=", setting[1])
        shown = f"{str(name).strip()}={value}"
        require(bool(equals and str(name).strip()), "set", setting, "expected NAME=VALUE, like crossfire=true")
        field = str(name).strip().lstrip("-").replace("-", "_")
        having = [kind for kind in kinds if field in {f.name for f in option_fields(kind)}]
        require(bool(having), "set", shown, f"no attack in this grid has {str(name).strip()}"
                                            f"{did_you_mean(field.replace('_', '-'), names)}; they have "
                                            f"{', '.join(names)}")
        try:  # every kind of attack that takes it reads it the same way
            values = [kind.read(field, value.strip()) if isinstance(value, str) else value for kind in having]
        except InputError as error:
            raise InputError("set", shown, error.allowed) from None
        read.append((field, values[-1]))
    return read


def adjusted(pair: Matchup, adjust: Callable[[Any, Unit | None], Any], game: Game,
              settings: Sequence[tuple[str, Any]]) -> Matchup:
    """A matchup with the `--set` values applied; a cell that refuses them is named in the error,
    which blames the setting (not a field the game filled from the attacking unit)."""
    try:
        return dataclasses.replace(pair, attack=adjust(pair.attack, pair.attacker))
    except InputError as error:
        filled = {field: setting for setting, field, _ in game.from_attacker}
        name = filled.get(error.name, error.name)
        given = dict(settings)
        if name not in given:
            raise
        raise InputError("set", f"{name.replace('_', '-')}={text(given[name])}", f"{pair.attacker.name}: "
                                f"{pair.weapon.name} → {pair.target.name}: {error.allowed}") from None
