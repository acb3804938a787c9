"""`oddscalc epic …`: the command-line contract (CLI.md) and its one-line errors."""

import re
from fractions import Fraction

import pytest
from clirun import assert_refused, assert_same, exact_json, run

from oddscalc.core import pmf
from oddscalc.epic import Assault, Barrage, EpicShoot
from oddscalc.epic.saves import Ability

SHOOT = ("epic", "shoot", "--shots", "12", "--to-hit", "4+", "--units", "6", "--armour", "4+")


def test_shoot_outcomes_and_options(capsys):
    data = exact_json(capsys, *SHOOT, "--crossfire")
    assert list(data["outcomes"]) == ["kills", "hits", "blast_markers", "broken"]
    assert_same(data["outcomes"], EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True))


@pytest.mark.parametrize(
    "options, attack",
    [
        (("--modifier", "-1", "--cover-save", "4+", "--armour", "6"),
         dict(modifier=-1, cover_save=4, armour=6)),
        (("--armour", "none", "--invulnerable", "--weapon", "macro"),
         dict(armour=None, invulnerable=True, weapon=Ability.MACRO)),
        (("--reinforced", "--weapon", "titan-killer"), dict(reinforced=True, weapon=Ability.TITAN_KILLER)),
        (("--reinforced", "--weapon", "lance"), dict(reinforced=True, weapon=Ability.LANCE)),
        (("--disrupt", "--blast-markers", "2", "--formation", "9"), dict(disrupt=True, blast_markers=2, formation=9)),
        (("--in-cover", "--ignore-cover", "--cover-save", "5+"), dict(in_cover=True, ignore_cover=True, cover_save=5)),
        (("--sniper", "--crossfire"), dict(sniper=True, crossfire=True)),
    ],
)
def test_shoot_options_reach_the_attack(capsys, options, attack):
    data = exact_json(capsys, *SHOOT, *options)
    settings = dict(shots=12, to_hit=4, units=6, armour=4)
    settings.update(attack)
    assert_same(data["outcomes"], EpicShoot(**settings))


def test_shoot_samples_with_a_seed(capsys):
    data = run(capsys, *SHOOT, "--trials", "2e4", "--seed", "11", "--format", "json").json()
    assert data["method"] == "monte-carlo" and data["trials"] == 20_000 and data["seed"] == 11
    assert data["outcomes"]["hits"]["mean"] == pytest.approx(6, abs=0.1)


def test_shoot_verify(capsys):
    result = run(capsys, *SHOOT, "--crossfire", "--verify", "--trials", "1e5", "--seed", "3", "--format", "json")
    assert all(check["within"] for check in result.json()["verify"].values())


def test_barrage_worked_example(capsys):
    data = exact_json(capsys, "epic", "barrage", "--bp", "6", "--units", "3", "--armour", "4+")
    outcomes = data["outcomes"]
    assert list(outcomes) == ["kills", "blast_markers", "broken"]
    assert outcomes["kills"]["mean"] == pytest.approx(3 / 4)
    assert outcomes["blast_markers"]["mean"] == pytest.approx(11 / 4)
    assert outcomes["broken"]["pmf"][1] == pytest.approx(float(Fraction(37, 64)))


def test_barrage_options_reach_the_attack(capsys):
    data = exact_json(capsys, "epic", "barrage", "--bp", "13", "--units", "4", "--armour", "5+", "--at",
                      "--formation", "7", "--modifier", "1", "--crossfire", "--blast-markers", "1")
    assert_same(data["outcomes"], Barrage(bp=13, units=4, armour=5, at=True, formation=7, modifier=1,
                                          crossfire=True, blast_markers=1))


def test_assault(capsys):
    data = exact_json(capsys, "epic", "assault", "--bonus", "2", "--enemy-bonus", "-1")
    assert list(data["outcomes"]) == ["win", "draw", "margin"]
    assert_same(data["outcomes"], Assault(bonus=2, enemy_bonus=-1))


def test_help_lists_examples(capsys):
    result = run(capsys, "epic", "shoot", "--help")
    assert result.code == 0
    assert "oddscalc epic shoot --shots 12" in result.out and "--ignore-cover" in result.out


def help_outcomes(capsys, command):
    """The outcomes the help's "Outcomes:" paragraph names: plain, with --war-engines (and for shoot with
    --other-armour)."""
    help_text = run(capsys, "epic", command, "--help").out
    paragraph = " ".join(help_text.split("Outcomes:", 1)[1].split("\n\n", 1)[0].split())
    plain, engines, *others = re.split(r"; with --war-engines: |; with --other-armour: ", paragraph.rstrip("."))
    return [[re.sub(r" \(.*?\)", "", name) for name in part.split(", ")] for part in (plain, engines, *others)]


@pytest.mark.parametrize("command, options", [
    ("shoot", ("--shots", "2", "--to-hit", "4+")),
    ("barrage", ("--bp", "3")),
])
def test_the_helps_outcomes_are_the_outcomes_the_attack_gives(capsys, command, options):
    plain, engines, *others = help_outcomes(capsys, command)
    assert list(exact_json(capsys, "epic", command, *options, "--units", "2", "--armour", "4+")["outcomes"]) == plain
    at_engines = exact_json(capsys, "epic", command, *options, "--war-engines", "1", "--damage-capacity", "2",
                            "--shields", "1", "--armour", "4+")
    assert list(at_engines["outcomes"]) == engines
    assert len(others) == 1
    for names in others:  # at war engines and the other units beside them
        beside = exact_json(capsys, "epic", command, *options, "--war-engines", "1", "--damage-capacity", "2",
                            "--armour", "4+", "--units", "2", "--other-armour", "5+")
        assert list(beside["outcomes"]) == names
    assert {"damage", "shields"} <= set(engines) - set(plain)


@pytest.mark.parametrize(
    "args, mentions",
    [
        (("epic", "shoot", "--shots", "3", "--to-hit", "1", "--units", "2", "--armour", "4+"), ("--to-hit", "1")),
        (("epic", "shoot", "--shots", "0", "--to-hit", "4", "--units", "2", "--armour", "4+"), ("--shots", "0")),
        (("epic", "barrage", "--bp", "0", "--units", "2", "--armour", "4+"), ("--bp", "0")),
        (("epic", "barrage", "--bp", "19", "--units", "2", "--armour", "4+"), ("--bp", "19", "18")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "0", "--armour", "4+"), ("--units", "0")),
        (("epic", "barrage", "--bp", "6", "--units", "0", "--armour", "4+"), ("--units", "0")),
        (("epic", "barrage", "--bp", "6", "--units", "5", "--formation", "4", "--armour", "4+"), ("--formation", "4")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "5", "--formation", "4", "--armour", "4"),
         ("--formation", "4")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--armour", "7"), ("--armour", "7")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--armour", "good"), ("--armour", "good")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--armour", "4", "--weapon", "laser"),
         ("--weapon", "laser")),
        (("epic", "barrage", "--bp", "3", "--units", "2", "--armour", "4", "--weapon", "laser"), ("--weapon", "laser")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--armour", "none", "--reinforced"),
         ("--armour", "none")),
        (("epic", "shoot", "--shots", "3", "--to-hit", "4", "--units", "2", "--armour", "4", "--cover-save", "7"),
         ("--cover-save", "7")),
        (("epic", "shoot", "--to-hit", "4", "--units", "2", "--armour", "4"), ("--shots",)),
        (("epic", "assault", "--bonus", "50"), ("--bonus", "50")),
    ],
)
def test_bad_input_is_one_line(capsys, args, mentions):
    assert_refused(capsys, *args, mentions=mentions)


def test_a_refused_to_hit_is_echoed_as_typed(capsys):
    result = assert_refused(capsys, "epic", "shoot", "--shots", "3", "--to-hit", "7+", "--units", "2", "--armour", "4+")
    assert result.err == "error: --to-hit 7+: expected the weapon's to-hit value, 2+ to 6+\n"


# --- volleys, suppression, mixed formations (docs/rules.md §2.3, §2.4) ------------------------------------


@pytest.mark.parametrize("args, attack", [
    (["--shots", "4", "--to-hit", "5+", "--units", "3", "--armour", "5+", "--volley", "2@3+", "--volley", "1@MW2+"],
     EpicShoot(shots=4, to_hit=5, units=3, armour=5, volley=("2@3+", "1@MW2+"))),
    (["--shots", "6", "--to-hit", "4+", "--units", "3", "--armour", "4+", "--firing-units", "3", "--suppressed", "1"],
     EpicShoot(shots=6, to_hit=4, units=3, armour=4, firing_units=3, suppressed=1)),
    (["--shots", "2", "--to-hit", "4+", "--units", "2", "--armour", "5+", "--vehicles", "1", "--vehicle-armour",
      "4+", "--at-shots", "1", "--at-to-hit", "5+"],
     EpicShoot(shots=2, to_hit=4, units=2, armour=5, vehicles=1, vehicle_armour=4, at_shots=1, at_to_hit=5)),
    (["--shots", "2", "--to-hit", "4+", "--units", "2", "--armour", "4+", "--mw-shots", "2", "--mw-to-hit", "3+",
      "--reinforced"],
     EpicShoot(shots=2, to_hit=4, units=2, armour=4, reinforced=True, mw_shots=2, mw_to_hit=3)),
])
def test_new_shooting_options_give_the_librarys_answer(capsys, args, attack):
    assert_same(exact_json(capsys, "epic", "shoot", *args)["outcomes"], attack)
    assert attack.query() == "oddscalc epic shoot " + " ".join(args)


@pytest.mark.parametrize("args, mentions", [
    (["--suppressed", "1"], ("--suppressed", "--firing-units")),
    (["--firing-units", "4"], ("--firing-units", "cannot be shared equally")),
    (["--volley", "2@9+"], ("--volley", "2@9+", "N@X+")),
    (["--at-shots", "2", "--at-to-hit", "4+"], ("--at-shots", "--vehicles")),
    (["--mw-shots", "2"], ("--mw-to-hit",)),
])
def test_new_shooting_options_refuse_in_one_line(capsys, args, mentions):
    assert_refused(capsys, "epic", "shoot", "--shots", "6", "--to-hit", "4+", "--units", "3", "--armour", "4+", *args,
                   mentions=mentions)


TITANS = '''game = "epic"

[[unit]]
name = "Warhounds"
points = 275
kind = "armoured-vehicle"
units = 2
armour = "5+"

[[unit.weapon]]
name = "Vulcan mega-bolters"
shots = 8
ap = "3+"
at = "5+"

[[unit.weapon]]
name = "Plasma blastguns"
shots = 4
mw = "2+"

[[unit]]
name = "Marines"
kind = "infantry"
units = 6
armour = "4+"
'''


def test_grid_fires_a_formations_weapons_together(capsys, tmp_path):
    from oddscalc.lists import games
    from oddscalc.query.words import parse_query
    from oddscalc.studies.grid import TOGETHER, run_grid

    path = tmp_path / "titans.toml"
    path.write_text(TITANS)
    grid = run_grid(games.parse_roster(TITANS, "titans.toml"), attackers=["Warhounds"], target_names=["Marines"],
                    method="exact", together=True)
    (pair,) = [pair for pair in grid.pairs if pair.weapon.name == TOGETHER]
    assert pair.attack == EpicShoot(shots=8, to_hit=3, units=6, armour=4, mw_shots=4, mw_to_hit=2)
    assert parse_query(pair.attack.query()).attack == pair.attack
    rows = run(capsys, "grid", str(path), "--targets", "Marines", "--together", "--exact", "--format", "json").json()
    together = next(row for row in rows["rows"] if row["weapon"] == TOGETHER)
    assert together["mean"] == pytest.approx(float(pmf.mean(pair.attack.exact(fractions=True)["kills"])), abs=1e-12)
    assert_refused(capsys, "grid", "--game", "dust", "--together", mentions=("--together", "each weapon"))
