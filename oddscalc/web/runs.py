"""Running a query for the page: what a request may ask, and how many runs at once.

A request's query is its words (`words_of`), answered by the library's one call,
`oddscalc.ask`, in a worker thread, with what the page lends it (`given.Given`): the files
it may open (the uploads of the request and what oddscalc ships: never a path on the
server), the run's `Cancel`, its progress listener and the page's budget of trials.

Runs go in two lanes: exact answers (a few milliseconds, at most about two seconds) never
wait behind sampled runs. A client has at most one sampled run going, and a budget of
sampled seconds in a window; a run ends early when its wall time is up or its client has
gone (both cancel it).
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
from ..given import Files, Given
from ..options import Cancel, Cancelled, every_core

NO_FILE = "the page reads no file on the server"
ROSTER = "upload a roster on the grid page, or name a bundled one with --game"


@dataclass(frozen=True)
class Limits:
    """What one request, and one client, may ask of the server (documented in `oddscalc serve --help`)."""

    trials: int = 10_000_000  # trials a run may sample in all, a study's cells together
    seconds: float = 60.0  # the wall time of a run; then it is cancelled
    runs: int = 2  # sampled runs at once; more wait
    exact: int = 2  # exact runs at once (a lane of their own: never behind sampled runs)
    waiting: int = 8  # requests waiting for a run, in each lane; more are answered 503
    wait: float = 20.0  # seconds a request waits for a run before 503
    per_client: int = 1  # sampled runs one client may have going at once
    client_seconds: float = 300.0  # seconds of sampled runs a client may use in `window` seconds
    window: float = 600.0
    upload: int = 8 << 20  # bytes of an uploaded roster (a .rosz's own caps apply within)
    uploads: int = 4  # uploads read at once (each held in memory while it is read)
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
    has spent its budget (429); `retry` seconds to wait, said in Retry-After."""

    def __init__(self, line: str, status: int = 503, retry: float = 5) -> None:
        super().__init__(line)
        self.line = line
        self.status = status
        self.retry = max(1, int(retry + 0.999))


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


class Clients:
    """What each client (its address) has going and has spent: its sampled runs now, and the seconds
    of its sampled runs within the last `window` seconds."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.going: collections.Counter[str] = collections.Counter()
        self.spent: dict[str, collections.deque[tuple[float, float]]] = {}

    def seconds(self, client: str, now: float) -> float:
        book = self.spent.get(client)
        while book and book[0][0] < now - self.limits.window:
            book.popleft()
        if book is not None and not book:
            del self.spent[client]
        return sum(seconds for _, seconds in book or ())

    def admit(self, client: str) -> None:
        """Refuse (429) a client with a sampled run going, or with its budget of seconds spent."""
        limits, now = self.limits, time.monotonic()
        if self.going[client] >= limits.per_client:
            raise Busy(f"error: a sampled run of yours is going here ({limits.per_client} at a time): wait for its "
                       "answer, or ask for --exact", 429, 2)
        spent = self.seconds(client, now)
        if spent >= limits.client_seconds:
            oldest = self.spent[client][0][0]
            raise Busy(f"error: your sampled runs took {spent:.0f} s here in the last {limits.window / 60:g} min, the "
                       f"page's budget for one client: ask for --exact, fewer --trials, or run it on the command "
                       f"line", 429, oldest + limits.window - now)
        self.going[client] += 1

    def leave(self, client: str, seconds: float) -> None:
        self.going[client] -= 1
        if self.going[client] <= 0:
            del self.going[client]
        self.spent.setdefault(client, collections.deque()).append((time.monotonic(), seconds))


class Runner:
    """Answers the page's queries: exact and sampled runs in lanes of their own, each capped in
    trials (the page's budget) and in wall time, each cancelled when its client goes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.exact = Lane("exact", limits.exact, limits.waiting, limits.wait)
        self.sampled = Lane("sampled", limits.runs, limits.waiting, limits.wait)
        self.clients = Clients(limits)
        self.running: list[Run] = []  # the runs in progress (what a test or a status line can look at)

    def busy(self, lane: Lane) -> str:
        return (f"error: the server is busy ({lane.size} {lane.name} runs at once, {lane.waiting_at_most} waiting): "
                "try again in a few seconds")

    async def run(self, words: Sequence[str], *, client: str = "", files: Optional[Files] = None,
                  shown: Optional[Sequence[str]] = None, cancel: Optional[Cancel] = None,
                  gone: Optional[Callable[[], Awaitable[bool]]] = None,
                  listen: Optional[Callable[[Run], Awaitable[None]]] = None) -> Any:
        """Answer `words` (an `ask.Asked`): `files` the request's uploads, `shown` the words its answer
        names (default: `words`), `cancel` its token (the route's, to stop it when it ends), `gone()`
        says whether the client has left, `listen(run)` is called about twice a second while it runs."""
        from ..asking import method_of

        sampled = method_of(words) != "exact"
        lane = self.sampled if sampled else self.exact
        if sampled:
            self.clients.admit(client)
        started = time.monotonic()
        try:
            async with lane.slot(self.busy(lane)):
                run = Run(list(words), cancel or Cancel(), client)
                return await self._run(run, files, shown, gone, listen)
        finally:
            if sampled:
                self.clients.leave(client, time.monotonic() - started)

    async def _run(self, run: Run, files: Optional[Files], shown: Optional[Sequence[str]],
                   gone: Optional[Callable[[], Awaitable[bool]]],
                   listen: Optional[Callable[[Run], Awaitable[None]]]) -> Any:
        from starlette.concurrency import run_in_threadpool

        timer = threading.Timer(self.limits.seconds, self._time_up, args=(run,))
        timer.daemon = True
        timer.start()
        self.running.append(run)  # until its thread ends (`_ask`), whatever became of the request
        given = Given(files=files or Files(why=NO_FILE, roster=ROSTER), cancel=run.cancel, progress=run.progress,
                      budget=self.limits.trials, threads=max(1, every_core() // self.limits.runs),
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
        from ..asking import ask

        try:
            return ask(run.words, given)
        except Refusal as refusal:
            raise Refused.of(refusal) from None
        finally:
            self.running.remove(run)
