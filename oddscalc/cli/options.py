"""The options of the command line, declared once, and the registry of query commands.

- `Common` (cli/common.py) declares the options every query and study takes (`--trials`,
  `--seed`, `--exact`, ...); a command receives them as one `Common` value, whose `run` is
  the library's `RunOptions`.
- `query(...)` registers a query builder: a plain function from its options to an
  attack. The same registry, `QUERIES`, lets `sweep` and `compare` parse a quoted query
  (`parse_query`) exactly as the command itself does; one option's value is read by the
  attack itself (`Attack.read`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional, Sequence, TypeVar

import typer

from ..attack import Attack, kind_of, ordered_fields, unset_roll
from ..errors import InputError
from .common import COMMON as COMMON  # the common options, as this module's importers know them
from .common import COMMON_OPTIONS as COMMON_OPTIONS
from .common import SHELL as SHELL
from .common import STUDY as STUDY
from .common import Common as Common
from .common import Shell as Shell
from .common import Study as Study
from .common import option as option
from .common import parameters_of
from .errors import input_error

if TYPE_CHECKING:
    from .output import Answer


def examples_epilog(examples: Sequence[str]) -> str:
    return "Examples:\n\n\b\n" + "\n".join(f"  {example}" for example in examples)


@dataclass(frozen=True)
class Terminal:
    """A query or study run from the command line: its path, and the command line's own options;
    `cli/main.py` asks its words and shows the answer."""

    path: str
    shell: Shell


Function = TypeVar("Function", bound=Callable[..., Any])


def signed(function: Function, parameters: Sequence[inspect.Parameter]) -> Function:
    """Give `function` (`**options`) the parameters Typer reads as its options: declared once, on the attack's
    fields and in `Common` and `Study`, not repeated in every command (why: docs/architecture.md)."""
    function.__signature__ = inspect.Signature(list(parameters))  # type: ignore[attr-defined]  # read by inspect
    function.__annotations__ = {p.name: p.annotation for p in parameters}
    return function


# A query's or study's path ("epic shoot", "grid") → the function that answers its words (`ask`): the
# command's own options and the common ones, less the command line's (`SHELL`); it returns an `Answer`.
LANGUAGE: dict[str, Callable[..., Any]] = {}
LOOKS: set[str] = set()  # the paths of LANGUAGE that sample nothing (`look`)


def command(group: typer.Typer, name: str, run: Callable[..., Any], *, examples: Sequence[str],
            help: Optional[str] = None, study: bool = False, without: Sequence[str] = ()) -> Callable[..., Any]:
    """Register `run(**own, common=Common)` (and `study=Study` for a study) as the query or study
    `name` with its own options, the study ones and the common ones: in `LANGUAGE`, the words
    that `oddscalc.ask` answers, and in `group`, the command line's command, which takes its
    own options (`Shell`) and asks the rest.

    Typer reads a command's options from its signature; this is the one place that adds
    the common options to a signature, so that no command has to repeat them. `without`: the study or common
    options this command has not (a balance study has no P(≥ K) columns), so its --help does not offer them.
    """
    own = [p for p in inspect.signature(run, eval_str=True).parameters.values()
           if p.name not in ("common", "study") and p.kind is not p.VAR_KEYWORD]
    parameters = own + [p for p in (STUDY if study else []) + COMMON if p.name not in without]

    def answer(**options: Any) -> Any:
        common = Common.take(options)
        tables = {"study": Study.take(options)} if study else {}
        try:
            return run(**options, common=common, **tables)
        except InputError as error:
            raise input_error(error) from None

    signed(answer, [p for p in parameters if p.name not in SHELL])
    LANGUAGE[name] = answer

    @functools.wraps(run)
    def invoke(**options: Any) -> Terminal:
        return Terminal(name, Shell.take(options))  # the command line asks it (cli/main.py)

    signed(invoke, parameters)
    text = help or inspect.getdoc(run) or ""
    group.command(name.split()[-1], help=text, short_help=short_help(text),
                  epilog=examples_epilog(examples))(invoke)
    return invoke


FORMAT = parameters_of(Common)[[field.name for field in fields(Common)].index("output_format")]


def look(group: typer.Typer, name: str, run: Callable[..., Any], *, examples: Sequence[str], help: str, title: str,
         about: str) -> None:
    """Register `run(**own)` as `name`, a command that samples nothing (`dust los`): in `LANGUAGE` with
    its own options, and in `group` with --format too; `run` returns an `output.Answer`. `title` and
    `about` as for `query`."""
    own = list(inspect.signature(run, eval_str=True).parameters.values())

    def answer(**options: Any) -> Any:
        try:
            return run(**options)
        except InputError as error:
            raise input_error(error) from None

    signed(answer, own)
    LANGUAGE[name] = answer
    LOOKS.add(name)
    ABOUT[name] = About(title, about, tuple(examples))

    @functools.wraps(run)
    def invoke(**options: Any) -> Terminal:
        return Terminal(name, Shell.take(options))

    signed(invoke, [*own, FORMAT])
    group.command(name.split()[-1], help=help, short_help=short_help(help), epilog=examples_epilog(examples))(invoke)


def short_help(text: str) -> str:
    """A command's line in its group's list: its help's first sentence, or its first clause when
    the sentence is long, cut at a word and never inside a notation like `A/X-B/X-...`."""
    first = " ".join(text.split("\n\n")[0].split())
    sentence = re.split(r"(?<=[.;])\s", first, maxsplit=1)[0].rstrip(".;")
    if len(sentence) <= SHORT:
        return sentence
    clause = re.split(r":\s", sentence, maxsplit=1)[0]
    if len(clause) <= SHORT:
        return clause
    words = sentence[:SHORT].rsplit(" ", 1)[0]
    return words.rstrip(",;:") + " …"


def shorten(command: Any) -> Any:
    """Give a command, and a group's commands, the line `short_help` writes for their group's list."""
    if command is not None and not command.short_help and command.help:
        command.short_help = short_help(command.help)
    for inner in getattr(command, "commands", {}).values():
        shorten(inner)
    return command


SHORT = 64  # characters of a command's line in its group's list


# --- the registry of query commands -------------------------------------------------


@dataclass(frozen=True)
class Query:
    """A query command: its words (`epic shoot`), its options' names, the builder (options →
    attack) and the attack's type."""

    path: str
    names: tuple[str, ...]
    build: Callable[..., Any]
    attack: type[Attack]


QUERIES: dict[str, Query] = {}


@dataclass(frozen=True)
class About:
    """A query in a player's words: its title ("Automatic hits"), the questions it answers ("Breath
    Attack, Impact Hits, Stomp"), and its help's examples (command lines)."""

    title: str
    about: str
    examples: tuple[str, ...]


ABOUT: dict[str, About] = {}  # every query's and look's, by path


def _option_type(attack: type[Attack], field: dataclasses.Field[Any]) -> Any:
    """The type Typer reads an attack field's option as: a switch, a choice, or the text the
    attack reads itself (`Attack.read`: "4+", "6", "none", "d3+1")."""
    if field.metadata.get("many"):
        return Optional[list[str]]  # repeated; the attack reads each value
    kind, optional = kind_of(attack, field)
    if not (kind is bool or (isinstance(kind, type) and issubclass(kind, Enum))):
        kind = str
    return Optional[kind] if optional else kind


def field_options(attack: type[Attack], skip: Sequence[str] = ()) -> list[inspect.Parameter]:
    """One option per field of an attack (`--to-hit` for `to_hit`), declared by the field itself.

    The field's `attack.option(...)` gives the help and metavar; its type gives how the
    option shows in --help (a switch, a choice, a whole number N, a roll X+). Every value
    typed is read by the attack (`Attack.read`), as `sweep --vary` and `grid --set` read it.
    Required fields come first, as --help lists them.
    """
    required: list[inspect.Parameter] = []
    optional: list[inspect.Parameter] = []
    for field in ordered_fields(attack):
        if field.name in attack.ARGUMENTS or field.name in skip:
            continue
        meta = field.metadata
        kind = _option_type(attack, field)
        names = ["--" + field.name.replace("_", "-")]
        settings: dict[str, Any] = {"help": meta.get("help"), "case_sensitive": False}
        if meta.get("metavar") or meta.get("roll") or kind_of(attack, field)[0] is int:
            settings["metavar"] = meta.get("metavar") or ("X+" if meta.get("roll") else "N")
        has_default = field.default is not dataclasses.MISSING
        if meta.get("none") and has_default and field.default is not None:
            settings["show_default"] = False  # a value no one types: "not given" (the help says what it needs)
        info = typer.Option(*names, **{k: v for k, v in settings.items() if v is not None})
        default = field.default if has_default else inspect.Parameter.empty
        if meta.get("many") or unset_roll(field):
            default = None  # not typed: a roll's "not given" is the attack's own (`query` leaves it out), so that
            # a typed 0+ is read, and refused, as typed
        if unset_roll(field):
            kind = Optional[str]
        if isinstance(default, Enum) and kind is str:
            default = default.value
        (optional if has_default else required).append(option(field.name, Annotated[kind, info], default))
    return required + optional


def options_named(text: str, names: set[str]) -> str:
    """A docstring as --help shows it: a field in backticks (`per_template`) is the option a player
    types (`--per-template`)."""
    return re.sub(r"`([a-z_]+)`", lambda match: f"--{match.group(1).replace('_', '-')}" if match.group(1) in names
                  else match.group(0), text)


def query(group: typer.Typer, path: str, attack: type[Attack], *, examples: Sequence[str], title: str, about: str,
          notes: str = "", argument: Optional[inspect.Parameter] = None, extra: Sequence[inspect.Parameter] = (),
          skip: Sequence[str] = (), build: Optional[Callable[..., Any]] = None) -> None:
    """Register the query command `path` (like "epic shoot") that builds and answers an `attack`;
    `title` and `about` say in a player's words what it is and the questions it answers (the page's
    list of queries).

    Its help is the attack's docstring (and `notes`); its options are the attack's fields
    (`field_options`), after an optional `argument` and before `extra` options that are
    not fields (they reach `build`, which then makes the attack; by default the attack is
    built from the options as they are).
    """
    parameters = [*([argument] if argument else []), *field_options(attack, skip), *extra]
    help = options_named(inspect.getdoc(attack) or "", {p.name for p in parameters}) + (f"\n\n{notes}" if notes else "")
    unset = {field.name for field in dataclasses.fields(attack) if unset_roll(field)}

    def make(**options: Any) -> Any:
        return (build or attack)(**{name: value for name, value in options.items()
                                    if not (name in unset and value is None)})

    def run(common: Common, **options: Any) -> Answer:
        from .output import answer

        built = make(**options)  # an attack, or (attack, notes) when the builder has something to say
        attack, notes = built if isinstance(built, tuple) else (built, ())
        return answer(attack, common, (*notes, *attack.check_query()))

    signed(run, parameters)
    command(group, path, run, examples=examples, help=help)
    QUERIES[path] = Query(path, tuple(p.name for p in parameters), make, attack)
    ABOUT[path] = About(title, about, tuple(examples))


def command_for(root: Any, path: str) -> Any:
    """The Click command of a registered query path (`epic shoot`)."""
    command = root
    for word in path.split():
        command = command.get_command(None, word)
    return command
