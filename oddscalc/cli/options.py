"""The options of the command line, declared once, and the registry of query commands.

- `Common` declares the options every query and study takes (`--trials`, `--seed`,
  `--exact`, ...); a command receives them as one `Common` value, whose `run` is the
  library's `RunOptions`.
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
import typing
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

import typer

from ..attack import kind_of, ordered_fields
from ..errors import InputError
from ..options import SCHEDULER_TIMEOUT, TRIALS, RunOptions
from ..tables import Format
from .errors import OptionError, input_error

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


def parse_number(text: str) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:
        raise OptionError(text, "expected a number like 0.01") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError(text, "expected a finite number like 0.01")
    return value


# --- the common options -------------------------------------------------------------


def option(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    """Declare one option (or argument) of a command: its name, `Annotated` type and default."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def common(default: Any, name: str, help: str, metavar: Optional[str] = None, parser: Optional[Callable] = None,
           shell: bool = False) -> Any:
    """A field of `Common`: its default and the option that sets it (`--trials`); `shell`: an option of
    the command line's own (where the answer goes, how it runs), never a word of the query itself."""
    settings = {"metavar": metavar, "parser": parser, "help": help}
    info = typer.Option(name, **{key: value for key, value in settings.items() if value is not None})
    return dataclasses.field(default=default, metadata={"option": info, "name": name, "shell": shell})


@dataclass(frozen=True)
class Common:
    """The options every query and study command takes (CLI.md, "Options on every query
    command"): this table declares them, and they make the run's `RunOptions`."""

    trials: int = common(TRIALS, "--trials", "Monte Carlo trials (1e6, 2_000_000).", "N", parse_count)
    seed: Optional[int] = common(None, "--seed", "Seed of the random stream (default: fresh; the answer records "
                                                 "the seed used).", "S", parse_seed)
    exact: bool = common(False, "--exact", "Compute the exact distribution instead of sampling.")
    fractions: bool = common(False, "--fractions", "With --exact: exact rationals too (JSON pmf_fractions, "
                                                   "\"1/36\"; table columns).")
    output_format: Format = common(Format.TABLE, "--format", "table, json, csv, markdown or bbcode.", "F", shell=True)
    plot: Optional[Path] = common(None, "--plot", "Also save a plot of the main outcome (.png, .svg or .pdf).",
                                  "PATH", shell=True)
    precision: Optional[float] = common(None, "--precision", "Sample until the main mean's standard error is at "
                                                             "most E (--trials is the cap).", "E", parse_number)
    verify: bool = common(False, "--verify", "Run both ways; report the largest CDF gap against the DKW bound.")
    threads: Optional[int] = common(None, "--threads", "Threads to sample with (default: every core).", "T",
                                    parse_count, shell=True)
    outcome: Optional[str] = common(None, "--outcome", "The outcome the table's detail and the plot show "
                                                       "(default: the main one).", "NAME")

    @classmethod
    def take(cls, options: dict[str, Any]) -> Common:
        """Remove the common options from a command's options and return them."""
        return cls(**{field.name: options.pop(field.name) for field in fields(cls) if field.name in options})

    @functools.cached_property
    def run(self) -> RunOptions:
        """The run these options ask for, with what the shell gives (its `Cancel`, budget and
        threads: `ask.Given`); conflicting or bad ones are refused in one line."""
        from ..given import current

        given = current()
        method = "exact" if self.exact else "verify" if self.verify else "monte-carlo"
        try:
            options = RunOptions(self.trials, self.seed, method, self.precision, given.threads, self.fractions,
                                 given.cancel, given.budget)
        except InputError as error:
            raise input_error(error) from None
        if self.exact and self.verify:
            raise OptionError(None, "use --exact or --verify, not both (--verify already computes the exact "
                                    "answer)", hint="--verify")
        return options

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

    def check(self) -> RunOptions:
        """Refuse bad common options before any work is done, whatever the method; return the run."""
        return self.run


@dataclass(frozen=True)
class Study:
    """The options every study (sweep, compare, grid) takes beside the common ones."""

    at_least: str = common("1", "--at-least", "Add P(≥ K) columns for these K (comma-separated).", "K,K")
    scheduler: Optional[str] = common(None, "--scheduler", "Run the cells on the Dask cluster at ADDRESS "
                                                           "(tcp://host:8786; needs the dask extra). Exact runs stay "
                                                           "in process.", "ADDRESS", shell=True)
    scheduler_timeout: float = common(SCHEDULER_TIMEOUT, "--scheduler-timeout", "Seconds to wait for the scheduler, a "
                                                                           "first worker, or a lost cluster to come "
                                                                           "back (default 10).", "S", parse_number,
                                                   shell=True)

    @classmethod
    def take(cls, options: dict[str, Any]) -> Study:
        """Remove the study options from a command's options and return them."""
        return cls(**{field.name: options.pop(field.name) for field in fields(cls) if field.name in options})

    @functools.cached_property
    def ks(self) -> tuple[int, ...]:
        """The K of the P(≥ K) columns."""
        from ..studies import parse_at_least

        return parse_at_least(self.at_least)

    @property
    def cluster(self) -> Any:
        """The Dask cluster the cells run on, a `cells.Cluster` the shell gives (None: local threads)."""
        from ..given import current

        return current().scheduler


def parameters_of(table: type) -> list[inspect.Parameter]:
    """The command parameters an options table (`Common`, `Study`) declares."""
    hints = typing.get_type_hints(table)
    return [option(field.name, Annotated[hints[field.name], field.metadata["option"]], field.default)
            for field in fields(table)]


COMMON = parameters_of(Common)  # the parameters every query and study command adds to its own
STUDY = parameters_of(Study)  # and every study
COMMON_OPTIONS = tuple(field.metadata["name"] for field in fields(Common))
SHELL = frozenset(field.name for table in (Common, Study) for field in fields(table) if field.metadata["shell"])


@dataclass(frozen=True)
class Shell:
    """The command line's own options of a query or study (`shell=True` in `Common` and `Study`):
    how its answer is shown and saved, and how it runs. They are never words of the query
    (`oddscalc.ask`): the page decides them itself."""

    output_format: Format = Format.TABLE
    plot: Optional[Path] = None
    threads: Optional[int] = None
    scheduler: Optional[str] = None
    scheduler_timeout: float = SCHEDULER_TIMEOUT

    @classmethod
    def take(cls, options: dict[str, Any]) -> Shell:
        """Remove the command line's own options from a command's options and return them."""
        return cls(**{name: options.pop(name) for name in SHELL if name in options})

    def check(self) -> None:
        """Refuse, before any work, a plot that could not be saved and a cluster that cannot be asked."""
        if self.plot is not None:
            from .. import plots

            try:
                plots.check_path(self.plot)
            except InputError as error:
                raise input_error(error) from None
        self.cluster  # noqa: B018 (its address and timeout checked)

    @functools.cached_property
    def cluster(self) -> Any:
        """The Dask cluster the cells run on, a `cells.Cluster` (None: local threads)."""
        if self.scheduler is None and self.scheduler_timeout != SCHEDULER_TIMEOUT:
            raise OptionError(self.scheduler_timeout, "applies only with --scheduler ADDRESS",
                              hint="--scheduler-timeout")
        if self.scheduler is not None and not self.scheduler.startswith("tcp://"):
            raise OptionError(self.scheduler[:80] or "''", "expected a scheduler address like tcp://host:8786 (a "
                                                           "scheduler in another process, as `dask scheduler` prints "
                                                           "it)", hint="--scheduler")
        if self.scheduler is None:
            return None
        from ..cells import Cluster

        try:
            return Cluster(self.scheduler, self.scheduler_timeout)
        except InputError as error:
            raise input_error(error) from None

    def notes(self, options: RunOptions) -> tuple[str, ...]:
        """A line for stderr when the cluster is given nothing to do: exact cells run here."""
        if self.scheduler is not None and options.method == "exact":
            return ("note: --scheduler: exact cells are computed here, in process (a cluster only samples)",)
        return ()


def examples_epilog(examples: Sequence[str]) -> str:
    return "Examples:\n\n\b\n" + "\n".join(f"  {example}" for example in examples)


@dataclass(frozen=True)
class Terminal:
    """A query or study run from the command line: its path, and the command line's own options;
    `cli/main.py` asks its words and shows the answer."""

    path: str
    shell: Shell


# A query's or study's path ("epic shoot", "grid") → the function that answers its words (`ask`): the
# command's own options and the common ones, less the command line's (`SHELL`); it returns an `Answer`.
LANGUAGE: dict[str, Callable[..., Any]] = {}
LOOKS: set[str] = set()  # the paths of LANGUAGE that sample nothing (`look`)


def command(group: typer.Typer, name: str, run: Callable, *, examples: Sequence[str], help: Optional[str] = None,
            study: bool = False) -> Callable:
    """Register `run(**own, common=Common)` (and `study=Study` for a study) as the query or study
    `name` with its own options, the study ones and the common ones: in `LANGUAGE`, the words
    that `oddscalc.ask` answers, and in `group`, the command line's command, which takes its
    own options (`Shell`) and asks the rest.

    Typer reads a command's options from its signature; this is the one place that adds
    the common options to a signature, so that no command has to repeat them.
    """
    own = [p for p in inspect.signature(run, eval_str=True).parameters.values()
           if p.name not in ("common", "study") and p.kind is not p.VAR_KEYWORD]
    parameters = own + (STUDY if study else []) + COMMON

    def answer(**options: Any) -> Any:
        common = Common.take(options)
        tables = {"study": Study.take(options)} if study else {}
        try:
            return run(**options, common=common, **tables)
        except InputError as error:
            raise input_error(error) from None

    answer.__signature__ = inspect.Signature([p for p in parameters if p.name not in SHELL])
    LANGUAGE[name] = answer

    @functools.wraps(run)
    def invoke(**options: Any) -> Terminal:
        return Terminal(name, Shell.take(options))  # the command line asks it (cli/main.py)

    invoke.__signature__ = inspect.Signature(parameters)
    invoke.__annotations__ = {p.name: p.annotation for p in parameters}
    text = help or inspect.getdoc(run)
    group.command(name.split()[-1], help=text, short_help=short_help(text),
                  epilog=examples_epilog(examples))(invoke)
    return invoke


FORMAT = parameters_of(Common)[[field.name for field in fields(Common)].index("output_format")]


def look(group: typer.Typer, name: str, run: Callable, *, examples: Sequence[str], help: str, title: str,
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

    answer.__signature__ = inspect.Signature(own)
    LANGUAGE[name] = answer
    LOOKS.add(name)
    ABOUT[name] = About(title, about, tuple(examples))

    @functools.wraps(run)
    def invoke(**options: Any) -> Terminal:
        return Terminal(name, Shell.take(options))

    parameters = [*own, FORMAT]
    invoke.__signature__ = inspect.Signature(parameters)
    invoke.__annotations__ = {p.name: p.annotation for p in parameters}
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
    attack: type


QUERIES: dict[str, Query] = {}


@dataclass(frozen=True)
class About:
    """A query in a player's words: its title ("Automatic hits"), the questions it answers ("Breath
    Attack, Impact Hits, Stomp"), and its help's examples (command lines)."""

    title: str
    about: str
    examples: tuple[str, ...]


ABOUT: dict[str, About] = {}  # every query's and look's, by path


def _option_type(attack: type, field: dataclasses.Field) -> Any:
    """The type Typer reads an attack field's option as: a switch, a choice, or the text the
    attack reads itself (`Attack.read`: "4+", "6", "none", "d3+1")."""
    if field.metadata.get("many"):
        return Optional[list[str]]  # repeated; the attack reads each value
    kind, optional = kind_of(attack, field)
    if not (kind is bool or (isinstance(kind, type) and issubclass(kind, Enum))):
        kind = str
    return Optional[kind] if optional else kind


def field_options(attack: type, skip: Sequence[str] = ()) -> list[inspect.Parameter]:
    """One option per field of an attack (`--to-hit` for `to_hit`), declared by the field itself.

    The field's `attack.option(...)` gives the help and metavar; its type gives how the
    option shows in --help (a switch, a choice, a whole number N, a roll X+). Every value
    typed is read by the attack (`Attack.read`), as `sweep --vary` and `grid --set` read it.
    Required fields come first, as --help lists them.
    """
    required, optional = [], []
    for field in ordered_fields(attack):
        if field.name in attack.ARGUMENTS or field.name in skip:
            continue
        meta = field.metadata
        kind = _option_type(attack, field)
        names = ["--" + field.name.replace("_", "-")]
        settings = {"help": meta.get("help"), "case_sensitive": False}
        if meta.get("metavar") or meta.get("roll") or kind_of(attack, field)[0] is int:
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


def query(group: typer.Typer, path: str, attack: type, *, examples: Sequence[str], title: str, about: str,
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
    help = options_named(inspect.getdoc(attack), {p.name for p in parameters}) + (f"\n\n{notes}" if notes else "")
    make = build or attack

    def run(common: Common, **options: Any) -> int:
        from .output import answer

        built = make(**options)  # an attack, or (attack, notes) when the builder has something to say
        attack, notes = built if isinstance(built, tuple) else (built, ())
        return answer(attack, common, notes)

    run.__signature__ = inspect.Signature(parameters)
    command(group, path, run, examples=examples, help=help)
    QUERIES[path] = Query(path, tuple(p.name for p in parameters), make, attack)
    ABOUT[path] = About(title, about, tuple(examples))


def command_for(root: Any, path: str) -> Any:
    """The Click command of a registered query path (`epic shoot`)."""
    command = root
    for word in path.split():
        command = command.get_command(None, word)
    return command
