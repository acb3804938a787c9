"""The page as a player reads it (through Starlette's test client): questions in game words and a
search, labels in words with example values, exact on by default, the answer first with its
sentence, a refusal always in sight, import notes shown, a line of sight on the page."""

from __future__ import annotations

import re

from oddscalc.core import engine
from oddscalc.query.registry import ABOUT
from oddscalc.query.words import parse_query
from oddscalc.dust.board import shipped_maps
from oddscalc.web import forms
from web.test_app import STEEL, plain
from web.uploading import multipart


def listed(page: str) -> list[str]:
    """The queries a home page lists (their paths)."""
    return re.findall(r'<a href="/\?query=([^"]+)">', page)


def test_the_home_page_lists_every_question_in_game_words(client):
    page = client.get("/").text
    paths = forms.paths()
    assert sorted(path.replace("%20", " ") for path in listed(page)) == sorted(paths) and "dust los" in paths
    for path in paths:
        assert ABOUT[path].title in page and plain(ABOUT[path].about) in plain(page)
    assert "Breath Attack, Impact Hits, Stomp" in page and "titans and void shields" in page


def test_a_search_finds_a_question_by_its_words(client):
    assert [path.replace("%20", " ") for path in listed(client.get("/", params={"search": "breath"}).text)] == [
        "t9a hits"]
    assert [path.replace("%20", " ") for path in listed(client.get("/", params={"search": "titans"}).text)] == [
        "epic shoot"]
    assert set(listed(client.get("/", params={"search": "charge"}).text)) >= {"t9a%20charge", "dust%20salvo"}
    nothing = client.get("/", params={"search": "chess"}).text
    assert listed(nothing) == [] and "No question answers “chess”" in nothing


def test_a_form_speaks_in_words_with_example_values(client):
    page = client.get("/", params={"query": "epic shoot"}).text
    label = re.search(r'<label for="ftohit">([^<]+)', page).group(1)
    assert label.strip() == "To hit"
    assert re.search(r'<input type="text" id="fshots" name="--shots" value="" placeholder="12" '
                     r'aria-describedby="fshots-help"', page)  # the help's first example, not "N"
    assert 'id="fshots-help">Shots fired at the formation' in page
    assert 'placeholder="X+"' not in page and 'placeholder="N"' not in page and 'placeholder="DC"' not in page
    assert re.search(r'id="fexact" name="--exact" value="on" aria-describedby="fexact-help" checked>', page)
    permalink = client.get("/", params={"q": "epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+ --trials 100 "
                                             "--seed 1"}).text
    assert not re.search(r'id="fexact" name="--exact" value="on" aria-describedby="fexact-help" checked>', permalink)
    assert '<span class="nw">--war-engines</span>' in page  # an option named in help is kept whole


def test_a_permalink_opens_on_its_answer_the_form_folded_after_it(client):
    page = client.get("/", params={"q": "epic shoot --shots 12 --to-hit 4+ --units 6 --armour 4+ --exact"}).text
    assert page.index('id="answer"') < page.index('<details class="change">') < page.index('id="query-form"')
    assert page.index('<h1>') < page.index('id="answer-title"') < page.index('id="sentence"') < page.index("<table")
    assert '<a class="skip" href="#content">' in page and '<main id="content"' in page
    assert '<p id="status" class="visually-hidden" role="status" aria-live="polite"></p>' in page
    empty = client.get("/", params={"query": "epic shoot"}).text
    assert empty.index('id="query-form"') < empty.index('id="answer"') and "hidden></section>" in empty


def test_a_refusal_of_a_field_under_more_options_is_in_sight(client):
    page = client.get("/", params={"q": "epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+ --mw-shots 2"})
    assert page.status_code == 400  # the field refused was not given: it is under More options, which opens
    field = re.search(r'<details open>\s*<summary>More options.*?data-field="--mw-to-hit">.*?<p class="error">'
                      r'([^<]+)</p>', page.text, re.S)
    assert field and field.group(1) == "error: --mw-to-hit: expected a to-hit value, 2+ to 6+, for --mw-shots 2"
    alert = re.findall(r'<p class="error" role="alert" id="error">([^<]+)</p>', page.text)
    assert alert == [field.group(1)] and page.text.index('id="error"') < page.text.index('id="query-form"')
    top = client.get("/", params={"q": "epic shoot --shots 6 --to-hit 4+ --units 3 --armour 4+ --nonsense 3"}).text
    assert re.search(r'<p class="error" role="alert" id="error">error: --nonsense: no such option', top)


def test_a_lists_import_notes_are_shown_with_its_grid(client):
    body, kind = multipart({"options": "--exact --attackers 'Basilisk Battery'"},
                           {"roster": ("steel_legion.rosz", STEEL.read_bytes())})
    page = client.post("/grid", content=body, headers={"content-type": kind}).text
    notes = re.findall(r'<p class="note">(note \(steel_legion\.rosz\): [^<]+)</p>', page)
    assert any("Infantry Company: Commander (infantry, armour 6+) counted as Infantry" in note for note in notes)


def test_a_line_of_sight_is_on_the_page(client):
    form = client.get("/", params={"query": "dust los"}).text
    options = re.search(r'<select id="fMAP" name="MAP"[^>]*>(.*?)</select>', form, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)"', options) == shipped_maps()  # the shipped maps, no path
    page = client.get("/", params={"q": "dust los ruins --from A1 --to L9"})
    assert page.status_code == 200
    assert re.search(r'<p class="sentence" id="sentence">Line of sight from A1 \(.*\) to L9 \(.*\) on ruins: '
                     r'blocked\.</p>', page.text)
    assert "D3 (none, no dot)" in page.text and "<svg" not in page.text  # what blocks it; nothing to plot
    assert client.get("/api/query", params={"q": "dust los ruins --from A1 --to L9"}).json()["open"] is False


def test_a_sampled_answer_says_its_figures_are_about(client):
    page = client.get("/", params={"q": "roll 3d6 --trials 5000 --seed 2"}).text
    (words,) = re.findall(r'<p class="sentence" id="sentence">([^<]+)</p>', page)
    assert words.startswith("Totals about ")
    exact = engine.run(parse_query("roll 3d6").attack, method="exact")["sum"].mean
    assert abs(float(words.split()[2]) - exact) < 0.1
