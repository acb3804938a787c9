"""The one-line error contract: a refused value reads `error: --option value: what is allowed`."""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from ..errors import InputError, Refusal
from ..query.refusals import OptionError as LibraryOptionError
from ..query.refusals import cut, no_such_option, refused as library_refused, shown
from ..query.refusals import input_error as library_input_error

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


def input_error(error: InputError) -> Exception:
    """A library `InputError` of one of the command line's own commands (`profiles --file`) as an option error
    naming its option; else the query grammar's (`query.refusals.input_error`)."""
    current = get_current_context(silent=True)
    param = next((p for p in current.command.params if p.name == error.name), None) if current is not None else None
    if param is None:
        return library_input_error(error)
    return OptionError(error.value, error.allowed, param=param)


def clicked(reader: Callable[[str], Any]) -> Callable[[str], Any]:
    """A reader of the query grammar (`query.numbers.whole`) as a parser of the command line's own Typer options:
    its refusal is Click's, so that Click names the option."""

    def read(text: str) -> Any:
        try:
            return reader(text)
        except LibraryOptionError as error:
            raise OptionError(error.value, error.allowed) from None

    return read


Owners = Callable[[str, str], list[str]]  # (option, the query's path) → the other queries that have the option


def one_line(error: Exception, owners: Optional[Owners] = None) -> str:
    """Format a refused command line as the one line the contract asks for."""
    return refused(error, owners).line


_EXTRA = re.compile(r"^Got unexpected extra arguments?(?:\(s\))? \((.*)\)$")


def refused(error: Exception, owners: Optional[Owners] = None) -> Refusal:
    """A refused command line as a `Refusal`: its one line, the option it is about as the player
    types it, and the value refused (`owners`: which queries have an option this one lacks)."""
    if isinstance(error, (Refusal, InputError, LibraryOptionError)):
        return library_refused(error)
    if isinstance(error, OptionError):
        option = _hint(error.param, error.param_hint)
        value = "" if error.value is None else f" {cut(shown(error.value, getattr(error.param, 'metavar', '') or ''))}"
        return Refusal(f"error: {option}{value}: {error.allowed}", option, error.value)
    if isinstance(error, click_errors.NoSuchOption):
        context = getattr(error, "ctx", None)
        own = [opt for param in getattr(getattr(context, "command", None), "params", ()) for opt in param.opts]
        path = " ".join(word for word in str(getattr(context, "command_path", "")).split() if word != "oddscalc")
        return Refusal(no_such_option(error.option_name, path, own, owners), error.option_name)
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
