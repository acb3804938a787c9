"""Names a package offers, imported from their modules the first time they are used (PEP 562), so
that importing the package costs nothing until a name is asked for: the library's first answer
imports the attack's own modules, not every game's."""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import Any, Callable, Mapping


def exports(package: str, where: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's `__getattr__` and `__dir__` for `where` (each name → the module, relative to the
    package, that defines it); a name once imported is kept in the package."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*where, *vars(sys.modules[package])})

    return __getattr__, __dir__


class Deferred(types.ModuleType):
    """A module imported the first time one of its names is read, then read as that module (its names copied in):
    `numpy`, so that an exact answer that needs no arrays imports none, though its modules name numpy."""

    def __getattr__(self, name: str) -> Any:
        module = import_module(self.__name__)
        self.__dict__.update(vars(module))
        return getattr(module, name)


numpy = Deferred("numpy")  # a module that names it: `if TYPE_CHECKING: import numpy as np` / `else:` this as np
