"""What a request may ask of the page (web/runs.py): a query's words, refused in one line before
anything runs when they do not read; the lanes, the clients' shares, the runs' caps."""

from __future__ import annotations

import asyncio
import time

import pytest

from oddscalc.options import Cancel, Cancelled
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
        runner = Runner(Limits(runs=1, waiting=0, per_client=2, trials=10**10))
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
    assert busy.status == 503 and "1 sampled runs at once" in busy.line
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
        runner = Runner(Limits(trials=10**10))
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
