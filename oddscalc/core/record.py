"""`record`: a frozen dataclass whose `==`, hash and repr are shared functions, not made for each class.

`dataclasses.dataclass(frozen=True)` writes and compiles six methods for every class it makes: about 0.6 ms a class
on Python 3.11, some 20 ms of a command line's first answer (35 classes). A record's `__init__`, `__setattr__` and
`__delattr__` are still dataclasses' own; its `__eq__`, `__hash__` and `__repr__` are three functions made once,
which read each class's fields through one `operator.attrgetter`. They mean what dataclasses' do: equal when the
classes are the same and the compared fields are, the hash of those fields (a field's `hash=` as dataclasses reads
it), and `Name(field=value, ...)` of the fields shown. A method the class writes itself is kept.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from typing import Any, Callable, TypeVar, dataclass_transform, overload

T = TypeVar("T")


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields `names` of an instance, as a tuple (one name too, as dataclasses compares a 1-tuple)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        name = names[0]
        return lambda self: (getattr(self, name),)
    return lambda self: ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self.__class__._record_keys[0]
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__._record_keys[1](self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = self.__class__._record_keys[2]
    return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in shown)})"


def _shared(cls: type[T], eq: bool) -> type[T]:
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # (a dataclass now)
    hashed = [field.name for field in fields if (field.compare if field.hash is None else field.hash)]
    setattr(cls, "_record_keys", (_getter([field.name for field in fields if field.compare]), _getter(hashed),
                                     tuple(field.name for field in fields if field.repr)))
    methods: dict[str, Any] = {"__repr__": _repr}
    if eq:
        methods.update(__eq__=_eq, __hash__=_hash)
    for name, method in methods.items():  # a class's own method is kept; a hash that Python made None because the
        own = cls.__dict__.get(name, dataclasses.MISSING)  # class wrote `__eq__` is not its own (dataclasses' rule)
        if own is dataclasses.MISSING or (name == "__hash__" and own is None and "__eq__" in cls.__dict__):
            setattr(cls, name, method)
    return cls


@overload
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, kw_only: bool = False, init: bool = True, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


def record(cls: type[T] | None = None, /, *, kw_only: bool = False, init: bool = True, eq: bool = True) -> Any:
    """A frozen dataclass (`@record`, `@record(kw_only=True)`): dataclasses' own `__init__` and freezing, and the
    shared `__eq__`, `__hash__` and `__repr__` above (`eq=False`: compared and hashed by identity, as
    dataclasses' `eq=False`)."""

    def make(cls: type[T]) -> type[T]:
        made = dataclasses.dataclass(cls, frozen=True, kw_only=kw_only, init=init, eq=False, repr=False)
        return _shared(made, eq)

    return make if cls is None else make(cls)
