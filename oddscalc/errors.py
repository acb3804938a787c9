"""The one error type for bad input: it names the parameter, the value and what is allowed."""

from __future__ import annotations

from enum import Enum
from typing import Any


class InputError(ValueError):
    """Refuse a value of a named parameter, saying what would have been allowed.

    `name` is the library's parameter name (`dice`, `to_hit`); the command line shows
    it as the matching option (`--dice`, `--to-hit`).
    """

    def __init__(self, name: str, value: Any, allowed: str) -> None:
        self.name = name
        self.value = value
        self.allowed = allowed
        super().__init__(f"{name} {value!s}: {allowed}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (a study's worker process hands its refusals back)."""
        return type(self), (self.name, self.value, self.allowed)


def require(condition: bool, name: str, value: Any, allowed: str) -> None:
    """Raise `InputError(name, value, allowed)` unless `condition` holds."""
    if not condition:
        raise InputError(name, value, allowed)


def once(key: str, seen: set[str], name: str, value: Any) -> None:
    """Note a profile's key as read, refusing one given twice ('cc 4+ cc 5+' takes neither silently)."""
    require(key not in seen, name, value, f"{key} is given twice: each key once")
    seen.add(key)


def choose(instance: Any, name: str, kind: type[Enum], optional: bool = False) -> None:
    """Accept a frozen dataclass's Enum field given as its value (`save="miss"`), or refuse it."""
    value = getattr(instance, name)
    if isinstance(value, kind) or (optional and value is None):
        return
    try:
        object.__setattr__(instance, name, kind(value))
    except ValueError:
        raise InputError(name, value, f"expected one of {', '.join(m.value for m in kind)}") from None


def did_you_mean(word: str, choices: Any) -> str:
    """` (did you mean crossfire?)` when a choice is close to `word` (a typo), else ``."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), 1)
    return f" (did you mean {close[0]}?)" if close else ""


class Refusal(Exception):
    """A query refused in one line: `line` as the command line prints it (`error: --to-hit 9+:
    expected ...`), `option` as the player types it (`--to-hit`, `PHASER`, `QUERY`; None when the
    line is about no one option) and the `value` refused (None when none was given)."""

    def __init__(self, line: str, option: str | None = None, value: Any = None) -> None:
        line = line.replace("\n", " ")  # one line, whatever the message it came from
        super().__init__(line)
        self.line = line
        self.option = option
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.line, self.option, self.value)
