"""The page's figures (`python -m oddscalc.bench.web`, also the last part of `python -m oddscalc.bench`).

A real server (`oddscalc serve` on a free local port, in its own process):

- server time of exact queries: the JSON API, the permalink page, its plot (SVG, its own
  request), median of several requests, next to the same command run in-process;
- first paint of the query page and of a permalink page, in the system's Chromium (skipped,
  saying why, without Playwright or a browser);
- a load test: 200 requests from 8 clients at once, a mix of exact and sampled queries, pages,
  plots and refused queries: answered (200), refused (400), busy (503), errors (anything else),
  latency.

Nothing here is a test; targets are printed next to the figures.
"""

from __future__ import annotations

import argparse
import http.client
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator
from urllib.parse import quote

from . import core
from .core import verdict

EXACT = [
    "roll 2d6 --maximised 1 --exact",
    "epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --crossfire --exact",
    "dust phaser 2z3 --exact",
    "t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 4 --resilience 3 --armour 2 --exact",
]
SAMPLED = "epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --trials 1e5 --seed {seed}"
FCP = """new Promise(resolve => new PerformanceObserver(list => {
  const paint = list.getEntriesByName('first-contentful-paint')[0];
  if (paint) resolve(paint.startTime);
}).observe({type: 'paint', buffered: true}))"""
REFUSED = ["epic shoot --shots 12 --to-hit 9+ --units 6 --armour 4+", "roll 2d6 --trials 1e9"]


@contextmanager
def serving() -> Iterator[int]:
    """`oddscalc serve` on a free port of 127.0.0.1, in its own process as a player starts it; yields the port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "oddscalc", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"oddscalc serve did not start: {server.stderr.read().decode()[-400:]}")
                time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait(10)


def connect(port: int) -> http.client.HTTPConnection:
    """A kept-alive connection without Nagle's delay (else a small request waits for a delayed ACK, 40 ms)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.connect()
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def get(connection: http.client.HTTPConnection, path: str) -> tuple[int, float]:
    """One request on a kept-alive connection: its status and its seconds."""
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status, time.perf_counter() - start


def api(query: str) -> str:
    return "/api/query?q=" + quote(query)


def page(query: str) -> str:
    return "/?q=" + quote(query)


def plot(query: str) -> str:
    return "/plot.svg?q=" + quote(query)


def server_times(port: int, repeat: int) -> None:
    from ..cli import root_command
    from ..cli.output import SESSION, Session

    print(f"\nserver time of exact queries, median of {repeat} (page: asked for the first time, and again; "
          "plot: its SVG, drawn the first time; command: the same run in-process, no server):")
    print(f"  {'query':84} {'API':>7} {'page':>7} {'again':>7} {'plot':>7} {'command':>7}")
    connection = connect(port)
    root = root_command()
    worst = 0.0
    for query in EXACT:
        get(connection, api(query))  # warm: the first run of a game imports it
        times = {}
        # a page drawn for the first time: words not asked before (--trials does not change an exact answer)
        fresh = [f"{query} --trials {1000 + index}" for index in range(repeat)]
        for kind, paths in (("api", [api(query)] * repeat), ("again", [page(query)] * repeat),
                            ("page", [page(words) for words in fresh]), ("plot", [plot(words) for words in fresh])):
            samples = [get(connection, path) for path in paths]
            assert all(status == 200 for status, _ in samples), (query, samples)
            times[kind] = statistics.median(seconds for _, seconds in samples)
        token = SESSION.set(Session())
        try:
            words = [*query.split(), "--format", "json"]
            root.main(words, standalone_mode=False)
            command = statistics.median(core.best_time(lambda: root.main(words, standalone_mode=False).text, 1)
                                        for _ in range(repeat))
        finally:
            SESSION.reset(token)
        worst = max(worst, times["api"], times["page"])
        print(f"  {query:84} " + " ".join(f"{1000 * seconds:5.1f}ms" for seconds in
                                          (times["api"], times["page"], times["again"], times["plot"], command)))
    print(f"  slowest (API, or a page asked for the first time): {1000 * worst:.1f} ms"
          f"{verdict(1000 * worst, 100, above=False)}")
    connection.close()


def first_paint(port: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("\nfirst paint: skipped (Playwright is not installed: pip install -e '.[test]')")
        return
    if chromium is None:
        print("\nfirst paint: skipped (no chromium on PATH; Debian: apt-get install chromium)")
        return
    print("\nfirst paint in Chromium (median of 5 fresh loads):")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for label, path in (("query page (a form)", "/?query=" + quote("epic shoot")),
                            ("permalink page (an exact answer)", page(EXACT[1]))):
            paints = []
            for _ in range(5):
                context = browser.new_context()
                tab = context.new_page()
                tab.goto(f"http://127.0.0.1:{port}{path}", wait_until="load")
                paints.append(tab.evaluate(FCP))
                context.close()
            print(f"  {label:40} {statistics.median(paints):6.0f} ms{verdict(statistics.median(paints), 1000, False)}")
        browser.close()


def load_test(port: int, requests: int, clients: int) -> None:
    paths = []
    for index in range(requests):
        exact = EXACT[index % len(EXACT)]
        kind = index % 10
        if kind == 9:
            paths.append(api(REFUSED[index % len(REFUSED)]))
        elif kind in (3, 6, 8):
            paths.append(api(SAMPLED.format(seed=index)))
        elif kind == 7:
            paths.append(plot(f"{exact} --trials {1000 + index}"))  # a plot drawn for the first time
        else:
            paths.append(page(exact) if kind in (1, 5) else api(exact))
    outcomes: list[tuple[int, float]] = []
    lock = threading.Lock()

    def client(share: list[str]) -> None:
        connection = connect(port)
        for path in share:
            try:
                answer = get(connection, path)
            except (OSError, http.client.HTTPException):
                answer = (-1, 0.0)
                connection.close()
                connection = connect(port)
            with lock:
                outcomes.append(answer)
        connection.close()

    threads = [threading.Thread(target=client, args=(paths[index::clients],)) for index in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    wall = time.perf_counter() - start
    statuses = [status for status, _ in outcomes]
    latencies = sorted(seconds for status, seconds in outcomes if status == 200)
    errors = sum(status not in (200, 400, 503) for status in statuses) + requests - len(outcomes)
    print(f"\nload: {requests} requests from {clients} clients at once (in 10: 3 exact JSON, 2 exact "
          f"pages, 1 plot drawn, 3 sampled with 1e5 trials, 1 refused): {wall:.1f} s wall, {len(outcomes) / wall:.1f} requests/s")
    print(f"  answered {statuses.count(200)}, refused {statuses.count(400)}, busy {statuses.count(503)}, "
          f"errors {errors}" + (f"; answered in {1000 * latencies[len(latencies) // 2]:.0f} ms median, "
                                f"{1000 * latencies[int(0.95 * (len(latencies) - 1))]:.0f} ms p95" if latencies else "")
          + ("" if core.QUICK else f"  (target: errors 0: {'met' if errors == 0 else 'NOT met'})"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m oddscalc.bench.web", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="requests per figure (median)")
    parser.add_argument("--requests", type=int, default=200, help="requests of the load test")
    parser.add_argument("--clients", type=int, default=8, help="clients at once in the load test")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check that the benchmark runs")
    options = parser.parse_args(argv)
    if options.quick:
        core.QUICK = True
        options.repeat, options.requests = 1, 20
    print("\nthe page (oddscalc serve), a real server on 127.0.0.1:")
    with serving() as port:
        server_times(port, options.repeat)
        first_paint(port)
        load_test(port, options.requests, options.clients)


if __name__ == "__main__":
    main()
