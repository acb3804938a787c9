"""The options of the command line, declared once, and the registry of query commands.

- `COMMON` declares the options every query and study takes (`--trials`, `--seed`,
  `--exact`, ...); a command receives them as one `Common` value.
- `query(...)` registers a query builder: a plain function from its options to an
  attack. The same registry, `QUERIES`, lets `sweep`, `compare` and `grid --set` parse a
  quoted query (`parse_query`) or one option's value (`convert`) exactly as the command
  itself does.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import shlex
import types
import typing
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

import typer

from ..attack import ordered_fields
from ..dice import parse_roll
from ..errors import InputError
from ..tables import Format
from .errors import OptionError, click_errors, input_error, stopped

# --- parsers for the tabletop spellings ---------------------------------------------

WHOLE = "expected a whole number like 1000000, 1e6 or 2_000_000"


def parse_count(text: str, expected: str = WHOLE) -> int:
    """Read a whole number written `1000000`, `1e6` or `2_000_000`, exactly (no float rounding)."""
    cleaned = str(text).strip().replace("_", "").replace(",", "")
    if len(cleaned) > 60:
        raise OptionError(f"{str(text)[:40]}...", expected)
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise OptionError(text, expected) from None
    if not value.is_finite() or value != value.to_integral_value() or abs(value.adjusted()) > 40:
        raise OptionError(text, expected)
    return int(value)


def parse_seed(text: str) -> int:
    """Read a seed: a whole number, written as a count may be."""
    return parse_count(text, "expected a whole number like 42 or 20261201")


def parse_integer(text: str) -> int:
    """Read a whole number (negative allowed: `-1` for a modifier); `1_0` is refused, not read as 10."""
    cleaned = str(text).strip()
    if not cleaned.lstrip("+-").isdigit() or len(cleaned) > 12:
        raise OptionError(text, "expected a whole number")
    return int(cleaned)


def parse_needed(text: str) -> int:
    """Read a needed roll written `4` or `4+`."""
    try:
        return parse_roll(text, "roll")
    except InputError as error:
        raise OptionError(text, error.allowed) from None


def parse_number(text: str) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise OptionError(text, "expected a number like 0.01") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError(text, "expected a finite number like 0.01")
    return value


def needed(help: str, *names: str) -> Any:
    """An option for a roll needed, accepting `4+` or `4`."""
    return typer.Option(*names, parser=parse_needed, metavar="X+", help=help)


def whole(help: str, *names: str, metavar: str = "N") -> Any:
    """An option for a whole number (which may be negative)."""
    return typer.Option(*names, parser=parse_integer, metavar=metavar, help=help)


# --- the common options -------------------------------------------------------------


class Method(str, Enum):
    MONTE_CARLO = "monte-carlo"
    EXACT = "exact"
    VERIFY = "verify"


def option(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    """Declare one option (or argument) of a command: its name, `Annotated` type and default."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


# Every query and study command takes these (CLI.md, "Options on every query command").
COMMON = [
    option("trials", Annotated[int, typer.Option("--trials", parser=parse_count, metavar="N",
                                                  help="Monte Carlo trials (1e6, 2_000_000).")], 1_000_000),
    option("seed", Annotated[Optional[int], typer.Option(
        "--seed", parser=parse_seed, metavar="S",
        help="Seed of the random stream (default: fresh; the answer records the seed used).")], None),
    option("exact", Annotated[bool, typer.Option(
        "--exact", help="Compute the exact distribution instead of sampling.")], False),
    option("fractions", Annotated[bool, typer.Option(
        "--fractions", help="With --exact: exact rationals too (JSON pmf_fractions, \"1/36\"; table columns).")],
        False),
    option("output_format", Annotated[Format, typer.Option(
        "--format", metavar="F", help="table, json, csv, markdown or bbcode.")], Format.TABLE),
    option("plot", Annotated[Optional[Path], typer.Option(
        "--plot", metavar="PATH", help="Also save a plot of the main outcome (.png, .svg or .pdf).")], None),
    option("precision", Annotated[Optional[float], typer.Option(
        "--precision", parser=parse_number, metavar="E",
        help="Sample until the main mean's standard error is at most E (--trials is the cap).")], None),
    option("verify", Annotated[bool, typer.Option(
        "--verify", help="Run both ways; report the largest CDF gap against the DKW bound.")], False),
    option("threads", Annotated[Optional[int], typer.Option(
        "--threads", parser=parse_count, metavar="T", help="Threads to sample with (default: every core).")], None),
    option("outcome", Annotated[Optional[str], typer.Option(
        "--outcome", metavar="NAME", help="The outcome the table's detail and the plot show (default: the main "
                                          "one).")], None),
]
COMMON_OPTIONS = ("--trials", "--seed", "--exact", "--fractions", "--format", "--plot", "--precision", "--verify", "--threads",
                  "--outcome")


@dataclass(frozen=True)
class Common:
    """The options every query and study command takes (declared in `COMMON`)."""

    trials: int = 1_000_000
    seed: Optional[int] = None
    exact: bool = False
    fractions: bool = False
    output_format: Format = Format.TABLE
    plot: Optional[Path] = None
    precision: Optional[float] = None
    verify: bool = False
    threads: Optional[int] = None
    outcome: Optional[str] = None

    @classmethod
    def take(cls, options: dict[str, Any]) -> Common:
        """Remove the common options from a command's options and return them."""
        return cls(**{field.name: options.pop(field.name) for field in fields(cls) if field.name in options})

    @property
    def method(self) -> Method:
        if self.exact and self.verify:
            raise OptionError(None, "use --exact or --verify, not both (--verify already computes the exact "
                                    "answer)", hint="--verify")
        if self.fractions and not self.exact:
            raise OptionError(None, "exact rationals come with --exact only", hint="--fractions")
        if self.exact and self.precision is not None:
            raise OptionError(self.precision, "--precision applies to sampling; drop it or drop --exact",
                              hint="--precision")
        return Method.EXACT if self.exact else Method.VERIFY if self.verify else Method.MONTE_CARLO

    def one_query(self, command: str) -> None:
        """Refuse what only a single query shows (a study's cells are figures, not distributions)."""
        if self.fractions:
            raise OptionError(None, f"exact rationals are shown for one query: {command} shows figures of many "
                                    "(run a cell's query with --exact --fractions)", hint="--fractions")

    def outcome_of(self, attacks: Sequence[Any]) -> Optional[str]:
        """The outcome asked for with --outcome, refused unless every attack has it."""
        for attack in attacks:
            if self.outcome is not None and self.outcome not in attack.outcomes:
                raise OptionError(self.outcome, f"{attack.describe()} has the outcomes {', '.join(attack.outcomes)}",
                                  hint="--outcome")
        return self.outcome

    def check(self) -> None:
        """Refuse bad common options before any work is done, whatever the method."""
        from .. import engine, plots

        try:
            engine.check_trials(self.trials)
            engine.check_threads(self.threads)
            engine.check_precision(self.precision)
            engine.validate_seed(self.seed)
        except InputError as error:
            raise input_error(error) from None
        self.method
        if self.plot is not None:
            try:
                plots.check_path(self.plot)
            except InputError as error:
                raise input_error(error) from None


def examples_epilog(examples: Sequence[str]) -> str:
    return "Examples:\n\n\b\n" + "\n".join(f"  {example}" for example in examples)


def command(group: typer.Typer, name: str, run: Callable, *, examples: Sequence[str], help: Optional[str] = None,
            extra: Sequence[inspect.Parameter] = ()) -> Callable:
    """Register `run(**own, **extra, common=Common)` as a command with its own, `extra` and the COMMON options.

    Typer reads a command's options from its signature; this is the one place that adds
    the common options to a signature, so that no command has to repeat them.
    """
    taken = {"common", *(p.name for p in extra)}
    own = [p for p in inspect.signature(run, eval_str=True).parameters.values()
           if p.name not in taken and p.kind is not p.VAR_KEYWORD]
    parameters = own + list(extra) + COMMON

    @functools.wraps(run)
    def invoke(**options: Any) -> Any:
        common = Common.take(options)
        try:
            return run(**options, common=common)
        except InputError as error:
            raise input_error(error) from None
        except KeyboardInterrupt as error:  # Click would turn it into a silent exit 130
            return stopped(error)

    invoke.__signature__ = inspect.Signature(parameters)
    invoke.__annotations__ = {p.name: p.annotation for p in parameters}
    text = help or inspect.getdoc(run)
    group.command(name.split()[-1], help=text, short_help=short_help(text),
                  epilog=examples_epilog(examples))(invoke)
    return invoke


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
    """A query command: its words (`epic shoot`), its options' names, and the builder (options → attack)."""

    path: str
    names: tuple[str, ...]
    build: Callable[..., Any]


QUERIES: dict[str, Query] = {}


def _option_type(hint: Any, meta: Any) -> tuple[Any, Optional[Callable]]:
    """The Python type Typer reads an attack field's option as, and its parser."""
    args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    optional = type(None) in args
    base = [arg for arg in args if arg is not type(None)]
    if meta.get("many"):
        return Optional[list[str]], None  # repeated; the attack reads each value
    if meta.get("text") or meta.get("none") or len(base) != 1:
        kind, parser = str, None  # the attack reads its own tabletop spelling ("5+", "none", "d3+1")
    elif base[0] is bool or (isinstance(base[0], type) and issubclass(base[0], Enum)):
        kind, parser = base[0], None
    else:
        kind, parser = int, parse_needed if meta.get("roll") else parse_integer
    return (Optional[kind] if optional else kind), parser


def field_options(attack: type, skip: Sequence[str] = ()) -> list[inspect.Parameter]:
    """One option per field of an attack (`--to-hit` for `to_hit`), declared by the field itself.

    The field's `attack.option(...)` gives the help and metavar; its type gives how the
    option reads (a switch, a choice, a whole number, a roll "4+", or text the attack
    reads itself). Required fields come first, as --help lists them.
    """
    hints = typing.get_type_hints(attack)
    required, optional = [], []
    for field in ordered_fields(attack):
        if field.name in attack.ARGUMENTS or field.name in skip:
            continue
        meta = field.metadata
        kind, parser = _option_type(hints[field.name], meta)
        names = ["--" + field.name.replace("_", "-")]
        settings = {"help": meta.get("help"), "parser": parser, "case_sensitive": False}
        if meta.get("metavar") or meta.get("roll") or parser is parse_integer:
            settings["metavar"] = meta.get("metavar") or ("X+" if meta.get("roll") else "N")
        has_default = field.default is not dataclasses.MISSING
        if meta.get("none") and has_default and field.default is not None:
            settings["show_default"] = False  # a value no one types: "not given" (the help says what it needs)
        info = typer.Option(*names, **{k: v for k, v in settings.items() if v is not None})
        default = field.default if has_default else inspect.Parameter.empty
        if meta.get("many"):
            default = None
        if isinstance(default, Enum) and kind is str:
            default = default.value
        (optional if has_default else required).append(option(field.name, Annotated[kind, info], default))
    return required + optional


def options_named(text: str, names: set[str]) -> str:
    """A docstring as --help shows it: a field in backticks (`per_template`) is the option a player
    types (`--per-template`)."""
    return re.sub(r"`([a-z_]+)`", lambda match: f"--{match.group(1).replace('_', '-')}" if match.group(1) in names
                  else match.group(0), text)


def query(group: typer.Typer, path: str, attack: type, *, examples: Sequence[str], notes: str = "",
          argument: Optional[inspect.Parameter] = None, extra: Sequence[inspect.Parameter] = (),
          skip: Sequence[str] = (), build: Optional[Callable[..., Any]] = None) -> None:
    """Register the query command `path` (like "epic shoot") that builds and answers an `attack`.

    Its help is the attack's docstring (and `notes`); its options are the attack's fields
    (`field_options`), after an optional `argument` and before `extra` options that are
    not fields (they reach `build`, which then makes the attack; by default the attack is
    built from the options as they are).
    """
    parameters = [*([argument] if argument else []), *field_options(attack, skip), *extra]
    help = options_named(inspect.getdoc(attack), {p.name for p in parameters}) + (f"\n\n{notes}" if notes else "")
    make = build or attack

    def run(common: Common, **options: Any) -> int:
        from .output import answer

        built = make(**options)  # an attack, or (attack, notes) when the builder has something to say
        attack, notes = built if isinstance(built, tuple) else (built, ())
        return answer(attack, common, notes)

    run.__signature__ = inspect.Signature(parameters)
    command(group, path, run, examples=examples, help=help)
    QUERIES[path] = Query(path, tuple(p.name for p in parameters), make)


@dataclass(frozen=True)
class Parsed:
    """A quoted query, parsed: its registered query, its options' values, and the attack they build."""

    query: Query
    command: Any  # the Click command
    context: Any  # the Click context that parsed it
    attack: Any


def query_args(text: str) -> list[str]:
    """Split a quoted query into arguments; refuse the options that belong to the study."""
    try:
        args = shlex.split(text)
    except ValueError as error:
        raise OptionError(text, f"the query does not parse ({error})", hint="QUERY") from None
    if args[:1] == ["oddscalc"]:
        args = args[1:]
    for arg in args:
        if arg.split("=")[0] in COMMON_OPTIONS:
            raise OptionError(text, f"put {arg.split('=')[0]} after the quoted query: it applies to every cell",
                              hint="QUERY")
        if arg in ("--help", "-h", "--version"):
            raise OptionError(text, "a query, not --help or --version", hint="QUERY")
    return args


def find_query(root: Any, args: Sequence[str], text: str) -> tuple[Query, Any, list[str]]:
    """Walk the command tree along `args` to a query command; return it and the arguments left."""
    command, words = root, []
    for position, arg in enumerate(args):
        sub = command.get_command(None, arg) if hasattr(command, "get_command") else None
        if sub is None:
            break
        command, words = sub, words + [arg]
        if " ".join(words) in QUERIES:
            return QUERIES[" ".join(words)], command, list(args[position + 1:])
    for name in root.list_commands(None):  # every game's queries, to list them
        root.get_command(None, name)
    raise OptionError(text, f"expected a query command such as 'roll 2d6' or 'epic barrage --bp 6 --units 3 "
                            f"--armour 4+'; the queries are {', '.join(QUERIES)}", hint="QUERY")


def parse_query(root: Any, text: str, blame: str = "QUERY", extra: Sequence[str] = ()) -> Parsed:
    """Parse a quoted query into its attack, exactly as the command would, without running it.

    `extra` arguments are appended (a varied option's first value). Errors are the
    one-line errors the query itself would give, blamed on `blame`.
    """
    args = query_args(text)
    found, click_command, rest = find_query(root, args, text)
    try:
        context = click_command.make_context(found.path, [*rest, *extra], resilient_parsing=False)
        attack = found.build(**{name: context.params[name] for name in found.names})
        attack = attack[0] if isinstance(attack, tuple) else attack
    except InputError as error:
        raise OptionError(text, _message(input_error(error)), hint=blame) from None
    except click_errors.ClickException as error:
        raise OptionError(text, _message(error), hint=blame) from None
    return Parsed(found, click_command, context, attack)


def _message(error: Exception) -> str:
    from .errors import one_line

    return one_line(error).removeprefix("error: ")


def command_for(root: Any, path: str) -> Any:
    """The Click command of a registered query path (`epic shoot`)."""
    command = root
    for word in path.split():
        command = command.get_command(None, word)
    return command


def blank_context(command: Any, path: str) -> Any:
    """A context for reading single option values of a command (nothing required yet)."""
    return command.make_context(path, [], resilient_parsing=True)


def option_of(command: Any, path: str, name: str, blame: str, value: Any = None) -> Any:
    """The Click option of a query called `--name` (or `name`), refusing one it lacks."""
    wanted = "--" + name.strip().lstrip("-").replace("_", "-")
    for param in command.params:
        if wanted in getattr(param, "opts", ()) and wanted not in COMMON_OPTIONS:
            return param
    options = ", ".join(p.opts[0] for p in command.params
                        if p.param_type_name == "option" and p.opts[0] not in (*COMMON_OPTIONS, "--help", "-h"))
    raise OptionError(value if value is not None else name,
                      f"the query {path} has no option {wanted}; it has {options or 'none'}", hint=blame)


def convert(context: Any, param: Any, value: str, blame: str) -> Any:
    """Read one option's value with the option's own parser, as the query would."""
    if param.is_flag:
        truth = value.strip().lower()
        if truth not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
            raise OptionError(value, f"{param.opts[0]} is a switch: true or false", hint=blame)
        return truth in ("true", "yes", "on", "1")
    try:
        return param.process_value(context, value)
    except OptionError as error:
        raise OptionError(value, error.allowed, hint=blame) from None
    except click_errors.BadParameter as error:
        raise OptionError(value, error.message, hint=blame) from None
