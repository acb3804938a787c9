"""A request whose client goes away stops its run, on every route: the page served by uvicorn, a
raw connection asking for a run of hours, closed once the run has started; the run's thread must
end (its trials would take hours). The middleware is pure ASGI, so the route sees the client go
(Starlette's `BaseHTTPMiddleware` hid it)."""

from __future__ import annotations

import socket
import time
from urllib.parse import quote_plus

import pytest

from web.test_app import DATA
from web.uploading import multipart

LONG = "roll 20d6 --trials 1e11"


@pytest.fixture(scope="module")
def served():
    """The page on a free port of this machine, in a thread of this process (its runner in reach)."""
    pytest.importorskip("uvicorn")
    from oddscalc.web.app import create_app
    from oddscalc.web.runs import Limits
    from web.serving import in_thread

    app = create_app(Limits(trials=10**15, seconds=3600, per_client=8, client_seconds=10**6))
    with in_thread(app) as port:
        yield port, app.state.page.runner


def get(path: str, query: str) -> bytes:
    return f"GET {path}?q={quote_plus(query)} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()


def post(path: str, fields: dict, files: dict) -> bytes:
    body, kind = multipart(fields, files)
    return (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n"
            .encode() + body)


STEEL = {"roster": ("steel_legion.rosz", (DATA / "battlescribe" / "bsdata" / "steel_legion.rosz").read_bytes())}
REQUESTS = {
    "/api/query": get("/api/query", LONG),
    "/ (a permalink page)": get("/", LONG),
    "/plot.svg": get("/plot.svg", LONG),
    "/plot.png": get("/plot.png", LONG),
    "/api/stream": get("/api/stream", LONG),
    "/ (a sweep)": get("/", "sweep 'roll 20d6' --vary maximised=0..1 --trials 1e11"),
    "/ (a comparison)": get("/", "compare 'roll 20d6' 'roll d6' --trials 1e11"),
    "/api/grid": post("/api/grid", {"options": "--trials 1e11"}, STEEL),
    "/grid": post("/grid", {"options": "--trials 1e11"}, STEEL),
}


@pytest.mark.parametrize("route", list(REQUESTS))
def test_a_closed_request_stops_its_run(served, route):
    port, runner = served
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(REQUESTS[route])
    deadline = time.monotonic() + 60
    while not runner.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert runner.running, f"the run did not start: {connection.recv(4096)[-300:]!r}"
    connection.close()
    closed = time.monotonic()
    while (runner.running or runner.clients.going) and time.monotonic() < closed + 30:
        time.sleep(0.02)
    assert runner.running == [], f"{route}: still running 30 s after its client went"
    assert not runner.clients.going  # and its slot given back
