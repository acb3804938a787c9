"""BattleScribe / New Recruit lists (.ros, .rosz): imported as rosters, studied like TOML files,
and hostile files refused with one line.

The fixtures in tests/data/battlescribe are written by hand to the roster schema, with the
figures of the public BSData catalogues (Space Marines and an Ork War Horde for Epic
Armageddon, Empire of Sonnstahl 2nd edition for The 9th Age). The expected rosters below
are worked out from those figures by hand.
"""

from __future__ import annotations

import io
import os
import zipfile
from fractions import Fraction as F
from pathlib import Path

import pytest
from clirun import assert_refused, exact_json, run

from oddscalc import battlescribe, games
from oddscalc.battlescribe import epic as epic_list
from oddscalc.battlescribe import reader
from oddscalc.battlescribe.report import Mapped, cells, items
from oddscalc.cli import root_command
from oddscalc.cli.options import parse_query
from oddscalc.errors import InputError
from oddscalc.grid import matchups

DATA = Path(__file__).parent / "data" / "battlescribe"
MARINES, ORKS, EMPIRE = DATA / "marines.rosz", DATA / "orks.rosz", DATA / "empire.ros"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" '
        'name="x" gameSystemName="{system}" gameSystemRevision="{revision}"><forces><force name="f">'
        "<selections>{selections}</selections></force></forces></roster>")


def ros(tmp_path: Path, selections: str, system: str = "Epic Armageddon", revision: str = "38",
        name: str = "list.ros") -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(system=system, revision=revision, selections=selections), encoding="utf-8")
    return path


def unit_selection(name: str, number: int, **characteristics: str) -> str:
    cells_xml = "".join(f'<characteristic name="{key.replace("_", " ")}">{value}</characteristic>'
                        for key, value in characteristics.items())
    return (f'<selection name="{name}" number="1" type="unit"><costs><cost name="pts" value="100"/></costs>'
            f'<selections><selection name="{name}" number="{number}" type="model"><profiles>'
            f'<profile name="{name}" typeName="Unit"><characteristics>{cells_xml}</characteristics></profile>'
            "</profiles></selection></selections></selection>")


# --- the fixtures import as the catalogues' figures say ---------------------------------

def test_an_epic_formation_with_upgrades_counts_every_unit_and_weapon():
    imported = battlescribe.load(MARINES)
    assert imported.game == "epic"
    tactical = imported.data["unit"][0]
    # 6 Tactical units + a Pair of Land Raiders (2 units); 300 + 125 + a 50-point Captain
    assert tactical == {
        "name": "Tactical Detachment", "points": 475, "kind": "infantry", "units": 8, "armour": "4+",
        "reinforced": False, "invulnerable": False,
        "weapon": [
            {"name": "Missile Launcher", "shots": 6, "ap": "5+", "at": "6+", "special": []},
            {"name": "Twin Lascannon", "shots": 4, "at": "4+", "special": []},  # 2x on each of 2 Land Raiders
            {"name": "Heavy Bolter", "shots": 2, "ap": "4+", "special": []},
        ]}


def test_a_war_engine_and_its_macro_weapon_and_a_barrage():
    units = {unit["name"]: unit for unit in battlescribe.load(MARINES).data["unit"]}
    warhound = units["Warhound Titan"]
    assert (warhound["kind"], warhound["units"], warhound["armour"], warhound["reinforced"]) == \
        ("armoured-vehicle", 1, "5+", True)
    assert warhound["weapon"] == [
        {"name": "Vulcan Mega-bolter", "shots": 4, "ap": "3+", "at": "5+", "special": []},  # "4x AP3/AT5+"
        {"name": "Plasma Blastgun", "shots": 2, "mw": "2+", "special": []}]  # "2x MW2+"
    # four Whirlwinds of 1BP each fire one 4 BP barrage (docs/rules.md §2.5)
    assert units["Whirlwinds"]["weapon"] == [{"name": "Whirlwind", "bp": 4, "special": []}]
    assert units["Whirlwinds"]["points"] == 300


MARINES_NOTES = [  # what marines.rosz holds that is not modelled, unit by unit
    "Tactical Detachment: Land Raider: unit note 'Thick Rear Armour' not modelled",
    "Tactical Detachment: Space Marine Captain: a character's Invulnerable Save (it protects the character alone) "
    "not modelled",
    "Tactical Detachment: Land Raider (armoured-vehicle, armour 4+) counted as Tactical (infantry, armour 4+): a "
    "roster formation has one kind and armour",
    "Warhound Titan: unit note '2 Void Shields' not modelled",
    "Warhound Titan: a war engine (DC 3): damage capacity, shields and critical hits are not modelled; counted as "
    "one armoured vehicle"]


def test_what_is_not_modelled_is_reported_by_unit_weapon_and_text():
    assert battlescribe.load(MARINES).report() == [f"{line} (imported without it)" for line in MARINES_NOTES]
    orks = battlescribe.load(ORKS)
    # the formation takes the armour of its largest group: six Boyz 5+, two Nobz counted as Boyz
    assert orks.data["unit"][0]["armour"] == "5+" and orks.data["unit"][0]["units"] == 8
    assert orks.report() == ["Warband: Nobz (infantry, armour 4+) counted as Boyz (infantry, armour 5+): a roster "
                             "formation has one kind and armour (imported without it)"]


def test_strict_leaves_out_every_unit_with_a_note():
    strict = battlescribe.load(MARINES, strict=True)
    assert [unit["name"] for unit in strict.data["unit"]] == ["Whirlwinds"]
    assert strict.left_out == ("Tactical Detachment", "Warhound Titan")
    assert strict.report() == [f"{line} (unit left out (--strict))" for line in MARINES_NOTES]
    with pytest.raises(InputError, match="no unit of Epic Armageddon"):
        battlescribe.load(ORKS, strict=True)


def test_a_t9a_unit_and_a_character():
    imported = battlescribe.load(EMPIRE)
    assert imported.game == "t9a"
    marshal, infantry = imported.data["unit"]
    # Marshal: Plate Armour +3; Great Weapon Str +2, AP +2 on Str 4, AP 1; 140 + 10 points
    assert marshal == {"name": "Marshal", "points": 150, "models": 1, "health": 3, "defensive": 5, "resilience": 4,
                       "armour": 3, "flammable": False, "offensive": 5, "strength": 4,
                       "weapon": [{"name": "Great Weapon", "kind": "melee", "attacks": 3, "strength": 6, "ap": 3,
                                   "attributes": []}]}
    # 20 Heavy Infantry five wide: 5 front-rank attacks + 5 supporting + 5 from the Spear's extra rank
    assert infantry["models"] == 20 and infantry["armour"] == 2 and infantry["points"] == 160
    assert infantry["weapon"] == [{"name": "Spear", "kind": "melee", "attacks": 15, "ap": 1, "attributes": []}]
    assert imported.report() == ["Marshal, Marshal Offensive: offensive rule 'Weapon Master' not modelled "
                                 "(imported without it)"]


def test_t9a_shooting_attributes_and_saves(tmp_path):
    model = ('<selection name="Archers" number="1" type="unit"><selections><selection name="Archer" number="10" '
             'type="model"><profiles>'
             '<profile name="D" typeName="2 Defensive"><characteristics><characteristic name="HP">2</characteristic>'
             '<characteristic name="Def">4</characteristic><characteristic name="Res">3</characteristic>'
             '<characteristic name="Arm">1</characteristic><characteristic name="Rules">Aegis (5+), Flammable'
             '</characteristic></characteristics></profile>'
             '<profile name="O" typeName="3 Offensive"><characteristics><characteristic name="Att">2</characteristic>'
             '<characteristic name="Off">4</characteristic><characteristic name="Str">3</characteristic>'
             '<characteristic name="AP">0</characteristic><characteristic name="Rules">Longbow (3+), Lethal Strike, '
             'Multiple Wounds (D3)</characteristic></characteristics></profile>'
             '<profile name="Longbow" typeName="6 Ranged Weapon"><characteristics>'
             '<characteristic name="Shots">1</characteristic><characteristic name="Str">3</characteristic>'
             '<characteristic name="AP">1</characteristic><characteristic name="Attributes">Volley Fire, Flaming '
             'Attacks</characteristic></characteristics></profile>'
             '</profiles></selection></selections></selection>')
    path = ros(tmp_path, model, system="The 9th Age: Fantasy Battles 2nd Edition 2024", revision="56")
    unit = battlescribe.load(path).data["unit"][0]
    assert (unit["health"], unit["armour"], unit["aegis"], unit["flammable"]) == (2, 1, "5+", True)
    melee, shooting = unit["weapon"]
    # 10 models five wide, Attack Value 2: 5 × 2 in front + 5 supporting attacks of 1
    assert melee == {"name": "Hand weapon", "kind": "melee", "attacks": 15, "multiple_wounds": "d3",
                     "attributes": ["lethal-strike"]}
    assert shooting == {"name": "Longbow", "kind": "shooting", "attacks": 10, "aim": "3+", "ap": 1,
                        "multiple_wounds": "d3", "attributes": ["flaming", "lethal-strike"]}


# --- one grid cell equals the same query typed by hand ----------------------------------

@pytest.mark.parametrize("grid, attacker, weapon, target, query, expected", [
    ((MARINES, "--against", ORKS), "Warhound Titan", "Vulcan Mega-bolter", "Warband",
     "epic shoot --shots 4 --to-hit 3+ --units 8 --armour 5+", F(4) * F(2, 3) * F(2, 3)),
    ((MARINES, "--against", ORKS), "Whirlwinds", "Whirlwind", "Warband",
     "epic barrage --bp 4 --formation 8 --armour 5+", F(6) * F(1, 2) * F(2, 3)),  # 2 templates × 3 units
    ((MARINES, "--against", ORKS), "Warhound Titan", "Plasma Blastgun", "Warband",
     "epic shoot --shots 2 --to-hit 2+ --units 8 --armour 5+ --weapon macro", F(2) * F(5, 6)),
    ((EMPIRE,), "Heavy Infantry", "Spear", "Heavy Infantry",
     "t9a melee --attacks 15 --offensive 3 --defensive 3 --strength 3 --resilience 3 --armour 2 --ap 1 "
     "--models 20 --health 1", F(15) * F(1, 2) * F(1, 2) * F(5, 6)),
    ((EMPIRE,), "Marshal", "Great Weapon", "Heavy Infantry",
     "t9a melee --attacks 3 --offensive 5 --defensive 3 --strength 6 --resilience 3 --armour 2 --ap 3 "
     "--models 20 --health 1", F(3) * F(2, 3) * F(5, 6)),
])
def test_a_grid_cell_of_a_list_is_the_query_typed_by_hand(capsys, grid, attacker, weapon, target, query, expected):
    """The cell's attack has the exact rationals of the query typed by hand, and the grid
    prints the mean that the rules give."""
    roster = games.load_roster(grid[0])
    targets = games.load_roster(grid[2], roster.game.name) if len(grid) > 1 else roster
    pair = next(pair for pair in matchups(roster.game, roster.units, targets.units, False)
                if (pair.attacker.name, pair.weapon.name, pair.target.name) == (attacker, weapon, target))
    typed = parse_query(root_command(), "oddscalc " + query).attack
    cell, hand = pair.attack.exact(fractions=True), typed.exact(fractions=True)
    assert list(cell) == list(hand) and all(list(cell[name]) == list(hand[name]) for name in cell)
    main = roster.game.main
    assert sum(k * p for k, p in enumerate(cell[main])) == expected
    answer = exact_json(capsys, "grid", *grid)
    row = next(row for row in answer["rows"]
               if (row["attacker"], row["weapon"], row["target"]) == (attacker, weapon, target))
    assert row["mean"] == pytest.approx(float(expected), abs=1e-12)
    assert parse_query(root_command(), row["query"]).attack == typed  # the printed query is the same attack


def test_a_list_works_wherever_a_roster_file_does(capsys):
    roster = games.load_roster(MARINES)
    assert roster.game.name == "epic" and len(roster.units) == 3
    assert roster.notes == tuple(f"{line} (imported without it)" for line in MARINES_NOTES)
    result = run(capsys, "profiles", "--file", EMPIRE)
    assert result.code == 0 and "Heavy Infantry" in result.out and "Spear (15 attacks, AP 1)" in result.out
    assert "note (empire.ros): Marshal" in result.err
    result = run(capsys, "grid", MARINES, "--against", ORKS, "--trials", "2000", "--seed", "1")
    assert result.code == 0 and "Warband" in result.out
    assert result.err.count("note (marines.rosz)") == 5 and result.err.count("note (orks.rosz)") == 1
    assert_refused(capsys, "grid", MARINES, "--against", EMPIRE, mentions=("--against", "not epic"))


# --- the import command -----------------------------------------------------------------

def test_import_prints_a_roster_that_reads_back_the_same(capsys, tmp_path):
    result = run(capsys, "import", MARINES)
    assert result.code == 0
    assert result.err.count("note: ") == 5
    saved = tmp_path / "army.toml"
    saved.write_text(result.out, encoding="utf-8")
    assert games.load_roster(saved).units == games.load_roster(MARINES).units
    assert result.out.startswith("# Imported by oddscalc from marines.rosz.")


def test_import_writes_the_file_or_nothing(capsys, tmp_path):
    target = tmp_path / "army.toml"
    result = run(capsys, "import", EMPIRE, "--write", target, "--strict")
    assert result.code == 0 and result.out == f"wrote 1 unit of t9a to {target}\n"
    assert [unit.name for unit in games.load_roster(target).units] == ["Heavy Infantry"]
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "army.txt", mentions=("--write", ".toml"))
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "nowhere" / "a.toml",
                   mentions=("--write", "does not exist"))
    assert_refused(capsys, "import", DATA / "missing.rosz", mentions=("missing.rosz", "no such file"))
    assert sorted(os.listdir(tmp_path)) == ["army.toml"]  # no temporary file left behind


# --- the Epic Firepower notation --------------------------------------------------------

@pytest.mark.parametrize("firepower, notes, expected", [
    ("AP5+/AT6+", "", ({"ap": "5+", "at": "6+"}, [], None, 1)),
    ("4x AP3/AT5+", "", ({"ap": "3+", "at": "5+"}, [], None, 4)),
    ("2x MW2+", "Slow Firing, Forward Arc", ({"mw": "2+"}, [], None, 2)),
    ("MW2+", "Titan Killer (D3)", ({"mw": "2+"}, ["titan-killer"], None, 1)),
    ("MW3+, TK(D3)", "", ({"mw": "3+"}, ["titan-killer"], None, 1)),
    ("1BP", "Indirect Fire", ({}, [], 1, 1)),
    ("BP 3, Disrupt", "", ({}, ["disrupt"], 3, 1)),
    ("3BP", "Macro-weapon", ({}, ["macro"], 3, 1)),
    ("AT4+", "Lance", ({"at": "4+"}, ["lance"], None, 1)),
    ("AP4+", "Sniper, Ignore Cover", ({"ap": "4+"}, ["sniper", "ignore-cover"], None, 1)),
    ("AP4+/AT4+", "Macro-weapon", ({"mw": "4+"}, [], None, 1)),
    ("AP5+/AA5+", "", ({"ap": "5+"}, [], None, 1)),
])
def test_the_firepower_notation(firepower, notes, expected):
    mapped = Mapped({"name": "Formation"})
    line = epic_list._line("Gun", 1, firepower, notes, mapped)
    assert (line.fields, line.special, line.bp, line.copies) == expected
    assert [note.text for note in mapped.notes if "D-value" not in note.text] == []


@pytest.mark.parametrize("firepower, notes, note", [
    ("AP5+, Wibble", "", "Firepower 'Wibble' not understood"),
    ("AP5+", "Heat Ray", "note 'Heat Ray' not modelled"),
    ("MW2+", "TK(D3)", "TK(D3): the D-value counts only against a war engine's damage capacity (not modelled)"),
    ("Special", "", "Firepower 'Special': no AP, AT, MW or BP value, not a shooting weapon"),  # one note, not two
    ("Wibble, Wobble", "", "Firepower 'Wibble, Wobble': no AP, AT, MW or BP value, not a shooting weapon"),
])
def test_what_the_notation_cannot_say_is_a_note(firepower, notes, note):
    mapped = Mapped({"name": "Formation"})
    epic_list._line("Gun", 1, firepower, notes, mapped)
    assert [(item.weapon, item.text) for item in mapped.notes] == [("Gun", note)]


@pytest.mark.parametrize("firepower", ["Small Arms", "Assault Weapons", "Assault Weapon", "AA5+"])
def test_firefight_close_combat_and_anti_aircraft_weapons_do_not_shoot(firepower):
    mapped = Mapped({"name": "Formation"})
    assert epic_list._line("Gun", 1, firepower, "Extra Attacks (+1)", mapped) is None
    assert mapped.notes == []


def test_cells_and_items_split_as_battlescribe_writes_them():
    assert cells("Bolters<BR><BR>Missile Launcher") == ["Bolters", "Missile Launcher"]
    assert cells("30cm<br/>and (15cm)") == ["30cm", "and (15cm)"]
    assert items("Multiple Wounds (D3, Clipped), Poison Attacks, -") == ["Multiple Wounds (D3, Clipped)",
                                                                       "Poison Attacks"]


def test_barrages_of_a_formation_add_up_and_keep_only_shared_abilities(tmp_path):
    selections = (unit_selection("Battery", 3, Type="Armoured Vehicle", Armour="5+", Weapons="Basilisk",
                                 Firepower="AP4+/AT4+ or 1BP", Notes="-")
                  .replace("</profiles>", '<profile name="Earthshaker" typeName="Weapon"><characteristics>'
                                          '<characteristic name="Firepower">2BP, Disrupt</characteristic>'
                                          '<characteristic name="Notes">Indirect Fire</characteristic>'
                                          "</characteristics></profile></profiles>"))
    imported = battlescribe.load(ros(tmp_path, selections))
    weapons = imported.data["unit"][0]["weapon"]
    # three Earthshakers of 2 BP: one 6 BP barrage, disrupt on every weapon of it
    assert {"name": "Earthshaker", "bp": 6, "special": ["disrupt"]} in weapons
    assert any("'AT4+ or 1BP' not understood" in line for line in imported.report()), imported.report()


# --- hostile and wrong files: one line each ---------------------------------------------

BOMB = ('<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
        + ']><roster xmlns="http://www.battlescribe.net/schema/rosterSchema">&i;</roster>')


def zipped(tmp_path: Path, members: dict[str, bytes], name: str = "list.rosz") -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    return path


@pytest.mark.parametrize("make, mentions", [
    (lambda tmp: (tmp / "bomb.ros").write_text(BOMB) and tmp / "bomb.ros", ("bomb.ros", "entit")),
    (lambda tmp: zipped(tmp, {"list.ros": b"<" + b" " * 5_000_000 + b"/>"}), ("to 1", "zip bomb")),
    (lambda tmp: zipped(tmp, {f"{i}.ros": b"<x/>" for i in range(6)}), ("a zip of 6 files",)),
    (lambda tmp: zipped(tmp, {"a.ros": b"<x/>", "b.ros": b"<x/>"}), ("several .ros",)),
    (lambda tmp: (tmp / "list.rosz").write_bytes(b"not a zip") and tmp / "list.rosz", ("not a zip file",)),
    (lambda tmp: (tmp / "list.ros").write_text('<roster xmlns="http://example.com/other"/>') and tmp / "list.ros",
     ("namespace http://example.com/other", "expected a BattleScribe <roster>")),
    (lambda tmp: (tmp / "sm.cat.ros").write_text('<catalogue xmlns="http://www.battlescribe.net/schema/'
                                                 'catalogueSchema" name="x"/>') and tmp / "sm.cat.ros",
     ("a catalogue (.cat), not a roster",)),
    (lambda tmp: (tmp / "list.ros").write_text("<roster><forces>") and tmp / "list.ros",
     ("not well-formed XML at line 1",)),
    (lambda tmp: ros(tmp, '<selection name="Odd" number="many" type="unit"/>'),
     ("selection 'Odd'", "number 'many' is not a number")),
    (lambda tmp: ros(tmp, "", system="Warhammer 40,000 10th Edition", revision="3"),
     ("'Warhammer 40,000 10th Edition'", "Epic Armageddon and The 9th Age")),
    (lambda tmp: ros(tmp, "", system="BS2.0 Fantasy Battles: The 9th Age", revision="25"),
     ("'BS2.0 Fantasy Battles: The 9th Age' revision 25", "2nd edition (2.0 rules)")),
    (lambda tmp: ros(tmp, ""), ("no unit of Epic Armageddon",)),
    (lambda tmp: (tmp / "fifo.ros", os.mkfifo(tmp / "fifo.ros"))[0], ("not a regular file",)),
])
def test_a_hostile_or_wrong_file_gets_one_line(capsys, tmp_path, make, mentions):
    path = make(tmp_path)
    assert_refused(capsys, "import", path, mentions=(str(path.name), *mentions))
    assert_refused(capsys, "grid", path, mentions=(str(path.name),))


def test_a_zip_whose_directory_lies_is_refused_as_damaged_having_read_no_more_than_it_says(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_XML_BYTES", 1000)
    path = zipped(tmp_path, {"list.ros": b"<" + b"a" * 50_000 + b"/>"})
    with pytest.raises(InputError, match="list.ros unzips to 50,003 bytes: at most 1,000$"):
        reader.read_bytes(path)  # a truthful directory: refused before unzipping
    truthful = zipfile.ZipFile.infolist

    def lying(archive):  # the directory says 500 bytes, under the cap and the ratio
        infos = truthful(archive)
        for info in infos:
            info.file_size = 500
        return infos

    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    assert str(pytest.raises(InputError, reader.read_bytes, path).value) == (
        f"file {path}: a damaged zip (Bad CRC-32 for file 'list.ros')")


# --- every reading of the mappers, on lists built here ----------------------------------

def profile(name: str, type_name: str, **characteristics: str) -> str:
    cells_xml = "".join(f'<characteristic name="{key.replace("_", " ")}">{value}</characteristic>'
                        for key, value in characteristics.items())
    return f'<profile name="{name}" typeName="{type_name}"><characteristics>{cells_xml}</characteristics></profile>'


def selection(name: str, *profiles: str, number: int = 1, kind: str = "unit", points: float = 0,
              children: str = "") -> str:
    return (f'<selection name="{name}" number="{number}" type="{kind}"><profiles>{"".join(profiles)}</profiles>'
            f'<costs><cost name="pts" value="{points}"/></costs><selections>{children}</selections></selection>')


def test_epic_weapon_lines_notes_characters_and_names(tmp_path):
    vindicator = profile("Vindicator", "Unit", Type="Armoured Vehicle", Armour="5+",
                         Weapons="Demolisher", Firepower="MW4+&lt;BR&gt;and Small Arms",
                         Notes="-&lt;BR&gt;and Macro-weapon", Unit_Notes="Reinforced Armour, Sniper")
    hunter = profile("Hunter-Killer", "Weapon", Firepower="AT2+", Notes="One Shot")
    thunderbolt = profile("Thunderbolt", "Unit", Type="Aircraft", Armour="6+", Weapons="Lascannon",
                          Firepower="AT4+")
    captain = profile("Captain", "Unit", Type="Character", Weapons="Power Weapon", Firepower="Assault Weapons",
                      Unit_Notes="Invulnerable Save")
    first = selection("Vindicators", points=200, children=(
        selection("Vindicator", vindicator, number=2, kind="model")
        + selection("Hunter-Killers", hunter, number=2, kind="upgrade", points=10)
        + selection("Air support", thunderbolt, kind="upgrade", points=5)))
    second = selection("Vindicators", children=selection("Pair of Vindicators", vindicator, kind="model"))
    alone = selection("Lone Captain", points=50, children=selection("Captain", captain, kind="model"))
    imported = battlescribe.load(ros(tmp_path, first + second + alone))
    one, two = imported.data["unit"]
    assert (one["name"], one["points"], one["units"], one["kind"], one["reinforced"]) == \
        ("Vindicators", 215, 2, "armoured-vehicle", True)
    # the unit note Sniper reaches every weapon of the formation; "and Small Arms" adds no shooting
    assert one["weapon"] == [{"name": "Demolisher", "shots": 2, "mw": "4+", "special": ["sniper"]},
                             {"name": "Hunter-Killer", "shots": 2, "at": "2+", "special": ["sniper"]},
                             {"name": "Lascannon", "shots": 1, "at": "4+", "special": ["sniper"]}]
    assert (two["name"], two["units"], two.get("points")) == ("Vindicators (2)", 2, None)  # "Pair of": two units
    assert imported.left_out == ("Lone Captain",)
    # nothing else: "and Small Arms", "and Macro-weapon", One Shot and the Captain's weapon are all read
    assert imported.report() == [
        "Vindicators: type 'Aircraft' not modelled as a target (Thunderbolt) (imported without it)",
        "Lone Captain: Captain: a character's Invulnerable Save (it protects the character alone) not modelled "
        "(imported without it)",
        "Lone Captain: no unit that can be a target; left out (imported without it)"]


def test_epic_barrages_over_the_table_and_names_that_repeat(tmp_path):
    battery = profile("Basilisk", "Unit", Type="Armoured Vehicle", Armour="6+", Weapons="Earthshaker",
                      Firepower="2BP", Notes="Disrupt")
    rocket = profile("Manticore", "Unit", Type="Armoured Vehicle", Armour="-",
                     Weapons="Rockets&lt;BR&gt;&lt;BR&gt;Rockets", Firepower="2BP&lt;BR&gt;&lt;BR&gt;AP5+",
                     Notes="&lt;BR&gt;&lt;BR&gt;")
    formation = selection("Artillery", children=selection("Basilisk", battery, number=8, kind="model")
                          + selection("Manticore", rocket, number=2, kind="model"))
    imported = battlescribe.load(ros(tmp_path, formation))
    unit = imported.data["unit"][0]
    assert unit["armour"] == "6+" and unit["units"] == 10
    # 8 × 2 BP + 2 × 2 BP = 20 BP, fired as the table's last line; Disrupt is not on every weapon
    assert unit["weapon"] == [{"name": "Rockets", "shots": 2, "ap": "5+", "special": []},
                              {"name": "Earthshaker + Rockets", "bp": 18, "special": []}]
    assert "Artillery: 20 BP in one barrage: the table ends at 18 BP; fired as 18 (imported without it)" in \
        imported.report()
    assert ("Artillery, Earthshaker: disrupt: not on every barrage weapon, so not on the barrage (imported "
            "without it)") in imported.report()
    assert any("Manticore (armoured-vehicle, armour none) counted as Basilisk" in line for line in imported.report())


@pytest.mark.parametrize("third, weapons", [
    ("AT6+", [{"name": "Rockets", "shots": 3, "ap": "5+", "special": []},  # the same figures: one weapon
              {"name": "Rockets (2)", "shots": 6, "at": "6+", "special": []}]),
    ("MW4+", [{"name": "Rockets", "shots": 3, "ap": "5+", "special": []},  # three figures: numbered one by one
              {"name": "Rockets (2)", "shots": 3, "at": "6+", "special": []},
              {"name": "Rockets (3)", "shots": 3, "mw": "4+", "special": []}]),
])
def test_epic_weapons_of_one_name_and_other_figures_get_numbered(tmp_path, third, weapons):
    rocket = profile("Manticore", "Unit", Type="Armoured Vehicle", Armour="5+",
                     Weapons="Rockets&lt;BR&gt;&lt;BR&gt;Rockets&lt;BR&gt;&lt;BR&gt;Rockets",
                     Firepower=f"AP5+&lt;BR&gt;&lt;BR&gt;AT6+&lt;BR&gt;&lt;BR&gt;{third}")
    imported = battlescribe.load(ros(tmp_path, selection("Rocket battery", children=selection(
        "Manticore", rocket, number=3, kind="model"))))
    assert imported.data["unit"][0]["weapon"] == weapons


def test_epic_barrage_at_the_top_of_the_table_is_not_reported(tmp_path):
    battery = profile("Basilisk", "Unit", Type="Armoured Vehicle", Armour="6+", Weapons="Earthshaker",
                      Firepower="3BP")
    imported = battlescribe.load(ros(tmp_path, selection("Battery", children=selection(
        "Basilisk", battery, number=6, kind="model"))))
    assert imported.data["unit"][0]["weapon"] == [{"name": "Earthshaker", "bp": 18, "special": []}]
    assert imported.report() == []


T9A_SYSTEM = {"system": "The 9th Age: Fantasy Battles 2nd Edition 2024", "revision": "56"}


def model(name: str, number: int, *, height: str = "Standard", defensive: dict, offensive: list[dict],
          extra: str = "", children: str = "") -> str:
    parts = [profile(f"{name} Size", "0 Size", Height=height),
             profile(f"{name} Defensive", "2 Defensive", **defensive)]
    parts += [profile(part.pop("name", f"{name} Offensive"), "3 Offensive", **part) for part in offensive]
    return selection(name, *parts, extra, number=number, kind="model", children=children)


def test_t9a_paired_weapons_large_models_saves_and_notes(tmp_path):
    paired = profile("Paired Weapons", "5 Melee Weapon", Str="As User", AP="As User", Attributes="Two-Handed")
    ogres = selection("Ogres", children=model(
        "Ogre", 6, height="Large",
        defensive={"HP": "3", "Def": "3", "Res": "4", "Arm": "1", "Rules": "Fortitude (5+), Heavy Armour, "
                                                                         "Hard Target (1)"},
        offensive=[{"Att": "3", "Off": "3", "Str": "4", "AP": "1", "Rules": ""}],
        children=selection("Paired Weapons", paired, kind="upgrade")))
    imported = battlescribe.load(ros(tmp_path, ogres, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert (unit["health"], unit["armour"], unit["fortitude"], unit["offensive"]) == (3, 3, "5+", 4)
    # Attack Value 3 + 1: five in front × 4, one supporting Large model × 3
    assert unit["weapon"] == [{"name": "Paired Weapons", "kind": "melee", "attacks": 23, "ap": 1, "attributes": []}]
    assert imported.report() == ["Ogres: defensive rule 'Hard Target (1)' not modelled (imported without it)"]


def test_t9a_a_mount_fights_in_the_front_rank_and_a_lance_only_on_the_charge(tmp_path):
    knights = selection("Knights", children=model(
        "Knight", 8, defensive={"HP": "1", "Def": "4", "Res": "3", "Arm": "2", "Rules": "Plate Armour, Shield"},
        offensive=[{"name": "Knight", "Att": "1", "Off": "4", "Str": "4", "AP": "1", "Rules": "Lance"},
                   {"name": "Warhorse", "Att": "1", "Off": "3", "Str": "3", "AP": "0", "Rules": "Harnessed"}]))
    imported = battlescribe.load(ros(tmp_path, knights, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert unit["armour"] == 6  # 2 + Plate 3 + Shield 1
    assert unit["weapon"] == [
        {"name": "Knight", "kind": "melee", "attacks": 8, "ap": 1, "attributes": []},  # 5 in front + 3 supporting
        {"name": "Warhorse", "kind": "melee", "attacks": 5, "strength": 3, "attributes": []}]  # front rank only
    assert imported.report() == [
        "Knights: Lance: its bonus counts only on the charge; fights as a hand weapon (imported without it)",
        "Knights, Warhorse: offensive rule 'Harnessed' not modelled (imported without it)"]


def test_t9a_shots_as_dice_toxic_attacks_unknown_weapons_and_caps(tmp_path):
    gun = profile("Volley Gun", "6 Ranged Weapon", Shots="3D6", Str="5", AP="2", Attributes="Reload!, Grapeshot")
    odd = profile("Odd Gun", "6 Ranged Weapon", Shots="D3+1", Str="4", AP="0", Attributes="")
    flail = profile("Flail", "5 Melee Weapon", Str="+9", AP="2", Attributes="Two-Handed")
    crew = selection("Volley Gun", children=model(
        "Crew", 1, defensive={"HP": "3", "Def": "1", "Res": "4", "Arm": "0", "Rules": ""},
        offensive=[{"Att": "1", "Off": "1", "Str": "3", "AP": "0", "Rules": "Volley Gun (4+), Odd Gun (4+)"}],
        extra=gun + odd, children=selection("Flail", flail, kind="upgrade")))
    rats = selection("Plague Rats", children=model(
        "Rat", 12, defensive={"HP": "1", "Def": "2", "Res": "2", "Arm": "0", "Rules": "Flammable"},
        offensive=[{"Att": "2", "Off": "2", "Str": "2", "AP": "1", "Rules": "Toxic Attacks, Sling (4+)"}]))
    statue = selection("Statue", children=model("Statue", 1, offensive=[],
                                                defensive={"HP": "5", "Def": "1", "Res": "6", "Arm": "3"}))
    imported = battlescribe.load(ros(tmp_path, crew + rats + statue, **T9A_SYSTEM))
    crew_unit, rat_unit = imported.data["unit"]
    assert crew_unit["weapon"] == [
        {"name": "Flail", "kind": "melee", "attacks": 1, "strength": 10, "ap": 2, "attributes": []},  # 3 + 9, at most 10
        {"name": "Volley Gun", "kind": "shooting", "attacks": "3d6", "aim": "4+", "strength": 5, "ap": 2,
         "attributes": []}]
    # Toxic Attacks: Strength 3 and AP 10 always, so neither is written
    assert rat_unit["weapon"] == [{"name": "Hand weapon", "kind": "melee", "attacks": 15, "attributes": ["toxic"]}]
    assert rat_unit["flammable"] is True
    assert imported.left_out == ("Statue",)
    assert imported.report() == [
        "Volley Gun: weapon 'Flail': its attributes are not read (Str and AP are) (imported without it)",
        "Volley Gun, Volley Gun: attribute 'Grapeshot' not modelled (imported without it)",
        "Volley Gun, Odd Gun: Shots 'D3+1' not understood; left out (imported without it)",
        "Plague Rats: shooting weapon 'Sling (4+)': its Ranged Weapon profile is not in the list; left out "
        "(imported without it)",
        "Statue: no Offensive profile; left out (imported without it)"]


def test_the_toml_header_says_how_the_list_was_read():
    assert battlescribe.load(EMPIRE).header() == [
        "Imported by oddscalc from empire.ros.",
        "Edit freely: every field is documented in `oddscalc profiles --help` and docs/rules.md.",
        "Melee attacks count a unit 5 models wide: the front rank and one rank of supporting attacks (two with "
        "a Spear).",
        "Note: Marshal, Marshal Offensive: offensive rule 'Weapon Master' not modelled (imported without it)"]
    assert battlescribe.load(ORKS).header()[2] == ("Shots count every unit's copies of a weapon; a formation's "
                                                    "barrages fire as one.")


# --- the reader: records, and its limits ------------------------------------------------

def test_the_reader_keeps_forces_selections_costs_rules_and_categories():
    roster = reader.parse(reader.read_bytes(DATA / "marines.ros"), "marines.ros")
    assert (roster.name, roster.system_name, roster.system_id, roster.system_revision) == \
        ("Marines 1325", "Epic Armageddon", "8f10-ee06-8dc1-beb6", "38")
    force = roster.forces[0]
    assert (force.name, force.catalogue, len(force.selections)) == ("Space Marines", "Space Marines - EA", 3)
    tactical = force.selections[0]
    assert (tactical.name, tactical.type, tactical.number, tactical.cost(), tactical.cost("PTS")) == \
        ("Tactical Detachment", "unit", 1, 475.0, 475.0)
    assert [child.name for child in tactical.walk()] == ["Tactical Detachment", "Tactical Squad",
                                                        "Pair of Land Raiders", "Captain"]
    assert tactical.children[0].number == 6 and tactical.children[1].rules == ("Thick Rear Armour",)
    land_raider = tactical.children[1].profiles[0]
    assert (land_raider.type_name, land_raider.get("armour"), land_raider.get("DC", "none")) == \
        ("Unit", "4+", "none")


def test_a_rosz_of_four_members_at_the_file_cap_is_read(tmp_path, monkeypatch):
    path = zipped(tmp_path, {"list.ros": (DATA / "marines.ros").read_bytes(), "a.png": b"x", "b.png": b"y",
                             "c.txt": b"z"})
    assert battlescribe.load(path).data["unit"][0]["name"] == "Tactical Detachment"  # 4 members, one .ros
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", path.stat().st_size)  # one byte over: test_the_caps_are_inclusive
    assert reader.read_bytes(path) == (DATA / "marines.ros").read_bytes()


def test_the_reader_refuses_deep_nesting_odd_numbers_and_a_root_without_a_namespace(tmp_path):
    deep = "".join(f'<selection name="s{i}"><selections>' for i in range(41))
    deep += "".join("</selections></selection>" for _ in range(41))
    with pytest.raises(InputError, match="selection 's40': selections nested more than 40 deep"):
        battlescribe.load(ros(tmp_path, deep))
    with pytest.raises(InputError, match="selection 'Big': number '2000000' is out of range"):
        battlescribe.load(ros(tmp_path, '<selection name="Big" number="2000000"/>'))
    for text, problem in (("inf", "is out of range"), ("1e400", "is out of range"), ("nan", "is out of range"),
                          ("1.5", "is not a whole number")):
        with pytest.raises(InputError, match=f"selection 'Odd': number '{text}' {problem}$"):
            battlescribe.load(ros(tmp_path, f'<selection name="Odd" number="{text}"/>'))
    with pytest.raises(InputError, match="selection 'Dear': cost value 'inf' is out of range"):
        battlescribe.load(ros(tmp_path, '<selection name="Dear"><costs><cost name="pts" value="inf"/></costs>'
                                        "</selection>"))
    with pytest.raises(InputError, match="selection 'Dear': cost value 'lots' is not a number"):
        battlescribe.load(ros(tmp_path, '<selection name="Dear"><costs><cost name="pts" value="lots"/></costs>'
                                        "</selection>"))
    (tmp_path / "bare.ros").write_text("<roster/>")
    with pytest.raises(InputError, match="<roster> without a namespace: expected a BattleScribe <roster>"):
        battlescribe.load(tmp_path / "bare.ros")
    (tmp_path / "cut.ros").write_text("<roster>\n  <forces>")
    with pytest.raises(InputError, match="not well-formed XML at line 2, column 11"):
        battlescribe.load(tmp_path / "cut.ros")


def test_any_dtd_is_refused_even_without_entities(tmp_path):
    (tmp_path / "dtd.ros").write_text('<?xml version="1.0"?><!DOCTYPE roster><roster xmlns="http://www.'
                                      'battlescribe.net/schema/rosterSchema" gameSystemName="Epic Armageddon"/>')
    with pytest.raises(InputError, match=r"refused: the XML declares dtd \(a roster has none; entity expansion is "
                                         "how XML bombs work\\)"):
        battlescribe.load(tmp_path / "dtd.ros")


def refused_with(path: Path, message: str) -> None:
    """Loading `path` gives exactly `file PATH: message` (the one line a user reads)."""
    with pytest.raises(InputError) as error:
        battlescribe.load(path)
    assert str(error.value) == f"file {path}: {message}"


def test_the_reader_says_exactly_which_file_and_what(tmp_path, monkeypatch):
    roster_xml = (DATA / "orks.ros").read_bytes()
    path = zipped(tmp_path, {f"{i}.png": b"x" for i in range(5)})
    refused_with(path, "a zip of 5 files: a .rosz holds one .ros")
    whole = zipped(tmp_path, {"orks.ros": roster_xml}, name="whole.rosz")
    (tmp_path / "cut.rosz").write_bytes(whole.read_bytes()[:-30])
    assert str(pytest.raises(InputError, battlescribe.load, tmp_path / "cut.rosz").value).startswith(
        f"file {tmp_path / 'cut.rosz'}: a damaged zip (")
    bomb = zipped(tmp_path, {"list.ros": b" " * 1_000_000}, name="bomb.rosz")
    ratio = 1_000_000 // zipfile.ZipFile(bomb).infolist()[0].compress_size
    refused_with(bomb, f"list.ros is compressed {ratio:,} to 1: more than 100 to 1 is not a roster (a zip bomb?)")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml) - 1)
    refused_with(whole, f"orks.ros unzips to {len(roster_xml):,} bytes: at most {len(roster_xml) - 1:,}")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml))  # at the cap: read
    assert battlescribe.load(whole).data["unit"][0]["name"] == "Warband"
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", whole.stat().st_size - 1)
    refused_with(whole, f"{whole.stat().st_size:,} bytes: a .ros or .rosz roster is at most {whole.stat().st_size - 1:,} bytes")


def test_the_caps_are_inclusive(tmp_path, monkeypatch):
    """A file exactly at a cap is read; one over it is refused."""
    import xml.etree.ElementTree as ElementTree

    roster_xml = (DATA / "orks.ros").read_bytes()
    elements = sum(1 for _ in ElementTree.fromstring(roster_xml).iter())
    path = tmp_path / "orks.ros"
    path.write_bytes(roster_xml)
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    assert battlescribe.load(path).game == "epic"
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements - 1)
    refused_with(path, f"more than {elements - 1:,} XML elements: not a roster")
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    zipped_path = zipped(tmp_path, {"orks.ros": roster_xml})
    compressed = zipfile.ZipFile(zipped_path).infolist()[0].compress_size
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed)  # exactly the file's ratio: read
    assert battlescribe.load(zipped_path).game == "epic"
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed - 1e-9)  # just under it: refused
    with pytest.raises(InputError, match="more than .* to 1 is not a roster"):
        battlescribe.load(zipped_path)


def test_a_roster_without_names_reads_as_empty_text(tmp_path):
    path = tmp_path / "bare.ros"
    path.write_text('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force>'
                    "<selections/></force></forces></roster>")
    roster = reader.parse(path.read_bytes(), str(path))
    assert (roster.source, roster.name, roster.system_name, roster.system_id, roster.system_revision) == \
        (str(path), "", "", "", "")
    assert roster.forces[0].name == "" and roster.forces[0].catalogue == ""
    refused_with(path, "built with game system '(none named)': oddscalc imports Epic Armageddon and The 9th Age "
                       "(2nd edition) lists")
    refused_with(ros(tmp_path, "", system="The 9th Age: Fantasy Battles", revision=""),
                 "built with game system 'The 9th Age: Fantasy Battles' revision ?: oddscalc imports The 9th Age "
                 "lists built with the 2nd edition (2.0 rules) catalogues only")
    refused_with(ros(tmp_path, ""), "no unit of Epic Armageddon that oddscalc can model")


def test_a_formation_over_the_schemas_cap_is_counted_at_the_cap_and_reported(tmp_path):
    boy = profile("Boyz", "Unit", Type="Infantry", Armour="6+", Weapons="Shoota", Firepower="AP6+")
    imported = battlescribe.load(ros(tmp_path, selection("Horde", children=selection("Boyz", boy, number=120,
                                                                                     kind="model"))))
    assert imported.data["unit"][0]["units"] == 100
    assert imported.data["unit"][0]["weapon"][0]["shots"] == 120
    assert imported.report() == ["Horde: 120 units: a roster formation has at most 100; counted as 100 "
                                 "(imported without it)"]


def test_t9a_shots_that_only_look_like_a_number_are_reported_not_a_traceback():
    from oddscalc.battlescribe import t9a
    from oddscalc.battlescribe.report import Mapped

    mapped = Mapped({"name": "Crew"})
    assert t9a._shots("²", 2, mapped, "Gun") is None  # a digit to str.isdigit, not a number to int()
    assert (t9a._shots("3", 2, mapped, "Gun"), t9a._shots("2D6", 2, mapped, "Gun")) == (6, "4d6")
    assert [(note.weapon, note.text) for note in mapped.notes] == [("Gun", "Shots '²' not understood; left out")]
