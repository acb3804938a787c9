"""The one-line refusals of the query grammar: a refused value reads `error: --option value: what is
allowed`, an unknown option says whose it is (`no_such_option`), and a library `InputError` is
blamed on the option the player typed (`input_error`, by the command being read: `READING`)."""

from __future__ import annotations

from contextvars import ContextVar
from enum import Enum
from typing import Any, Callable, Optional, Sequence

from ..errors import InputError, Refusal
from .vocabulary import ENEMY, hint


class OptionError(Exception):
    """A refused option value: shown as `error: --option value: what is allowed` (`hint`: the option
    as the player types it; None: the option being read, once the grammar knows it)."""

    def __init__(self, value: Any, allowed: str, hint: Optional[str] = None, metavar: str = "") -> None:
        super().__init__(f"{hint} {value}: {allowed}")
        self.value = value
        self.allowed = allowed
        self.hint = hint
        self.metavar = metavar

    def blamed(self, option: str, metavar: str = "") -> OptionError:
        """This error, blamed on `option` unless it names one already."""
        if self.hint is not None:
            return self
        return OptionError(self.value, self.allowed, option, metavar)


# The command being read or answered (a `grammar.Command`: its options spell the library's names)
READING: ContextVar[Optional[Any]] = ContextVar("oddscalc_reading", default=None)

# The library's names of the values it refuses whose option is spelled otherwise (the rest are
# `--name`, `to_hit` as `--to-hit`); the command's own option, when it has one, wins.
SPELLED = {"output_format": "--format", "from_square": "--from", "to_square": "--to", "settings": "--set",
           "target_names": "--targets", "file": "FILE", "query": "QUERY", "cells": "--attackers", "folder": "FOLDER"}


def input_error(error: InputError) -> OptionError:
    """A library `InputError` as an option error naming the option the player typed."""
    command = READING.get()
    own = next((opt for opt in command.options if opt.name == error.name), None) if command is not None else None
    if own is not None:
        return OptionError(error.value, error.allowed, own.flag, own.metavar)
    return OptionError(error.value, error.allowed, SPELLED.get(error.name, "--" + error.name.replace("_", "-")))


ECHO = 240  # the most characters of a refused value its line repeats (a pasted page of text is not echoed)


def cut(text: str) -> str:
    """A refused value as its line shows it: whole, quoted when empty or when spaces begin or end it (`''`,
    `' , '`), or its start and how long it was."""
    shown = text if len(text) <= ECHO else f"{text[:ECHO - 20]}… ({len(text):,} characters)"
    return repr(shown) if text != text.strip() or not text else shown


def shown(value: Any, metavar: str = "") -> str:
    """A refused value as the player typed it: a roll as `7+`, a number without a needless `.0`."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and metavar.endswith("+"):
        return f"{value}+"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Enum):  # a choice, as typed: damage-once, not Critical.DAMAGE_ONCE
        return str(value.value)
    return str(value)


OWN = {  # the command line's own options, which no query's words have (`oddscalc.ask`)
    "--format": "how the answer is shown", "--plot": "where its plot is saved", "--threads": "how it runs",
    "--scheduler": "where a study's cells run", "--scheduler-timeout": "where a study's cells run",
}
RETIRED = {  # options a release had, and what replaces them
    "--add-dice": "epic assault adds both dice by default (the rulebook, 1.12.7); --keep-highest keeps the highest",
}
CLOSE = 0.75  # how alike (difflib's ratio, without the dashes) an option must be to be suggested: a typo

Owners = Callable[[str, str], list[str]]  # (option, the query's path) → the other queries that have the option


def unknown(name: str, path: str, own: Sequence[str], owners: Optional[Owners] = None, shell: bool = True) -> Refusal:
    """The refusal of an option the command `path` does not have (`own`: its options): the command line's own
    option asked of the library, a retired one, or `no_such_option`."""
    if not shell and name in OWN:  # asked of the library (the page): it says what to compute, not where it goes
        return Refusal(f"error: {name}: an option of the command line ({OWN[name]}), not a word of a query: the "
                       "page decides it itself", name)
    if name in RETIRED:
        return Refusal(f"error: {name}: no such option now: {RETIRED[name]}", name)
    return Refusal(no_such_option(name, path, own, owners), name)


def no_such_option(name: str, path: str, own: Sequence[str], owners: Optional[Owners] = None) -> str:
    """The line for an option the command does not have: the command's own options close to it (a
    typo: `--crosfire`), and the other queries that have it (`owners`: an option of another game's
    query, `dust attack --to-hit`), never an option merely sharing a few letters."""
    own = sorted({opt for opt in own if opt.startswith("--")})
    enemy = name.lstrip("-").startswith(ENEMY)  # the other side's option: alike in what follows "enemy-"
    bare = {opt.lstrip("-").removeprefix(ENEMY) if enemy else opt.lstrip("-"): opt for opt in own
            if not enemy or opt.startswith("--" + ENEMY)}
    word = name.lstrip("-").removeprefix(ENEMY) if enemy else name.lstrip("-")
    import difflib  # (an error's line only)

    close = [bare[alike] for alike in difflib.get_close_matches(word, list(bare), 2, CLOSE)]
    having = owners(name, path) if owners is not None else []
    line = f"error: {name}: no such option" + (f" of {path}" if path else "")
    called = hint(name, path, own, lambda option: owners(option, "") if owners is not None else [])
    if called:
        line += f" ({called})"
    elif close:
        line += f" (did you mean {', '.join(close)}?)"
    if having:
        listed = ", ".join(having[:4]) + (f" and {len(having) - 4} more" if len(having) > 4 else "")
        line += f"; it is an option of {listed}"
    return line + "; see --help for the options"


def refused(error: Exception) -> Refusal:
    """A refused query as a `Refusal`: its one line, the option it is about as the player types it, and
    the value refused."""
    if isinstance(error, Refusal):
        return error
    if isinstance(error, InputError):
        error = input_error(error)
    if isinstance(error, OptionError):
        option = error.hint or "value"
        value = "" if error.value is None else f" {cut(shown(error.value, error.metavar))}"
        return Refusal(f"error: {option}{value}: {error.allowed}", option, error.value)
    raise TypeError(f"not a refusal: {error!r}")


def one_line(error: Exception) -> str:
    """A refused query's one line."""
    return refused(error).line
