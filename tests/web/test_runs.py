"""What a request may ask of the page (web/runs.py): a query's words, refused in one line before
anything runs when they do not read; the lanes, the clients' shares, the runs' caps."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from oddscalc.core.options import Cancel, Cancelled
from oddscalc.web.runs import Busy, Clients, Lane, Limits, Refused, Runner, words_of


def refused(query: str, limit: int = 4000) -> Refused:
    with pytest.raises(Refused) as error:
        words_of(query, limit)
    return error.value


@pytest.mark.parametrize("query, words", [
    ("roll 2d6 --exact", ["roll", "2d6", "--exact"]),
    ("oddscalc roll 2d6", ["roll", "2d6"]),  # the whole command line, pasted
    ("  epic shoot --shots 3 --to-hit '4+'  ", ["epic", "shoot", "--shots", "3", "--to-hit", "4+"]),
    ("sweep 'roll 2d6' --vary maximised=0..2", ["sweep", "roll 2d6", "--vary", "maximised=0..2"]),
    ("compare 'roll 2d6' 'roll d6 --maximised 1'", ["compare", "roll 2d6", "roll d6 --maximised 1"]),
    ("dust attack --dice 5 --board=crossroads --from A1 --to A2", ["dust", "attack", "--dice", "5",
                                                                   "--board=crossroads", "--from", "A1", "--to", "A2"]),
])
def test_a_query_is_its_words(query, words):
    assert words_of(query, 4000) == words


@pytest.mark.parametrize("query, line", [
    ("x" * 41, "error: QUERY: at most 40 characters"),
    ("", "error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"),
    ("oddscalc", "error: QUERY: expected a query, like epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+"),
    ("roll '2d6", "error: QUERY roll '2d6: the query does not parse (No closing quotation)"),
])
def test_what_does_not_read_as_words_is_refused_in_one_line(query, line):
    error = refused(query, 40 if line.endswith("40 characters") else 4000)
    assert error.line == line and error.option == "QUERY"


def test_a_query_of_exactly_the_limit_is_read():
    assert words_of("roll 2d6" + " " * 32, 40) == ["roll", "2d6"]


def test_exact_runs_have_a_lane_of_their_own():
    """The sampled lane full, none may wait: a sampled query is told to come back, an exact one answers."""
    async def main() -> tuple:
        runner = Runner(Limits(runs=1, waiting=0, per_client=2, trials=10**10, seconds=600))  # a run that goes on
        slow = asyncio.ensure_future(runner.run(["roll", "20d6", "--trials", "1e10"], client="a"))
        while not runner.running:
            await asyncio.sleep(0.01)
        with pytest.raises(Busy) as busy:
            await runner.run(["roll", "2d6", "--trials", "1000"], client="b")
        exact = await runner.run(["roll", "2d6", "--exact"], client="b")
        running = [" ".join(run.words) for run in runner.running]
        runner.running[0].cancel.cancel()
        with pytest.raises(Cancelled):
            await slow
        return busy.value, exact, running

    busy, exact, running = asyncio.run(main())
    assert busy.status == 503 and "1 sampled run at once" in busy.line
    assert exact.options.method == "exact" and running == ["roll 20d6 --trials 1e10"]


def test_a_client_has_one_sampled_run_at_a_time_and_a_budget_of_seconds():
    clients = Clients(Limits(per_client=1, client_seconds=3, window=100))
    clients.admit("a")
    with pytest.raises(Busy) as busy:
        clients.admit("a")
    assert busy.value.status == 429 and "a sampled run of yours is going" in busy.value.line
    clients.admit("b")  # another client is not held back
    clients.leave("a", 2.5)
    clients.admit("a")
    clients.leave("a", 1.0)
    with pytest.raises(Busy) as busy:
        clients.admit("a")  # 3.5 s spent of 3
    assert busy.value.status == 429 and "took 4 s here in the last" in busy.value.line and busy.value.retry <= 100
    clients.spent["a"][0] = (time.monotonic() - 200, 2.5)  # that run is out of the window now
    clients.admit("a")


def test_a_lane_refuses_beyond_those_waiting():
    async def main() -> None:
        lane = Lane("sampled", 1, 1, 5)
        async with lane.slot("busy"):
            waiting = asyncio.ensure_future(_enter(lane))
            await asyncio.sleep(0.05)
            assert lane.waiting == 1
            with pytest.raises(Busy) as busy:
                async with lane.slot("busy"):
                    pass
            assert busy.value.line == "busy" and busy.value.status == 503
        await waiting

    asyncio.run(main())


async def _enter(lane: Lane) -> None:
    async with lane.slot("busy"):
        pass


def test_a_cancelled_route_stops_its_run():
    async def main() -> list:
        runner = Runner(Limits(trials=10**10, seconds=600))
        cancel = Cancel()
        task = asyncio.ensure_future(runner.run(["roll", "20d6", "--trials", "1e10"], cancel=cancel))
        while not runner.running:
            await asyncio.sleep(0.01)
        task.cancel()  # as Starlette cancels a route whose client went
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 10
        while runner.running and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return runner.running

    assert asyncio.run(main()) == []  # its thread ended (its 1e10 trials would take hours)


COMBAT = ("t9a combat --models 10 --width 5 --attacks 2 --offensive 5 --defensive 4 --strength 4 --resilience 4 "
          "--agility 5 --discipline 8 --armour 3 --enemy-models 15 --enemy-width 5 --enemy-attacks 1 --enemy-offensive 3 "
          "--enemy-defensive 3 --enemy-strength 3 --enemy-resilience 3 --enemy-agility 3 --enemy-discipline 7 "
          "--rounds end")
SLOW_STUDY = ["sweep", COMBAT, "--vary", "models=5..30", "--exact"]  # 26 exact fights to the end: 17 s on one core


def test_a_run_is_sampled_an_exact_study_or_an_exact_query():
    assert Runner.kind(SLOW_STUDY) == "study"
    assert Runner.kind(["compare", "roll 2d6", "roll 3d6", "--exact"]) == "study"
    assert Runner.kind(["sweep", "roll 2d6", "--vary", "maximised=0..2"]) == "sampled"
    assert Runner.kind(["roll", "2d6", "--exact"]) == "exact"
    assert Runner.kind(["roll", "2d6", "--verify"]) == "sampled"


def test_an_exact_study_has_a_lane_of_its_own_and_a_client_one_at_a_time():
    """A client's exact study runs: an exact query answers meanwhile (its lane is free), the client's second exact
    study waits its queue and is told to wait (429), another client's waits in the studies' lane (none may: 503)."""
    async def main() -> tuple:
        runner = Runner(Limits(studies=1, waiting=0, queue=0.2))
        slow = asyncio.ensure_future(runner.run(SLOW_STUDY, client="a"))
        while not runner.running:
            await asyncio.sleep(0.01)
        exact = await runner.run(["roll", "2d6", "--exact"], client="a")
        started = time.monotonic()
        with pytest.raises(Busy) as own:
            await runner.run(["compare", "roll 2d6", "roll 3d6", "--exact"], client="a")
        queued = time.monotonic() - started
        with pytest.raises(Busy) as other:
            await runner.run(["compare", "roll 2d6", "roll 3d6", "--exact"], client="b")
        runner.running[0].cancel.cancel()  # as when its client goes: it stops between two cells
        stopped = time.monotonic()
        with pytest.raises(Cancelled):
            await slow
        return exact, own.value, queued, other.value, time.monotonic() - stopped

    exact, own, queued, other, stopping = asyncio.run(main())
    assert exact.options.method == "exact"
    assert own.status == 429 and own.line == ("error: an exact study of yours is going here (1 at a time): wait for "
                                              "its answer, or ask for fewer values, or sample it") and queued >= 0.2
    assert other.status == 503 and "(1 exact study run at once, 0 waiting)" in other.line
    assert stopping < 5  # one cell's time at most (the study had 15 s or so to go)


def test_a_clients_burst_of_quick_runs_waits_in_a_short_queue():
    """Twelve quick sampled queries at once from one page: each waits for the one before (queue 10 s), all answer;
    with no queue, all but the first are told to wait."""
    async def burst(queue: float) -> list:
        runner = Runner(Limits(queue=queue))
        words = ["roll", "2d6", "--trials", "1e5"]
        return await asyncio.gather(*(runner.run(words, client="a") for _ in range(12)), return_exceptions=True)

    queued = asyncio.run(burst(10.0))
    assert all(answer.options.trials == 100_000 for answer in queued)
    at_once = asyncio.run(burst(0.0))
    assert sum(isinstance(answer, Busy) and answer.status == 429 for answer in at_once) >= 10


def test_an_exact_study_that_would_take_past_the_pages_time_is_refused_saying_to_sample():
    async def main() -> tuple:
        runner = Runner(Limits(seconds=1.0))
        started = time.monotonic()
        with pytest.raises(Refused) as refused:
            await runner.run(SLOW_STUDY, client="a")
        return refused.value, time.monotonic() - started, runner.running

    refused, took, running = asyncio.run(main())
    assert refused.option == "--exact" and took < 1.5 and running == []
    assert re.fullmatch(r"error: --exact 26 cells: would take about [0-9]+ s here \(its first [0-9]+ cells? took "
                        r"[0-9.]+ s\), more than the 1 s a run may take here: sample it \(leave out --exact\), or run "
                        r"it on the command line", refused.line), refused.line


def test_a_clients_budget_of_sampled_seconds_counts_sampled_runs_only_and_allows_exactly_it():
    clients = Clients(Limits(per_client=1, client_seconds=3, window=600))
    clients.admit("a")
    clients.leave("a", 1.0)
    clients.admit("a")
    clients.leave("a", 1.5)
    started = time.monotonic()
    clients.admit("a", "study")  # an exact study is no sampled run: the budget does not hold it back
    clients.leave("a", 50.0, "study")
    assert clients.seconds("a", time.monotonic()) == 2.5  # its 50 s are not in the budget
    clients.admit("a")  # 2.5 s of 3: allowed
    clients.leave("a", 0.5)  # now exactly 3 s
    with pytest.raises(Busy) as busy:
        clients.admit("a")
    assert busy.value.line == ("error: your sampled runs took 3 s here in the last 10 min, the page's budget for one "
                               "client: ask for --exact, fewer --trials, or run it on the command line")
    assert busy.value.status == 429 and not busy.value.queued
    assert 599 <= busy.value.retry <= 601 + time.monotonic() - started  # when its oldest run leaves the window
    clients.spent["a"][0] = (time.monotonic() - 590, 1.0)  # the oldest, 590 s ago: out of the window in 10 s
    with pytest.raises(Busy) as busy:
        clients.admit("a")
    assert 10 <= busy.value.retry <= 12
