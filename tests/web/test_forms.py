"""A query's form (web/forms.py): its fields are the command's options as declared on the attack,
a filled form is a command line, and a command line fills the form again."""

from __future__ import annotations

import subprocess
import sys
from enum import Enum

import pytest

from oddscalc.dust.board import shipped_maps
from oddscalc.web import forms
from oddscalc.web.forms import Field


def field(path: str, name: str) -> Field:
    (found,) = [f for f in forms.fields(path) if f.name == name]
    return found


@pytest.mark.parametrize("path, expected", [
    ("dust phaser", Field("PHASER", "XzY: X dice; each hit rolls Y dice.", "text", required=True, metavar="PHASER",
                          example="2z3")),  # its example: the help's first
    ("dust phaser", Field("--count", "Models firing the weapon: their dice add up (1 to 20).", "text", default="1",
                          metavar="C", example="2")),
    ("dust phaser", Field("--sustained", "Sustained attack: re-roll all misses once (takes both actions).", "switch")),
    ("dust phaser", Field("--berserk-stacking", "With --sustained and --berserk: stack (a second re-roll pass, the "
                          "default) or once (one pass in all). An open rules question.", "choice", ("stack", "once"),
                          "stack")),
    ("epic shoot", Field("--to-hit", "The weapon's to-hit value, 2+ to 6+ (AP, AT or MW).", "text", required=True,
                         metavar="X+", first=True, example="4+")),
    ("epic shoot", Field("--units", "Units the attack can reach (1 to 100). With --war-engines: the formation's other "
                         "units (0 to 100, default 0), which count toward breaking.", "text", metavar="U",
                         first=True, example="6")),  # not required, but shown first (declared so on the attack)
    ("epic shoot", Field("--mw-shots", "Macro-weapon shots beside the normal ones: their hits are allocated and saved "
                         "after the normal hits, onto the units left (§2.3).", "text", default="0", metavar="N")),
    ("epic shoot", Field("--vehicle-armour", "The vehicles' armour save, 2+ to 6+, or none (needed with --vehicles).",
                         "text", metavar="X+")),  # its default (0) is no value anyone types: shown empty
    ("epic shoot", Field("--trials", "Monte Carlo trials (1e6, 2_000_000).", "text", default="1000000", metavar="N",
                         common=True)),
    ("epic shoot", Field("--exact", "Compute the exact distribution instead of sampling.", "switch", common=True)),
    ("dust attack", Field("--board", "Check the shot on this map (a file, or ruins / crossroads): the squares, the "
                          "range and the line of sight; needs --from and --to.", "choice", ("", *shipped_maps()),
                          metavar="MAP")),  # only the shipped maps: no path on the server
])
def test_a_field_is_its_option_as_declared(path, expected):
    assert field(path, expected.name) == expected


def test_the_fields_come_in_the_order_of_help_and_leave_out_what_the_page_decides():
    names = [f.name for f in forms.fields("dust phaser")]
    assert names[0] == "PHASER" and names.index("--count") < names.index("--trials")
    assert not set(names) & {"--format", "--plot", "--threads", "--scheduler", "--help"}  # the command line's own
    assert [f.label for f in forms.fields("epic shoot")[:3]] == ["Shots", "To hit", "Armour"]  # in words
    assert [f.placeholder for f in forms.fields("epic shoot")[:3]] == ["12", "4+", "4+"]  # as the examples give them
    assert field("dust phaser", "PHASER").argument and not field("dust phaser", "--count").argument


def test_which_fields_come_first_is_known_before_any_game_was_loaded():
    code = "from oddscalc.web import forms; print([f.name for f in forms.fields('epic shoot') if f.first])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['--shots', '--to-hit', '--armour', '--units']"


class Colour(Enum):
    RED = "red"


@pytest.mark.parametrize("value, shown", [(None, ""), (True, ""), (False, ""), (0, "0"), (3, "3"), ("4+", "4+"),
                                          (Colour.RED, "red")])
def test_a_default_is_shown_as_typed(value, shown):
    assert forms._default(value) == shown


@pytest.mark.parametrize("form, words", [
    ({"PHASER": "2z3"}, ["dust", "phaser", "2z3"]),
    ({"PHASER": " 2z3 ", "--count": "1", "--sustained": "on"}, ["dust", "phaser", "2z3", "--sustained"]),
    ({"PHASER": "2z3", "--count": "2", "--sustained": "off", "--berserk": "true"},
     ["dust", "phaser", "2z3", "--count", "2", "--berserk"]),
    ({"PHASER": "2z3", "--exact": "1", "--verify": "yes", "--fractions": "no"},
     ["dust", "phaser", "2z3", "--exact", "--verify"]),
    ({"PHASER": "2z3", "--berserk-stacking": "stack", "--seed": "  "}, ["dust", "phaser", "2z3"]),
    ({"PHASER": "2z3", "--berserk-stacking": "once", "--trials": "1e5"},
     ["dust", "phaser", "2z3", "--berserk-stacking", "once", "--trials", "1e5"]),
])
def test_a_filled_form_is_the_command_line_it_asks_for(form, words):
    assert forms.words_of_form("dust phaser", form) == words


def test_a_required_value_is_written_even_when_it_equals_its_default(monkeypatch):
    monkeypatch.setattr(forms, "fields", lambda path: [Field("--shots", "", "text", default="3", required=True)])
    assert forms.words_of_form("epic shoot", {"--shots": "3"}) == ["epic", "shoot", "--shots", "3"]


@pytest.mark.parametrize("words, values", [
    (["dust", "phaser", "2z3", "--count", "2", "--sustained"], {"PHASER": "2z3", "--count": "2", "--sustained": "on"}),
    (["dust", "phaser", "--count=3", "2z3", "--exact"], {"--count": "3", "PHASER": "2z3", "--exact": "on"}),
    (["dust", "phaser", "2z3", "--count"], {"PHASER": "2z3"}),  # an option without its value: nothing to fill
    (["dust", "phaser", "2z3", "extra", "--nope", "1"], {"PHASER": "2z3"}),  # what is no field is left out
    (["dust", "phaser", "--nope", "2z3"], {"PHASER": "2z3"}),  # an unknown option is not the argument
])
def test_a_command_line_fills_the_form_again(words, values):
    assert forms.values_of("dust phaser", words) == values


def test_a_form_and_its_command_line_go_round():
    form = {"--shots": "12", "--to-hit": "4+", "--armour": "4+", "--units": "6", "--crossfire": "on", "--seed": "7"}
    assert forms.values_of("epic shoot", forms.words_of_form("epic shoot", form)) == form


@pytest.mark.parametrize("words, path", [
    (["epic", "shoot", "--shots", "3"], "epic shoot"), (["roll", "2d6"], "roll"), (["epic"], None),
    (["sweep", "roll 2d6"], None), ([], None), (["dust", "phaser"], "dust phaser"),
])
def test_the_query_a_command_line_asks(words, path):
    assert forms.query_of(words) == path


def test_an_option_given_once_for_each_value_takes_several_apart_by_semicolons():
    """`--other` (and `--engine`, `--volley`) repeat on the command line: the form's one field holds them all, "; "
    between, and a permalink's repeated options fill it again in order."""
    other = field("epic assault", "--other")
    assert other.many and other.help.endswith("Several: apart by a semicolon.")
    assert not field("epic assault", "--units").many
    words = forms.words_of_form("epic assault", {"--units": "6", "--other": "2 cc 6+ ff 6+ armour 5+ ;1 DC3 cc 4+ "
                                                                            "ff 4+ armour 4+;  "})
    assert words[2:] == ["--units", "6", "--other", "2 cc 6+ ff 6+ armour 5+", "--other", "1 DC3 cc 4+ ff 4+ armour 4+"]
    assert forms.values_of("epic assault", words) == {"--units": "6",
                                                      "--other": "2 cc 6+ ff 6+ armour 5+; 1 DC3 cc 4+ ff 4+ armour 4+"}
    volleys = forms.words_of_form("epic shoot", {"--shots": "2", "--to-hit": "4+", "--volley": "3@5+; 1@MW 3+"})
    assert volleys[-4:] == ["--volley", "3@5+", "--volley", "1@MW 3+"]


def test_an_engagements_fields_are_its_two_sides_the_fight_and_how_to_run_it():
    """Every field in one fieldset; a side's are those with an --enemy- twin (and what only a charger has: its
    Impact Hits and charge bonuses), the other side's those twins; an attack that is no engagement keeps one
    fieldset for the attack."""
    from oddscalc.web.forms import CHARGER_ONLY, fieldsets

    for path, legends in (("epic assault", ["Your formation", "The enemy formation", "The fight", "How to run it"]),
                          ("t9a combat", ["The charger", "The charged unit", "The fight", "How to run it"]),
                          ("epic shoot", ["The attack", "How to run it"])):
        found = forms.fields(path)
        sets = fieldsets(path, found)
        assert [one.legend for one in sets] == legends
        assert sorted(field.name for one in sets for field in one.fields) == sorted(field.name for field in found)
        if len(sets) == 4:
            mine, theirs = sets[0].fields, sets[1].fields
            only = set(CHARGER_ONLY.get(path, ()))
            assert only <= {field.name for field in mine} and not only & {field.name for field in sets[2].fields}
            assert {f"--enemy-{field.name[2:]}" for field in mine if field.name not in only} <= {
                field.name for field in theirs}
            assert all(field.name.startswith("--enemy-") for field in theirs)
            fight = {field.name for field in sets[2].fields}
            assert path != "t9a combat" or {"--with-unit", "--enemy-with-unit"} <= fight  # a side's other units
            assert [field.name for field in mine if field.first][:4] == (
                ["--units", "--cc", "--ff", "--armour"] if path == "epic assault"
                else ["--models", "--width", "--attacks", "--offensive"])
