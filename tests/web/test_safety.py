"""No request makes the server read, write, look at or connect to anything it names.

Every route is tried with every option that touches a file or the network, at every depth a
query has (the words themselves, a study's quoted queries, the grid form's options, an
upload's name), each naming a canary: a folder of files and a listening socket of this test.
Python's audit hooks and a watch on `os.stat` see every open, every look at a path and every
connection the server makes; none may touch a canary, and every request is refused in one
line that names the option. And the Host header: a page elsewhere cannot drive the API by
DNS rebinding."""

from __future__ import annotations

import json
import os
import shlex
import socket
import sys
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from oddscalc.web.app import create_app
from web.uploading import multipart

SEEN: list[tuple[str, str]] = []
WATCHING = threading.Event()


def _audit(event: str, args: tuple) -> None:
    if WATCHING.is_set() and event in ("open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.mkdir",
                                       "socket.connect", "shutil.copyfile"):
        SEEN.append((event, repr(args)))


sys.addaudithook(_audit)  # (an audit hook stays for the process: it records only while WATCHING)


@pytest.fixture(scope="module")
def canary(tmp_path_factory):
    """Files and a socket of this test that the server must never touch: (folder, scheduler address)."""
    folder = tmp_path_factory.mktemp("canary")
    (folder / "secret.toml").write_text('game = "epic"\n', encoding="utf-8")
    (folder / "map.txt").write_text("....\n....\n", encoding="utf-8")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    yield folder, f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://localhost") as test:
        yield test


def cases(folder: Path, scheduler: str) -> list[tuple[str, str, str]]:
    """(what it tries, the query's words as a page gets them, the option a refusal must name)."""
    secret, board, plot = folder / "secret.toml", folder / "map.txt", folder / "out.png"
    on_board = f"dust attack --dice 3 --board {board} --from A1 --to B2"
    return [
        ("--plot of a query", f"roll 2d6 --plot {plot}", "--plot"),
        ("--plot= of a query", f"roll 2d6 --plot={plot}", "--plot"),
        ("--board of a query", on_board, "--board"),
        ("--board= of a query", f"dust phaser 2z3 --board={board} --from A1 --to B2", "--board"),
        ("a grid's FILE", f"grid {secret}", "FILE"),
        ("a grid's --against", f"grid --game epic --against {secret}", "--against"),
        ("a grid's --scheduler", f"grid --game epic --trials 1000 --scheduler {scheduler}", "--scheduler"),
        ("a grid's --scheduler-timeout", "grid --game epic --scheduler-timeout 1", "--scheduler-timeout"),
        ("a grid's --set of a map", f"grid --game dust --exact --set board={board}", "--set"),
        ("a sweep's --plot", f"sweep 'roll 2d6' --vary maximised=0..1 --plot {plot}", "--plot"),
        ("a sweep's --scheduler", f"sweep 'roll 2d6' --vary maximised=0..1 --scheduler {scheduler}", "--scheduler"),
        ("a comparison's --plot", f"compare 'roll 2d6' 'roll d6' --plot {plot}", "--plot"),
        ("--board in a sweep's query", f"sweep {shlex.quote(on_board)} --vary dice=1..2", "QUERY"),
        ("--board in a comparison's query", f"compare {shlex.quote(on_board)} 'roll 2d6'", "QUERY"),
        ("--plot in a comparison's query", f"compare 'roll 2d6 --plot {plot}' 'roll d6'", "QUERY"),
        ("a grid in a sweep", f"sweep 'grid {secret}' --vary trials=1..2", "QUERY"),
        ("a sweep in a comparison", f"compare \"sweep 'dust attack --board {board}'\" 'roll d6'", "QUERY"),
        ("dust los's map", f"dust los {board} --from A1 --to B2", "MAP"),
        ("profiles --file", f"profiles --file {secret}", "QUERY"),
        ("import --write", f"import {secret} --write {folder / 'out.toml'}", "QUERY"),
    ]


def refusal_of(response) -> str:
    """The one line a refusal says, however the route says it."""
    kind = response.headers.get("content-type", "")
    if kind.startswith("application/json"):
        return response.json()["error"]
    if kind.startswith("text/event-stream"):
        (data,) = [json.loads(line.removeprefix("data: ")) for line in response.text.splitlines()
                   if line.startswith("data: ")]
        return data["error"]
    if kind.startswith("text/html"):
        import html
        import re

        lines = re.findall(r'<p class="error" role="alert"[^>]*>([^<]+)</p>', response.text)
        assert lines, response.text[-2000:]
        return html.unescape(lines[0])
    return response.text.strip()


ROUTES = ["/api/query", "/", "/plot.svg", "/plot.png", "/api/stream"]


def test_no_route_opens_or_dials_what_a_query_names_at_any_depth(client, canary):
    folder, scheduler = canary
    tried = 0
    for what, query, option in cases(folder, scheduler):
        for route in ROUTES:
            SEEN.clear()
            WATCHING.set()
            try:
                response = client.get(route, params={"q": query})
            finally:
                WATCHING.clear()
            touched = [seen for seen in SEEN if str(folder) in seen[1] or scheduler.rpartition(":")[2] in seen[1]]
            assert touched == [], (what, route, touched)
            assert response.status_code == (200 if route == "/api/stream" else 400), (what, route, response.text)
            line = refusal_of(response)
            assert line.startswith(f"error: {option}") and "\n" not in line, (what, route, line)
            if "--board" in query and "sweep '" not in query:  # a map: the page names the ones it has
                assert "the page reads no file on the server" in line and "expected a shipped map" in line
            tried += 1
    assert tried == len(cases(folder, scheduler)) * len(ROUTES)


def test_no_form_opens_or_dials_what_it_names(client, canary):
    folder, scheduler = canary
    secret, board, plot = folder / "secret.toml", folder / "map.txt", folder / "out.png"
    forms = [
        ("/run", {"query": "dust attack", "--dice": "3", "--board": str(board), "--from": "A1", "--to": "B2"},
         "--board"),
        ("/run", {"query": "dust phaser", "PHASER": "2z3", "--plot": str(plot)}, None),  # no such field: left out
        ("/sweep", {"query": f"dust attack --dice 3 --board {board} --from A1 --to B2", "vary": "dice=1..2"},
         "QUERY"),
        ("/compare", {"first": f"roll 2d6 --plot {plot}", "second": "roll d6"}, "QUERY"),
        ("/compare", {"first": f"grid {secret}", "second": "roll d6"}, "QUERY"),
    ]
    for route, params, option in forms:
        SEEN.clear()
        WATCHING.set()
        try:
            response = client.get(f"{route}?{urlencode(params)}")
        finally:
            WATCHING.clear()
        assert [seen for seen in SEEN if str(folder) in seen[1]] == [], (route, params)
        if option is None:
            assert response.status_code == 200 and str(plot) not in response.text
        else:
            assert response.status_code == 400, (route, params, response.text[-500:])
            assert refusal_of(response).startswith(f"error: {option}")


@pytest.mark.parametrize("route", ["/api/grid", "/grid"])
def test_no_grid_form_opens_or_dials_what_its_options_name(client, canary, route):
    folder, scheduler = canary
    secret, plot = folder / "secret.toml", folder / "out.png"
    tried = [
        ({"game": "epic", "options": f"--against {secret}"}, {}, "--against"),
        ({"game": "epic", "options": f"--plot {plot}"}, {}, "--plot"),
        ({"game": "epic", "options": f"--scheduler {scheduler} --trials 100"}, {}, "--scheduler"),
        ({"game": "epic", "options": f"{secret}"}, {}, "FILE"),  # a second FILE: refused as the first is
        ({"options": "--exact"}, {"roster": (f"../../{secret}", b"not a roster")}, "FILE"),  # only its name is kept
    ]
    for fields, files, option in tried:
        body, kind = multipart(fields, files)
        SEEN.clear()
        WATCHING.set()
        try:
            response = client.post(route, content=body, headers={"content-type": kind})
        finally:
            WATCHING.clear()
        assert [seen for seen in SEEN if str(folder) in seen[1] or scheduler.rpartition(":")[2] in seen[1]] == []
        assert response.status_code == 400, (fields, response.text[-500:])
        assert refusal_of(response).startswith(f"error: {option}"), (fields, refusal_of(response))


def test_a_stat_of_a_named_path_is_never_made(client, canary, monkeypatch):
    """Whether a file exists is not told either: no path a query names is even looked at."""
    folder, scheduler = canary
    looked: list[str] = []
    real = os.stat

    def stat(path, *args, **kwargs):
        if str(folder) in str(path):
            looked.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    for _, query, _ in cases(folder, scheduler):
        client.get("/api/query", params={"q": query})
    assert looked == []


def test_no_word_of_any_query_is_read_as_a_path():
    """A path type looks at the file system while the words are read: no word of a query or study is one
    (the command line's own --plot is no word of a query); its names are opened later, as `given.Files`
    allow."""
    from oddscalc.query.registry import COMMANDS
    from oddscalc.query.words import every_command

    every_command()
    kinds = {path: [opt.kind for opt in command.words_options()] for path, command in COMMANDS.items()}
    assert {"grid", "sweep", "compare", "dust los", "epic shoot"} <= set(kinds)
    assert [(path, kind) for path, names in kinds.items() for kind in names if "path" in kind.lower()] == []


def test_serve_answers_the_names_it_is_given_and_no_other():
    """`oddscalc serve --allowed-host NAME`, started as a player starts it: NAME answers, a rebound name does not."""
    import http.client

    from oddscalc.bench.web import serving

    statuses = {}
    with serving("--allowed-host", "club.example") as (port, _):
        for host in ("club.example:8000", "localhost", "evil.example"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/query?q=roll+2d6+--exact", headers={"Host": host})
            statuses[host] = connection.getresponse().status
            connection.close()
    assert statuses == {"club.example:8000": 200, "localhost": 200, "evil.example": 400}


@pytest.mark.parametrize("name", ["http://club.example", "club.example/x", "a b", ""])
def test_serve_refuses_an_allowed_host_that_is_no_name(capsys, name):
    from clirun import assert_refused

    assert_refused(capsys, "serve", "--port", "1", "--allowed-host", name, mentions=("--allowed-host",))


def test_the_command_lines_own_options_are_named_as_such():
    from dataclasses import fields

    from oddscalc.query.refusals import OWN
    from oddscalc.query.common import Common, Study

    spelled = {field.metadata["name"] for table in (Common, Study) for field in fields(table) if field.metadata["shell"]}
    assert spelled == set(OWN)
    from oddscalc.query.asking import ask
    from oddscalc.errors import Refusal

    with pytest.raises(Refusal) as refused:
        ask(["roll", "2d6", "--format", "json"])
    assert refused.value.line == ("error: --format: an option of the command line (how the answer is shown), not a "
                                  "word of a query: the page decides it itself")
    with pytest.raises(Refusal) as refused:
        ask(["roll", "2d6", "--seed"])
    assert refused.value.line == "error: --seed: expected a value after it; see --help"
