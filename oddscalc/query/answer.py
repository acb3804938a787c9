"""Answering: an `Answer` (what a query or study answers, before anything shows it), its plot (drawn when
wanted, saved atomically), the progress a shell gives, and the command an answer names.

A `common` here is the `query.common.Common` value a command received."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from ..core import engine
from ..output import sentence
from ..errors import InputError
from ..core.options import Method
from ..output.tables import Format, QueryAnswer, StudyAnswer, precision_note, provenance
from .refusals import OptionError, one_line
from ..core.record import record

if TYPE_CHECKING:
    from pathlib import Path

PROGRESS_AFTER = 2.0  # seconds before a progress bar appears
LONG_RUN = 60.0  # seconds still to go that a player is told of
SAMPLED_SOONER = "fewer --trials, or --precision E, ends sooner"  # what ends a long run sooner
EXACT_SOONER = "sampling (leave out --exact) ends sooner"
VERIFY_FAILED = 1  # exit code when a sampled CDF is outside its DKW bound


class TerminalProgress:
    """A Rich progress bar on stderr (on a terminal), shown only once a run has taken
    PROGRESS_AFTER seconds; then, if the run will take more than LONG_RUN seconds by its rate
    so far, one line saying so (on a terminal or not)."""

    def __init__(self, label: str, bar: bool = True, sooner: str = SAMPLED_SOONER) -> None:
        self.started = time.monotonic()
        self.sooner = sooner
        self.label = label
        self.show = bar
        self.bar: Any = None  # Rich's Progress, made when first shown (Rich is imported then)
        self.task: Any = None
        self.warned = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.started
        if elapsed < PROGRESS_AFTER:
            return
        if not self.warned and 0 < done < total:
            self.warned = True
            left = elapsed * (total - done) / done
            if left > LONG_RUN:
                print(f"note: this run will take about {_duration(elapsed + left)} at its rate so far "
                      f"(Ctrl-C stops it; {self.sooner})", file=sys.stderr, flush=True)
        if not self.show:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TaskProgressColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(self.label, BarColumn(), TaskProgressColumn(), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def sooner(options: Any) -> str:
    """What ends a long study sooner: sampling, for an exact one; fewer trials, for a sampled one."""
    from ..core.options import Method

    return EXACT_SOONER if options.method == Method.EXACT else SAMPLED_SOONER


def _duration(seconds: float) -> str:
    """`3 min`, `2.5 h`, `4 days`: a run's length in the unit a player reads it in."""
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"


@contextmanager
def progress_bar(label: str = "sampling", sooner: str = SAMPLED_SOONER
                 ) -> Iterator[Optional[Callable[[int, int], None]]]:
    """A progress callback for `engine.run` and the studies: the one the shell gives (`ask.Given`):
    on a terminal, a bar, and a line when the run will be long, whatever stderr is, saying what ends it sooner
    (`sooner`: EXACT_SOONER for an exact study)."""
    from ..core.given import current

    given = current()
    if not given.terminal:
        yield given.progress
        return
    bar = TerminalProgress(label, bar=sys.stderr is not None and sys.stderr.isatty(), sooner=sooner)
    try:
        yield bar
    finally:
        bar.close()


def command_line(without: Sequence[str] = ("--format",)) -> str:
    """The command as typed, without --format (for JSON) and --plot (for a plot's caption)."""
    from ..core.given import GIVEN

    given = GIVEN.get()
    args = list(given.shown) if given is not None and given.shown is not None else sys.argv[1:]
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in without:
            skip = True
        elif not any(arg.startswith(f"{option}=") for option in without):
            kept.append(arg)
    import shlex

    return "oddscalc " + shlex.join(kept)


def caption(method: str, trials: Optional[int], seed: Optional[int], per_cell: bool = False,
            without: Sequence[str] = ()) -> str:
    """A plot's footer: the command (without --plot, --format and the options `without`), then how it was made."""
    return f"{command_line(('--format', '--plot', *without))}  ·  {provenance(method, trials, seed, per_cell)}"


@record
class Plot:
    """An answer's plot, drawn only when wanted: `draw(plots)` draws it with the plots module; the
    caption says how it was made; `path` is where --plot asked to save it (None: not asked)."""

    draw: Callable[[Any], Any]
    caption: str
    path: Optional[Path] = None

    def drawn(self) -> Any:
        """The plot's axes, captioned."""
        from ..output import plots

        ax = self.draw(plots)
        plots.caption(ax.figure, self.caption)
        return ax


def plot_of(path: Optional[Path], draw: Callable[[Any], Any], result: engine.Result, seed: Optional[int] = None,
            per_cell: bool = True) -> Plot:
    """An answer's plot: `draw(plots)` draws it; the caption says how `result` (a study's first
    cell, whose `seed` is the study's) was made; `path` is where --plot asked to save it."""
    return Plot(draw, caption(result.method, result.trials, seed, per_cell), path)


def save_plot(plot: Plot) -> Optional[str]:
    """Draw a plot, caption it and save it atomically at its path; return the one-line error when it
    cannot be."""
    from ..output import plots

    path = plot.path
    if path is None:
        return None  # no --plot: nothing to save
    try:
        plots.save(plot.drawn().figure, path)
    except InputError as error:
        return one_line(OptionError(error.value, error.allowed, "--plot"))
    except OSError as error:
        return one_line(OptionError(str(path), f"cannot be written ({error.strerror or error})", "--plot"))
    except MemoryError:
        return one_line(OptionError(str(path), "too large to draw in this machine's memory", "--plot"))
    return None


def write_text(path: Path, text: str, option: str) -> Path:
    """Write text to path atomically (whole or not at all)."""
    from pathlib import Path

    from ..core.files import replace_atomically

    try:
        return replace_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
    except OSError as error:
        raise InputError(option, str(path), f"cannot be written ({error.strerror or error})") from None


@record
class Answer:
    """What a query or study command answers, before anything is shown: the content (a
    `QueryAnswer` or `StudyAnswer`, which renders in any format), the format asked for, the
    plot, the lines for stderr, and the verification that failed. The command line shows it
    (`cli/output.py:show`); the page renders it its own way."""

    content: Any
    fmt: Format
    plot: Optional[Plot]  # None: nothing to draw (a line of sight)
    notes: tuple[str, ...] = ()
    failed: Optional[str] = None
    attack: Any = None  # a query's attack (a study's: None)
    options: Any = None  # the run's RunOptions

    @property
    def text(self) -> str:
        return str(self.content.render(self.fmt, width()))


def study_answer(rows: Sequence[dict[str, Any]], results: Sequence[Any], seed: Optional[int], notes: Sequence[str] = (),
                 extra: Optional[dict[str, Any]] = None,
                 shown: Optional[Sequence[dict[str, Any]]] = None) -> StudyAnswer:
    """A study's rows, from its cells' `results`, with the header that says how they were made."""
    method, trials = results[0].method, results[0].trials
    header = {"command": command_line(), "method": method, "trials": None if method == Method.EXACT else trials,
              "seed": seed}
    alike = {result.trials for result in results} == {trials} and method != Method.EXACT  # (--precision: they differ)
    return StudyAnswer(tuple(rows), header, tuple(notes), extra or {}, None if shown is None else tuple(shown),
                       trials if alike else None)


def width() -> Optional[int]:
    """The terminal's width when the answer goes to one (tables fit it); None when piped (no wrapping)."""
    if not sys.stdout.isatty():
        return None
    import shutil  # (a terminal's only)

    return shutil.get_terminal_size().columns


def answer(attack: Any, common: Any, notes: Sequence[str] = ()) -> Answer:
    """Run an attack as the common options say: its answer."""
    options = common.check()
    outcome = common.outcome_of([attack]) or attack.outcomes[0]
    with progress_bar() as progress:
        result = engine.run(attack, options=options, progress=progress)
    description = attack.describe()
    content = QueryAnswer(result, command_line(), description, outcome, tuple(notes),
                          sentence.of_query(attack, result, outcome))

    def draw(plots: Any) -> Any:
        if outcome == "rounds" and "decided" in result.outcomes:  # a fight of rounds, --by-round: its picture
            return plots.rounds(result, title=description)
        drawing = plots.event if outcome in result.events else plots.distribution
        return drawing(result[outcome], outcome, title=description)

    outside = [name for name, check in (result.verification or {}).items() if not check.within]
    failed = f"verify: the sampled CDF is outside the DKW bound for {', '.join(outside)}" if outside else None
    return Answer(content, common.output_format, plot_of(common.plot, draw, result, result.seed, per_cell=False),
                  precision_note([result], common.precision), failed, attack, options)
