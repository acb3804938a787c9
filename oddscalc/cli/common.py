"""The options every query and study takes, declared once as tables: `Common` (`--trials`, `--seed`,
`--exact`, ...; its `run` is the library's `RunOptions`), `Study` (`--at-least`, `--scheduler`, ...)
and `Shell`, the command line's own among them (where the answer goes, how it runs); and the readers
of the tabletop spellings of their values (`1e6`, `2_000_000`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

import typer

from ..errors import InputError
from ..options import SCHEDULER_TIMEOUT, TRIALS, Method, RunOptions
from ..tables import Format
from .errors import OptionError, input_error

# --- parsers for the tabletop spellings ---------------------------------------------

WHOLE = "expected a whole number like 1000000, 1e6 or 2_000_000"


def parse_count(text: str, expected: str = WHOLE) -> int:
    """Read a whole number written `1000000`, `1e6` or `2_000_000`, exactly (no float rounding)."""
    cleaned = str(text).strip().replace("_", "").replace(",", "")
    if not cleaned.isascii():  # Decimal reads '٣' and '４' as digits: a player's number is written 0-9
        raise OptionError(text, expected)
    if len(cleaned) > 60:
        raise OptionError(f"{str(text)[:40]}...", expected)
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise OptionError(text, expected) from None
    if not value.is_finite() or value != value.to_integral_value() or abs(value.adjusted()) > 40:
        raise OptionError(text, expected)
    return int(value)


def whole(example: str) -> Callable[[str], int]:
    """The reader of an option's whole number, its error giving `example` ("a port number like 8000")."""
    return lambda text: parse_count(text, f"expected {example}")


def parse_seed(text: str) -> int:
    """Read a seed: a whole number, written as a count may be."""
    return parse_count(text, "expected a whole number like 42 or 20261201")


def parse_number(text: str) -> float:
    if not str(text).isascii():  # float reads '٣' and '４' as digits: a player's number is written 0-9
        raise OptionError(text, "expected a number like 0.01")
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


def common(default: Any, name: str, help: str, metavar: Optional[str] = None,
           parser: Optional[Callable[[str], Any]] = None, shell: bool = False) -> Any:
    """A field of `Common`: its default and the option that sets it (`--trials`); `shell`: an option of
    the command line's own (where the answer goes, how it runs), never a word of the query itself."""
    settings: dict[str, Any] = {"metavar": metavar, "parser": parser, "help": help, "case_sensitive": False}
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
        method = Method.EXACT if self.exact else Method.VERIFY if self.verify else Method.MONTE_CARLO
        try:
            options = RunOptions(self.trials, self.seed, method, self.precision, given.threads, self.fractions,
                                 given.cancel, given.budget, given.seconds)
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
        if self.scheduler is not None and options.method == Method.EXACT:
            return ("note: --scheduler: exact cells are computed here, in process (a cluster only samples)",)
        return ()
