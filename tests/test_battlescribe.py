"""BattleScribe / New Recruit lists (.ros, .rosz): the readings of the importers, the commands that
take a list, and hostile files refused with one line.

Lists built from the real catalogues are in tests/data/battlescribe/bsdata (test_bsdata_corpus.py
checks them figure by figure); the small lists written here in the roster schema pin one reading
each (a notation, a cap, a refusal).
"""

from __future__ import annotations

import io
import os
import zipfile
from fractions import Fraction as F
from pathlib import Path

import pytest
from clirun import assert_refused, exact_json, run

from oddscalc import battlescribe, games, pmf
from oddscalc.battlescribe import epic as epic_list
from oddscalc.battlescribe import reader
from oddscalc.battlescribe.reader import Selection
from oddscalc.battlescribe.report import Mapped, Note, cells, counted, items, lines
from oddscalc.cli import root_command
from oddscalc.cli.options import parse_query
from oddscalc.errors import InputError
from oddscalc.grid import matchups
from bslists import HEAD, T9A_SYSTEM, model, profile, ros, selection  # noqa: F401

CORPUS = Path(__file__).parent / "data" / "battlescribe" / "bsdata"
STEEL, TITANS, MARINES = CORPUS / "steel_legion.rosz", CORPUS / "titan_legions.rosz", CORPUS / "space_marines.rosz"
EMPIRE, ELVES = CORPUS / "sonnstahl.rosz", CORPUS / "dread_elves.rosz"
# --- one grid cell of real lists equals the same query typed by hand ------------------------------

@pytest.mark.parametrize("mine, theirs, attacker, weapon, target, query, expected", [
    # 4 Plasma Blastgun shots MW2+ at 13 infantry without armour: no save, every hit on another unit
    (TITANS, STEEL, "Warhound Titan Battlegroup", "Plasma Blastgun", "Infantry Company",
     "epic shoot --shots 4 --to-hit 2+ --units 13 --armour none --weapon macro", 4 * F(5, 6)),
    # 10 Great Weapon attacks (Off 4 vs Def 4: 4+; Str 6 vs Res 3: 2+; AP 3 past Armour 2: no save)
    (EMPIRE, ELVES, "Imperial Guard", "Great Weapon", "Corsairs",
     "t9a melee --attacks 10 --offensive 4 --defensive 4 --strength 6 --resilience 3 --armour 2 --ap 3 "
     "--models 10 --health 1", 10 * F(1, 2) * F(5, 6)),
    # 10 Repeater Handbow shots at Aim 3+, Poison: a natural 6 wounds; Str 3 vs Res 3 4+; Armour 3 saves on 4+
    (ELVES, EMPIRE, "Black Cloaks", "Repeater Handbow", "Imperial Guard",
     "t9a shoot --shots 10 --aim 3+ --strength 3 --resilience 3 --armour 3 --poison --models 20 --health 1",
     10 * (F(1, 6) + F(3, 6) * F(1, 2)) * F(1, 2)),
])
def test_a_grid_cell_of_a_real_list_is_the_query_typed_by_hand(capsys, mine, theirs, attacker, weapon, target,
                                                                query, expected):
    roster = games.load_roster(mine)
    targets = games.load_roster(theirs, roster.game.name)
    pair = next(pair for pair in matchups(roster.game, roster.units, targets.units, False)
                if (pair.attacker.name, pair.weapon.name, pair.target.name) == (attacker, weapon, target))
    typed = parse_query(root_command(), "oddscalc " + query).attack
    assert pair.attack == typed
    assert pmf.mean(pair.attack.exact(fractions=True)[roster.game.main]) == expected
    answer = exact_json(capsys, "grid", mine, "--against", theirs)
    row = next(row for row in answer["rows"] if (row["attacker"], row["weapon"], row["target"]) ==
               (attacker, weapon, target))
    assert row["mean"] == pytest.approx(float(expected), abs=1e-12)
    assert parse_query(root_command(), row["query"]).attack == typed


def test_a_list_works_wherever_a_roster_file_does(capsys):
    roster = games.load_roster(TITANS)
    assert roster.game.name == "epic" and len(roster.units) == 3 and len(roster.notes) == 2
    result = run(capsys, "profiles", "--file", EMPIRE)
    assert result.code == 0 and "Imperial Guard" in result.out and "Great Weapon (10 attacks, S 6, AP 3)" in result.out
    assert "note (sonnstahl.rosz): Marshal, Marshal: Lance" in result.err
    result = run(capsys, "grid", STEEL, "--against", TITANS, "--trials", "2000", "--seed", "1")
    assert result.code == 0 and "Warlord Battle Titan" in result.out
    assert result.err.count("note (steel_legion.rosz)") == 2 and result.err.count("note (titan_legions.rosz)") == 2
    assert_refused(capsys, "grid", STEEL, "--against", EMPIRE, mentions=("--against", "not epic"))


def test_strict_leaves_out_every_unit_with_a_line():
    strict = battlescribe.load(TITANS, strict=True)
    assert [unit["name"] for unit in strict.data["unit"]] == ["Warhound Titan Battlegroup"]
    assert strict.left_out == ("Warlord Battle Titan", "Reaver Battle Titan")
    assert all(line.endswith("(unit left out (--strict))") for line in strict.report())
    with pytest.raises(InputError, match=r"no unit of The 9th Age \(2nd edition\) that oddscalc can model \(4 left "
                                         r"out: see the report without --strict\)"):
        battlescribe.load(CORPUS / "dread_elves.rosz", strict=True)


def test_a_renamed_formation_is_named_in_its_lines_as_imported(tmp_path):
    unit = profile("Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+",
                   Unit_Notes="Bodyguard")
    imported = battlescribe.load(ros(tmp_path, selection("Platoon", unit) + selection("Platoon", unit)))
    assert [u["name"] for u in imported.data["unit"]] == ["Platoon", "Platoon (2)"]
    assert imported.report() == ["Platoon: Guard: unit note 'Bodyguard' not modelled (imported without it)",
                                 "Platoon (2): Guard: unit note 'Bodyguard' not modelled (imported without it)"]


# --- the import command -----------------------------------------------------------------------

def test_import_prints_a_roster_that_reads_back_the_same(capsys, tmp_path):
    result = run(capsys, "import", TITANS)
    assert result.code == 0 and result.err.count("note: ") == 2
    saved = tmp_path / "army.toml"
    saved.write_text(result.out, encoding="utf-8")
    assert games.load_roster(saved).units == games.load_roster(TITANS).units
    assert result.out.startswith("# Imported by oddscalc from titan_legions.rosz.")


def test_import_writes_the_file_or_nothing(capsys, tmp_path):
    target = tmp_path / "army.toml"
    result = run(capsys, "import", EMPIRE, "--write", target, "--strict")
    assert result.code == 0 and result.out == f"wrote 1 unit of t9a to {target}\n"
    assert [unit.name for unit in games.load_roster(target).units] == ["Imperial Guard"]
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "army.txt", mentions=("--write", ".toml"))
    assert_refused(capsys, "import", EMPIRE, "--write", tmp_path / "nowhere" / "a.toml",
                   mentions=("--write", "does not exist"))
    assert_refused(capsys, "import", CORPUS / "missing.rosz", mentions=("missing.rosz", "no such file"))
    assert sorted(os.listdir(tmp_path)) == ["army.toml"]  # no temporary file left behind


def test_the_toml_header_says_how_the_list_was_read():
    assert battlescribe.load(EMPIRE).header()[:3] == [
        "Imported by oddscalc from sonnstahl.rosz.",
        "Edit freely: every field is documented in `oddscalc profiles --help` and docs/rules.md.",
        "Melee attacks count a unit 5 models wide: the front rank and one rank of supporting attacks (two with "
        "a Spear)."]
    assert battlescribe.load(TITANS).header()[2] == ("Shots count every unit's copies of a weapon; a formation's "
                                                     "barrages fire as one.")
    assert battlescribe.load(TITANS).header()[3].startswith("Note: Warlord Battle Titan: Warlord Titan: critical")


# --- the Epic Firepower notation --------------------------------------------------------------

def formation_reader() -> epic_list._Reader:
    return epic_list._Reader(Selection("Formation", "unit", 1, (), (), (), (), ()))


@pytest.mark.parametrize("firepower, notes, expected", [
    ("AP5+/AT6+", "", ({"ap": "5+", "at": "6+"}, [], None, 1)),
    ("4x AP3/AT5+", "", ({"ap": "3+", "at": "5+"}, [], None, 4)),
    ("2x MW2+", "Slow Firing, Forward Arc", ({"mw": "2+"}, [], None, 2)),
    ("MW2+", "Titan Killer (D3)", ({"mw": "2+"}, ["titan-killer", "tk:d3"], None, 1)),
    ("MW3+, TK(D3)", "", ({"mw": "3+"}, ["titan-killer", "tk:d3"], None, 1)),
    ("MW2+", "Titan Killer(D3+1)", ({"mw": "2+"}, ["titan-killer", "tk:d3+1"], None, 1)),
    ("AP4+/AT4+", "Titan Killer", ({"mw": "4+"}, ["titan-killer"], None, 1)),  # a titan killer is a macro-weapon
    ("1BP", "Indirect Fire", ({}, [], 1, 1)),
    ("BP 3, Disrupt", "", ({}, ["disrupt"], 3, 1)),
    ("6x 2BP", "Single Shot", ({}, [], 2, 6)),
    ("3BP", "Macro-weapon", ({}, ["macro"], 3, 1)),
    ("AT4+", "Lance", ({"at": "4+"}, ["lance"], None, 1)),
    ("AP4+", "Sniper, Ignore Cover, Left Fire Arc", ({"ap": "4+"}, ["sniper", "ignore-cover"], None, 1)),
    ("AP4+/AT4+", "Macro-weapon", ({"mw": "4+"}, [], None, 1)),
    ("AP5+/AA5+", "", ({"ap": "5+"}, [], None, 1)),
    ("3BP/AA5+", "", ({}, [], 3, 1)),
])
def test_the_firepower_notation(firepower, notes, expected):
    reading = formation_reader()
    line = reading._line("Gun", 1, firepower, notes, "", False)
    assert (line.fields, line.special, line.bp, line.copies) == expected
    assert reading.mapped.notes == []


@pytest.mark.parametrize("firepower, notes, note, action", [
    ("AP5+, Wibble", "", "Firepower 'Wibble' not understood", "imported without it"),
    ("AP5+", "Heat Ray", "note 'Heat Ray' not modelled", "imported without it"),
    ("Special", "", "Firepower 'Special': no AP, AT, MW or BP value", "not a shooting weapon"),  # one note
    ("Wibble, Wobble", "", "Firepower 'Wibble, Wobble': no AP, AT, MW or BP value", "not a shooting weapon"),
    ("D6+3x AP5+/AA6+", "", "D6+3 shots: a random number", "counted as 7, its mean rounded"),
    ("D3+1BP", "", "D3+1 BP: a random number", "counted as 3, its mean rounded"),
])
def test_what_the_notation_cannot_say_is_a_line(firepower, notes, note, action):
    reading = formation_reader()
    reading._line("Gun", 1, firepower, notes, "", False)
    assert [(item.weapon, item.text, item.action) for item in reading.mapped.notes] == [("Gun", note, action)]


@pytest.mark.parametrize("firepower", ["Small Arms", "Assault Weapons", "Assault Weapon", "(Small Arms)", "AA5+",
                                       "n/a", "-", "*", ""])
def test_firefight_close_combat_and_anti_aircraft_weapons_do_not_shoot(firepower):
    reading = formation_reader()
    assert reading._line("Gun", 1, firepower, "Extra Attacks (+1), Titan Killer (D3)", "", False) is None
    assert reading.mapped.notes == []


def test_cells_lines_items_and_counts_split_as_battlescribe_writes_them():
    assert cells("Bolters<BR><BR>Missile Launcher") == ["Bolters", "Missile Launcher"]
    assert cells("30cm<br/>and (15cm)") == ["30cm", "and (15cm)"]
    assert lines("A<BR><BR>B<br>or C") == ["A", "", "B", "or C"]
    assert items("Multiple Wounds (D3, Clipped), Poison Attacks, -") == ["Multiple Wounds (D3, Clipped)",
                                                                       "Poison Attacks"]
    assert counted("8x Skitarii Vanguard, 4x Skorpius Dunerider") == {"skitarii vanguard": 8,
                                                                       "skorpius dunerider": 4}
    assert counted("Pair of Land Raiders") == {"land raiders": 2} and counted("Trenches, Barricades") == {}
    assert Note("U", "W", "text", "counted as 3").line(False) == "U, W: text (counted as 3)"
    assert cells(None) == [""] and lines(None) == [""] and items(None) == []
    assert counted("2X Lascannon") == {"lascannon": 2}  # the apps write x or X
    mapped = Mapped({})
    mapped.note("a line before the unit has a name")
    assert mapped.notes == [Note("?", None, "a line before the unit has a name", "imported without it")]
    assert mapped.leave_out("why").table == {} and mapped.notes[-1] == Note("?", None, "why", "left out")


def test_roster_reads_a_list_for_the_game_asked_and_passes_strict(tmp_path):
    assert games.imported_roster(STEEL, "epic").game.name == "epic"
    with pytest.raises(InputError) as error:
        games.imported_roster(STEEL, "t9a")
    assert (error.value.name, error.value.value, error.value.allowed) == ("file", str(STEEL),
                                                                          "holds epic units, not t9a")
    strict = games.imported_roster(TITANS, strict=True)
    assert [unit.name for unit in strict.units] == ["Warhound Titan Battlegroup"]
    assert [unit["name"] for unit in battlescribe.load_xml(reader.read_bytes(TITANS), "t").data["unit"]] == [
        "Warlord Battle Titan", "Warhound Titan Battlegroup", "Reaver Battle Titan"]  # strict is off by default


# --- Epic formations: every reading, on lists written here ----------------------------------------

def test_a_nested_selection_number_is_the_total_not_per_parent(tmp_path):
    """Two titans saved as one selection of number 2 with their weapon of number 2: 2 weapons, not 4."""
    titan = profile("Warhound", "War Engine", Type="War Engine", Armour="5+", Weapons="*", Firepower="*",
                    Unit_Notes="Reinforced Armour, 2 Sh", DC="3", Crit="Destroyed")
    bolter = profile("Vulcan Mega-bolter", "Weapon", Firepower="4x AP3/AT5+")
    group = selection("Battlegroup", points=500, children=selection(
        "Warhound", titan, number=2, kind="model", children=selection("Vulcan Mega-bolter", bolter, number=2,
                                                                     kind="upgrade")))
    unit = battlescribe.load(ros(tmp_path, group)).data["unit"][0]
    assert (unit["units"], unit["damage_capacity"], unit["shields"], unit["critical"]) == (2, 3, 2, "destroyed")
    assert unit["weapon"] == [{"name": "Vulcan Mega-bolter", "shots": 8, "ap": "3+", "at": "5+", "special": []}]


def test_weapon_lines_notes_characters_and_the_sniper_of_one_unit(tmp_path):
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
    # the unit note Sniper reaches that unit's weapons only; an aircraft is no part of a ground target
    assert one["weapon"] == [{"name": "Demolisher", "shots": 2, "mw": "4+", "special": ["sniper"]},
                             {"name": "Hunter-Killer", "shots": 2, "at": "2+", "special": []},
                             {"name": "Lascannon", "shots": 1, "at": "4+", "special": []}]
    assert (two["name"], two["units"], two.get("points")) == ("Vindicators (2)", 2, None)  # "Pair of": two
    assert imported.left_out == ("Lone Captain",)
    assert imported.report() == [
        "Vindicators: Thunderbolt (aircraft) is not on the table with the formation (not part of the target)",
        "Lone Captain: Captain: a character's invulnerable save (it protects the character alone) not modelled "
        "(imported without it)",
        "Lone Captain: no unit that can be a target or fire (left out)"]


def test_another_mode_is_its_own_weapon_and_barrages_add_up(tmp_path):
    basilisk = profile("Basilisk", "Unit", Type="Armoured Vehicle", Armour="5+",
                       Weapons="Earthshaker&lt;BR&gt;or", Firepower="AP4+/AT4+&lt;BR&gt;or 1BP",
                       Notes="-&lt;BR&gt;or Indirect Fire",
                       Unit_Notes="Normal shot or barrage. May only use the indirect fire when firing a barrage.")
    manticore = profile("Manticore", "Unit", Type="Armoured Vehicle", Armour="6+", Weapons="Rockets",
                        Firepower="2BP", Notes="Disrupt")
    battery = selection("Battery", children=selection("Basilisk", basilisk, number=3, kind="model")
                        + selection("Manticore", manticore, number=8, kind="model"))
    imported = battlescribe.load(ros(tmp_path, battery))
    unit = imported.data["unit"][0]
    assert unit["weapon"] == [
        {"name": "Earthshaker", "shots": 3, "ap": "4+", "at": "4+", "special": []},
        {"name": "Earthshaker (or 1BP)", "bp": 3, "special": [], "alternative": "Earthshaker"},
        {"name": "Rockets", "bp": 16, "special": ["disrupt"]}]  # 8 × 2 BP, apart: Disrupt is on this one only
    # the unit note that names the other mode is read as the "or" line, not reported
    assert imported.report() == [
        "Battery: Basilisk (armoured-vehicle, armour 5+) counted as Manticore (armoured-vehicle, armour 6+): a "
        "roster formation's main part has one kind and one defence (counted as stated)"]


def test_barrages_over_the_table_and_abilities_not_on_every_weapon(tmp_path):
    battery = profile("Basilisk", "Unit", Type="Armoured Vehicle", Armour="6+", Weapons="Earthshaker",
                      Firepower="2BP", Notes="Disrupt")
    rocket = profile("Manticore", "Unit", Type="Armoured Vehicle", Armour="6+", Weapons="Rockets&lt;BR&gt;&lt;BR&gt;"
                     "Rockets", Firepower="2BP&lt;BR&gt;&lt;BR&gt;AP5+", Notes="&lt;BR&gt;&lt;BR&gt;")
    formation = selection("Artillery", children=selection("Basilisk", battery, number=8, kind="model")
                          + selection("Manticore", rocket, number=2, kind="model"))
    imported = battlescribe.load(ros(tmp_path, formation))
    unit = imported.data["unit"][0]
    assert unit["armour"] == "6+" and unit["units"] == 10
    # 8 × 2 BP + 2 × 2 BP = 20 BP, fired as the table's last line; Disrupt is not on every weapon
    assert unit["weapon"] == [{"name": "Rockets", "shots": 2, "ap": "5+", "special": []},
                              {"name": "Earthshaker + Rockets", "bp": 18, "special": []}]
    assert imported.report() == [
        "Artillery, Earthshaker: 20 BP in one barrage: the table ends at 18 BP (fired as 18)",
        "Artillery, Earthshaker: disrupt: not on every barrage weapon, so not on the barrage (imported without it)"]


@pytest.mark.parametrize("third, weapons", [
    ("AT6+", [{"name": "Rockets", "shots": 3, "ap": "5+", "special": []},  # the same figures: one weapon
              {"name": "Rockets (2)", "shots": 6, "at": "6+", "special": []}]),
    ("MW4+", [{"name": "Rockets", "shots": 3, "ap": "5+", "special": []},  # three figures: numbered one by one
              {"name": "Rockets (2)", "shots": 3, "at": "6+", "special": []},
              {"name": "Rockets (3)", "shots": 3, "mw": "4+", "special": []}]),
])
def test_weapons_of_one_name_and_other_figures_get_numbered(tmp_path, third, weapons):
    rocket = profile("Manticore", "Unit", Type="Armoured Vehicle", Armour="5+",
                     Weapons="Rockets&lt;BR&gt;&lt;BR&gt;Rockets&lt;BR&gt;&lt;BR&gt;Rockets",
                     Firepower=f"AP5+&lt;BR&gt;&lt;BR&gt;AT6+&lt;BR&gt;&lt;BR&gt;{third}")
    imported = battlescribe.load(ros(tmp_path, selection("Rocket battery", children=selection(
        "Manticore", rocket, number=3, kind="model"))))
    assert imported.data["unit"][0]["weapon"] == weapons


def test_one_unit_in_two_and_counts_in_a_name(tmp_path):
    infantry = profile("Infantry", "Unit", Type="Infantry", Armour="-", Weapons="Lasguns&lt;BR&gt;&lt;BR&gt;Autocannon",
                       Firepower="Small Arms&lt;BR&gt;&lt;BR&gt;AP5+/AT6+",
                       Unit_Notes="One unit in every two has an autocannon. Halve units (round up) for number of "
                                  "shots.")
    vanguard = profile("Skitarii Vanguard", "Unit", Type="Infantry", Armour="5+", Weapons="Rifles",
                       Firepower="AP5+")
    dunerider = profile("Skorpius Dunerider", "Unit", Type="Armoured Vehicle", Armour="5+", Weapons="Multi-laser",
                        Firepower="AP5+/AT6+")
    company = selection("Company", children=selection("Infantry", infantry, number=7, kind="model"))
    maniple = selection("Maniple", children=selection("8x Skitarii Vanguard, 4x Skorpius Dunerider", vanguard,
                                                      dunerider, kind="model"))
    company_unit, maniple_unit = battlescribe.load(ros(tmp_path, company + maniple)).data["unit"]
    assert company_unit["weapon"] == [{"name": "Autocannon", "shots": 4, "ap": "5+", "at": "6+", "special": []}]
    assert (maniple_unit["units"], maniple_unit["vehicles"]) == (8, 4)  # a mixed formation
    assert maniple_unit["weapon"] == [{"name": "Rifles", "shots": 8, "ap": "5+", "special": []},
                                      {"name": "Multi-laser", "shots": 4, "ap": "5+", "at": "6+", "special": []}]


@pytest.mark.parametrize("name, text, effect", [
    ("Destroyed", "The unit is destroyed.", "destroyed"),
    ("Explosion", "Destroyed, units within 5cm hit on D6 roll of 6.", "destroyed"),
    ("Crash", "The unit and all units being carried are destroyed.", "destroyed"),
    ("Overlord", "Scatters 2D6cm randomly and is destroyed. Any unit it lands on takes a hit.", "destroyed"),
    ("Damaged", "Takes 1 additional point of damage.", "damage"),
    ("Staggering Blow", "The unit takes a point of damage and is moved D6cm in a random direction.", "damage"),
    ("Cascading Fire", "Suffers an extra point of DC. Must roll again to see if that point of DC is also Critical.",
     "damage"),
    ("Reactor Damage", "Roll a D6 in the end phase of each turn: 1: the unit is destroyed", "none"),
    ("System Damage", "Tau Deflector Shield is destroyed; further critical hits cause a point of damage.", "none"),
    ("Immobile", "Immobilised, subsequent critical hits cause an additional 1DC of damage.", "none"),
    ("Land Train", "The last battle car in line is destroyed.", "none"),
    ("Destroyed", None, "destroyed"),  # a hand-made list without the rule's text: its name
    ("Very Large Explosion", None, "destroyed"),
    ("Damaged", None, "damage"),
    ("Rampage", None, "none"),
    ("Crash", None, "destroyed"),
    ("Extra Damage", None, "damage"),
    ("+1 Damage", None, "damage"),
    ("Meltdown", "On a roll of 1 the unit explodes.", "none"),
    ("Fuel Leak", "Roll 1D6: on a 6 the unit is destroyed.", "none"),
    ("Topple", "The Titan staggers and then tips over and is destroyed; units under it are hit.", "destroyed"),
    ("Breach", "1-2: The unit and all units being carried are destroyed.", "none"),  # a roll of its own
    ("Hull Breach", "The unit loses an extra point of damage capacity.", "damage"),
    ("Fire", "Suffers 2 points of damage: the fire spreads.", "damage"),
    ("Stalled", "The unit may not move next turn", "none"),
])
def test_a_critical_hit_is_read_from_its_rule(name, text, effect):
    assert epic_list.critical_effect(name, text) == effect


def test_war_engines_with_other_units_power_fields_and_capped_counts(tmp_path):
    gargant = profile("Gargant", "War Engine", Type="War Engine", Armour="4+", Weapons="Gaze of Mork",
                      Firepower="MW4+", Notes="Titan Killer", Unit_Notes="Reinforced Armour, D6+6 Power Fields",
                      DC="8", Crit="Destroyed")
    boyz = profile("Boyz", "Unit", Type="Infantry", Armour="6+", Weapons="Shoota", Firepower="AP6+")
    horde = profile("Grot", "Unit", Type="Infantry", Armour="-", Weapons="Blasta", Firepower="AP6+")
    mob = selection("Mob", children=selection("Gargant", gargant, kind="model")
                    + selection("Boyz", boyz, number=6, kind="model"))
    swarm = selection("Swarm", children=selection("Grots", horde, number=150, kind="model"))
    imported = battlescribe.load(ros(tmp_path, mob + swarm))
    gargant_unit, swarm_unit = imported.data["unit"]
    assert (gargant_unit["kind"], gargant_unit["units"], gargant_unit["shields"], gargant_unit["other_units"]) == \
        ("war-engine", 1, 10, 6)  # D6+6: its mean 9.5, rounded
    assert (swarm_unit["units"], swarm_unit["weapon"][0]["shots"]) == (100, 150)
    assert imported.report() == [
        "Mob: D6+6 power fields: a random number (counted as 10, its mean rounded)",
        "Mob: 6 units beside the war engines (Boyz) (they count toward the break point; the war engines are the "
        "target (§2.8))",
        "Swarm: 150 units: a roster formation has at most 100 (counted as 100)"]


def test_a_formation_of_structures_or_nothing_is_left_out_with_a_line(tmp_path):
    trench = profile("Trenches", "Structure", Infantry="Yes")
    unit = profile("Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+")
    lists = (selection("Fortifications", children=selection("Trenches", trench, kind="upgrade"))
             + selection("Empty") + selection("Company", unit))
    imported = battlescribe.load(ros(tmp_path, lists))
    assert [u["name"] for u in imported.data["unit"]] == ["Company"]
    assert imported.report() == ["Fortifications: structures (fortifications, trenches) only: not units (left out)",
                                 "Empty: the list gives no unit profile (left out)"]


# --- The 9th Age units ------------------------------------------------------------------------------

def test_t9a_shooting_attributes_and_saves(tmp_path):
    archers = selection("Archers", children=model(
        "Archer", 10, defensive={"HP": "2", "Def": "4", "Res": "3", "Arm": "1", "Rules": "Aegis (5+), Flammable"},
        offensive=[{"Att": "2", "Off": "4", "Str": "3", "AP": "0",
                    "Rules": "Longbow (3+), Lethal Strike, Multiple Wounds (D3)"}],
        extra=profile("Longbow", "6 Ranged Weapon", Shots="1", Str="3", AP="1", Attributes="Volley Fire, Flaming "
                                                                                           "Attacks")))
    unit = battlescribe.load(ros(tmp_path, archers, **T9A_SYSTEM)).data["unit"][0]
    assert (unit["health"], unit["armour"], unit["aegis"], unit["flammable"]) == (2, 1, "5+", True)
    melee, shooting = unit["weapon"]
    # 10 models five wide, Attack Value 2: 5 × 2 in front + 5 supporting attacks of 1
    assert melee == {"name": "Hand Weapon", "kind": "melee", "attacks": 15, "multiple_wounds": "d3",
                     "attributes": ["lethal-strike"]}
    assert shooting == {"name": "Longbow", "kind": "shooting", "attacks": 10, "aim": "3+", "ap": 1,
                        "multiple_wounds": "d3", "attributes": ["flaming", "lethal-strike"]}


def test_t9a_paired_weapons_large_models_hard_target_and_extra_support(tmp_path):
    paired = profile("Paired Weapons", "5 Melee Weapon", Str="As User", AP="As User", Attributes="Two-Handed")
    ogres = selection("Ogres", rules='<rules><rule name="Extra Support (2)"/></rules>', children=model(
        "Ogre", 6, height="Large",
        defensive={"HP": "3", "Def": "3", "Res": "4", "Arm": "1", "Rules": "Fortitude (5+), Heavy Armour, "
                                                                         "Hard Target (1)"},
        offensive=[{"Att": "3", "Off": "3", "Str": "4", "AP": "1", "Rules": ""}],
        children=selection("Paired Weapons", paired, kind="upgrade")))
    imported = battlescribe.load(ros(tmp_path, ogres, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert (unit["health"], unit["armour"], unit["fortitude"], unit["hard_target"]) == (3, 3, "5+", 1)
    # Attack Value 3 + 1: five in front × 4, one supporting model of at most 2 (Extra Support (2))
    assert unit["weapon"] == [{"name": "Paired Weapons", "kind": "melee", "attacks": 22, "ap": 1, "offensive": 4,
                               "attributes": ["ignores-parry"]}]
    assert imported.report() == []


def test_t9a_a_mount_uses_its_riders_values_and_fights_in_the_front_rank(tmp_path):
    horse = selection("Warhorse", profile("Warhorse Defensive", "2 Defensive", HP="C", Def="C", Res="C+1",
                                          Arm="C+2"),
                      profile("Warhorse Offensive", "3 Offensive", Att="1", Off="3", Str="3", AP="0",
                              Rules="Harnessed"), kind="upgrade")
    captain = selection("Captain", profile("Captain Defensive", "2 Defensive", HP="3", Def="5", Res="4", Arm="0",
                                           Rules="Plate Armour"),
                        profile("Captain Offensive", "3 Offensive", Att="3", Off="5", Str="4", AP="1"),
                        children=horse + selection("Shield", kind="upgrade") + selection("Lance", kind="upgrade"))
    imported = battlescribe.load(ros(tmp_path, captain, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    # Res C+1 = 5; Arm C+2 = 2, Plate Armour 3, Shield 1; mounted: no Parry
    assert (unit["health"], unit["defensive"], unit["resilience"], unit["armour"], unit["parry"]) == \
        (3, 5, 5, 6, False)
    assert unit["weapon"] == [{"name": "Captain: Lance", "kind": "melee", "attacks": 3, "ap": 1, "attributes": []},
                              {"name": "Warhorse", "kind": "melee", "attacks": 1, "strength": 3, "offensive": 3,
                               "attributes": []}]
    assert imported.report() == ["Captain, Captain: Lance: +2 Strength, +2 Armour Penetration on the charge only "
                                 "(fights as a hand weapon)"]


def test_t9a_equipment_bought_with_no_profile_is_read_by_name(tmp_path):
    guards = selection("Guards", children=model(
        "Guard", 10, defensive={"HP": "1", "Def": "3", "Res": "3", "Arm": "0", "Rules": ""},
        offensive=[{"Att": "1", "Off": "3", "Str": "3", "AP": "0", "Rules": "Lightning Reflexes"}]
    ) + selection("Spear and Shield", kind="upgrade") + selection("Light Armour", kind="upgrade")
        + selection("Throwing Weapons (5+)", kind="upgrade") + selection("Poison Attacks", kind="upgrade")
        + selection("Champion", kind="upgrade") + selection("Banner of Doom", kind="upgrade"))
    imported = battlescribe.load(ros(tmp_path, guards, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert (unit["armour"], unit["parry"]) == (2, False)  # a Spear, not a Hand Weapon: no Parry
    # Spear: AP +1 and one more supporting rank: 5 + 5; Throwing Weapons 2 shots as the user
    assert unit["weapon"] == [
        {"name": "Spear", "kind": "melee", "attacks": 10, "ap": 1, "modifier": 1, "attributes": ["poison"]},
        {"name": "Throwing Weapons", "kind": "shooting", "attacks": 20, "aim": "5+", "attributes": ["poison"]}]
    assert imported.report() == [
        "Guards: upgrade 'Banner of Doom' not read (imported without it)",
        "Guards: Spear: +1 Armour Penetration more in the first round of combat when not charging (counted without it)"]


def test_t9a_parts_counted_harnessed_inanimate_and_random_values(tmp_path):
    chariot = model("Chariot", 2, defensive={"HP": "4", "Def": "3", "Res": "4", "Arm": "2"}, offensive=[
        {"name": "Crew (2) Offensive", "Att": "1", "Off": "4", "Str": "3", "AP": "0", "Rules": "Bow (4+)"},
        {"name": "Beast (2)", "Att": "D3", "Off": "3", "Str": "4", "AP": "1", "Rules": "Harnessed"},
        {"name": "Chassis", "Att": "", "Off": "", "Str": "5", "AP": "2", "Rules": "Impact Hits (D6), Inanimate"}])
    demon = model("Demon", 1, defensive={"HP": "5", "Def": "D6", "Res": "5", "Arm": "1"},
                  offensive=[{"Att": "2", "Off": "4", "Str": "5", "AP": "2"}])
    imported = battlescribe.load(ros(tmp_path, selection("Chariots", children=chariot)
                                     + selection("Demon", children=demon), **T9A_SYSTEM))
    chariots, daemon = imported.data["unit"]
    assert chariots["weapon"] == [
        {"name": "Crew: Hand Weapon", "kind": "melee", "attacks": 4, "attributes": []},  # 2 models × 2 crew
        {"name": "Crew: Bow", "kind": "shooting", "attacks": 4, "aim": "4+", "attributes": []},
        {"name": "Beast", "kind": "melee", "attacks": "4d3", "strength": 4, "ap": 1, "offensive": 3,
         "attributes": []},
        {"name": "Chassis: Impact Hits (D6)", "kind": "automatic", "attacks": "2d6", "strength": 5, "ap": 2,
         "attributes": []}]  # each chassis's D6, automatic hits at its Str 5, AP 2
    assert daemon["defensive"] == 4  # D6: 3.5, rounded half up
    assert imported.report() == ["Demon, Demon Defensive: Def D6: a random value (counted as 4, its mean rounded)"]


def test_t9a_shots_that_only_look_like_a_number_are_reported_not_a_traceback(tmp_path):
    gun = profile("Gun", "6 Ranged Weapon", Shots="²", Str="4", AP="0", Attributes="")
    crew = selection("Crew", children=model("Crew", 1, defensive={"HP": "1", "Def": "3", "Res": "3", "Arm": "0"},
                                            offensive=[{"Att": "1", "Off": "3", "Str": "3", "AP": "0",
                                                        "Rules": "Gun (4+)"}], extra=gun))
    imported = battlescribe.load(ros(tmp_path, crew, **T9A_SYSTEM))
    assert [w["name"] for w in imported.data["unit"][0]["weapon"]] == ["Hand Weapon"]
    assert imported.report() == ["Crew, Gun: Shots '²' not understood (left out)"]


# --- hostile and wrong files: one line each -----------------------------------------------------

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


def damaged(tmp_path: Path, how: str) -> Path:
    """A .rosz whose deflate stream is corrupt ("stream"), or whose member name is flagged UTF-8
    but is not ("name")."""
    import random

    rng = random.Random(1)
    text = ("<roster>" + "".join(rng.choice("abcdefghij ") for _ in range(20_000)) + "</roster>").encode()
    data = bytearray(zipped(tmp_path, {"abc.ros": text}).read_bytes())
    if how == "stream":
        start = 30 + len("abc.ros")  # the local header, then the compressed bytes
        data[start + 100:start + 400] = b"\xff" * 300
    else:
        for at in [index for index in range(len(data)) if data[index:index + 7] == b"abc.ros"]:
            data[at] = 0xFF
        data[7] |= 0x08  # general purpose flag bit 11: the name is UTF-8, in the local header ...
        data[data.find(b"PK\x01\x02") + 9] |= 0x08  # ... and in the central directory
    path = tmp_path / f"{how}.rosz"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, mentions", [
    (lambda tmp: (tmp / "bomb.ros").write_text(BOMB) and tmp / "bomb.ros", ("bomb.ros", "entit")),
    (lambda tmp: zipped(tmp, {"list.ros": b"<" + b" " * 5_000_000 + b"/>"}), ("to 1", "zip bomb")),
    (lambda tmp: zipped(tmp, {f"{i}.ros": b"<x/>" for i in range(6)}), ("a zip of 6 files",)),
    (lambda tmp: zipped(tmp, {"a.ros": b"<x/>", "b.ros": b"<x/>"}), ("several .ros",)),
    (lambda tmp: (tmp / "list.rosz").write_bytes(b"not a zip") and tmp / "list.rosz", ("neither a zip file nor XML",)),
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
    (lambda tmp: ros(tmp, "", system="Epic 40,000", revision="3"),  # a name with "Epic" in it is not Epic Armageddon
     ("'Epic 40,000'", "Epic Armageddon and The 9th Age")),
    (lambda tmp: ros(tmp, "", system="BS2.0 Fantasy Battles: The 9th Age", revision="25"),
     ("'BS2.0 Fantasy Battles: The 9th Age' revision 25", "2nd edition (2.0 rules)")),
    (lambda tmp: ros(tmp, ""), ("no unit of Epic Armageddon",)),
    (lambda tmp: (tmp / "fifo.ros", os.mkfifo(tmp / "fifo.ros"))[0], ("not a regular file",)),
    (lambda tmp: (tmp / "k.ros").write_text('<?xml version="1.0" encoding="klingon"?><roster/>') and tmp / "k.ros",
     ("the XML declares 'klingon' as its encoding",)),
    (lambda tmp: damaged(tmp, "stream"), ("a damaged zip (Error -3 while decompressing data",)),
    (lambda tmp: damaged(tmp, "name"), ("a damaged zip (a file name that is not UTF-8)",)),
])
def test_a_hostile_or_wrong_file_gets_one_line(capsys, tmp_path, make, mentions):
    path = make(tmp_path)
    assert_refused(capsys, "import", path, mentions=(str(path.name), *mentions))
    assert_refused(capsys, "grid", path, mentions=(str(path.name),))


APPS = sorted((Path(__file__).parent / "data" / "battlescribe" / "apps").glob("*.rosz"))
BUILT = sorted(CORPUS.glob("*.rosz"))


@pytest.mark.parametrize("path", APPS + BUILT, ids=lambda path: path.name)
def test_the_costs_read_add_up_to_the_totals_the_app_wrote(path):
    """Lists saved by BattleScribe (and by our builder, which must write as it does): a selection's
    cost already counts its `number`, forces may hold forces, and the roster states the sums."""
    import xml.etree.ElementTree as ET

    data = reader.read_bytes(path)
    roster = reader.parse(data, str(path))
    namespace = f"{{{reader.NAMESPACE}}}"
    totals = {cost.get("name").strip(): float(cost.get("value"))
              for cost in ET.fromstring(data).findall(f"{namespace}costs/{namespace}cost")}
    assert "pts" in totals or "Points" in totals or "Point(s)" in totals
    for name, total in totals.items():
        assert sum(selection.cost(name) for selection in roster.selections()) == pytest.approx(total), name


@pytest.mark.parametrize("name, forces", [("belakor_and_fiends.rosz", 3), ("death_guard_and_1000_sons.rosz", 2)])
def test_forces_within_a_force_are_read(name, forces):
    path = APPS[0].parent / name
    assert len(reader.parse(reader.read_bytes(path), name).forces) == forces


def test_a_list_of_another_game_saved_by_the_app_gets_one_line(capsys):
    path = APPS[0].parent / "not_zipped.rosz"  # an unzipped .rosz, as one app saves it: read as XML
    assert_refused(capsys, "import", path, mentions=(path.name, "'Warhammer 40,000 8th Edition'",
                                                     "Epic Armageddon and The 9th Age"))


def test_the_game_system_is_matched_by_its_id_before_its_name(tmp_path):
    third = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" gameSystemId="8c9a-3026-84b4-cf16" '
             'gameSystemName="Epic Armageddon" gameSystemRevision="9"><forces/></roster>')
    (tmp_path / "third.ros").write_text(third)
    with pytest.raises(InputError, match="2nd edition"):  # the 3rd edition's id, whatever its name says
        battlescribe.load(tmp_path / "third.ros")
    assert battlescribe.load(STEEL).game == "epic"  # the real lists carry the id


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


def test_a_lying_directory_costs_no_more_memory_than_the_truth(tmp_path, monkeypatch):
    import tracemalloc

    path = zipped(tmp_path, {"list.ros": b"<" + b"a" * 30_000_000 + b"/>"})  # 30 MB of XML in about 30 kB
    assert path.stat().st_size < 100_000
    truthful = zipfile.ZipFile.infolist

    def lying(archive):  # 500 bytes, says the directory
        infos = truthful(archive)
        for info in infos:
            info.file_size = 500
        return infos

    def peak(match: str) -> int:
        tracemalloc.start()
        with pytest.raises(InputError, match=match):
            reader.read_bytes(path)
        used = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return used

    truth = peak("unzips to 30,000,003 bytes")  # refused before unzipping: reading the file is all it costs
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    assert peak("a damaged zip") < truth + 1_000_000  # a chunk more, not the 30 MB it inflates to


# --- the reader: records, and its limits -----------------------------------------------------------

def test_the_reader_keeps_forces_selections_costs_rules_and_their_text():
    roster = reader.parse(reader.read_bytes(TITANS), "titan_legions.rosz")
    assert (roster.system_name, roster.system_id, roster.system_revision) == \
        ("Epic Armageddon", "8f10-ee06-8dc1-beb6", "38")
    force = roster.forces[0]
    assert (force.name, force.catalogue, len(force.selections)) == (
        "Epic Armageddon", "Adeptus Mechanicus: Titan Legions", 4)
    warhounds = force.selections[2]
    assert (warhounds.name, warhounds.type, warhounds.number, warhounds.cost(), warhounds.cost("PTS")) == \
        ("Warhound Titan Battlegroup", "unit", 1, 500.0, 500.0)
    titan = warhounds.children[0]
    assert titan.number == 2 and [child.number for child in titan.children] == [2, 2, 2]
    assert titan.rule_text("critical hit: staggering blow").startswith("The unit takes a point of damage")
    assert titan.rule_text("Nothing") is None
    assert titan.profiles[0].get("DC") == "3" and titan.profiles[0].get("dc") is None  # as the game system spells it
    assert titan.profiles[0].get("Nothing", "none") == "none"


def test_negative_costs_are_read_and_a_units_points_are_its_sum():
    roster = reader.parse(reader.read_bytes(CORPUS / "undying_dynasties.rosz"), "x")
    archers = roster.forces[0].selections[2]
    assert [cost for _, cost in archers.costs] == [-58.0] and archers.cost() == 170.0


def test_a_rosz_of_four_members_at_the_file_cap_is_read(tmp_path, monkeypatch):
    xml = reader.read_bytes(STEEL)
    path = zipped(tmp_path, {"list.ros": xml, "a.png": b"x", "b.png": b"y", "c.txt": b"z"})
    assert battlescribe.load(path).data["unit"][0]["name"] == "Infantry Company"  # 4 members, one .ros
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", path.stat().st_size)  # one byte over: test_the_caps_are_inclusive
    assert reader.read_bytes(path) == xml


def test_the_reader_refuses_deep_nesting_odd_numbers_and_a_root_without_a_namespace(tmp_path):
    deep = "".join(f'<selection name="s{i}"><selections>' for i in range(41))
    deep += "".join("</selections></selection>" for _ in range(41))
    with pytest.raises(InputError, match="selection 's40': selections nested more than 40 deep"):
        battlescribe.load(ros(tmp_path, deep))
    with pytest.raises(InputError, match="selection 'Big': number '2000000' is out of range"):
        battlescribe.load(ros(tmp_path, '<selection name="Big" number="2000000"/>'))
    for text, problem in (("inf", "is out of range"), ("1e400", "is out of range"), ("nan", "is out of range"),
                          ("1.5", "is not a whole number"), ("-1", "is out of range")):
        with pytest.raises(InputError, match=f"selection 'Odd': number '{text}' {problem}$"):
            battlescribe.load(ros(tmp_path, f'<selection name="Odd" number="{text}"/>'))
    for text in ("inf", "-2000000"):
        with pytest.raises(InputError, match=f"selection 'Dear': cost value '{text}' is out of range"):
            battlescribe.load(ros(tmp_path, f'<selection name="Dear"><costs><cost name="pts" value="{text}"/>'
                                            "</costs></selection>"))
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
    roster_xml = reader.read_bytes(STEEL)
    path = zipped(tmp_path, {f"{i}.png": b"x" for i in range(5)})
    refused_with(path, "a zip of 5 files: a .rosz holds one .ros")
    whole = zipped(tmp_path, {"steel.ros": roster_xml}, name="whole.rosz")
    (tmp_path / "cut.rosz").write_bytes(whole.read_bytes()[:-30])
    assert str(pytest.raises(InputError, battlescribe.load, tmp_path / "cut.rosz").value).startswith(
        f"file {tmp_path / 'cut.rosz'}: a damaged zip (")
    bomb = zipped(tmp_path, {"list.ros": b" " * 1_000_000}, name="bomb.rosz")
    ratio = 1_000_000 // zipfile.ZipFile(bomb).infolist()[0].compress_size
    refused_with(bomb, f"list.ros is compressed {ratio:,} to 1: more than 100 to 1 is not a roster (a zip bomb?)")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml) - 1)
    refused_with(whole, f"steel.ros unzips to {len(roster_xml):,} bytes: at most {len(roster_xml) - 1:,}")
    monkeypatch.setattr(reader, "MAX_XML_BYTES", len(roster_xml))  # at the cap: read
    assert battlescribe.load(whole).data["unit"][0]["name"] == "Infantry Company"
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", whole.stat().st_size - 1)
    refused_with(whole, f"{whole.stat().st_size:,} bytes: a .ros or .rosz roster is at most {whole.stat().st_size - 1:,} bytes")


def test_the_caps_are_inclusive(tmp_path, monkeypatch):
    """A file exactly at a cap is read; one over it is refused."""
    import xml.etree.ElementTree as ElementTree

    roster_xml = reader.read_bytes(STEEL)
    elements = sum(1 for _ in ElementTree.fromstring(roster_xml).iter())
    path = tmp_path / "steel.ros"
    path.write_bytes(roster_xml)
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    assert battlescribe.load(path).game == "epic"
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements - 1)
    refused_with(path, f"more than {elements - 1:,} XML elements: not a roster")
    monkeypatch.setattr(reader, "MAX_ELEMENTS", elements)
    zipped_path = zipped(tmp_path, {"steel.ros": roster_xml})
    compressed = zipfile.ZipFile(zipped_path).infolist()[0].compress_size
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed)  # exactly the file's ratio: read
    assert battlescribe.load(zipped_path).game == "epic"
    monkeypatch.setattr(reader, "MAX_RATIO", len(roster_xml) / compressed - 1e-9)  # just under it: refused
    with pytest.raises(InputError, match="more than .* to 1 is not a roster"):
        battlescribe.load(zipped_path)


def test_characteristics_out_of_bounds_or_unread_are_reported_never_written_silently(tmp_path):
    archers = selection("Archers", children=model(
        "Archer", 10, defensive={"HP": "1000000", "Def": "abc", "Res": "0", "Arm": "9"},
        offensive=[{"Att": "2", "Off": "4", "Str": "1000000", "AP": "11", "Rules": ""}]))
    imported = battlescribe.load(ros(tmp_path, archers, **T9A_SYSTEM))
    unit = imported.data["unit"][0]
    assert (unit["health"], unit["defensive"], unit["resilience"], unit["armour"], unit["strength"]) == (20, 1, 1, 6, 10)
    assert unit["weapon"][0]["ap"] == 10
    assert imported.report() == [
        "Archers: Health Points 1000000: a roster holds 1 to 20 (counted as 20)",
        "Archers, Archer Defensive: Def 'abc' not understood (counted as 1)",
        "Archers: Res 0: a roster holds 1 to 10 (counted as 1)",
        "Archers: Armour 9: a roster holds 0 to 6 (counted as 6)",
        "Archers: Str 1000000: a roster holds 1 to 10 (counted as 10)",
        "Archers, Hand Weapon: AP 11: a roster holds 0 to 10 (counted as 10)"]
    games.imported_roster(ros(tmp_path, archers, **T9A_SYSTEM, name="again.ros"))  # and the roster it makes loads
    guards = [selection(f"Guards {armour}", profile("Guard", "Unit", Type="Infantry", Armour=armour, Weapons="Lasgun",
                                                    Firepower="AP6+")) for armour in ("abc", "9+", "-", "4+")]
    imported = battlescribe.load(ros(tmp_path, "".join(guards), name="epic.ros"))
    assert [unit["armour"] for unit in imported.data["unit"]] == ["none", "none", "none", "4+"]
    assert imported.report() == ["Guards abc: Guard: Armour 'abc' not understood (counted as no armour save)",
                                 "Guards 9+: Guard: Armour '9+' not understood (counted as no armour save)"]


def test_a_name_or_a_text_over_its_cap_is_refused(tmp_path):
    long = selection("x" * 201, profile("Guard", "Unit", Type="Infantry", Armour="5+"))
    refused_with(ros(tmp_path, long), "a name of 201 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…): at most 200")
    assert battlescribe.load(ros(tmp_path, selection("x" * 200, profile(
        "Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+")))).data["unit"][0][
        "name"] == "x" * 200
    wordy = selection("Guards", profile("Guard", "Unit", Type="Infantry", Armour="5+", Notes="n" * 20_001))
    refused_with(ros(tmp_path, wordy), "a <characteristic> text of 20,001 characters: at most 20,000")


def test_the_reader_takes_what_an_app_may_leave_out_and_refuses_forces_nested_too_deep(tmp_path, monkeypatch):
    xml = ('\ufeff \n<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="My List"><forces><force>'
           "<selections><selection><costs><cost/></costs><profiles><profile><characteristics><characteristic/>"
           "</characteristics></profile></profiles><rules><rule/></rules><categories><category/></categories>"
           "</selection></selections></force></forces></roster>")
    path = tmp_path / "saved.rosz"  # a .rosz saved unzipped, with a byte-order mark and blank lines first
    path.write_bytes(xml.encode("utf-8"))
    roster = reader.parse(reader.read_bytes(path), str(path))
    assert roster.name == "My List"
    bare = roster.forces[0].selections[0]
    assert (bare.name, bare.type, bare.number, bare.costs, bare.rules, bare.descriptions, bare.categories) == (
        "", "", 1, (("", 0.0),), ("",), ("",), ("",))
    assert bare.profiles == (reader.Profile("", "", (("", ""),)),) and bare.cost() == 0
    monkeypatch.setattr(reader, "MAX_DEPTH", 3)  # the roster's forces, theirs, and theirs: three levels
    nested = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force name="a"><forces>'
              '<force name="b"><forces><force name="c"/></forces></force></forces></force></forces></roster>')
    with pytest.raises(InputError, match="forces nested more than 3 deep$"):
        reader.parse(nested.encode(), "nested.ros")
    monkeypatch.setattr(reader, "MAX_DEPTH", 4)
    assert [force.name for force in reader.parse(nested.encode(), "nested.ros").forces] == ["a", "b", "c"]


def test_a_zip_of_a_member_not_named_ros_is_read_and_an_encrypted_one_refused(tmp_path, monkeypatch):
    roster_xml = reader.read_bytes(STEEL)
    assert reader.read_bytes(zipped(tmp_path, {"export.xml": roster_xml, "notes.txt": b"x"})) == roster_xml
    path = zipped(tmp_path, {"list.ros": roster_xml}, name="locked.rosz")
    data = bytearray(path.read_bytes())
    data[6] |= 0x01  # the encryption flag, in the local header and the central directory
    data[data.find(b"PK\x01\x02") + 8] |= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"locked.rosz: cannot be unzipped \(encrypted: the apps save a list without "
                                         r"a password\)$"):
        reader.read_bytes(path)
    data[8] = 99  # a compression method zipfile does not know, both places
    data[data.find(b"PK\x01\x02") + 10] = 99
    data[6] &= 0xFE
    data[data.find(b"PK\x01\x02") + 8] &= 0xFE
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"locked.rosz: cannot be unzipped \(.*compression"):
        reader.read_bytes(path)


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


def test_the_readers_numbers_at_their_bounds_and_its_messages_whole(tmp_path, monkeypatch):
    def selection_xml(number: str, cost: str) -> bytes:
        return (f'<roster xmlns="{reader.NAMESPACE}"><forces><force><selections><selection name="S" '
                f'number="{number}"><costs><cost name="pts" value="{cost}"/></costs></selection></selections></force>'
                "</forces></roster>").encode()

    bare = reader.parse(selection_xml("0", "-1000000"), "edge.ros").forces[0].selections[0]
    assert (bare.number, bare.costs) == (0, (("pts", -1_000_000.0),)) and type(bare.number) is int
    top = reader.parse(selection_xml("1000000", "1000000"), "edge.ros").forces[0].selections[0]
    assert (top.number, top.cost()) == (1_000_000, 1_000_000.0)
    for number, cost, message in (("1000001", "0", "number '1000001' is out of range"),
                                  ("1", "-1000001", "cost value '-1000001' is out of range"),
                                  ("1", "1000001", "cost value '1000001' is out of range")):
        with pytest.raises(InputError) as error:
            reader.parse(selection_xml(number, cost), "edge.ros")
        assert str(error.value) == f"file edge.ros: selection 'S': {message}"
    monkeypatch.setattr(reader, "MAX_TEXT", 10)
    for text, refused in (("x" * 10, False), ("x" * 11, True)):  # the cap itself is allowed
        xml = selection_xml("1", "0").replace(b'number="1">', f'number="1"><rules><rule name="R"><description>'
                                                                f'{text}</description></rule></rules>'.encode())
        if refused:
            with pytest.raises(InputError, match="a <description> text of 11 characters: at most 10$"):
                reader.parse(xml, "e.ros")
        else:
            assert reader.parse(xml, "e.ros").forces[0].selections[0].descriptions == (text,)
    two = zipped(tmp_path, {"a.ros": b"<x/>", "b.ros": b"<x/>"}, name="two.rosz")
    with pytest.raises(InputError) as error:
        reader.read_bytes(two)
    assert str(error.value) == f"file {two}: a zip of several .ros files: a .rosz holds one"
    (tmp_path / "junk.rosz").write_bytes(b"\xef\xbb\xbf  junk")
    with pytest.raises(InputError) as error:
        reader.read_bytes(tmp_path / "junk.rosz")
    assert str(error.value) == f"file {tmp_path / 'junk.rosz'}: neither a zip file nor XML: a .rosz is a zipped .ros"
