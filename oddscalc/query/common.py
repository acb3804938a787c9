"""The options every query and study takes, declared once as tables: `Common` (`--trials`, `--seed`,
`--exact`, ...; its `run` is the library's `RunOptions`) and `Study` (`--at-least`, `--scheduler`, ...);
a field marked `shell` is the command line's own (where the answer goes, how it runs), never a word of
a query (`oddscalc.ask`)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..errors import InputError
from ..core.options import SCHEDULER_TIMEOUT, TRIALS, Method, RunOptions
from ..output.tables import Format
from .grammar import Opt, of_table, option
from .numbers import parse_count, parse_number, parse_seed
from .refusals import OptionError, input_error
from ..core.record import record

if TYPE_CHECKING:
    from pathlib import Path  # (read as grammar.FilePath: a query that saves no plot imports no pathlib)

# --- the common options -------------------------------------------------------------


def common(default: Any, name: str, help: str, metavar: Optional[str] = None,
           parser: Optional[Callable[[str], Any]] = None, shell: bool = False, **rule: Any) -> Any:
    """A field of `Common`: its default and the option that sets it (`--trials`); `shell`: an option of
    the command line's own (where the answer goes, how it runs), never a word of the query itself; `rule`:
    what it asks of the others (`grammar.option`'s needs, excludes, why)."""
    spec = option(name, metavar=metavar or "", help=help, parser=parser, shell=shell, **rule)
    return dataclasses.field(default=default, metadata={"spec": spec, "name": name, "shell": shell})


@record
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
    verify: bool = common(False, "--verify", "Run both ways; report the largest CDF gap against the DKW bound.",
                          excludes=("--exact",), why="use --exact or --verify, not both (--verify already computes "
                                                      "the exact answer)")
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
        from ..core.given import current

        given = current()
        method = Method.EXACT if self.exact else Method.VERIFY if self.verify else Method.MONTE_CARLO
        try:
            options = RunOptions(self.trials, self.seed, method, self.precision, given.threads, self.fractions,
                                 given.cancel, given.budget, given.seconds)
        except InputError as error:
            raise input_error(error) from None
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


@record
class Study:
    """The options every study (sweep, compare, grid) takes beside the common ones."""

    at_least: str = common("1", "--at-least", "Add P(≥ K) columns for these K (comma-separated).", "K,K")
    scheduler: Optional[str] = common(None, "--scheduler", "Run the cells on the Dask cluster at ADDRESS "
                                                           "(tcp://host:8786; needs the dask extra). Exact runs stay "
                                                           "in process.", "ADDRESS", shell=True)
    scheduler_timeout: float = common(SCHEDULER_TIMEOUT, "--scheduler-timeout", "Seconds to wait for the scheduler, a "
                                                                           "first worker, or a lost cluster to come "
                                                                           "back (default 10).", "S", parse_number,
                                                   shell=True, needs=("--scheduler",),
                                                   why="applies only with --scheduler ADDRESS")

    @classmethod
    def take(cls, options: dict[str, Any]) -> Study:
        """Remove the study options from a command's options and return them."""
        return cls(**{field.name: options.pop(field.name) for field in fields(cls) if field.name in options})

    @functools.cached_property
    def ks(self) -> tuple[int, ...]:
        """The K of the P(≥ K) columns."""
        from ..studies.sweeps import parse_at_least

        return parse_at_least(self.at_least)

    @property
    def cluster(self) -> Any:
        """The Dask cluster the cells run on, a `cells.Cluster` the shell gives (None: local threads)."""
        from ..core.given import current

        return current().scheduler


COMMON: list[Opt] = of_table(Common)  # the options every query and study command adds to its own
STUDY: list[Opt] = of_table(Study)  # and every study
COMMON_OPTIONS = tuple(field.metadata["name"] for field in fields(Common))
SHELL = frozenset(field.name for table in (Common, Study) for field in fields(table) if field.metadata["shell"])
