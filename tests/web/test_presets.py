"""An engagement's sides filled from a roster's units (web/presets.py, the /fill route): what is offered, what a
side's words are, and what filling one side changes (and what it leaves)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlencode

import pytest

from oddscalc.lists.games import load_roster
from oddscalc.web import forms, presets

DATA = Path(__file__).parents[2] / "oddscalc" / "data"


def shown(page: str, name: str) -> str:
    """A text field's value as the page shows it."""
    found = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', page)
    return found.group(1) if found else ""


@pytest.mark.parametrize("path", ["t9a combat", "epic assault"])
def test_each_unit_that_can_fight_is_offered_for_each_side_with_its_own_words(path):
    roster = load_roster(None, path.split()[0])
    charger, charged = presets.bundled(path)
    fighting = [unit for unit in roster.units if roster.game.assault(unit, unit) is not None]
    assert 0 < len(fighting) and [p.label for p in charger] == [p.label for p in charged] == [
        f"{unit.name} (bundled {path.split()[0]} example)" for unit in fighting]
    mine, theirs = presets.side_names(path)
    for unit, first, second in zip(fighting, charger, charged):
        words = shlex.split(roster.game.assault(unit, unit).query())[1:]
        values = forms.values_of(path, words)
        assert first.values == {name: value for name, value in values.items() if name in mine}
        assert second.values == {name: value for name, value in values.items() if name in theirs}
        assert forms.values_of(path, [*path.split(), *shlex.split(first.words)]) == first.values  # words = fields
        assert all(name.startswith("--enemy-") for name in second.values)


def test_filling_a_side_replaces_that_sides_fields_and_keeps_the_rest():
    path = "t9a combat"
    knights = next(p for p in presets.bundled(path)[0] if p.label.startswith("Knights"))
    form = {"query": path, "--models": "40", "--impact-hits": "d6", "--great-weapon": "on", "--enemy-models": "12",
            "--rounds": "end", "--exact": "on"}
    words = presets.filled(path, form, 0, knights.words)
    values = forms.values_of(path, words)
    assert {name: values[name] for name in knights.values} == knights.values  # the unit's figures
    assert "--impact-hits" not in values and "--great-weapon" not in values  # the old charger's, cleared
    assert values["--enemy-models"] == "12" and values["--rounds"] == "end" and values["--exact"] == "on"


def test_a_presets_words_fill_only_their_own_side():
    """The words come back with the form (a request may say anything): another side's option in them is not taken,
    and words that do not split are no words."""
    path = "epic assault"
    words = presets.filled(path, {"--enemy-units": "3"}, 0, "--units 4 --enemy-units 99 --rounds 7 --exact")
    assert forms.values_of(path, words) == {"--units": "4", "--enemy-units": "3"}
    assert presets.filled(path, {"--units": "5"}, 0, "--units '4") == path.split()  # the side cleared, no more


def test_the_form_fills_a_side_without_a_script(client):
    path = "t9a combat"
    charged = next(p for p in presets.bundled(path)[1] if p.label.startswith("Heavy Infantry"))
    page = client.get("/fill?" + urlencode({"query": path, "fill": "2", "preset-2": charged.words, "--models": "7"}))
    assert page.status_code == 200
    assert shown(page.text, "--enemy-models") == charged.values["--enemy-models"] and shown(page.text, "--models") == "7"
    assert page.text.count('<select id="preset-') == 2 and "<svg" not in page.text  # the form again, nothing run


def test_a_players_list_joins_the_units_offered(client):
    roster = (DATA / "t9a_example.toml").read_bytes()
    page = client.post("/fill", data={"query": "t9a combat"}, files={"roster": ("club.toml", roster)})
    assert page.status_code == 200
    assert page.text.count(">Knights (club.toml)</option>") == 2 and page.text.count("(bundled t9a example)<") == 10


@pytest.mark.parametrize("query, upload, line", [
    ("t9a combat", ("club.toml", (DATA / "epic_example.toml").read_bytes()),
     "error: FILE club.toml: holds epic units, not t9a"),
    ("t9a combat", None, "error: FILE: choose a list (.ros, .rosz) or a roster (.toml) to read"),
    ("epic shoot", ("club.toml", b""), "error: QUERY epic shoot: not an engagement of the page (epic assault, t9a "
                                       "combat)"),
])
def test_a_list_that_cannot_fill_the_sides_is_said_in_one_line(client, query, upload, line):
    files = {"roster": upload} if upload else {"other": ("x.txt", b"x")}
    page = client.post("/fill", data={"query": query}, files=files)
    assert page.status_code == 400 and line in page.text


def test_a_unit_that_cannot_fight_is_passed_over_wherever_it_stands():
    import dataclasses

    roster = load_roster(None, "t9a")
    backwards = dataclasses.replace(roster, units=tuple(reversed(roster.units)))  # those that cannot fight first
    assert roster.game.assault(backwards.units[0], backwards.units[0]) is None
    charger, _ = presets.presets("t9a combat", backwards, "club")
    assert [p.label for p in charger] == [f"{unit.name} (club)" for unit in backwards.units
                                          if roster.game.assault(unit, unit) is not None]
    assert presets.presets("epic shoot", roster, "club") == ([], [])  # no engagement: nothing to fill


@pytest.mark.parametrize("value, side", [("1", 0), ("2", 1), ("0", None), ("3", None), ("x", None), (None, None),
                                         ("", None)])
def test_a_fill_button_names_side_1_or_2(value, side):
    assert presets.side_of(value, ([], [])) == side
    assert presets.side_of("2", ([],)) is None  # a form of one side has no second


BSDATA = Path(__file__).parents[1] / "data" / "battlescribe"


@pytest.mark.parametrize("path, listed", [("epic assault", "bsdata/steel_legion.rosz"),
                                          ("t9a combat", "t9a_rules/dread_elves.rosz")])
def test_a_list_built_as_the_apps_save_one_fills_the_sides_with_its_units(client, path, listed):
    """Lists built from BSData's catalogues as BattleScribe saves them (tests/data/battlescribe): each unit of the
    list that can fight is offered for both sides, with the words its import gives the grid."""
    from markupsafe import escape

    from oddscalc.lists.games import roster_of

    data = (BSDATA / listed).read_bytes()
    name = Path(listed).name
    page = client.post("/fill", data={"query": path}, files={"roster": (name, data)})
    roster = roster_of(data, name, path.split()[0])
    expected = presets.presets(path, roster, name)
    assert page.status_code == 200 and expected[0]
    for preset in expected[0] + expected[1]:
        assert f'<option value="{escape(preset.words)}" ' in page.text and f">{escape(preset.label)}</option>" in page.text


def test_a_list_of_another_game_saved_by_the_app_is_refused_in_one_line(client):
    """A list BattleScribe itself saved (Warhammer 40,000: no public Epic or 9th Age list file was found)."""
    data = (BSDATA / "apps" / "csm_test.rosz").read_bytes()
    page = client.post("/fill", data={"query": "t9a combat"}, files={"roster": ("csm_test.rosz", data)})
    line = re.search(r'<p class="error" role="alert" id="error">([^<]+)</p>', page.text)
    assert page.status_code == 400 and line and line.group(1).startswith("error: FILE csm_test.rosz: ")


@pytest.mark.parametrize("headers, body, line", [
    ({"content-type": "text/plain"}, b"x", "error: FILE: expected a form with a roster file (multipart/form-data)"),
    ({"content-type": "multipart/form-data; boundary=b"}, b"hello", "error: FILE: a form that does not parse"),
])
def test_an_upload_that_is_no_form_is_one_line_on_the_page(client, headers, body, line):
    page = client.post("/fill", content=body, headers=headers)
    assert page.status_code == 400 and f'<p class="error" role="alert" id="error">{line}</p>' in page.text
