import pytest

from oddscalc import profiles
from oddscalc.errors import InputError

GOOD = '''
game = "epic"

[[unit]]
name = "Marines"
points = 300
kind = "infantry"
units = 6
armour = "4+"

[[unit.weapon]]
name = "Missiles"
shots = 6
ap = 5
at = "6+"
special = ["disrupt"]
'''


def test_a_good_roster_loads():
    roster = profiles.parse(GOOD, "test.toml")
    unit = roster.unit("Marines")
    assert roster.game == "epic" and unit.points == 300 and unit["armour"] == 4 and unit["cover_save"] is None
    assert unit.weapons[0]["at"] == 6 and unit.weapons[0]["special"] == ("disrupt",)


@pytest.mark.parametrize("game", profiles.GAMES)
def test_the_bundled_examples_load_and_every_unit_meets_every_target(game):
    try:
        roster = profiles.load(game=game)
    except ModuleNotFoundError:
        pytest.skip(f"{game} is not built yet")
    assert 3 <= len(roster.units) <= 12
    pairs = profiles.matchups(game, roster.units, roster.units)
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
        profiles.parse(text, "army.toml")
    assert error.value.name == "file" and error.value.value == "army.toml"
    assert message in error.value.allowed
    if "field" in message:
        assert "unit 'Marines'" in error.value.allowed


def test_a_missing_file():
    with pytest.raises(InputError) as error:
        profiles.load("/no/such/roster.toml")
    assert "no such file" in error.value.allowed


def test_select_refuses_unknown_units():
    roster = profiles.parse(GOOD, "test.toml")
    with pytest.raises(InputError) as error:
        roster.select(["Marine"], "targets")
    assert error.value.name == "targets" and "did you mean Marines" in error.value.allowed
