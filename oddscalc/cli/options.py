"""The command line's own options of a query or study (`Shell`: where the answer goes, how it runs),
read from the same declarations as every other option (`query.common`, fields marked `shell`); the
command line's own commands (`own`: `rules`, `profiles`, `import`, `serve`), declared in the same
grammar (the Click commands that list them all in `--help` are `commands.py:passthrough`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..errors import InputError
from ..core.options import SCHEDULER_TIMEOUT, Method, RunOptions
from ..query.common import SHELL
from ..query.grammar import Command, of_function
from ..query.refusals import OptionError, input_error
from ..output.tables import Format
from ..core.record import record

if TYPE_CHECKING:
    from pathlib import Path


RUN: dict[str, Callable[[list[str]], int]] = {}  # "words": the command line run on words (`main.py` sets it)
OWN: dict[str, Command] = {}  # the command line's own commands, by name: no words of a query (`ask` has none)


def own(path: str, run: Any, *, examples: Sequence[str], help: str = "") -> Command:
    """Declare one of the command line's own commands: `run`'s annotated parameters are its options, read by the
    query grammar; it prints what it answers and returns its exit code (None: 0)."""
    import inspect

    made = Command(path, tuple(of_function(run)), run, help or inspect.getdoc(run) or "", tuple(examples), "own")
    OWN[path] = made
    return made


@record
class Shell:
    """The command line's own options of a query or study (`shell` in `Common` and `Study`): how its
    answer is shown and saved, and how it runs. They are never words of the query
    (`oddscalc.ask`): the page decides them itself."""

    output_format: Format = Format.TABLE
    plot: Optional[Path] = None
    threads: Optional[int] = None
    scheduler: Optional[str] = None
    scheduler_timeout: float = SCHEDULER_TIMEOUT

    @classmethod
    def take(cls, options: dict[str, Any]) -> Shell:
        """The command line's own options among a command's values."""
        return cls(**{name: options[name] for name in SHELL if name in options})

    def check(self) -> None:
        """Refuse, before any work, a plot that could not be saved and a cluster that cannot be asked."""
        if self.plot is not None:
            from ..output import plots

            try:
                plots.check_path(self.plot)
            except InputError as error:
                raise input_error(error) from None
        self.cluster  # noqa: B018 (its address and timeout checked)

    @functools.cached_property
    def cluster(self) -> Any:
        """The Dask cluster the cells run on, a `cells.Cluster` (None: local threads)."""
        if self.scheduler is not None and not self.scheduler.startswith("tcp://"):
            raise OptionError(self.scheduler[:80] or "''", "expected a scheduler address like tcp://host:8786 (a "
                                                           "scheduler in another process, as `dask scheduler` prints "
                                                           "it)", "--scheduler")
        if self.scheduler is None:
            return None
        from ..studies.cells import Cluster

        try:
            return Cluster(self.scheduler, self.scheduler_timeout)
        except InputError as error:
            raise input_error(error) from None

    def notes(self, options: RunOptions) -> tuple[str, ...]:
        """A line for stderr when the cluster is given nothing to do: exact cells run here."""
        if self.scheduler is not None and options.method == Method.EXACT:
            return ("note: --scheduler: exact cells are computed here, in process (a cluster only samples)",)
        return ()
