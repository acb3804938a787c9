"""The page and its API (oddscalc serve), through Starlette's test client: the same bytes as the
command line, the same one-line refusals, forms from the options' declarations, permalinks,
uploads read in memory, the caps on a run, and the server's safety."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from starlette.testclient import TestClient

from clirun import run
from web.uploading import multipart
from oddscalc.core import engine
from oddscalc.query.common import COMMON_OPTIONS, SHELL
from oddscalc.query.registry import COMMANDS, QUERIES
from oddscalc.query.words import parse_query
from oddscalc.core.options import Cancelled
from oddscalc.output.style import percent
from oddscalc.web import forms
from oddscalc.web.app import create_app
from oddscalc.web.runs import Busy, Limits, Refused, Runner

DATA = Path(__file__).parent.parent / "data"
STEEL = DATA / "battlescribe" / "bsdata" / "steel_legion.rosz"
SHOOT = "epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+"


def plain(html: str) -> str:
    """A page's text as a reader reads it: no tags, entities read."""
    import html as entities

    return entities.unescape(re.sub(r"<[^>]+>", "", html))


def command_of(page: str) -> str:
    """The command line an answer shows (`#command`), as it reads."""
    return " ".join(plain(re.search(r'<code id="command">(.*?)</code>', page, re.S).group(1)).split())


def cli_json(capsys, words: list[str]) -> str:
    result = run(capsys, *words, "--format", "json")
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize("query", [
    "roll 2d6 --exact",
    "roll 3d6+1 --maximised 1 --trials 20000 --seed 7",
    f"{SHOOT} --crossfire --exact",
    f"{SHOOT} --trials 1e4 --seed 3 --outcome broken",
    "dust phaser 2z3 --exact --fractions",
    "dust attack --dice 5 --board ruins --from A9 --to C2 --range 8 --exact",
    "t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 4 --resilience 3 --armour 2 --aegis 5 --exact",
    "sweep 'epic barrage --units 4 --armour 4' --vary bp=1..4 --exact",
    "compare 'roll 2d6' 'roll 2d6 --maximised 1' --trials 1e4 --seed 5",
    "grid --game epic --exact --attackers 'Whirlwind Battery'",
])
def test_the_api_answers_the_very_bytes_the_command_line_prints(client, capsys, query):
    response = client.get("/api/query", params={"q": query})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.text == cli_json(capsys, shlex.split(query))


@pytest.mark.parametrize("query", [
    "epic shoot --shots 6 --to-hit 9 --units 3 --armour 4+",
    "roll 2x6",
    "dust phaser 2z",
    "roll 2d6 --trials 0",
    "roll 2d6 --trials 1e300",
    "epic shoot --shots 6 --to-hit 4+ --armour 4+",
    "sweep 'roll 2d6' --vary maximised=0..30",
    "sweep 'roll 2d6 --seed 3' --vary maximised=0..2",  # refused before it runs, as the command line refuses it
    "roll 2d6 --luck 3",
])
def test_a_refused_query_is_400_with_the_command_lines_one_line(client, capsys, query):
    response = client.get("/api/query", params={"q": query})
    result = run(capsys, *shlex.split(query))
    assert result.code == 2
    assert response.status_code == 400 and response.json() == {"error": result.err.strip()}


@pytest.mark.parametrize("query, words", [
    ("roll 2d6 --plot /tmp/x.png", ("--plot",)),
    ("roll 2d6 --format csv", ("--format",)),
    ("roll 2d6 --threads 64", ("--threads",)),
    ("grid army.toml", ("FILE army.toml", "reads no file on the server", "upload")),
    ("grid --game epic --against /etc/passwd", ("--against /etc/passwd", "reads no file on the server")),
    ("dust attack --dice 3 --board /etc/passwd --from A1 --to B2", ("--board /etc/passwd", "shipped map")),
    ("rules 2.5", ("QUERY",)),
    ("profiles --file army.toml", ("QUERY",)),
    ("import list.rosz", ("QUERY",)),
    ("serve", ("QUERY",)),
    ("roll 2d6 --help", ("--help", "no such option")),
    ("'unclosed", ("QUERY", "does not parse")),
    ("", ("QUERY",)),
    ("roll " + "1" * 5000, ("QUERY", "characters")),
])
def test_the_page_runs_no_file_or_path_of_the_server_and_says_so(client, query, words):
    response = client.get("/api/query", params={"q": query})
    assert response.status_code == 400
    line = response.json()["error"]
    assert line.startswith("error: ") and "\n" not in line
    for word in words:
        assert word in line, (word, line)


def test_every_query_has_a_form_of_its_commands_options(client):
    """Each field comes from the query's declared option (from the attack's declaration): the same names,
    help and defaults; a field added to an attack is in both."""
    for path in QUERIES:
        command = COMMANDS[path]
        fields = forms.fields(path)
        options = [opt.flag for opt in command.options if not opt.argument and opt.name not in SHELL]
        assert [f.name for f in fields if not f.argument] == options
        page = client.get("/", params={"query": path})
        assert page.status_code == 200
        for field in fields:
            assert f'data-field="{field.name}"' in page.text
            assert field.help.split("(")[0][:30] in plain(page.text)
        assert {f.name for f in fields if f.common} == set(COMMON_OPTIONS) - {"--format", "--plot", "--threads"}


def test_a_filled_form_becomes_its_permalink_and_the_permalink_fills_the_form(client):
    form = {"query": "epic shoot", "--shots": "12", "--to-hit": "4+", "--units": "6", "--armour": "4+",
            "--crossfire": "on", "--weapon": "normal", "--exact": "on", "--trials": ""}
    response = client.get("/run", params=form, follow_redirects=False)
    assert response.status_code == 303
    query = parse_qs(urlparse(response.headers["location"]).query)["q"][0]
    words = shlex.split(query)
    assert words[:2] == ["epic", "shoot"] and "--weapon" not in words  # the default is not written
    assert parse_query(query.replace(" --exact", "")).attack == parse_query(SHOOT + " --crossfire").attack
    values = forms.values_of("epic shoot", words)
    assert values == {"--shots": "12", "--to-hit": "4+", "--units": "6", "--armour": "4+", "--crossfire": "on",
                      "--exact": "on"}
    page = client.get(response.headers["location"])
    assert 'value="12"' in page.text and "checked" in page.text


def test_the_permalink_page_shows_the_exact_figures_and_how_to_get_them(client):
    page = client.get("/", params={"q": f"{SHOOT} --exact"})
    assert page.status_code == 200
    exact = engine.run(parse_query(SHOOT).attack, method="exact")
    broken = exact["broken"].at_least(1)
    assert re.search(rf"P\(broken\)</td><td class=n>{re.escape(percent(broken))}</td>", page.text)
    assert command_of(page.text) == f"oddscalc {SHOOT} --exact"  # the command line
    assert re.search(r'<p class="sentence" id="sentence">Kills 2\.83 of 6 units on average; 59\.2% to break the '
                     r'formation\.</p>', page.text)  # the answer in words (exact: 2.8310, 59.24 %)
    assert round(exact["kills"].mean, 2) == 2.83 and round(100 * broken, 1) == 59.2
    charts = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 (\d+) ', page.text)
    assert charts == ["360", "720"]  # drawn into the page for a phone and for a screen, nothing more to fetch
    bars = [float(value) for value in re.findall(r'<rect class="bar" data-k="\d+" data-p="([^"]+)"', page.text)]
    assert bars == pytest.approx([*exact["kills"].pmf, *exact["kills"].pmf], abs=1e-15)  # each bar its exact P(= k)
    (svg,) = set(re.findall(r'<a href="(/plot\.svg\?q=[^"]+)" download', page.text))
    assert svg.replace("/plot.svg", "/plot.png") in page.text
    drawn = client.get(svg.replace("&amp;", "&"))
    assert drawn.status_code == 200 and drawn.headers["content-type"] == "image/svg+xml"
    assert drawn.content.startswith(b"<?xml") and b"<svg" in drawn.content
    png = client.get(svg.replace("&amp;", "&").replace("/plot.svg", "/plot.png"))
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert "**Epic shooting" in page.text and "[b]Epic shooting" in page.text  # Markdown, BBCode
    (json_link,) = re.findall(r'<a id="json" href="([^"]+)"', page.text)
    assert client.get(json_link.replace("&amp;", "&")).json()["command"] == f"oddscalc {SHOOT} --exact"


def test_a_sampled_permalink_pins_its_seed_and_gives_the_very_same_figures(client):
    first = client.get("/", params={"q": "roll 4d6 --trials 20000"})
    found = re.search(r'id="permalink" href="([^"]+)"', first.text)
    assert found and "--seed" in found.group(1).replace("+", " ")
    again = client.get(found.group(1).replace("&amp;", "&"))
    tables = re.compile(r"<div class=\"tables\">(.*?)</div>", re.S)
    assert tables.search(first.text).group(1) == tables.search(again.text).group(1)


def test_a_bad_value_is_shown_by_its_field(client):
    page = client.get("/", params={"q": "epic shoot --shots 6 --to-hit 9 --units 3 --armour 4+"})
    assert page.status_code == 400
    field = re.search(r'<div class="field refused" data-field="([^"]+)">.*?<p class="error">([^<]+)</p>',
                      page.text, re.S)
    assert field.group(1) == "--to-hit"
    assert field.group(2) == "error: --to-hit 9+: expected the weapon&#39;s to-hit value, 2+ to 6+"
    assert re.findall(r'<p class="error" role="alert" id="error">([^<]+)</p>', page.text) == [field.group(2)]


def test_outcomes_can_be_picked_and_every_page_is_served_safely(client):
    page = client.get("/", params={"q": f"{SHOOT} --exact"})
    for name in ("hits", "blast_markers", "broken"):
        assert f"--outcome+{name}" in page.text
    for path in ("/", "/grid", "/compare", "/sweep", "/static/style.css", "/static/page.js"):
        response = client.get(path)
        assert response.status_code == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
    assert "<script" not in page.text.replace('<script src="/static/page.js" defer></script>', "")


def test_the_png_and_the_stream(client):
    png = client.get("/plot.png", params={"q": "roll 2d6 --exact"})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    stream = client.get("/api/stream", params={"q": "roll 6d6 --trials 2e6 --seed 1"})
    events = [block.split("\n") for block in stream.text.strip().split("\n\n")]
    kinds = [lines[0].removeprefix("event: ") for lines in events]
    assert kinds[-1] == "answer" and set(kinds[:-1]) <= {"progress"}
    answer = json.loads(events[-1][1].removeprefix("data: "))
    assert "--seed+1" in answer["permalink"] and "<table>" in answer["html"]
    refused = client.get("/api/stream", params={"query": "epic shoot", "--shots": "6", "--to-hit": "9",
                                                 "--units": "3", "--armour": "4+"})
    event = json.loads(refused.text.split("data: ", 1)[1])
    assert event == {"error": "error: --to-hit 9+: expected the weapon's to-hit value, 2+ to 6+", "option": "--to-hit"}


def test_an_uploaded_list_grids_as_the_command_line_grids_the_file(client, capsys, tmp_path, monkeypatch):
    body, kind = multipart({"options": "--exact --attackers 'Basilisk Battery'"},
                           {"roster": ("steel_legion.rosz", STEEL.read_bytes())})
    response = client.post("/api/grid", content=body, headers={"content-type": kind})
    assert response.status_code == 200, response.text
    (tmp_path / "steel_legion.rosz").write_bytes(STEEL.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert response.text == cli_json(capsys, ["grid", "steel_legion.rosz", "--exact", "--attackers",
                                              "Basilisk Battery"])
    said = run(capsys, "grid", "steel_legion.rosz", "--exact", "--attackers", "Basilisk Battery").err.splitlines()
    notes = json.loads(response.text)["import_notes"]  # what the import reads the list as, in the JSON too
    assert notes and notes == [line for line in said if line.startswith("note (steel_legion.rosz): ")]
    page = client.post("/grid", content=body, headers={"content-type": kind})
    assert page.status_code == 200 and "<table class=sortable>" in page.text
    link, query = re.search(r'<td data-label="query"><a href="(/\?q=[^"]+)">([^<]+)</a>', page.text).groups()
    cell = client.get(link.replace("&amp;", "&"))  # a grid cell's own page: its query, answered
    assert cell.status_code == 200 and 'id="answer-title"' in cell.text
    assert command_of(cell.text) == f"oddscalc {plain(query)} --exact"  # exact, as the grid was
    # the page keeps no upload: no permalink that would not open, nor a plot's URL; the SVG in the page
    assert 'id="permalink"' not in page.text and "No permalink: the page keeps no uploaded roster" in page.text
    assert "/plot.png?q=" not in page.text and '<a href="data:image/svg+xml;base64,' in page.text
    bundled = client.get("/", params={"q": "grid --game epic --exact --attackers 'Whirlwind Battery'"}).text
    assert 'id="permalink"' in bundled and "/plot.png?q=grid" in bundled  # a bundled roster's grid has both


@pytest.mark.parametrize("game, engagement", [("epic", "assault"), ("t9a", "combat")])
def test_the_grid_form_fights_as_grid_assault_and_grid_combat_do(client, capsys, game, engagement):
    """The grid form's Assaults (Epic) and Charges (The 9th Age) boxes: the command line's very grid."""
    body, kind = multipart({"game": game, engagement: "on", "exact": "on"}, {})
    response = client.post("/api/grid", content=body, headers={"content-type": kind})
    assert response.status_code == 200, response.text
    assert response.text == cli_json(capsys, ["grid", "--game", game, "--exact", f"--{engagement}"])
    rows = json.loads(response.text)["rows"]
    assert rows and all(row["weapon"] == engagement and row["outcome"] == "win" for row in rows)
    page = client.post("/grid", content=body, headers={"content-type": kind})
    assert page.status_code == 200 and f'name="{engagement}" value="on" checked' in page.text


def test_what_a_unit_is_called_is_shown_as_text(client):
    roster = ('game = "epic"\n[[unit]]\nname = "<script>alert(1)</script>"\nkind = "infantry"\nunits = 2\n'
              'armour = "4+"\n[[unit.weapon]]\nname = "<b>Gun</b>"\nshots = 3\nap = "4+"\n')
    body, kind = multipart({"options": "--exact"}, {"roster": ("x.toml", roster.encode())})
    page = client.post("/grid", content=body, headers={"content-type": kind})
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert "<b>Gun</b>" not in page.text


@pytest.mark.parametrize("files, fields, words", [
    ({"roster": ("bad.rosz", b"PK\x03\x04 not a zip at all")}, {}, ("FILE bad.rosz", "zip")),
    ({"roster": ("bad.toml", b"game = ")}, {}, ("FILE bad.toml", "TOML")),
    ({"roster": ("x.toml", b'game = "chess"\n')}, {}, ("FILE x.toml", "chess")),
    ({}, {}, ("FILE", "upload a roster")),
    ({"roster": ("x.toml", (DATA.parent.parent / "oddscalc" / "data" / "epic_example.toml").read_bytes()),
      "against": ("y.toml", (DATA.parent.parent / "oddscalc" / "data" / "dust_example.toml").read_bytes())}, {},
     ("--against y.toml", "dust units, not epic")),
    ({"roster": ("x.toml", (DATA.parent.parent / "oddscalc" / "data" / "epic_example.toml").read_bytes())},
     {"options": "--sort nonsense"}, ("--sort nonsense",)),
])
def test_a_bad_upload_is_refused_in_one_line(client, files, fields, words):
    body, kind = multipart(fields, files)
    response = client.post("/api/grid", content=body, headers={"content-type": kind})
    assert response.status_code == 400
    line = response.json()["error"]
    for word in words:
        assert word in line, (word, line)


def test_a_run_is_capped_in_trials_and_in_time():
    with TestClient(create_app(Limits(trials=10_000, seconds=0.3)), base_url="http://localhost") as small:
        over = small.get("/api/query", params={"q": "roll 2d6 --trials 20000"})
        assert over.status_code == 400 and over.json() == {
            "error": "error: --trials 20,000: expected at most 10,000 trials in all here; the command line has no "
                     "such cap"}
        study = small.get("/api/query", params={"q": "sweep 'roll 2d6' --vary maximised=0..2 --trials 5000"})
        assert "3 cells × 5,000 trials" in study.json()["error"]
        assert small.get("/api/query", params={"q": "roll 200d6 --exact"}).status_code == 200  # exact samples nothing
    with TestClient(create_app(Limits(seconds=0.3, trials=10**10)), base_url="http://localhost") as slow:
        long = slow.get("/api/query", params={"q": "roll 20d6 --trials 1e10 --precision 1e-9"})  # no projection
        assert long.status_code == 400 and "stopped after 0.3 s" in long.json()["error"]
        projected = slow.get("/api/query", params={"q": "roll 20d6 --trials 1e10"}).json()["error"]
        assert re.fullmatch(r"error: --trials 10,000,000,000: would take about [0-9,]+ s here \(its first [0-9,]+ "
                            r"trials took [0-9.]+ s\), more than the 0\.3 s a run may take here: ask for fewer "
                            r"--trials, or run it on the command line", projected), projected


def test_a_run_whose_client_goes_is_cancelled():
    async def gone() -> bool:
        return True

    async def main() -> None:
        with pytest.raises(Cancelled):
            await Runner(Limits(trials=10**10)).run(["roll", "20d6", "--trials", "1e10"], gone=gone)

    create_app()  # every command built
    asyncio.run(main())


@pytest.mark.parametrize("waiting, statuses", [(1, [200, 200, 503, 503]), (2, [200, 200, 200, 503])])
def test_a_busy_server_answers_503_and_keeps_serving(waiting, statuses):
    async def main() -> list[list[int]]:
        import httpx2 as httpx

        app = create_app(Limits(runs=1, waiting=waiting, wait=30, per_client=4))
        transport = httpx.ASGITransport(app=app)
        bursts = []
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            for burst in range(2):  # the second burst finds the server as the first did: every slot given back
                requests = [client.get("/api/query", params={"q": f"roll 10d6 --trials 4e6 --seed {i}"})
                            for i in range(4)]
                answers = await asyncio.gather(*requests)
                busy = [answer for answer in answers if answer.status_code == 503]
                assert all(answer.headers["retry-after"] == "5" and "busy" in answer.json()["error"] for answer in busy)
                bursts.append(sorted(answer.status_code for answer in answers))
            after = await client.get("/api/query", params={"q": "roll 2d6 --exact"})
        assert after.status_code == 200
        return bursts

    assert asyncio.run(main()) == [statuses, statuses]  # one runs, `waiting` wait, the rest are told to come back


def test_the_runner_refuses_what_it_cannot_run():
    create_app()
    with pytest.raises(Refused) as refused:
        asyncio.run(Runner(Limits()).run(["rules"]))
    assert refused.value.option == "QUERY" and refused.value.line.startswith("error: QUERY rules: expected a query")
    with pytest.raises(Refused) as refused:
        asyncio.run(Runner(Limits()).run(["epic", "shoot", "--shots", "6", "--to-hit", "9", "--units", "3",
                                          "--armour", "4+"]))
    assert refused.value.option == "--to-hit"  # the field it is about, named by the library (no text parsed)
    assert issubclass(Busy, Exception)


@pytest.mark.parametrize("args, words", [
    (["serve", "--port", "0"], ("--port 0", "1 to 65535")),
    (["serve", "--port", "70000"], ("--port 70000",)),
    (["serve", "--host", "256.1.1.1"], ("--host 256.1.1.1", "cannot listen")),
])
def test_serve_refuses_a_bad_address_in_one_line(capsys, args, words):
    from clirun import assert_refused

    assert_refused(capsys, *args, mentions=words)


def test_serve_refuses_a_port_in_use(capsys):
    import socket

    from clirun import assert_refused

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert_refused(capsys, "serve", "--port", str(port), mentions=(f"error: --port {port}: cannot listen there",))


def test_a_query_is_run_once_for_its_page_and_its_plot(monkeypatch):
    app = create_app(Limits(kept=20_000, drawn=200_000))
    page = app.state.page
    runs = []
    real = Runner.run

    async def counted(self, words, **kwargs):
        runs.append(list(words))
        return await real(self, words, **kwargs)

    monkeypatch.setattr(Runner, "run", counted)
    with TestClient(app, base_url="http://localhost") as client:
        text = client.get("/", params={"q": "roll 2d6 --trials 1000"}).text  # sampled: kept under its pinned seed
        (key,) = page.answers.keys()
        assert key[:5] == ("roll", "2d6", "--trials", "1000", "--seed") and len(key) == 6
        svg = re.search(r'<a href="(/plot\.svg\?q=[^"]+)" download', text).group(1).replace("&amp;", "&")
        first, again = client.get(svg), client.get(svg)
        assert first.status_code == 200 and first.content == again.content == page.drawn.get(("svg", *key))
        assert client.get(svg.replace("/plot.svg", "/plot.png")).content.startswith(b"\x89PNG")
        assert runs == [["roll", "2d6", "--trials", "1000"]]  # the plots came from the answer kept
        client.get("/plot.png", params={"q": "roll 3d6 --exact"})  # not kept before: run, then drawn and kept
        assert runs[-1] == ["roll", "3d6", "--exact"] and page.drawn.keys()[-1] == ("png", "roll", "3d6", "--exact")
        client.get("/plot.png", params={"q": "roll 4d6 --trials 1000"})  # no seed: its figures are not fixed
        assert all("4d6" not in key for key in page.drawn.keys())
        for dice in range(5, 9):
            client.get("/plot.png", params={"q": f"roll {dice}d6 --exact"})
        assert page.drawn.size <= 200_000 and ("svg", *key) not in page.drawn.keys()  # the oldest out, by bytes
        client.get("/", params={"q": "roll 5d6 --exact"})
        client.get("/", params={"q": "roll 6d6 --exact"})
        assert page.answers.keys() == [("roll", "5d6", "--exact"), ("roll", "6d6", "--exact")]
        assert page.answers.size <= 20_000


def test_only_words_that_fix_the_figures_are_a_key():
    from oddscalc.query.asking import ask
    from oddscalc.web.render import fixed_words

    assert fixed_words(ask(["roll", "2d6", "--exact"]), ["roll", "2d6", "--exact"]) == ["roll", "2d6", "--exact"]
    seeded = ["roll", "2d6", "--trials", "100", "--seed", "3"]
    assert fixed_words(ask(seeded), seeded) == seeded
    assert fixed_words(ask(["roll", "2d6", "--trials", "100"]), ["roll", "2d6", "--trials", "100"]) is None
    study = ["compare", "roll 2d6", "roll 3d6", "--exact"]
    assert fixed_words(ask(study), study) == study  # exact: its figures are fixed too
    sampled = ["compare", "roll 2d6", "roll 3d6", "--trials", "100"]
    assert fixed_words(ask(sampled), sampled) is None
    grid = ["grid", "--game", "epic", "--exact", "--attackers", "Whirlwind Battery"]
    assert fixed_words(ask(grid), grid) == grid and fixed_words(ask(grid), grid, uploaded=True) is None


def test_a_study_page_is_headed_by_its_kind_once_and_offers_another(client):
    page = client.get("/", params={"q": "compare 'roll 2d6' 'roll d6' --exact"}).text
    assert re.findall(r"<h1>(.*?)</h1>", page) == ["Compare"]
    assert '<a href="/compare">Another comparison</a>' in page
    assert page.count("compare &#39;roll 2d6&#39; &#39;roll d6&#39; --exact</h2>") == 1  # the study, once
    sweep = client.get("/", params={"q": "sweep 'roll 2d6' --vary maximised=0..1 --exact"}).text
    assert re.findall(r"<h1>(.*?)</h1>", sweep) == ["Sweep"] and '<a href="/sweep">Another sweep</a>' in sweep
    assert re.findall(r"<h1>(.*?)</h1>", client.get("/", params={"q": "roll 2d6 --exact"}).text) == ["Dice"]
    assert re.findall(r"<h1>(.*?)</h1>", client.get("/", params={"q": f"{SHOOT} --exact"}).text) == [
        'Shooting <span class="game-name">Epic Armageddon</span>']


def test_targets_uploaded_against_a_bundled_roster_are_used_not_dropped(client, capsys, tmp_path, monkeypatch):
    targets = ('game = "epic"\n[[unit]]\nname = "Tanks"\nkind = "armoured-vehicle"\nunits = 3\narmour = "4+"\n'
               '[[unit.weapon]]\nname = "Guns"\nshots = 3\nat = "5+"\n')
    body, kind = multipart({"game": "epic", "options": "--exact --attackers 'Whirlwind Battery'"},
                           {"against": ("tanks.toml", targets.encode())})
    response = client.post("/api/grid", content=body, headers={"content-type": kind})
    assert response.status_code == 200, response.text
    (tmp_path / "tanks.toml").write_text(targets, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert response.text == cli_json(capsys, ["grid", "--game", "epic", "--against", "tanks.toml", "--exact",
                                              "--attackers", "Whirlwind Battery"])
    assert {row["target"] for row in json.loads(response.text)["rows"]} == {"Tanks"}


def test_the_pages_say_when_to_come_back():
    """A busy server's HTML pages answer 503, a client over its share 429, both with Retry-After and
    the line in the page."""
    async def main() -> tuple:
        import httpx2 as httpx

        app = create_app(Limits(runs=1, waiting=0, per_client=1, trials=10**10, seconds=600))  # a run that goes on
        runner = app.state.page.runner
        transport = httpx.ASGITransport(app=app, client=("10.0.0.1", 1))
        other = httpx.ASGITransport(app=app, client=("10.0.0.2", 1))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as mine, \
                httpx.AsyncClient(transport=other, base_url="http://localhost") as theirs:
            long = asyncio.ensure_future(mine.get("/api/query", params={"q": "roll 20d6 --trials 1e10"}))
            while not runner.running:
                await asyncio.sleep(0.01)
            again = await mine.get("/", params={"q": "roll 2d6 --trials 1000"})  # this client's second run
            busy = await theirs.get("/", params={"q": "roll 2d6 --trials 1000"})  # the one slot taken
            exact = await theirs.get("/", params={"q": "roll 2d6 --exact"})  # a lane of its own
            runner.running[0].cancel.cancel()
            await long
        return again, busy, exact

    again, busy, exact = asyncio.run(main())
    assert again.status_code == 429 and again.headers["retry-after"] == "2"
    assert "error: a sampled run of yours is going here" in again.text
    assert busy.status_code == 503 and busy.headers["retry-after"] == "5" and "the server is busy" in busy.text
    assert exact.status_code == 200


def test_the_assault_question_from_the_form(client, capsys):
    """The issue's question asked on the page: 6 Tactical and 2 Rhinos (the --other field) assault 12 Ork Boyz
    with 3 blast markers; the form's permalink answers the very bytes of the command line."""
    form = {"query": "epic assault", "--units": "6", "--cc": "4+", "--ff": "3+", "--armour": "4+",
            "--other": "2 cc 6+ ff 6+ armour 5+ in-contact 0", "--enemy-units": "12", "--enemy-cc": "4+",
            "--enemy-ff": "6+", "--enemy-armour": "6+", "--enemy-blast-markers": "3", "--exact": "on"}
    response = client.get("/run", params=form, follow_redirects=False)
    assert response.status_code == 303
    query = parse_qs(urlparse(response.headers["location"]).query)["q"][0]
    assert "--other '2 cc 6+ ff 6+ armour 5+ in-contact 0'" in query
    assert client.get("/api/query", params={"q": query}).text == cli_json(capsys, shlex.split(query))
    page = client.get(response.headers["location"]).text
    exact = parse_query(query.replace(" --exact", "")).attack.exact()
    sentence = (f"{exact['win'][1] * 100:.3g}% to win; {exact['draw'][1] * 100:.3g}% to draw; "
                f"{exact['destroyed'][1] * 100:.3g}% to destroy the target.")
    assert sentence in page  # the answer first, in words
    assert 'value="2 cc 6+ ff 6+ armour 5+ in-contact 0"' in page  # the form filled again


def test_the_charge_question_from_the_form(client, capsys):
    """Issue 34's question asked on the page: 5 knights on horses charge 20 spearmen in their flank; the form's
    permalink answers the very bytes of the command line, and the page says P(win), P(break), P(caught) first."""
    knights = {"--models": "5", "--width": "5", "--attacks": "1", "--offensive": "4", "--defensive": "4",
               "--strength": "5", "--resilience": "3", "--agility": "3", "--discipline": "7", "--armour": "5",
               "--mount": "A1 O3 S3 I3 harnessed", "--swiftstride": "on", "--cannot-be-stomped": "on",
               "--charge-strength": "2", "--charge-ap": "2"}  # lances
    spearmen = {"--enemy-models": "20", "--enemy-width": "5", "--enemy-attacks": "1", "--enemy-offensive": "3",
                "--enemy-defensive": "3", "--enemy-strength": "3", "--enemy-resilience": "3",
                "--enemy-agility": "3", "--enemy-discipline": "7", "--enemy-armour": "1", "--enemy-standard": "on"}
    form = {"query": "t9a combat", **knights, **spearmen, "--flank": "on", "--exact": "on"}
    response = client.get("/run", params=form, follow_redirects=False)
    assert response.status_code == 303
    query = parse_qs(urlparse(response.headers["location"]).query)["q"][0]
    assert "--flank" in query and "--enemy-standard" in query and "--mount 'A1 O3 S3 I3 harnessed'" in query
    assert client.get("/api/query", params={"q": query}).text == cli_json(capsys, shlex.split(query))
    exact = parse_query(query.replace(" --exact", "")).attack.exact()
    page = client.get(response.headers["location"]).text
    charger_breaks = exact["break"][1] - exact["enemy_break"][1]  # only the loser tests: the rest is the charger's
    assert f"{exact['win'][1] * 100:.3g}% to win" in page and f"{exact['enemy_break'][1] * 100:.3g}% to break the " \
        "charged unit" in page and f"{exact['enemy_caught'][1] * 100:.3g}% to catch it" in page
    assert f"{charger_breaks * 100:.3g}% that the charger breaks" in page and "the loser" not in page


def test_the_pages_outcomes_are_named_in_words_and_link_their_outcome(client):
    """The outcome menu reads as a player names things ("enemy Health Points lost", never
    `enemy_health_lost`), each label linking the very outcome of its words."""
    from oddscalc.output.sentence import words

    duel = " ".join(f"--{prefix}{name} {value}" for prefix in ("", "enemy-") for name, value in (
        ("models", 1), ("width", 1), ("attacks", 1), ("offensive", 3), ("defensive", 3), ("strength", 3),
        ("resilience", 3), ("agility", 3), ("discipline", 7)))
    page = client.get("/", params={"q": f"t9a combat {duel} --exact"}).text
    menu = re.search(r'<nav class="outcomes".*?</nav>', page, re.S).group(0)
    labels = re.findall(r'data-outcome="([a-z_]+)">([^<]+)</', menu)
    assert ("enemy_health_lost", "enemy Health Points lost") in labels and ("enemy_break", "the charged unit breaks") \
        in labels and all(label == words(name) and "_" not in label for name, label in labels)
    assert [name for name, _ in labels][:2] == ["win", "draw"] and len(labels) == 10
