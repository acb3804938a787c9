"""An engagement of sides (`core/attack.py:side`), made of its options by name: `Sided`, the shape the 9th Age's
`Combat` and Epic's `Assault` share."""

from __future__ import annotations

import dataclasses
from typing import Any

from .attack import SIDE, option_fields, read_value, sides_of


class Sided:
    """An engagement of sides (`side` fields), still made of its options by name, as its query types them
    (`models=5, enemy_models=20`: each side's read into its value; a side given whole, the named options change
    it), and reading them as attributes (`combat.enemy_models`). A subclass is a dataclass with `init=False`."""

    def __init__(self, **values: Any) -> None:
        kind = type(self)
        for name, _prefix, side_kind in sides_of(kind):
            whole = values.pop(name, None)
            own = [field for field in option_fields(kind) if field.metadata.get("owner") == name]
            missing = [field.name for field in own if field.name not in values and field.default is dataclasses.MISSING
                       and field.default_factory is dataclasses.MISSING]
            if whole is None and missing:
                raise TypeError(f"{kind.__name__} needs the option {missing[0]}")
            given = {field.metadata["inner"]: read_value(kind, field, values.pop(field.name))  # type: ignore[arg-type]
                     for field in own if field.name in values}
            object.__setattr__(self, name, dataclasses.replace(whole, **given) if whole is not None
                               else side_kind(**given))
        for field in dataclasses.fields(kind):  # type: ignore[arg-type]
            if SIDE in field.metadata:
                continue
            made = field.default_factory
            object.__setattr__(self, field.name, values.pop(field.name) if field.name in values
                               else field.default if field.default is not dataclasses.MISSING
                               else made())  # type: ignore[operator]  # (one of the two is set)
        if values:
            raise TypeError(f"{kind.__name__} got unexpected options: {', '.join(sorted(values))}")
        self.__post_init__()

    def __getattr__(self, name: str) -> Any:
        """A side's option by the query's name (`models`, `enemy_models`): its side's field (only a name no field
        has comes here: a side's own field, before it is set, is none of a side's)."""
        for field, prefix, names in side_names(type(self)):
            inner = name[len(prefix):]
            if name.startswith(prefix) and inner in names:
                return getattr(getattr(self, field), inner)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def change_side(self, prefix: str, **changes: Any) -> None:
        """Change a side's fields (the values its checks read), as the attack is made."""
        name = next(field for field, side_prefix, _ in sides_of(type(self)) if side_prefix == prefix)
        object.__setattr__(self, name, dataclasses.replace(getattr(self, name), **changes))


NAMES: dict[type, list[tuple[str, str, frozenset[str]]]] = {}


def side_names(attack: type) -> list[tuple[str, str, frozenset[str]]]:
    """An attack's sides as (field, prefix, its fields' names): what a side's option by name is looked up in."""
    found = NAMES.get(attack)
    if found is None:
        found = NAMES[attack] = [(field, prefix, frozenset(each.name for each in dataclasses.fields(kind)))
                                  for field, prefix, kind in sides_of(attack)]
    return found
