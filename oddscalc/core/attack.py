"""What every attack is: outcomes, a sampler, an exact twin, and the query that names it.

An attack is a frozen dataclass that derives from `Attack`. It gives its `outcomes`
(names, the main one first), `sample(rng, trials)` (vectorised over trials) and
`pmfs(number)`, its exact twin: every chance it feeds into pmf algebra goes through
`number` (float, or Fraction for exact rationals). `Attack.exact` is the one place that
picks that number type.

Every field of an attack is the option of the same name of its query command
(`to_hit` is `--to-hit`), except the fields named in `ARGUMENTS`, which the command
takes as arguments. An attack reads its own option text: any field may be given as the
text a player types (`to_hit="4+"`, `sustained="true"`, `save="hit"`, `Salvo("3/2-5/2")`),
read when the attack is made (`Attack.read` reads one field, `Attack.from_options` a
query's options by their names), so Python, the command line, `sweep --vary` and
`grid --set` read a value one way. And an attack can write the command line that
computes it (`query`), and a stable `key` of its non-default fields, which names a study
cell's random stream: adding a field with a default changes no existing key.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import types
import typing
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

from .dice import parse_roll
from .terms import in_floats
from ..errors import InputError, did_you_mean, require

if TYPE_CHECKING:
    import numpy as np

ROLL = {"roll": True}  # field metadata: a roll needed, written "4+" in a query
ROLL_OR_NONE = {"roll": True, "none": True}  # a roll needed, or "none" (no roll at all)


def option(help: str, default: Any = dataclasses.MISSING, *, metavar: str | None = None, roll: bool = False,
           none: bool = False, many: Callable[[str], Any] | None = None, first: bool = False,
           reader: Callable[[str], Any] | None = None) -> Any:
    """Declare an attack's field with what its query option says about it in --help.

    `roll`: a roll needed, written "4+"; `none`: "none" is allowed (no roll at all);
    `many`: the option is repeated, each value read by this function (the field is a tuple);
    `reader`: reads the field's text, a notation of its own (a salvo's "3/2-5/2", Armour "5+");
    `first`: listed with the required options though it has a default (required unless
    another option makes it needless). The command line builds each query's options from these
    declarations.
    """
    metadata = {"help": help, "metavar": metavar, "roll": roll, "none": none, "many": many, "first": first,
                "reader": reader}
    return dataclasses.field(default=default, metadata=metadata)


class Attack:
    """The base of every attack (see the module's docstring)."""

    COMMAND: ClassVar[str] = ""  # the query command, like "epic shoot"
    ARGUMENTS: ClassVar[tuple[str, ...]] = ()  # fields given as the command's arguments
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]  # every attack is a dataclass

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The names of what the attack counts, the main one first (a class's tuple, or worked out from its fields)."""
        raise NotImplementedError

    @property
    def events(self) -> tuple[str, ...]:
        """The outcomes that are yes/no (0 or 1), shown as probabilities (a class's tuple, or from its fields)."""
        return ()

    def __post_init__(self) -> None:
        """Read every field given as text (`read`), then let the attack check its values."""
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.init and (isinstance(value, str) or field.metadata.get("many")):
                object.__setattr__(self, field.name, read_value(type(self), field, value))
        self.check()

    def check(self) -> None:
        """Refuse values the attack cannot take (`InputError` naming the field); each attack its own."""

    TRAITS: ClassVar[frozenset[str]] = frozenset()  # fields that describe a unit as its profile has it

    def idle(self) -> dict[str, str]:
        """The fields set off their defaults that change nothing in this attack, each with what it needs to
        count ("only applies with --flank or --rear"). A typed query refuses them, or notes them (`check_query`);
        a roster or a grid, which gives every field its unit has, keeps them, and the query it writes leaves them
        out."""
        return {}

    def check_query(self) -> tuple[str, ...]:
        """Refuse, in one line, the first option of a typed query that changes nothing in it (`idle`); a unit's
        trait that does nothing against this enemy (`TRAITS`: Cannot be Stomped with no stomp against it) is
        kept, as a player copies a profile whole: the notes say so."""
        notes = []
        for name, needs in self.idle().items():
            value = text(getattr(self, name), field_of(type(self), name))
            if name not in self.TRAITS:
                raise InputError(name, value, needs)
            option = "--" + name.replace("_", "-") + ("" if value == "true" else f" {value}")
            notes.append(f"{option} changes nothing here: it {needs}")
        return tuple(notes)

    @classmethod
    def read(cls, name: str, text: str) -> Any:
        """The value of the field `name` (or its option's spelling, `to-hit`) from the text a
        player types: "4+" for a roll, "true", "hit" for a choice, "none" where nothing is
        allowed; a field that reads its own notation keeps the text for the attack to read."""
        return read_value(cls, field_named(cls, name), text)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Attack:
        """The attack of a query's options, by their names as typed (`{"to-hit": "4+",
        "--shots": "6"}`) or as fields; text values are read as the query reads them."""
        fields = {}
        for name, value in options.items():
            field = field_named(cls, name)
            if field.name in fields:
                raise InputError(field.name, value, f"is given twice (as {name} and as another spelling)")
            fields[field.name] = value
        return cls(**fields)

    def describe(self) -> str:
        """The attack in words, for titles and headings: "Epic barrage: 6 BP on 3 units, armour 4+"."""
        return self.query().removeprefix("oddscalc ")

    def flags(self, *names: str) -> list[str]:
        """The words of the switches that are on, among `names` (`sustained`, `ignore cover` ...)."""
        return [name.replace("_", " ") for name in names if getattr(self, name)]

    def sample(self, rng: np.random.Generator, trials: int) -> Any:
        raise NotImplementedError

    def pmfs(self, number: Callable[[Any], Any]) -> Mapping[str, np.ndarray | Sequence[Any]]:
        """Return the exact pmf of every outcome, chances converted by `number`: an array of the pmf
        algebra (`pmf`), or a tuple of numbers where no array is needed (`terms`)."""
        raise NotImplementedError

    def exact(self, fractions: bool = False) -> dict[str, np.ndarray | tuple[float, ...]] | dict[str, tuple[Fraction, ...]]:
        """Return the exact pmfs (P(0), P(1), ...): in floats (an array, or a tuple where the twin
        made one), or with `fractions` tuples of Fractions."""
        computed = self.pmfs(Fraction if fractions else float)
        if fractions:
            return {name: tuple(Fraction(p) for p in computed[name]) for name in self.outcomes}
        return {name: in_floats(computed[name]) for name in self.outcomes}

    # --- the query that computes this attack ---------------------------------------

    def arguments(self) -> list[str]:
        """The command's arguments (a subclass with ARGUMENTS writes them)."""
        return [text(getattr(self, name)) for name in self.ARGUMENTS]

    def options(self) -> dict[str, str]:
        """Every option of the query, as text: required fields, then those off their defaults (less the idle
        ones, which change nothing). Worked once per attack (its fields never change): a study asks a cell's
        key many times."""
        if "_options" not in self.__dict__:
            self.__dict__["_options"] = self._written_options()
        return dict(self.__dict__["_options"])

    def _written_options(self) -> dict[str, str]:
        required, chosen, idle = {}, {}, self.idle()
        for field in ordered_fields(type(self)):
            if field.name in self.ARGUMENTS or field.name in idle:
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
        import shlex

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


SIDE = "side"  # a field's metadata: one side of an engagement (its prefix, whose it is), each of its fields an option


def side(prefix: str, who: str, required: tuple[str, ...] = ()) -> Any:
    """Declare one side of an engagement: a value (a dataclass, declared once for both sides) whose fields are the
    query's options, named with `prefix` (`enemy_` for `--enemy-models`), their help saying `who`'s they are
    (`{who}` in a side's help; `{side}`: the prefix as typed); the `required` fields are options this attack needs
    given, whatever the side's default."""
    return dataclasses.field(metadata={SIDE: (prefix, who, required)})


Named = Callable[[str], Callable[[str], Any]]  # a side's option name → the reader of its text


def side_option(help: str, default: Any = dataclasses.MISSING, *, metavar: str | None = None, roll: bool = False,
                none: bool = False, first: bool = False, reader: Named | None = None,
                many: Named | None = None) -> Any:
    """Declare a field of a side (see `side`): as `option`, its `help` saying `{who}` for whose it is and `{side}`
    for its options' prefix; `reader(name)` and `many(name)` read its text (once per value: a repeated option),
    refusing in the name of the side's own option (`enemy_mount`)."""
    declared = option(help, default, metavar=metavar, roll=roll, none=none, first=first,
                      many=(lambda text: text) if many else None)
    return dataclasses.field(default=default, metadata={**declared.metadata, "reader_for": reader, "many_for": many})


_OPTION_FIELDS: dict[type, list[dataclasses.Field[Any]]] = {}


def option_fields(attack: type) -> list[dataclasses.Field[Any]]:
    """An attack's options as fields, in declaration order: its own, and each of a side's fields (`side`) as a field
    of its own, named with the side's prefix, its help and reader the side's (worked once per class)."""
    found = _OPTION_FIELDS.get(attack)
    if found is None:
        found = []
        for field in dataclasses.fields(attack):
            where = field.metadata.get(SIDE)
            if not field.init:
                continue
            if where is None:
                found.append(field)
                continue
            kind = hint_of(attack, field.name)
            prefix, who, required = where
            found += [_side_field(inner, field.name, prefix, who, hint_of(kind, inner.name), inner.name in required)
                      for inner in dataclasses.fields(kind)]
        _OPTION_FIELDS[attack] = found
    return found


def _side_field(inner: dataclasses.Field[Any], owner: str, prefix: str, who: str, hint: Any,
                required: bool) -> dataclasses.Field[Any]:
    """A side's field as the query's option: named `prefix` + its name, its help `who`'s, its reader refusing in
    that option's name, with no default where the attack needs it given."""
    name, meta = prefix + inner.name, dict(inner.metadata)
    reader_for, many_for = meta.pop("reader_for", None), meta.pop("many_for", None)
    meta.update(help=meta["help"].format(who=who, side=prefix.replace("_", "-")), hint=hint, owner=owner,
                inner=inner.name, reader=reader_for(name) if reader_for else meta.get("reader"),
                many=many_for(name) if many_for else meta.get("many"))
    default = dataclasses.MISSING if required else inner.default
    flat: dataclasses.Field[Any] = dataclasses.field(default=default, default_factory=inner.default_factory,
                                                     metadata=meta)
    flat.name, flat.type = name, hint
    return flat


_SIDES: dict[type, list[tuple[str, str, Any]]] = {}


def sides_of(attack: type) -> list[tuple[str, str, Any]]:
    """An attack's sides: (its field, its options' prefix, its kind), the longer prefix first."""
    found = _SIDES.get(attack)
    if found is None:
        found = _SIDES[attack] = sorted(((field.name, field.metadata[SIDE][0], hint_of(attack, field.name))
                                         for field in dataclasses.fields(attack) if SIDE in field.metadata),
                                        key=lambda side: -len(side[1]))
    return found


def ordered_fields(attack: type[Attack]) -> list[dataclasses.Field[Any]]:
    """An attack's option fields as a query lists them: required first, a class's own before its base's (a side's
    too: the charger's own options before those every unit has, a formation's before the `Defences` it shares)."""
    own_first = {attack: _own_first(attack), **{kind: _own_first(kind) for _, _, kind in sides_of(attack)}}
    kinds = {field: kind for field, _, kind in sides_of(attack)}
    return sorted(option_fields(attack), key=lambda f: (
        f.default is not dataclasses.MISSING and not f.metadata.get("first"),
        own_first[attack].index(f.metadata.get("owner", f.name)),
        own_first[kinds[f.metadata["owner"]]].index(f.metadata["inner"]) if "owner" in f.metadata else 0))


def _own_first(kind: type) -> list[str]:
    """A dataclass's fields, a class's own before its bases' (each class's in its declaration's order)."""
    return list(dict.fromkeys(name for cls in kind.__mro__ for name in vars(cls).get("__annotations__", {})))


def field_of(attack: type[Attack], name: str) -> dataclasses.Field[Any]:
    return next(field for field in option_fields(attack) if field.name == name)


MANY = ","  # a repeated option's values, written as one text (in keys and options())


def field_named(attack: type[Attack], name: str) -> dataclasses.Field[Any]:
    """The field of an attack that an option names (`to-hit`, `--to-hit` or `to_hit`), or refuse it."""
    wanted = str(name).strip().lstrip("-").replace("-", "_")
    fields = option_fields(attack)
    for field in fields:
        if field.name == wanted:
            return field
    names = [field.name.replace("_", "-") for field in fields]
    raise InputError(wanted or "option", name, f"is not an option of {attack.COMMAND or attack.__name__}"
                                               f"{did_you_mean(wanted.replace('_', '-'), names)}; it has "
                                               f"{', '.join(names)}")


_HINTS: dict[tuple[type, str], Any] = {}


def hint_of(kind: type, name: str) -> Any:
    """A dataclass field's type, read once per class and field: its annotation evaluated alone, in the module of the
    class that declares it, as `typing.get_type_hints` evaluates every one of a class's (a first answer reads a few
    fields of an attack with 60)."""
    key = (kind, name)
    if key not in _HINTS:
        owner = next(cls for cls in kind.__mro__ if name in vars(cls).get("__annotations__", {}))
        annotation = vars(owner)["__annotations__"][name]
        _HINTS[key] = (eval(annotation, vars(sys.modules[owner.__module__])) if isinstance(annotation, str)
                       else annotation)  # (the source's own annotation, as typing evaluates it)
    return _HINTS[key]


def kind_of(attack: type[Attack], field: dataclasses.Field[Any]) -> tuple[Any, bool]:
    """The type a field's text is read as (None: the attack reads the text itself), and whether
    it may be None."""
    hint = field.metadata["hint"] if "hint" in field.metadata else hint_of(attack, field.name)
    args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    base = [arg for arg in args if arg is not type(None)]
    optional = len(base) < len(args)
    if len(base) != 1:
        return None, optional
    return base[0], optional


WHOLE = "expected a whole number"
TRUTH = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")


def is_whole(text: str) -> bool:
    """Whether text is a whole number as an option reads it: ASCII digits, one sign at most (not `²`,
    `+-3`, `1_0` or `1e3`)."""
    return _WHOLE.fullmatch(str(text).strip()) is not None


def read_whole(text: str, name: str) -> int:
    """Read a whole number (negative allowed: `-1` for a modifier), the one reader of every option's
    whole number; anything else (`²`, `+-3`, `1_0`) is refused in one line, not read."""
    if not is_whole(text):
        raise InputError(name, text, WHOLE)
    return int(str(text).strip())


def unset_roll(field: dataclasses.Field[Any]) -> bool:
    """Whether a field is a roll whose default 0 says "not given" (Epic's NOT_GIVEN: `--other-armour` left out,
    where "none" is a value): a typed 0+ is refused, not read as left out."""
    return bool(field.metadata.get("roll")) and type(field.default) is int and field.default == 0


def read_value(attack: type[Attack], field: dataclasses.Field[Any], value: Any) -> Any:
    """A field's value from its text, as its query option reads it (a value not text is kept)."""
    meta, name = field.metadata, field.name
    if meta.get("many"):
        values = () if value is None else (value,) if isinstance(value, str) else tuple(value)
        return tuple(meta["many"](one) if isinstance(one, str) else one for one in values)
    if not isinstance(value, str):
        return value
    kind, optional = kind_of(attack, field)
    if optional and meta.get("none") and value.strip().lower() == "none":  # where the help offers "none"
        return None
    if meta.get("reader"):
        return meta["reader"](value)
    if kind is None:
        return value  # text the attack checks itself
    if meta.get("roll"):
        none = meta.get("none", False)
        allowed = f"expected a roll like 4+ (or 4){', or none' if none else ''}"
        roll = parse_roll(value, name, allowed, none)
        require(roll != 0 or not unset_roll(field), name, value, allowed)  # a typed 0+ is not "not given"
        return roll
    if kind is bool:
        truth = TRUTH.get(value.strip().lower())
        if truth is None:
            raise InputError(name, value, "is a switch: true or false")
        return truth
    if isinstance(kind, type) and issubclass(kind, Enum):
        for member in kind:
            if str(member.value).lower() == value.strip().lower():
                return member
        raise InputError(name, value, f"expected one of {', '.join(str(m.value) for m in kind)}")
    if kind is int:
        return read_whole(value, name)
    return value


def text(value: Any, field: dataclasses.Field[Any] | None = None) -> str:
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
