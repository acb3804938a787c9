"""The page's figures (`python -m oddscalc.bench.web`, also the last part of `python -m oddscalc.bench`).

A real server (`oddscalc serve` on a free local port, in its own process):

- server time of exact queries: the JSON API, the permalink page, its plot (SVG, its own
  request), median of several requests, next to the same command run in-process;
- first paint of the query page and of a permalink page, in the system's Chromium (skipped,
  saying why, without Playwright or a browser);
- exact queries while two 10^7-trial runs take the sampled lane (another client's each);
- how soon a request's run stops once its client closes the connection, on every route that
  runs (the server's CPU time, read from /proc, stops growing);
- a load test: 300 requests from 8 clients at once (each its own loopback address), a mix of
  exact and sampled queries, pages, plots and refused queries: answered (200), refused (400),
  told to wait (429: a client's share), busy (503), errors (anything else), latency; then the
  server's memory;
- a hostile client's exact studies (two long exact sweeps at once) while 16 others ask exact
  queries; four slow uploads while another client uploads; a burst of 64 quick sampled queries
  from one page; then the server's memory, idle.

Nothing here is a test; targets are printed next to the figures.
"""

from __future__ import annotations

import argparse
import http.client
import os
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
def serving(*options: str) -> Iterator[tuple[int, int]]:
    """`oddscalc serve` (with `options`) on a free port of 127.0.0.1, in its own process as a player starts
    it; yields the port and the server's process id."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "oddscalc", "serve", "--port", str(port), *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    said = server.stderr.read().decode() if server.stderr is not None else ""
                    raise RuntimeError(f"oddscalc serve did not start: {said[-400:]}")
                time.sleep(0.05)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(10)


def connect(port: int, client: int = 1) -> http.client.HTTPConnection:
    """A kept-alive connection from 127.0.0.`client` (each its own client to the server) without Nagle's
    delay (else a small request waits for a delayed ACK, 40 ms)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120,
                                            source_address=(f"127.0.0.{client}", 0))
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


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mib(pid: int) -> float:
    """A process's resident memory, MiB, from /proc."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def api(query: str) -> str:
    return "/api/query?q=" + quote(query)


def page(query: str) -> str:
    return "/?q=" + quote(query)


def plot(query: str) -> str:
    return "/plot.svg?q=" + quote(query)


def server_times(port: int, repeat: int) -> None:
    from ..query.asking import ask
    from ..output.tables import Format

    print(f"\nserver time of exact queries, median of {repeat} (page: asked for the first time, with its plots "
          "drawn into it, and again; SVG and PNG: the plot's downloads, drawn the first time; command: the same run "
          "in-process, no server):")
    print(f"  {'query':84} {'API':>7} {'page':>7} {'again':>7} {'SVG':>7} {'PNG':>7} {'command':>7}")
    connection = connect(port)
    worst = plots = 0.0
    for query in EXACT:
        get(connection, api(query))  # warm: the first run of a game imports it
        times = {}
        # a page drawn for the first time: words not asked before (--trials does not change an exact answer)
        fresh = [f"{query} --trials {1000 + index}" for index in range(repeat)]
        for kind, paths in (("api", [api(query)] * repeat), ("again", [page(query)] * repeat),
                            ("page", [page(words) for words in fresh]), ("plot", [plot(words) for words in fresh]),
                            ("png", [plot(words).replace("/plot.svg", "/plot.png") for words in fresh])):
            samples = [get(connection, path) for path in paths]
            assert all(status == 200 for status, _ in samples), (query, samples)
            times[kind] = statistics.median(seconds for _, seconds in samples)
        words = query.split()
        ask(words)
        command = statistics.median(core.best_time(lambda: ask(words).answer.content.render(Format.JSON), 1)
                                    for _ in range(repeat))
        worst = max(worst, times["api"], times["page"])
        plots = max(plots, times["plot"], times["png"])
        print(f"  {query:84} " + " ".join(f"{1000 * seconds:5.1f}ms" for seconds in (
            times["api"], times["page"], times["again"], times["plot"], times["png"], command)))
    print(f"  slowest (API, or a page asked for the first time): {1000 * worst:.1f} ms"
          f"{verdict(1000 * worst, 100, above=False)}")
    print(f"  slowest plot (SVG or PNG, drawn the first time): {1000 * plots:.1f} ms"
          f"{verdict(1000 * plots, 150, above=False)}")
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


def under_load(port: int, repeat: int) -> None:
    """Exact queries while two long sampled runs take the sampled lane (two other clients)."""
    busy = [connect(port, 10 + index) for index in range(2)]
    for index, connection in enumerate(busy):
        connection.request("GET", api(f"roll 200d6 --trials 1e7 --seed {100 + index}"))  # about 3 s each
    time.sleep(0.5)  # both started
    connection = connect(port, 2)
    times = [get(connection, api(f"{query} --trials {1000 + index}"))
             for index in range(repeat) for query in EXACT]
    crowd: list[int] = []

    def client(number: int) -> None:  # twenty more clients ask exact queries at once meanwhile
        own = connect(port, 100 + number)
        crowd.extend(get(own, api(f"{EXACT[index % len(EXACT)]} --trials {5000 + 40 * number + index}"))[0]
                     for index in range(40))
        own.close()

    threads = [threading.Thread(target=client, args=(number,)) for number in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    statuses = []
    for other in busy:
        statuses.append(other.getresponse().status)
        other.close()
    status = ", ".join(map(str, statuses))
    seconds = statistics.median(seconds for _, seconds in times)
    print(f"\nexact queries while two 1e7-trial runs (roll 200d6) are going: median {1000 * seconds:.1f} ms, slowest "
          f"{1000 * max(seconds for _, seconds in times):.1f} ms of {len(times)} (the runs: {status})"
          f"{verdict(1000 * seconds, 100, above=False)}")
    print(f"  twenty clients' exact queries meanwhile, 40 each: {_statuses(crowd)}"
          + ("" if core.QUICK else f"  (target: none busy: {'met' if 503 not in crowd else 'NOT met'})"))
    connection.close()


CLOSED = {  # a route that runs, and a request of it for a run of seconds (each new: none is kept)
    "/api/query": api("roll 200d6 --trials 1e7 --seed 201"),
    "/ (a permalink)": page("roll 200d6 --trials 1e7 --seed 202"),
    "/plot.png": "/plot.png?q=" + quote("roll 200d6 --trials 1e7 --seed 203"),
    "/api/stream": "/api/stream?q=" + quote("roll 200d6 --trials 1e7 --seed 204"),
    "/ (a sweep)": page("sweep 'roll 200d6' --vary maximised=0..1 --trials 4e6 --seed 205"),
}


def closed_requests(port: int, pid: int) -> None:
    """How soon a run stops once its client closes the connection: the server's CPU time stops growing."""
    print("\na request closed 0.5 s into its run (roll 200d6, 1e7 trials: about 3 s): seconds until the server's "
          "CPU stops")
    worst = 0.0
    for route, path in CLOSED.items():
        connection = connect(port, 3)
        connection.request("GET", path)
        time.sleep(0.3)
        started = cpu_seconds(pid)
        time.sleep(0.2)
        if cpu_seconds(pid) - started < 0.05:  # not running: it was refused
            raise RuntimeError(f"{route}: the run did not start ({path})")
        connection.close()
        closed = time.perf_counter()
        last, calm = cpu_seconds(pid), 0
        while time.perf_counter() - closed < 30:
            time.sleep(0.1)
            now = cpu_seconds(pid)
            calm = calm + 1 if now - last < 0.02 else 0  # under 20 % of a core for a tenth of a second
            last = now
            if calm >= 3:
                break
        seconds = time.perf_counter() - closed - 0.3  # the calm tenths seen after it stopped
        worst = max(worst, seconds)
        print(f"  {route:20} {seconds:5.2f} s")
    print(f"  slowest: {worst:.2f} s{verdict(worst, 2, above=False)}")


def load_test(port: int, pid: int, requests: int, clients: int) -> None:
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

    def client(number: int, share: list[str]) -> None:
        connection = connect(port, number)
        for path in share:
            try:
                answer = get(connection, path)
            except (OSError, http.client.HTTPException):
                answer = (-1, 0.0)
                connection.close()
                connection = connect(port, number)
            with lock:
                outcomes.append(answer)
        connection.close()

    before = memory_mib(pid)
    threads = [threading.Thread(target=client, args=(20 + index, paths[index::clients])) for index in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    wall = time.perf_counter() - start
    statuses = [status for status, _ in outcomes]
    latencies = sorted(seconds for status, seconds in outcomes if status == 200)
    errors = sum(status not in (200, 400, 429, 503) for status in statuses) + requests - len(outcomes)
    print(f"\nload: {requests} requests from {clients} clients at once (in 10: 3 exact JSON, 2 exact "
          f"pages, 1 plot drawn, 3 sampled with 1e5 trials, 1 refused): {wall:.1f} s wall, {len(outcomes) / wall:.1f} requests/s")
    print(f"  answered {statuses.count(200)}, refused {statuses.count(400)}, told to wait {statuses.count(429)}, "
          f"busy {statuses.count(503)}, errors {errors}" +
          (f"; answered in {1000 * latencies[len(latencies) // 2]:.0f} ms median, "
           f"{1000 * latencies[int(0.95 * (len(latencies) - 1))]:.0f} ms p95" if latencies else "")
          + ("" if core.QUICK else f"  (target: errors 0: {'met' if errors == 0 else 'NOT met'})"))
    time.sleep(1)
    after = memory_mib(pid)
    print(f"  server memory: {before:.0f} MiB before, {after:.0f} MiB after{verdict(after, 300, above=False)}")


COMBAT = ("t9a combat --models 10 --width 5 --attacks 2 --offensive 5 --defensive 4 --strength 4 --resilience 4 "
          "--agility 5 --discipline 8 --armour 3 --enemy-models 15 --enemy-width 5 --enemy-attacks 1 --enemy-offensive 3 "
          "--enemy-defensive 3 --enemy-strength 3 --enemy-resilience 3 --enemy-agility 3 --enemy-discipline 7 "
          "--rounds end")
STUDIES = [f"sweep '{COMBAT}' --vary models=5..60 --exact",  # 56 exact fights to the end: minutes on one core
           f"sweep '{COMBAT}' --vary enemy-models=5..60 --exact"]  # 56 of them


def _statuses(statuses: list[int]) -> str:
    counted = {status: statuses.count(status) for status in sorted(set(statuses))}
    return ", ".join(f"{count} × {status}" for status, count in counted.items())


def exact_studies(port: int, clients: int = 16) -> None:
    """One client sends two long exact sweeps at once; 16 others ask exact queries meanwhile."""
    answers: dict[str, tuple[int, float]] = {}

    def study(index: int) -> None:
        answers[f"study {index + 1}"] = get(connect(port, 40), api(STUDIES[index]))

    hostile = [threading.Thread(target=study, args=(index,)) for index in range(len(STUDIES))]
    for thread in hostile:
        thread.start()
    time.sleep(0.3)
    others: list[int] = []

    def client(number: int) -> None:
        connection = connect(port, 41 + number)
        for index in range(8):
            others.append(get(connection, api(f"{EXACT[index % len(EXACT)]} --trials {2000 + 8 * number + index}"))[0])
        connection.close()

    threads = [threading.Thread(target=client, args=(number,)) for number in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads + hostile:
        thread.join(300)
    said = "; ".join(f"{name}: {status} in {seconds:.1f} s" for name, (status, seconds) in sorted(answers.items()))
    busy = others.count(503)
    print(f"\na client's two exact studies at once (sweeps of 56 exact fights to the end each): {said}")
    print(f"  {clients} other clients' exact queries meanwhile: {_statuses(others)}"
          + ("" if core.QUICK else f"  (target: none busy: {'met' if busy == 0 else 'NOT met'})"))


def _upload_body() -> tuple[bytes, str]:
    boundary = "oddscalcbench"
    fields = {"game": "epic", "options": "--exact --attackers 'Whirlwind Battery'"}
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
                    for name, value in fields.items()) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def slow_uploads(port: int, slow: int = 4) -> None:
    """Four clients start uploads that stall after a few bytes; another client uploads meanwhile, each second."""
    body, kind = _upload_body()
    stalled = []
    for index in range(slow):
        raw = socket.create_connection(("127.0.0.1", port), source_address=(f"127.0.0.{60 + index}", 0))
        raw.sendall(f"POST /api/grid HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:20])
        stalled.append(raw)
    started = time.perf_counter()
    seen: list[tuple[float, int]] = []
    while time.perf_counter() - started < 12:
        connection = connect(port, 70)
        begin = time.perf_counter()
        connection.request("POST", "/api/grid", body=body, headers={"Content-Type": kind})
        seen.append((begin - started, connection.getresponse().status))
        connection.close()
        time.sleep(1)
    answers = set()
    for raw in stalled:
        raw.settimeout(5)
        try:
            answers.add(raw.recv(200).split(b"\r\n", 1)[0].decode(errors="replace"))
        except OSError as error:
            answers.add(str(error))
        raw.close()
    held = max((moment for moment, status in seen if status == 503), default=0.0)
    print(f"\n{slow} uploads that stall after 20 bytes (4 clients), and another client's upload each second: "
          f"{_statuses([status for _, status in seen])}; busy until {held:.0f} s (the stalled ones: "
          f"{', '.join(sorted(answers))}){verdict(held, 11, above=False)}")


def burst(port: int, queries: int = 64) -> None:
    """One page sends 64 quick sampled queries (1e5 trials) at once."""
    statuses: list[int] = []

    def one(index: int) -> None:
        statuses.append(get(connect(port, 80), api(f"roll 2d6 --trials 1e5 --seed {300 + index}"))[0])

    threads = [threading.Thread(target=one, args=(index,)) for index in range(queries)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    answered = statuses.count(200)
    print(f"\na burst of {queries} quick sampled queries (1e5 trials) from one page: {_statuses(statuses)} in "
          f"{time.perf_counter() - started:.1f} s{verdict(answered, queries)}")


def hostile(port: int, pid: int) -> None:
    exact_studies(port)
    slow_uploads(port)
    burst(port)
    time.sleep(2)
    print(f"  server memory, idle after it all: {memory_mib(pid):.0f} MiB{verdict(memory_mib(pid), 300, above=False)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m oddscalc.bench.web", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="requests per figure (median)")
    parser.add_argument("--requests", type=int, default=300, help="requests of the load test")
    parser.add_argument("--clients", type=int, default=8, help="clients at once in the load test")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check that the benchmark runs")
    options = parser.parse_args(argv)
    if options.quick:
        core.QUICK = True
        options.repeat, options.requests = 1, 20
    print("\nthe page (oddscalc serve), a real server on 127.0.0.1:")
    with serving() as (port, pid):
        server_times(port, options.repeat)
        first_paint(port)
        if not options.quick:
            under_load(port, options.repeat)
            closed_requests(port, pid)
        load_test(port, pid, options.requests, options.clients)
        if not options.quick:
            hostile(port, pid)


if __name__ == "__main__":
    main()
