"""Running a query for the page: what a request may ask, and how many runs at once.

A request's query is its words (`words_of`), answered by the library's one call,
`oddscalc.ask`, in a worker thread, with what the page lends it (`given.Given`): the files
it may open (the uploads of the request and what oddscalc ships: never a path on the
server), the run's `Cancel`, its progress listener and the page's budget of trials.

Runs go in three lanes: exact answers of one query (a few milliseconds, at most about two
seconds) never wait behind sampled runs or exact studies (a sweep, compare or grid with
--exact: many cells, one after another), which have a lane of their own. A client has at most
one sampled run and one exact study going (another of its runs waits a second or two for it,
then is told to wait), and a budget of sampled seconds in a window; a run ends early when its
wall time is up (an exact study is refused once its first cells show it would take longer) or
its client has gone (both cancel it, between a study's cells too).
"""

from __future__ import annotations

import asyncio
import collections
import shlex
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Awaitable, Callable, Optional, Sequence

from ..errors import Refusal
from ..core.given import Files, Given
from ..core.options import Cancel, Cancelled, every_core
from ..core.record import record

NO_FILE = "the page reads no file on the server"
ROSTER = "upload a roster on the grid page, or name a bundled one with --game"


@record
class Limits:
    """What one request, and one client, may ask of the server (documented in `oddscalc serve --help`)."""

    trials: int = 10_000_000  # trials a run may sample in all, a study's cells together
    seconds: float = 60.0  # the wall time of a run; then it is cancelled
    runs: int = 2  # sampled runs at once; more wait
    exact: int = 2  # exact runs of one query at once (a lane of their own: never behind sampled runs)
    studies: int = 1  # exact studies at once (a lane of their own: never ahead of an exact query)
    waiting: int = 8  # requests waiting for a sampled run or an exact study; more are answered 503
    quick: int = 64  # exact queries waiting for their lane (each a few milliseconds); more are answered 503
    wait: float = 20.0  # seconds a request waits for a run before 503
    per_client: int = 1  # sampled runs one client may have going at once (and one exact study)
    queue: float = 2.0  # seconds a client's run waits for its own run going before 429 (a burst from one page)
    client_seconds: float = 300.0  # seconds of sampled runs a client may use in `window` seconds
    window: float = 600.0
    upload: int = 8 << 20  # bytes of an uploaded roster (a .rosz's own caps apply within)
    uploads: int = 4  # uploads read at once (each held in memory while it is read), one a client
    upload_seconds: float = 10.0  # seconds an upload's body may take to arrive
    upload_stall: float = 2.0  # seconds an upload may send nothing
    query: int = 4000  # characters of a query
    kept: int = 64 << 20  # bytes of answers kept for their plots and permalinks
    drawn: int = 32 << 20  # bytes of drawn plots kept


class Refused(Exception):
    """A request refused in one line (HTTP 400): the library's `Refusal`, or the page's own."""

    def __init__(self, line: str, option: Optional[str] = None) -> None:
        super().__init__(line)
        self.line = line
        self.option = option

    @classmethod
    def of(cls, refusal: Refusal) -> Refused:
        return cls(refusal.line, refusal.option)


class Busy(Exception):
    """No run for this request now: the server is busy (503), or this client has a run going or
    has spent its budget (429); `retry` seconds to wait, said in Retry-After; `queued`: the
    client's own run is going, so the request may wait a little for it."""

    def __init__(self, line: str, status: int = 503, retry: float = 5, queued: bool = False) -> None:
        super().__init__(line)
        self.line = line
        self.status = status
        self.retry = max(1, int(retry + 0.999))
        self.queued = queued


def split(query: str) -> list[str]:
    """A query's words as a shell splits them, or refused in one line."""
    try:
        return shlex.split(query)
    except ValueError as error:
        raise Refused(f"error: QUERY {query[:80]}: the query does not parse ({error})", "QUERY") from None


def words_of(query: str, limit: int) -> list[str]:
    """A query (what follows `oddscalc` on a command line) as words, or refused in one line."""
    if len(query) > limit:
        raise Refused(f"error: QUERY: at most {limit:,} characters", "QUERY")
    words = split(query)
    if words[:1] == ["oddscalc"]:
        words = words[1:]
    if not words:
        raise Refused("error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+",
                      "QUERY")
    return words


# --- running ---------------------------------------------------------------------------


@dataclass
class Run:
    """One run in progress: its words, its token, and how far it is."""

    words: list[str]
    cancel: Cancel
    client: str = ""
    done: int = 0
    total: int = 0
    timed_out: bool = False
    started: float = field(default_factory=time.monotonic)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total


class Lane:
    """Runs of one kind: at most `size` at once, at most `waiting` waiting, `wait` seconds each."""

    def __init__(self, name: str, size: int, waiting: int, wait: float) -> None:
        self.name, self.size, self.waiting_at_most, self.wait = name, size, waiting, wait
        self._slots: Optional[asyncio.Semaphore] = None
        self.waiting = 0

    @asynccontextmanager
    async def slot(self, busy: str) -> AsyncIterator[None]:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        if self._slots.locked():
            if self.waiting >= self.waiting_at_most:
                raise Busy(busy)
            self.waiting += 1
            try:
                await asyncio.wait_for(self._slots.acquire(), self.wait)
            except (asyncio.TimeoutError, TimeoutError):
                raise Busy(busy) from None
            finally:
                self.waiting -= 1
        else:
            await self._slots.acquire()
        try:
            yield
        finally:
            self._slots.release()


SAMPLED, STUDY, EXACT = "sampled", "study", "exact"  # what a run is: its lane, and what a client may have going
STUDIES = ("sweep", "compare", "grid")  # the words that start a study (many cells)
_ONE_AT_A_TIME = {SAMPLED: "a sampled run", STUDY: "an exact study"}
_INSTEAD = {SAMPLED: "ask for --exact", STUDY: "ask for fewer values, or sample it"}


class Clients:
    """What each client (its address) has going and has spent: its sampled runs and exact studies
    now, and the seconds of its sampled runs within the last `window` seconds."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.going: collections.Counter[tuple[str, str]] = collections.Counter()
        self.spent: dict[str, collections.deque[tuple[float, float]]] = {}

    def seconds(self, client: str, now: float) -> float:
        book = self.spent.get(client)
        while book and book[0][0] < now - self.limits.window:
            book.popleft()
        if book is not None and not book:
            del self.spent[client]
        return sum(seconds for _, seconds in book or ())

    def admit(self, client: str, kind: str = SAMPLED) -> None:
        """Refuse (429) a client with a run of this kind going, or (sampled) with its budget of seconds spent."""
        limits, now = self.limits, time.monotonic()
        if self.going[client, kind] >= limits.per_client:
            raise Busy(f"error: {_ONE_AT_A_TIME[kind]} of yours is going here ({limits.per_client} at a time): wait "
                       f"for its answer, or {_INSTEAD[kind]}", 429, 2, queued=True)
        spent = self.seconds(client, now) if kind == SAMPLED else 0.0
        if spent >= limits.client_seconds:
            oldest = self.spent[client][0][0]
            raise Busy(f"error: your sampled runs took {spent:.0f} s here in the last {limits.window / 60:g} min, the "
                       f"page's budget for one client: ask for --exact, fewer --trials, or run it on the command "
                       f"line", 429, oldest + limits.window - now)
        self.going[client, kind] += 1

    async def enter(self, client: str, kind: str = SAMPLED) -> None:
        """`admit`, waiting up to `limits.queue` seconds for the client's own run of this kind to end (a page
        that asks several quick queries at once has them answered one after another)."""
        deadline = time.monotonic() + self.limits.queue
        while True:
            try:
                return self.admit(client, kind)
            except Busy as busy:
                if not busy.queued or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.02)

    def leave(self, client: str, seconds: float, kind: str = SAMPLED) -> None:
        self.going[client, kind] -= 1
        if self.going[client, kind] <= 0:
            del self.going[client, kind]
        if kind == SAMPLED:
            self.spent.setdefault(client, collections.deque()).append((time.monotonic(), seconds))


class Runner:
    """Answers the page's queries: exact and sampled runs in lanes of their own, each capped in
    trials (the page's budget) and in wall time, each cancelled when its client goes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.exact = Lane("exact", limits.exact, limits.quick, limits.wait)
        self.studies = Lane("exact study", limits.studies, limits.waiting, limits.wait)
        self.sampled = Lane("sampled", limits.runs, limits.waiting, limits.wait)
        self.lanes = {EXACT: self.exact, STUDY: self.studies, SAMPLED: self.sampled}
        self.clients = Clients(limits)
        self.running: list[Run] = []  # the runs in progress (what a test or a status line can look at)

    def busy(self, lane: Lane) -> str:
        from ..output.style import plural

        return (f"error: the server is busy ({plural(lane.size, lane.name + ' run')} at once, {lane.waiting_at_most} "
                "waiting): try again in a few seconds")

    async def run(self, words: Sequence[str], *, client: str = "", files: Optional[Files] = None,
                  shown: Optional[Sequence[str]] = None, cancel: Optional[Cancel] = None,
                  gone: Optional[Callable[[], Awaitable[bool]]] = None,
                  listen: Optional[Callable[[Run], Awaitable[None]]] = None) -> Any:
        """Answer `words` (an `ask.Asked`): `files` the request's uploads, `shown` the words its answer
        names (default: `words`), `cancel` its token (the route's, to stop it when it ends), `gone()`
        says whether the client has left, `listen(run)` is called about twice a second while it runs."""
        kind = self.kind(words)
        lane = self.lanes[kind]
        if kind != EXACT:
            await self.clients.enter(client, kind)
        started = time.monotonic()
        try:
            async with lane.slot(self.busy(lane)):
                run = Run(list(words), cancel or Cancel(), client)
                return await self._run(run, files, shown, gone, listen)
        finally:
            if kind != EXACT:
                self.clients.leave(client, time.monotonic() - started, kind)

    @staticmethod
    def kind(words: Sequence[str]) -> str:
        """What a run is: sampled, an exact study (many cells) or an exact query (read without running it)."""
        from ..query.asking import method_of

        if method_of(words) != "exact":
            return SAMPLED
        return STUDY if words[:1] and words[0] in STUDIES else EXACT

    async def _run(self, run: Run, files: Optional[Files], shown: Optional[Sequence[str]],
                   gone: Optional[Callable[[], Awaitable[bool]]],
                   listen: Optional[Callable[[Run], Awaitable[None]]]) -> Any:
        from starlette.concurrency import run_in_threadpool

        timer = threading.Timer(self.limits.seconds, self._time_up, args=(run,))
        timer.daemon = True
        timer.start()
        self.running.append(run)  # until its thread ends (`_ask`), whatever became of the request
        given = Given(files=files or Files(why=NO_FILE, roster=ROSTER), cancel=run.cancel, progress=run.progress,
                      budget=self.limits.trials, seconds=self.limits.seconds,
                      threads=max(1, every_core() // self.limits.runs),
                      shown=tuple(shown or run.words))
        task = asyncio.ensure_future(run_in_threadpool(self._ask, run, given))
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=0.25)
                if not task.done() and gone is not None and await gone():
                    run.cancel.cancel()
                if not task.done() and listen is not None:
                    await listen(run)
            return task.result()
        except Cancelled:
            if run.timed_out:
                raise Refused(f"error: QUERY: stopped after {self.limits.seconds:g} s, the page's longest run: ask "
                              "for fewer --trials, or a --precision, or run it on the command line", "QUERY") from None
            raise
        except asyncio.CancelledError:  # the route itself was cancelled (its client went): stop the run too
            run.cancel.cancel()
            raise
        finally:
            timer.cancel()

    @staticmethod
    def _time_up(run: Run) -> None:
        run.timed_out = True
        run.cancel.cancel()

    def _ask(self, run: Run, given: Given) -> Any:
        """In a worker thread: the library's answer, or its refusal in one line."""
        from ..query.asking import ask

        try:
            return ask(run.words, given)
        except Refusal as refusal:
            raise Refused.of(refusal) from None
        finally:
            self.running.remove(run)
