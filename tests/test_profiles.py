import pytest
from epic_rosters import MARINES

from oddscalc.lists import games
from oddscalc.errors import InputError
from oddscalc.studies.grid import matchups

GOOD = MARINES + '''ap = 5
at = "6+"
special = ["disrupt"]
'''


def test_a_good_roster_loads():
    roster = games.parse_roster(GOOD, "test.toml")
    unit = roster.unit("Marines")
    assert roster.game.name == "epic" and unit.points == 300 and unit["armour"] == 4 and unit["cover_save"] is None
    assert unit.weapons[0]["at"] == 6 and unit.weapons[0]["special"] == ("disrupt",)


@pytest.mark.parametrize("game", list(games.GAMES))
def test_the_bundled_examples_load_and_every_unit_meets_every_target(game):
    try:
        roster = games.load_roster(None, game)
    except ModuleNotFoundError:
        pytest.skip(f"{game} is not built yet")
    assert 3 <= len(roster.units) <= 12
    pairs = matchups(games.GAMES[game], roster.units, roster.units)
    assert any(pair.attack is not None for pair in pairs)


BAD = [
    (GOOD.replace('units = 6', 'units = = 6'), "TOML syntax error"),
    (GOOD.replace('armour = "4+"\n', ''), "field 'armour': missing"),
    (GOOD.replace('special = ["disrupt"]', 'special = ["disrupt", "lucky"]'), "unknown 'lucky'"),
    (GOOD.replace('units = 6', 'units = 0'), "field 'units': 0 is not allowed"),
    (GOOD.replace('armour = "4+"', 'armour = "7+"'), "field 'armour'"),
    (GOOD.replace('armour = "4+"', 'amour = "4+"'), "did you mean armour"),
    (GOOD.replace('kind = "infantry"', 'kind = "titan"'), "expected one of"),
    ('game = "epic"\n', "empty"),
    ('[[unit]]\nname = "x"\n', "missing game"),
    (GOOD.replace('game = "epic"', 'game = "chess"'), "chess"),
    (GOOD.replace('ap = 5\nat = "6+"\n', ''), "needs ap, at, mw or bp"),
    (GOOD + GOOD.replace('game = "epic"', ''), "another unit has this name"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m for _, m in BAD])
def test_bad_rosters_name_the_file_unit_and_field(text, message):
    with pytest.raises(InputError) as error:
        games.parse_roster(text, "army.toml")
    assert error.value.name == "file" and error.value.value == "army.toml"
    assert message in error.value.allowed
    if "field" in message:
        assert "unit 'Marines'" in error.value.allowed


def test_a_missing_file():
    with pytest.raises(InputError) as error:
        games.load_roster("/no/such/roster.toml")
    assert "no such file" in error.value.allowed


def test_select_refuses_unknown_units():
    roster = games.parse_roster(GOOD, "test.toml")
    with pytest.raises(InputError) as error:
        roster.select(["Marine"], "targets")
    assert error.value.name == "targets" and "did you mean Marines" in error.value.allowed


DUST = '''
game = "dust"

[[unit]]
name = "Grenadiers"
points = 24
kind = "soldier"
armour = 2
models = 5

[[unit.weapon]]
name = "Rifles"
count = 3
soldier = ["2/1", "2/1", "1/1", "-"]

[[unit]]
name = "Walker"
kind = "vehicle"
armour = 4
damage_points = 6

[[unit.weapon]]
name = "Phaser"
phaser = "2z3"
'''


def test_dust_lines_meet_armour_classes():
    roster = games.parse_roster(DUST, "dust.toml")
    pairs = {(p.weapon.name, p.target.name): p.attack for p in matchups(games.GAMES['dust'], roster.units, roster.units)}
    rifles = pairs[("Rifles", "Grenadiers")]
    assert rifles.rolled == 6 and rifles.damage == 1  # 3 models × 2/1 against class 2
    assert pairs[("Rifles", "Walker")] is None  # no vehicle line
    assert pairs[("Phaser", "Walker")].aim == 2
    from oddscalc.dust import roster as dust_profiles

    assert dust_profiles.kill_threshold(roster.unit("Walker")) == 6


@pytest.mark.parametrize(
    "change, message",
    [
        (('soldier = ["2/1", "2/1", "1/1", "-"]', 'soldier = ["2/1", "2/1", "1/1"]'), "expected 4 entries"),
        (('soldier = ["2/1", "2/1", "1/1", "-"]', 'soldier = ["2/1", "2/1", "1/1", "x"]'), "expected 4 entries"),
        (('phaser = "2z3"', 'phaser = "2z"'), "XzY"),
        (('armour = 4', 'armour = 9'), "field 'armour'"),
        (('kind = "soldier"', 'kind = "soldier"\narmour_class = 2'), "unknown field"),
        (('phaser = "2z3"', 'phaser = "2z3"\nsalvo = "3/2"'), "either weapon lines"),
    ],
)
def test_bad_dust_rosters(change, message):
    with pytest.raises(InputError) as error:
        games.parse_roster(DUST.replace(*change), "dust.toml")
    assert message in error.value.allowed


T9A = '''
game = "t9a"

[[unit]]
name = "Spearmen"
points = 200
models = 20
offensive = 3
defensive = 3
strength = 3
resilience = 3
armour = 2

[[unit.weapon]]
name = "Spears"
attacks = 15
ap = 1

[[unit]]
name = "Giant"
points = 280
models = 1
health = 6
offensive = 3
defensive = 3
strength = 6
resilience = 6
armour = 1

[[unit.weapon]]
name = "Club"
attacks = "d6"
ap = 3
multiple_wounds = "d3"
attributes = ["hatred"]

[[unit.weapon]]
name = "Rocks"
kind = "shooting"
attacks = 1
aim = "4+"
strength = 8
'''


def test_t9a_profiles_meet_targets():
    roster = games.parse_roster(T9A, "t9a.toml")
    pairs = {(p.weapon.name, p.target.name): p.attack for p in matchups(games.GAMES['t9a'], roster.units, roster.units)}
    club = pairs[("Club", "Spearmen")]
    assert str(club.attacks) == "1d6" and str(club.multiple_wounds) == "1d3" and club.health == 1
    assert club.offensive == 3 and club.defensive == 3 and club.strength == 6 and club.models == 20
    assert club.reroll_hits.value == "failed"
    rocks = pairs[("Rocks", "Giant")]
    assert rocks.aim == 4 and rocks.strength == 8 and rocks.resilience == 6 and rocks.health == 6
    from oddscalc.t9a import roster as t9a_profiles

    assert t9a_profiles.kill_threshold(roster.unit("Giant")) == 6


@pytest.mark.parametrize(
    "change, message",
    [
        (('attacks = "d6"', 'attacks = "dx"'), "number or dice"),
        (('aim = "4+"', ''), "give its aim"),
        (('attributes = ["hatred"]', 'attributes = ["frenzy"]'), "unknown 'frenzy'"),
        (('offensive = 3\ndefensive = 3\nstrength = 3', 'offensive = 11\ndefensive = 3\nstrength = 3'), "offensive"),
        (('health = 6', 'health = 0'), "health"),
    ],
)
def test_bad_t9a_rosters(change, message):
    with pytest.raises(InputError) as error:
        games.parse_roster(T9A.replace(*change), "t9a.toml")
    assert message in error.value.allowed
