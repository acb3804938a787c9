"""What every attack is: outcomes, a sampler, an exact twin, and the query that names it.

An attack is a frozen dataclass that derives from `Attack`. It gives its `outcomes`
(names, the main one first), `sample(rng, trials)` (vectorised over trials) and
`pmfs(number)`, its exact twin: every chance it feeds into pmf algebra goes through
`number` (float, or Fraction for exact rationals). `Attack.exact` is the one place that
picks that number type.

Every field of an attack is the option of the same name of its query command
(`to_hit` is `--to-hit`), except the fields named in `ARGUMENTS`, which the command
takes as arguments. So an attack can write the command line that computes it (`query`),
and a stable `key` of its non-default fields, which names a study cell's random stream:
adding a field with a default changes no existing key.
"""

from __future__ import annotations

import dataclasses
import shlex
from enum import Enum
from fractions import Fraction
from typing import Any, Callable, ClassVar, Mapping

import numpy as np

from . import pmf as pmfs
from .dice import parse_roll

ROLL = {"roll": True}  # field metadata: a roll needed, written "4+" in a query
ROLL_OR_NONE = {"roll": True, "none": True}  # a roll needed, or "none" (no roll at all)


def option(help: str, default: Any = dataclasses.MISSING, *, metavar: str | None = None, roll: bool = False,
           none: bool = False, text: bool = False, many: Callable[[str], Any] | None = None,
           first: bool = False) -> Any:
    """Declare an attack's field with what its query option says about it in --help.

    `roll`: a roll needed, written "4+"; `none`: "none" is allowed (no roll at all);
    `text`: the option takes text that the attack reads itself (like "5+" for an Armour);
    `many`: the option is repeated, each value read by this function (the field is a tuple);
    `first`: listed with the required options though it has a default (required unless
    another option makes it needless). The command line builds each query's options from these
    declarations.
    """
    metadata = {"help": help, "metavar": metavar, "roll": roll, "none": none, "text": text, "many": many,
                "first": first}
    return dataclasses.field(default=default, metadata=metadata)


class Attack:
    """The base of every attack (see the module's docstring)."""

    COMMAND: ClassVar[str] = ""  # the query command, like "epic shoot"
    ARGUMENTS: ClassVar[tuple[str, ...]] = ()  # fields given as the command's arguments
    outcomes: tuple[str, ...]
    events: ClassVar[tuple[str, ...]] = ()  # the outcomes that are yes/no (0 or 1): shown as probabilities

    def describe(self) -> str:
        """The attack in words, for titles and headings: "Epic barrage: 6 BP on 3 units, armour 4+"."""
        return self.query().removeprefix("oddscalc ")

    def flags(self, *names: str) -> list[str]:
        """The words of the switches that are on, among `names` (`sustained`, `ignore cover` ...)."""
        return [name.replace("_", " ") for name in names if getattr(self, name)]

    def sample(self, rng: np.random.Generator, trials: int) -> Any:
        raise NotImplementedError

    def pmfs(self, number: Callable[[Any], Any]) -> Mapping[str, np.ndarray]:
        """Return the exact pmf of every outcome, chances converted by `number`."""
        raise NotImplementedError

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray]:
        """Return the exact pmfs: floats, or Fractions with `fractions`."""
        number = Fraction if fractions else float
        computed = self.pmfs(number)
        return {name: pmfs.convert(computed[name], number) for name in self.outcomes}

    # --- the query that computes this attack ---------------------------------------

    def arguments(self) -> list[str]:
        """The command's arguments (a subclass with ARGUMENTS writes them)."""
        return [text(getattr(self, name)) for name in self.ARGUMENTS]

    def options(self) -> dict[str, str]:
        """Every option of the query, as text: required fields, then those off their defaults."""
        required, chosen = {}, {}
        for field in ordered_fields(type(self)):
            if field.name in self.ARGUMENTS:
                continue
            value = getattr(self, field.name)
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING or (
                    field.metadata.get("first") and value != field.default):
                required[field.name] = text(value, field)
            elif value != field.default:
                chosen[field.name] = text(value, field)
        return {**required, **chosen}

    def query(self) -> str:
        """The command line that computes this attack (`oddscalc epic shoot --shots 12 ...`).

        An attack without a command (a library-only one) is written as a Python call.
        """
        if not self.COMMAND:
            return f"{type(self).__name__}({', '.join(f'{k}={v}' for k, v in self.options().items())})"
        words = ["oddscalc", *self.COMMAND.split(), *self.arguments()]
        for name, value in self.options().items():
            option = "--" + name.replace("_", "-")
            for one in value.split(MANY) if field_of(type(self), name).metadata.get("many") else [value]:
                words += [option] if one == "true" else [option, one]
        return shlex.join(words)

    def key(self) -> str:
        """A stable name of this attack: its command and its options off their defaults, sorted."""
        options = self.options()
        fields = [f"{name}={options[name]}" for name in sorted(options)]
        arguments = self.arguments()
        return " ".join([self.COMMAND or type(self).__name__, *arguments, *fields])


def ordered_fields(attack: type) -> list[dataclasses.Field]:
    """An attack's option fields as a query lists them: required first, a class's own before its base's."""
    own_first = [name for cls in attack.__mro__ for name in vars(cls).get("__annotations__", {})]
    fields = [field for field in dataclasses.fields(attack) if field.init]
    return sorted(fields, key=lambda f: (f.default is not dataclasses.MISSING and not f.metadata.get("first"),
                                         own_first.index(f.name)))


def field_of(attack: type, name: str) -> dataclasses.Field:
    return next(field for field in dataclasses.fields(attack) if field.name == name)


MANY = ","  # a repeated option's values, written as one text (in keys and options())


def read_many(attack: Any) -> None:
    """Read each repeated option's values (text from a command line) with the field's reader."""
    for field in dataclasses.fields(attack):
        reader = field.metadata.get("many")
        if reader is not None:
            values = getattr(attack, field.name)
            values = () if values is None else (values,) if isinstance(values, str) else tuple(values)
            object.__setattr__(attack, field.name, tuple(reader(v) if isinstance(v, str) else v for v in values))


def read_rolls(attack: Any) -> None:
    """Accept the tabletop spelling of the roll fields: "4+" for 4, and "none" where a field allows it."""
    for field in dataclasses.fields(attack):
        value = getattr(attack, field.name)
        if field.metadata.get("roll") and isinstance(value, str):
            none = field.metadata.get("none", False)
            allowed = f"expected a roll like 4+ (or 4){', or none' if none else ''}"
            object.__setattr__(attack, field.name, parse_roll(value, field.name, allowed, none))


def text(value: Any, field: dataclasses.Field | None = None) -> str:
    """Write a field's value the way its option reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if value is None:
        return "none"
    if field is not None and field.metadata.get("roll"):
        return f"{value}+"
    if field is not None and field.metadata.get("many"):
        return MANY.join(str(one) for one in value)
    return str(value)
