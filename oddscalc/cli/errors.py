"""The one-line error contract: a refused value reads `error: --option value: what is allowed`."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Callable, Optional

from ..errors import InputError, Refusal
from ..vocabulary import ENEMY, hint

try:  # recent Typer carries its own copy of Click, whose exceptions it does not re-export (docs/architecture.md)
    from typer._click import exceptions as click_errors
    from typer._click.globals import get_current_context
except ImportError:  # pragma: no cover - older Typer uses Click itself (the same names: one or the other is seen)
    from click import exceptions as click_errors  # type: ignore[no-redef]
    from click import get_current_context  # type: ignore[no-redef]


__all__ = ["click_errors", "get_current_context"]  # (besides its own names: Click's, as this module reads them)


class OptionError(click_errors.BadParameter):
    """A refused option value: shown as `error: --option value: what is allowed`."""

    def __init__(self, value: Any, allowed: str, param: Any = None, hint: Optional[str] = None) -> None:
        super().__init__(allowed, param=param, param_hint=hint)
        self.value = value
        self.allowed = allowed


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (the terminal closed), handled like Ctrl-C: every thread stops,
    temporary files go, one line is printed."""

    def __init__(self, signal_number: int = 15) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


SIGNAL_NAMES = {1: "hung up (SIGHUP)", 2: "interrupted (Ctrl-C)", 15: "terminated (SIGTERM)"}
# The first stop of a run: its signal's number, and its exit code once its one line is said. A second
# signal while the first is handled is let go: the stop under way ends soon and says its line once.
STOP: dict[str, Optional[int]] = {"number": None, "said": None}


def on_signal(number: int, frame: Any) -> None:
    """The handler of Ctrl-C, SIGTERM and SIGHUP while the command line runs: each stops it as Ctrl-C
    does (every thread stops, temporary files go), once."""
    if STOP["number"] is not None:
        return
    STOP["number"] = number
    raise KeyboardInterrupt(number) if number == 2 else Terminated(number)


def signal_of(error: KeyboardInterrupt) -> int:
    """The signal a stop came by: its number where a handler raised it with one (`KeyboardInterrupt(15)`),
    else Ctrl-C's."""
    return error.args[0] if error.args and type(error.args[0]) is int else 2


def stopped(error: KeyboardInterrupt) -> int:
    """Say in one line that the command was stopped; return its exit code (130 Ctrl-C, 128 + the
    signal's number for SIGTERM and SIGHUP). Said once: a second stop returns the first one's code."""
    import typer

    said = STOP["said"]
    if said is not None:
        return said
    number = error.signal_number if isinstance(error, Terminated) else signal_of(error)
    what = SIGNAL_NAMES.get(number, f"stopped by signal {number}")
    typer.echo(f"error: {what}; nothing more was written", err=True)
    STOP["said"] = code = 128 + number
    return code


# The library's names of the values it refuses whose option is spelled otherwise (the rest are
# `--name`, `to_hit` as `--to-hit`); the command's own parameter, when it has one, wins.
SPELLED = {"output_format": "--format", "from_square": "--from", "to_square": "--to", "settings": "--set",
           "target_names": "--targets", "file": "FILE", "query": "QUERY", "cells": "--attackers", "folder": "FOLDER"}


def input_error(error: InputError) -> OptionError:
    """Turn a library `InputError` into an option error naming the command-line option."""
    param = None
    current = get_current_context(silent=True)
    if current is not None:
        param = next((p for p in current.command.params if p.name == error.name), None)
    hint = None if param is not None else SPELLED.get(error.name, "--" + error.name.replace("_", "-"))
    return OptionError(error.value, error.allowed, param=param, hint=hint)


_CHOICE = re.compile(r"^'(.*)' is not one of (.*?)\.?$")


def _hint(param: Any, given: Any = None) -> str:
    """How the user spells a parameter: `--dice` for an option, `DICE` for an argument."""
    if given:
        return given[0] if isinstance(given, (list, tuple)) else str(given)
    if param is None:
        return "value"
    if param.param_type_name == "argument":
        return str(param.metavar or param.name.upper())
    return str(param.opts[0])


ECHO = 240  # the most characters of a refused value its line repeats (a pasted page of text is not echoed)


def cut(text: str) -> str:
    """A refused value as its line shows it: whole, quoted when empty or when spaces begin or end it (`''`,
    `' , '`), or its start and how long it was."""
    shown = text if len(text) <= ECHO else f"{text[:ECHO - 20]}… ({len(text):,} characters)"
    return repr(shown) if text != text.strip() or not text else shown


def _shown(value: Any, param: Any) -> str:
    """A refused value as the player typed it: a roll as `7+`, a number without a needless `.0`."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and (getattr(param, "metavar", None) or "").endswith("+"):
        return f"{value}+"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Enum):  # a choice, as typed: damage-once, not Critical.DAMAGE_ONCE
        return str(value.value)
    return str(value)


OWN = {  # the command line's own options (options.SHELL), which no query's words have (`oddscalc.ask`)
    "--format": "how the answer is shown", "--plot": "where its plot is saved", "--threads": "how it runs",
    "--scheduler": "where a study's cells run", "--scheduler-timeout": "where a study's cells run",
}
RETIRED = {  # options a release had, and what replaces them
    "--add-dice": "epic assault adds both dice by default (the rulebook, 1.12.7); --keep-highest keeps the highest",
}


def one_line(error: Exception, owners: Optional[Owners] = None) -> str:
    """Format a refused command line as the one line the contract asks for."""
    return refused(error, owners).line


CLOSE = 0.75  # how alike (difflib's ratio, without the dashes) an option must be to be suggested: a typo


Owners = Callable[[str, str], list[str]]  # (option, the query's path) → the other queries that have the option


def no_such_option(name: str, context: Any, owners: Optional[Owners] = None) -> str:
    """The line for an option the command does not have: the command's own options close to it (a
    typo: `--crosfire`), and the other queries that have it (`owners`: an option of another game's
    query, `dust attack --to-hit`), never an option merely sharing a few letters."""
    import difflib

    command = getattr(context, "command", None)
    own = sorted({opt for param in getattr(command, "params", ()) for opt in getattr(param, "opts", ())
                  if opt.startswith("--")})
    enemy = name.lstrip("-").startswith(ENEMY)  # the other side's option: alike in what follows "enemy-"
    bare = {opt.lstrip("-").removeprefix(ENEMY) if enemy else opt.lstrip("-"): opt for opt in own
            if not enemy or opt.startswith("--" + ENEMY)}
    word = name.lstrip("-").removeprefix(ENEMY) if enemy else name.lstrip("-")
    close = [bare[alike] for alike in difflib.get_close_matches(word, list(bare), 2, CLOSE)]
    path = " ".join(word for word in str(getattr(context, "command_path", "")).split() if word != "oddscalc")
    having = owners(name, path) if owners is not None else []
    line = f"error: {name}: no such option" + (f" of {path}" if path else "")
    called = hint(name, path, own, lambda option: owners(option, "") if owners is not None else [])
    if called:
        line += f" ({called})"
    elif close:
        line += f" (did you mean {', '.join(close)}?)"
    if having:
        shown = ", ".join(having[:4]) + (f" and {len(having) - 4} more" if len(having) > 4 else "")
        line += f"; it is an option of {shown}"
    return line + "; see --help for the options"


_EXTRA = re.compile(r"^Got unexpected extra arguments?(?:\(s\))? \((.*)\)$")


def refused(error: Exception, owners: Optional[Owners] = None) -> Refusal:
    """A refused command line as a `Refusal`: its one line, the option it is about as the player
    types it, and the value refused (`owners`: which queries have an option this one lacks)."""
    if isinstance(error, Refusal):
        return error
    if isinstance(error, OptionError):
        option = _hint(error.param, error.param_hint)
        value = "" if error.value is None else f" {cut(_shown(error.value, error.param))}"
        return Refusal(f"error: {option}{value}: {error.allowed}", option, error.value)
    if isinstance(error, InputError):
        option = f"--{error.name.replace('_', '-')}"
        return Refusal(f"error: {option} {cut(str(error.value))}: {error.allowed}", option, error.value)
    if isinstance(error, click_errors.NoSuchOption):
        if error.option_name in OWN:  # asked of the library (the page): it says what to compute, not where it goes
            return Refusal(f"error: {error.option_name}: an option of the command line ({OWN[error.option_name]}), "
                           "not a word of a query: the page decides it itself", error.option_name)
        if error.option_name in RETIRED:
            return Refusal(f"error: {error.option_name}: no such option now: {RETIRED[error.option_name]}",
                           error.option_name)
        return Refusal(no_such_option(error.option_name, getattr(error, "ctx", None), owners), error.option_name)
    if isinstance(error, click_errors.BadOptionUsage) and error.message.endswith("requires an argument."):
        return Refusal(f"error: {error.option_name}: expected a value after it; see --help", error.option_name)
    if isinstance(error, click_errors.MissingParameter):
        return Refusal(f"error: {_hint(error.param)} is required; see --help", _hint(error.param))
    if isinstance(error, click_errors.BadParameter):
        option = _hint(error.param, error.param_hint)
        message = error.message.removeprefix("Value error, ")
        choice = _CHOICE.match(message)
        if choice:  # a refused choice reads like every other refused value
            allowed = ", ".join(part.strip().strip("'") for part in choice.group(2).split(","))
            return Refusal(f"error: {option} {cut(choice.group(1))}: expected one of {allowed}", option,
                           choice.group(1))
        return Refusal(f"error: {option}: {message}", option)
    message = (error.format_message() if isinstance(error, click_errors.ClickException) else str(error)).rstrip(".")
    extra = _EXTRA.match(message)
    if extra:  # Click's "(x)" shows an empty word as "()": the words as typed, quoted where blank
        words = extra.group(1)
        return Refusal(f"error: {cut(words)}: no option takes it (each value follows its option, as in --trials "
                       "1000); see --help", None, words)
    context = getattr(error, "ctx", None)
    if context is not None and hasattr(context.command, "list_commands"):
        message += f"; expected one of: {', '.join(context.command.list_commands(context))}"
    return Refusal(f"error: {message}; see --help")
