"""Rosters as a player writes and reads them (`oddscalc.lists.games`: parse_roster, load_roster): `profiles`
describes every field that changes an answer; every bad field, shape or file gets the one error line
naming file, unit and field; random TOML shapes never reach a traceback."""

import os
import stat
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddscalc.lists import games
from oddscalc.contract import names
from oddscalc.errors import InputError

# --- what `profiles` says about a unit and a weapon ------------------------------------

DESCRIBED = [
    ("dust", 'kind = "soldier"\narmour = 2\nmodels = 5', "soldier class 2, 5 models × 1 damage point"),
    ("dust", 'kind = "vehicle"\narmour = 4\ndamage_points = 6\nsave = "miss"\nresilient = true',
     "vehicle class 4, 1 model × 6 damage points, miss-save, resilient"),
    ("epic", 'kind = "infantry"\nunits = 6\narmour = "4+"', "infantry, 6 units, armour 4+"),
    ("epic", 'kind = "armoured-vehicle"\nunits = 4\narmour = "5+"\nreinforced = true\ninvulnerable = true',
     "armoured-vehicle, 4 units, armour 5+ (reinforced, invulnerable)"),
    ("epic", 'kind = "infantry"\nunits = 12\narmour = "none"\ncover_save = "4+"',
     "infantry, 12 units, armour none (cover save 4+, in cover)"),
    ("epic", 'kind = "infantry"\nunits = 2\narmour = "6+"\ncover_save = "4+"\nin_cover = false',
     "infantry, 2 units, armour 6+ (cover save 4+)"),
    ("epic", 'kind = "light-vehicle"\nunits = 3\narmour = "5+"\nin_cover = true',
     "light-vehicle, 3 units, armour 5+ (in cover)"),
    ("t9a", "models = 20\noffensive = 5\ndefensive = 4\nstrength = 3\nresilience = 6\narmour = 2",
     "20 × 1 HP, OS 5 DS 4 S 3 R 6 Armour 2"),
    ("t9a", 'models = 1\noffensive = 5\ndefensive = 4\nstrength = 3\nresilience = 6\narmour = 2\n'
            'reroll_armour = "failed"\nreroll_special = "ones"\naegis = "5+"',
     "1 × 1 HP, OS 5 DS 4 S 3 R 6 Armour 2, aegis 5+, re-roll failed armour saves, re-roll ones special saves"),
    ("t9a", 'models = 4\nhealth = 3\noffensive = 3\ndefensive = 3\nstrength = 5\nresilience = 4\naegis = "5+"\n'
            'fortitude = "4+"\nflammable = true',
     "4 × 3 HP, OS 3 DS 3 S 5 R 4 Armour 0, aegis 5+, fortitude 4+, flammable"),
]

WEAPONS = [
    ("dust", 'soldier = ["2/1", "1/1", "-", "-"]', "soldier 2/1 1/1 - -"),
    ("dust", 'count = 3\nsoldier = ["2/1", "1/1", "-", "-"]\nvehicle = ["1/1", "-", "-", "-", "-", "-", "-"]',
     "3 × soldier 2/1 1/1 - -; vehicle 1/1 - - - - - -"),
    ("dust", 'aircraft = ["1/2", "-", "-"]', "aircraft 1/2 - -"),
    ("dust", 'phaser = "2z3"\ncount = 2', "2 × phaser 2z3"),
    ("dust", 'salvo = "3/2-5/2"', "salvo 3/2-5/2, 1 charge"),
    ("dust", 'salvo = "3/2-5/2"\ncharges = 2', "salvo 3/2-5/2, 2 charges"),
    ("dust", "incendiary = 1\ncount = 2", "2 × incendiary 1/+"),
    ("dust", "ap_incendiary = 2", "AP incendiary 2/skull"),
    ("epic", 'shots = 6\nap = "5+"\nat = "6+"', "6 shots, AP 5+, AT 6+"),
    ("epic", 'mw = "3+"\nspecial = ["titan-killer", "sniper"]', "1 shot, MW 3+, titan-killer, sniper"),
    ("epic", 'bp = 4\nspecial = ["macro", "disrupt"]', "BP 4, macro, disrupt"),
    ("t9a", "attacks = 15\nap = 1", "15 attacks, AP 1"),
    ("t9a", 'attacks = "2d6"\nstrength = 6\nmodifier = 1\nmultiple_wounds = "d3+1"\nattributes = ["poison"]',
     "2d6 attacks, S 6, +1 to hit, Multiple Wounds (1d3+1), poison"),
    ("t9a", 'kind = "shooting"\nattacks = 10\naim = "3+"\nmodifier = -1', "10 shots at 3+, -1 to hit"),
]

UNIT = {"dust": 'kind = "soldier"\narmour = 1', "epic": 'kind = "infantry"\nunits = 1\narmour = "4+"',
        "t9a": "models = 1\noffensive = 3\ndefensive = 3\nstrength = 3\nresilience = 3"}
WEAPON = {"dust": 'soldier = ["1/1", "-", "-", "-"]', "epic": 'ap = "4+"', "t9a": "attacks = 1"}


def ascii_id(text: str) -> str:
    """A test id in plain characters: pytest escapes others, and escapes them again when it runs twice in one
    process (as mutmut runs it)."""
    return text.replace("×", "x")


def roster(game: str, unit: str, weapon: str | None = None) -> str:
    text = f'game = "{game}"\n\n[[unit]]\nname = "U"\n{unit}\n'
    return text + (f'\n[[unit.weapon]]\nname = "W"\n{weapon}\n' if weapon is not None else "")


@pytest.mark.parametrize("game, unit, text", DESCRIBED, ids=[ascii_id(t) for _, _, t in DESCRIBED])
def test_profiles_describes_every_field_of_a_unit(game, unit, text):
    loaded = games.parse_roster(roster(game, unit), "u.toml")
    assert loaded.game.describe_unit(loaded.unit("U")) == text


@pytest.mark.parametrize("game, weapon, text", WEAPONS, ids=[ascii_id(t) for _, _, t in WEAPONS])
def test_profiles_describes_every_field_of_a_weapon(game, weapon, text):
    loaded = games.parse_roster(roster(game, UNIT[game], weapon), "w.toml")
    assert loaded.game.describe_weapon(loaded.unit("U").weapons[0]) == text


# --- what a refused field says --------------------------------------------------------


@pytest.mark.parametrize("game, unit, weapon, where", [
    ("dust", UNIT["dust"].replace("armour = 1", "armour = 9"), None, "unit 'U', field 'armour'"),
    ("dust", 'kind = "soldier"\narmour = 4\nmodels = 0', None, "unit 'U', field 'models'"),
    ("dust", 'kind = "aircraft"\narmour = 4', None, "unit 'U', field 'armour': a aircraft's armour class is 1 to 3"),
    ("dust", UNIT["dust"], 'soldier = ["1/1"]', "field 'soldier': 'W': expected 4 entries"),
    ("dust", UNIT["dust"], 'vehicle = ["1/1", "-", "-", "-", "-", "-", "x"]', "field 'vehicle': 'W': expected 7"),
    ("dust", UNIT["dust"], 'salvo = "3/2"\ncharges = 2', "field 'charges'"),
    ("dust", UNIT["dust"], "count = 0\nincendiary = 1", "weapon 'W', field 'count'"),
    ("dust", UNIT["dust"], 'name2 = "x"', "weapon 'W', field 'name2': unknown field"),
    ("epic", UNIT["epic"], "special = []", "field 'weapon': 'W' needs ap, at, mw or bp"),
    ("epic", UNIT["epic"], 'bp = 3\nap = "4+"', "a barrage (bp) takes its to-hit from the barrage table"),
    ("epic", 'kind = "infantry"\nunits = 1\narmour = "none"\nreinforced = true', None,
     "field 'reinforced': reinforced armour needs an armour save"),
    ("t9a", UNIT["t9a"].replace("offensive = 3", "offensive = 11"), None, "unit 'U', field 'offensive'"),
    ("t9a", UNIT["t9a"].replace("strength = 3", "strength = 0"), None, "unit 'U', field 'strength'"),
    ("t9a", UNIT["t9a"], 'kind = "shooting"\nattacks = 3', "field 'aim': 'W' shoots: give its aim"),
    ("t9a", UNIT["t9a"], 'kind = "shooting"\nattacks = 3\naim = "4+"\nattributes = ["hatred"]',
     "field 'attributes': 'W' shoots: Hatred re-rolls close combat hits"),
    ("t9a", UNIT["t9a"], 'attacks = "2d10"', "The 9th Age rolls D6 and D3 only"),
    ("t9a", UNIT["t9a"], 'attacks = 2\nmultiple_wounds = "d8"', "The 9th Age rolls D6 and D3 only"),
])
def test_a_bad_field_names_the_unit_and_the_field(game, unit, weapon, where):
    with pytest.raises(InputError) as error:
        games.parse_roster(roster(game, unit, weapon), "army.toml")
    assert error.value.name == "file" and error.value.value == "army.toml"
    assert where in error.value.allowed, error.value.allowed


def test_a_name_longer_than_the_cap_is_refused_without_being_echoed():
    """A name is copied into every row, cell and label: an 8 MB one would fill the memory of a grid."""
    long = "x" * 8_000_000
    text = roster("epic", UNIT["epic"], 'ap = "4+"').replace('name = "U"', f'name = "{long}"')
    with pytest.raises(InputError) as error:
        games.parse_roster(text, "army.toml")
    assert error.value.allowed == "unit #1, field 'name': 8,000,000 characters; at most 200"
    text = roster("epic", UNIT["epic"], 'ap = "4+"').replace('name = "W"', f'name = "{"w" * 201}"')
    with pytest.raises(InputError) as error:
        games.parse_roster(text, "army.toml")
    assert error.value.allowed == "unit 'U', weapon #1, field 'name': 201 characters; at most 200"
    at_cap = roster("epic", UNIT["epic"], 'ap = "4+"').replace('name = "U"', f'name = "{"u" * 200}"')
    assert games.parse_roster(at_cap, "army.toml").units[0].name == "u" * 200


def test_toml_nested_thousands_deep_is_one_line():
    text = 'game = "epic"\nx = ' + "[" * 100_000 + "]" * 100_000 + "\n"
    with pytest.raises(InputError) as error:
        games.parse_roster(text, "deep.toml")
    assert (error.value.value, error.value.allowed) == ("deep.toml", "TOML nested too deep to be a roster")


def test_the_characteristics_run_from_1_to_10():
    for value in (1, 10):
        games.parse_roster(roster("t9a", UNIT["t9a"].replace("resilience = 3", f"resilience = {value}")), "t")
    for value in (0, 11):
        with pytest.raises(InputError):
            games.parse_roster(roster("t9a", UNIT["t9a"].replace("resilience = 3", f"resilience = {value}")), "t")


# --- files and shapes ---------------------------------------------------------------------

SHAPES = [
    ('game = "epic"\nunit = [1, 2]\n', "field 'unit': expected an array of tables"),
    ('game = "epic"\n[[unit]]\nname = "U"\nkind = "infantry"\nunits = 1\narmour = "4+"\nweapon = "gun"\n',
     "unit 'U', field 'weapon': expected an array of tables"),
    ('game = "epic"\n[[unit]]\nname = "U"\nkind = "infantry"\nunits = 1\narmour = "4+"\nweapon = [1]\n',
     "field 'weapon': expected an array of tables"),
    ('game = "epic"\n[[unit]]\nname = "U"\nkind = "infantry"\nunits = 1\narmour = "4+"\n[unit.weapon]\nname = "W"\n'
     'ap = "4+"\n', "field 'weapon': expected an array of tables"),
    ('game = "epic"\n[unit]\nname = "U"\n', "field 'unit': expected an array of tables"),
    ('game = ["epic"]\n', "is not one of"),
    ('game = "epic"\n[[unit]]\nname = 3\n', "unit #1, field 'name': missing"),
    ('game = "epic"\nextra = 1\n', "unknown top-level key 'extra'"),
]


@pytest.mark.parametrize("text, message", SHAPES, ids=[m for _, m in SHAPES])
def test_a_roster_of_the_wrong_shape_gets_one_line(text, message):
    with pytest.raises(InputError) as error:
        games.parse_roster(text, "army.toml")
    assert message in error.value.allowed and "\n" not in error.value.allowed


def test_a_roster_file_with_a_bom_loads(tmp_path):
    path = tmp_path / "army.toml"
    path.write_bytes(b"\xef\xbb\xbf" + roster("epic", UNIT["epic"], WEAPON["epic"]).encode())
    assert games.load_roster(path).unit("U")["units"] == 1


@pytest.mark.parametrize("make, message", [
    (lambda path: path.mkdir(), "not a regular file"),
    (lambda path: os.mkfifo(path), "not a regular file"),
    (lambda path: path.write_bytes(b"#" * (games.MAX_ROSTER_BYTES + 1)), "a roster TOML file is at most 1,048,576 bytes"),
    (lambda path: path.write_bytes(b'game = "epic"\n# \xff\xfe\n'), "not UTF-8 text (byte 16)"),
    (lambda path: None, "no such file"),
])
def test_a_roster_that_is_not_a_small_text_file_is_refused_before_reading(tmp_path, make, message):
    path = tmp_path / "army.toml"
    make(path)
    with pytest.raises(InputError) as error:
        games.load_roster(path)
    assert error.value.allowed == message or message in error.value.allowed


def test_a_device_is_refused_without_reading_it():
    with pytest.raises(InputError) as error:
        games.load_roster("/dev/zero")
    assert error.value.allowed == "not a regular file: expected a roster TOML file"


def test_a_bundled_roster_by_name_and_its_game():
    assert games.load_roster("dust").game.name == "dust"
    with pytest.raises(InputError) as error:
        games.load_roster("dust", "epic")
    assert "holds dust units, not epic" in error.value.allowed


TOML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=6) | st.sampled_from(["4+", "none", "2d6"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["name", "kind", "units", "armour", "weapon", "ap", "bp", "shots", "special", "unit", "models"]), inner,
        max_size=4),
    max_leaves=12,
)


def toml_of(data: dict) -> str | None:
    """Write `data` as TOML (None when TOML cannot hold it, like a null)."""
    import json

    def value(v):
        if v is None:
            raise ValueError
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, str)):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"

    try:
        return "\n".join(f"{key} = {value(v)}" for key, v in data.items())
    except ValueError:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(names()), st.dictionaries(st.sampled_from(["unit", "game", "extra"]),
                                                                  TOML_VALUES, max_size=3))
def test_random_roster_shapes_get_only_the_one_line_error(game, data):
    text = toml_of({"game": game, **data})
    if text is None:
        return
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    try:
        games.parse_roster(text, "random.toml")
    except InputError as error:
        assert error.name == "file" and "\n" not in str(error)


# --- loading a roster file from Python: each refusal's name, value and message ----------

def _refusal(call) -> tuple:
    with pytest.raises(InputError) as error:
        call()
    return error.value.name, error.value.value, error.value.allowed


def test_load_roster_refuses_files_it_cannot_read(tmp_path, monkeypatch):
    from oddscalc.lists import games

    missing, folder, fifo = tmp_path / "missing.toml", tmp_path / "folder.toml", tmp_path / "fifo.toml"
    folder.mkdir()
    os.mkfifo(fifo)
    assert _refusal(lambda: games.load_roster(missing)) == ("file", str(missing), "no such file")
    for path in (folder, fifo):
        assert _refusal(lambda: games.load_roster(path)) == ("file", str(path), "not a regular file: expected a "
                                                                               "roster TOML file")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('game = "epic"\n# caf\xe9\n'.encode("latin-1"))
    assert _refusal(lambda: games.load_roster(latin)) == ("file", str(latin), "not UTF-8 text (byte 19)")
    text = (resources.files("oddscalc.data") / "epic_example.toml").read_text(encoding="utf-8")
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    monkeypatch.setattr(games, "MAX_ROSTER_BYTES", bom.stat().st_size)  # at the cap: read
    assert games.load_roster(bom).units == games.load_roster("epic").units
    monkeypatch.setattr(games, "MAX_ROSTER_BYTES", bom.stat().st_size - 1)
    assert _refusal(lambda: games.load_roster(bom)) == (
        "file", str(bom), f"{bom.stat().st_size:,} bytes: a roster TOML file is at most {bom.stat().st_size - 1:,} bytes")
    assert _refusal(lambda: games.load_roster(None)) == ("game", None, "name a game (dust, epic, t9a) or a file")
    assert _refusal(lambda: games.game("")) == ("game", "''", "expected one of dust, epic, t9a")
    assert _refusal(lambda: games.game("chess", "against")) == ("against", "chess", "expected one of dust, epic, t9a")


def test_a_roster_path_that_cannot_be_read_says_why(tmp_path, monkeypatch):
    from oddscalc.lists import games

    plain = tmp_path / "army.toml"
    plain.write_text('game = "epic"\n', encoding="utf-8")
    under = plain / "inner.toml"  # a file is not a folder
    assert _refusal(lambda: games.load_roster(under)) == ("file", str(under), "cannot be read (Not a directory)")
    for error, why in ((PermissionError(13, "Permission denied"), "Permission denied"), (OSError(), "OSError")):
        def refuse(*args, error=error, **kwargs):
            raise error
        with monkeypatch.context() as patch:
            patch.setattr(Path, "open", refuse)
            assert _refusal(lambda: games.load_roster(plain)) == ("file", str(plain), f"cannot be read ({why})")
        with monkeypatch.context() as patch:
            patch.setattr(Path, "stat", refuse)
            assert _refusal(lambda: games.load_roster(plain)) == ("file", str(plain), f"cannot be read ({why})")


def test_a_roster_that_grows_after_its_size_was_checked_is_refused(tmp_path, monkeypatch):
    from oddscalc.lists import games

    path = tmp_path / "army.toml"
    path.write_text('game = "epic"\n' + "#" * 200 + "\n", encoding="utf-8")
    monkeypatch.setattr(games, "MAX_ROSTER_BYTES", 100)
    small = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))  # what stat said: 10 bytes
    monkeypatch.setattr(Path, "stat", lambda self, **kwargs: small)
    assert _refusal(lambda: games.load_roster(path)) == ("file", str(path), "more than 100 bytes: a roster TOML file is at most 100 bytes")


def test_a_roster_file_is_read_as_the_game_it_is_asked_for(tmp_path):
    from oddscalc.lists import games

    path = tmp_path / "army.toml"
    path.write_text((resources.files("oddscalc.data") / "epic_example.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert _refusal(lambda: games.load_roster(path, "dust")) == ("file", str(path), "holds epic units, not dust")
    assert games.load_roster(path, "epic").source == str(path)
    bundled = games.load_roster("dust", "dust")
    assert (bundled.game.name, bundled.source) == ("dust", "bundled dust_example.toml")
    assert _refusal(lambda: games.load_roster("dust", "epic")) == (
        "file", "dust", "the bundled dust example holds dust units, not epic")
