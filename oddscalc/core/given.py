"""What a shell gives a query beside its words (`Given`), and what the words may open (`Files`).

`oddscalc.ask` answers a query's words under a `Given`: the files its words may name, the
token that cancels its run, where progress goes, the most trials it may sample, threads, a
Dask cluster, and the command its answer names. A context variable carries it to the code
that needs it (`current()`), so that no layer between passes it on. The library's readers of
named files (`files.read_capped`, a Dust map, a roster) look at `current().files` first: on
the page nothing but what oddscalc ships and what the request uploaded can be opened.
"""

from __future__ import annotations

import dataclasses
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

from .record import record

if TYPE_CHECKING:  # pragma: no cover
    from .options import Cancel

NO_FILE = "opens no file here (oddscalc.ask reads a file only when given LocalFiles())"
ROSTER = "give it as an upload, or name a game's bundled roster with --game"


class Files:
    """What the words of a query may open: the maps that come with oddscalc, a game's bundled
    roster by the game's name (`epic`), and the `uploads` given with the request (name → bytes,
    read in memory, never written). Any other name is refused with `why` (and, for a roster,
    `roster` says what to do instead) before anything is looked at (`games.roster_named`,
    `dust.board.Board.named`)."""

    local = False  # whether a word may name a file of this machine

    def __init__(self, uploads: Optional[Mapping[str, bytes]] = None, why: str = NO_FILE, roster: str = ROSTER) -> None:
        self.uploads = dict(uploads or {})
        self.why = why
        self.roster = roster


class LocalFiles(Files):
    """The command line's files: a word may name any file of this machine (read within its caps)."""

    local = True


@record
class Given:
    """What a shell gives a query beside its words: the files its words may open, the token that
    cancels its run, where progress goes (or a bar on the terminal), the most trials it may
    sample in all, the most seconds a study's cells may take (`RunOptions.seconds`), the
    threads, a Dask cluster for a study's cells (`cells.Cluster`), and the words its answer
    names as its command (default: the words asked)."""

    files: Files = dataclasses.field(default_factory=Files)
    cancel: Optional[Cancel] = None
    progress: Optional[Callable[[int, int], None]] = None
    budget: Optional[int] = None
    seconds: Optional[float] = None
    threads: Optional[int] = None
    scheduler: Any = None
    shown: Optional[tuple[str, ...]] = None
    terminal: bool = False  # progress as a bar on the terminal (the command line)


LIBRARY = Given(files=LocalFiles())  # a program's own calls (a notebook, a script): its own files
GIVEN: ContextVar[Optional[Given]] = ContextVar("oddscalc_given", default=None)


def current() -> Given:
    """What the query being answered was given (a program's own calls: `LIBRARY`)."""
    return GIVEN.get() or LIBRARY
