"""Running a command line for the page: what it may ask, and how many runs at once.

The page runs the very commands of the command line (`cli.root_command`), in a worker
thread, with a `Session` (cli/output.py) that carries the run's `Cancel`, its progress
listener and the page's budget of trials; a command answers an `Answer` value instead of
printing, so the page renders the same figures in its own way and the JSON API returns
the bytes `oddscalc <q> --format json` prints. A run ends early when its wall time is up or
its client has gone (both cancel it), and at most `Limits.runs` run at once.
"""

from __future__ import annotations

import asyncio
import shlex
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ..errors import InputError
from ..options import Cancel, Cancelled


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the server (documented in `oddscalc serve --help`)."""

    trials: int = 10_000_000  # trials a run may sample in all, a study's cells together
    seconds: float = 60.0  # the wall time of a run; then it is cancelled
    runs: int = 2  # runs at once; more wait
    waiting: int = 8  # requests waiting for a run; more are answered 503
    wait: float = 20.0  # seconds a request waits for a run before 503
    upload: int = 8 << 20  # bytes of an uploaded roster (a .rosz's own caps apply within)
    query: int = 4000  # characters of a query


class Refused(Exception):
    """A request refused in one line (HTTP 400): the command line's message, and the option it
    names (`--to-hit`, `PHASER`) when it names one."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line

    @property
    def option(self) -> Optional[str]:
        """The option or argument the line names first (`--to-hit` of `error: --to-hit 9+: ...`)."""
        words = self.line.removeprefix("error: ").split()
        head = words[0].rstrip(":") if words else ""
        return head if head.startswith("--") or (head.isupper() and head.isalpha()) else None


class Busy(Exception):
    """Every run slot is taken and too many requests wait (HTTP 503, Retry-After)."""


# --- what a page may ask ---------------------------------------------------------------

STUDIES = ("sweep", "compare", "grid")
NOT_HERE = {  # options the page decides itself, or that name a path on the server
    "--plot": "the page draws the plot itself (and offers it as PNG)",
    "--format": "the page shows every format; the API answers JSON",
    "--scheduler": "the page runs its cells itself",
    "--scheduler-timeout": "the page runs its cells itself",
    "--threads": "the page decides its threads",
    "--help": "the page shows each option's help by its field",
    "-h": "the page shows each option's help by its field",
    "--version": "the page shows the version at its foot",
}


def split(query: str) -> list[str]:
    """A query's words as a shell splits them, or refused in one line."""
    try:
        return shlex.split(query)
    except ValueError as error:
        raise Refused(f"error: QUERY {query[:80]}: the query does not parse ({error})") from None


def words_of(query: str, limit: int) -> list[str]:
    """A query (what follows `oddscalc` on a command line) as words, or refused in one line."""
    from ..cli.errors import click_errors, one_line
    from ..cli.options import query_args

    if len(query) > limit:
        raise Refused(f"error: QUERY: at most {limit:,} characters")
    words = split(query)
    if words[:1] == ["oddscalc"]:
        words = words[1:]
    if not words:
        raise Refused("error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+")
    quoted = [word for word in words[1:] if " " in word] if words[0] in ("sweep", "compare") else []
    for word in [*words, *(inner for query in quoted for inner in split(query))]:
        name = word.split("=")[0]
        if name in NOT_HERE:
            raise Refused(f"error: {name}: {NOT_HERE[name]}")
    for query in quoted:
        try:
            query_args(query)  # a quoted query's own refusals (study options inside it)
        except (click_errors.ClickException, InputError) as error:
            raise Refused(one_line(error).replace("\n", " ")) from None
    return words


def check(words: Sequence[str]) -> None:
    """Refuse what the page does not run: anything but a query or a study, a grid of a file on the
    server (a grid's roster is uploaded, or a bundled one named by --game), a map not shipped."""
    from ..cli import root_command
    from ..cli.options import QUERIES, find_query
    from ..dust.board import shipped_maps

    root = root_command()
    if words[0] in STUDIES:
        if words[0] == "grid":
            context = root.get_command(None, "grid").make_context("grid", list(words[1:]), resilient_parsing=True)
            if context.params.get("file") is not None or context.params.get("against") is not None:
                raise Refused("error: FILE: the page reads no file on the server: upload a roster on the grid page, "
                              "or name a bundled one with --game")
        return
    try:
        find_query(root, words, shlex.join(words))
    except Exception:
        raise Refused(f"error: QUERY {shlex.join(words)[:80]}: expected a query ({', '.join(QUERIES)}) or a "
                      f"study ({', '.join(STUDIES)})") from None
    for i, word in enumerate(words):
        if word.split("=")[0] == "--board":
            value = word.partition("=")[2] if "=" in word else (words[i + 1] if i + 1 < len(words) else "")
            if value not in shipped_maps():
                raise Refused(f"error: --board {value}: the page reads no file on the server: expected a shipped "
                              f"map ({', '.join(shipped_maps())})")


# --- running ---------------------------------------------------------------------------


@dataclass
class Run:
    """One run in progress: its words, the words its JSON names, its token, and how far it is."""

    words: list[str]
    shown: list[str]
    cancel: Cancel
    done: int = 0
    total: int = 0
    timed_out: bool = False

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total


class Runner:
    """Runs command lines for the page: at most `limits.runs` at once, each capped in trials
    (the session's budget) and in wall time, each cancelled when its client goes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._slots: Optional[asyncio.Semaphore] = None
        self._waiting = 0

    async def run(self, words: list[str], *, shown: Optional[list[str]] = None, rosters: Any = None,
                  gone: Optional[Callable[[], Any]] = None,
                  listen: Optional[Callable[[Run], Any]] = None) -> Any:
        """Run `words` and return its `Answer`; `shown` are the words its JSON names (default:
        `words`), `rosters` uploaded ones for a grid, `gone()` says (awaitable) whether the client
        has left, `listen(run)` is called (awaitable) about twice a second while it runs."""
        from starlette.concurrency import run_in_threadpool

        check(words)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.runs)
        if not self._slots.locked():
            await self._slots.acquire()  # a slot is free: taken at once
        elif self._waiting >= self.limits.waiting:
            raise Busy
        else:
            self._waiting += 1
            try:
                await asyncio.wait_for(self._slots.acquire(), self.limits.wait)
            except (asyncio.TimeoutError, TimeoutError):
                raise Busy from None
            finally:
                self._waiting -= 1
        run = Run(list(words), list(shown or words), Cancel())
        timer = threading.Timer(self.limits.seconds, self._time_up, args=(run,))
        timer.daemon = True
        timer.start()
        try:
            task = asyncio.ensure_future(run_in_threadpool(self._execute, run, rosters))
            while not task.done():
                await asyncio.wait({task}, timeout=0.5)
                if not task.done() and gone is not None and await gone():
                    run.cancel.cancel()
                if not task.done() and listen is not None:
                    await listen(run)
            return task.result()
        except Cancelled:
            if run.timed_out:
                raise Refused(f"error: QUERY: stopped after {self.limits.seconds:g} s, the page's longest run: ask "
                              "for fewer --trials, or a --precision, or run it on the command line") from None
            raise
        finally:
            timer.cancel()
            self._slots.release()

    @staticmethod
    def _time_up(run: Run) -> None:
        run.timed_out = True
        run.cancel.cancel()

    def _execute(self, run: Run, rosters: Any) -> Any:
        """In a worker thread: run the command line as the command line would, answering its
        `Answer` (or refusing it in one line)."""
        from ..cli import root_command
        from ..cli.errors import click_errors, one_line
        from ..cli.output import SESSION, Answer, Session

        session = Session(run.cancel, run.progress, self.limits.trials, rosters)
        token = SESSION.set(session)
        try:
            answered = root_command().main(args=run.words, prog_name="oddscalc", standalone_mode=False, obj=run.shown)
        except (click_errors.ClickException, InputError) as error:
            raise Refused(one_line(error).replace("\n", " ")) from None
        finally:
            SESSION.reset(token)
        if not isinstance(answered, Answer):
            raise Refused(f"error: QUERY {shlex.join(run.words)[:80]}: not a query or study the page answers")
        return answered
