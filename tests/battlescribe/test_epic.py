"""The Epic Armageddon import, rule by rule (docs/rules.md §4.1), on lists written by hand: each
formation's roster fields and its whole report, with the arithmetic in the comments. The real
catalogues' lists are in tests/battlescribe/test_corpus.py."""

from __future__ import annotations

import itertools

import pytest
from bslists import profile, ros, selection

from oddscalc.lists import battlescribe
from oddscalc.lists.battlescribe import epic as epic_list
from oddscalc.lists.battlescribe.reader import Selection

NUMBER = itertools.count()
FLAGS = {"reinforced": False, "invulnerable": False, "thick_rear_armour": False}


def unit(name: str, **cells: str) -> str:
    """A Unit profile: its cells, empty unless given."""
    return profile(name, "Unit", **{"Type": "Infantry", "Armour": "5+", "Weapons": "", "Firepower": "", "Notes": "",
                                    "Unit_Notes": "", **cells})


def imported(tmp_path, formation: str):
    path = ros(tmp_path, formation, name=f"list{next(NUMBER)}.ros")
    return battlescribe.read_xml(path.read_bytes(), path.name)


def test_counts_in_a_name_go_to_the_profiles_in_order(tmp_path):
    coven = selection("Coven", children=selection(
        "2x Haemonculi, 4x Grotesques", unit("Haemonculus", Armour="4+", Weapons="Pistol", Firepower="AP5+"),
        unit("Grotesque", Armour="4+", Weapons="Cleaver", Firepower="AP6+"), kind="model")
        + selection("Wracks", unit("Wrack", Armour="6+", Weapons="Splinter", Firepower="AP6+"),
                    unit("Wrack Leader", Armour="6+"), kind="model"))
    result = imported(tmp_path, coven)
    # "2x Haemonculi, 4x Grotesques": 2 and 4 (the plural is not the profile's name); "Wracks" names no
    # count: one of each profile. 2 + 4 + 1 + 1 units, the most numerous part's defence. The cleavers and the
    # splinter have the same figures (AP6+): one weapon of 4 + 1 shots (§4.1)
    assert result.data["unit"] == [{
        "name": "Coven", "units": 8, "kind": "infantry", "armour": "4+", **FLAGS,
        "weapon": [{"name": "Pistol", "shots": 2, "ap": "5+", "special": []},
                   {"name": "Cleaver + Splinter", "shots": 5, "ap": "6+", "special": []}]}]
    assert result.report() == [
        "Coven: Wrack (infantry, armour 6+) counted as Grotesque (infantry, armour 4+): a roster formation's main "
        "part has one kind and one defence (counted as stated)",
        "Coven: Wrack Leader (infantry, armour 6+) counted as Grotesque (infantry, armour 4+): a roster formation's "
        "main part has one kind and one defence (counted as stated)"]


def test_counts_that_name_no_profile_are_reported(tmp_path):
    mixed = selection("Mixed", children=selection("2x Foo, 3x Bar", unit("Alpha", Weapons="Gun", Firepower="AP5+"),
                                                  unit("Beta"), unit("Gamma"), kind="model"))
    result = imported(tmp_path, mixed)
    assert result.data["unit"][0]["units"] == 3
    assert result.report() == [f"Mixed: the name '2x Foo, 3x Bar' gives no count for {name} (counted once per "
                               "selection)" for name in ("Alpha", "Beta", "Gamma")]


def test_weapon_profiles_structures_other_types_and_characters(tmp_path):
    tank = selection("Predator", unit("Predator", Type="Armoured Vehicle", Armour="4+"),
                     profile("Lascannon", "Weapon", Range="45cm", Firepower="2x AT4+&lt;BR&gt;and Small Arms",
                             Notes="-&lt;BR&gt;-"),
                     profile("Heavy Bolter", "Weapon", Range="30cm", Firepower="AP5+&lt;BR&gt;or AT6+",
                             Notes="&lt;BR&gt;"), kind="model", number=3)
    others = (selection("Bunker", profile("Bunker", "Structure", Armour="3+"))
              + selection("Shrine", unit("Shrine", Type="Building"))
              + selection("Chaplain", unit("Chaplain", Type="Character", Weapons="Crozius",
                                           Firepower="(Assault Weapons), MW",
                                           Unit_Notes="Invulnerable Save, Inspiring, Reinforced Armour"),
                          kind="upgrade"))
    result = imported(tmp_path, selection("Predators", children=tank + others))
    # three tanks: Lascannon 3 × 2 AT4+ (its Small Arms line is for firefights); the Heavy Bolter's "or"
    # line is its own weapon, the other mode of the first
    assert result.data["unit"] == [{
        "name": "Predators", "units": 3, "kind": "armoured-vehicle", "armour": "4+", **FLAGS,
        "weapon": [{"name": "Lascannon", "shots": 6, "at": "4+", "special": []},
                   {"name": "Heavy Bolter", "shots": 3, "ap": "5+", "special": []},
                   {"name": "Heavy Bolter (or AT6+)", "shots": 3, "at": "6+", "special": [],
                    "alternative": "Heavy Bolter"}]}]
    assert result.report() == [
        "Predators: structure 'Bunker' (fortifications, trenches) (not part of the target)",
        "Predators: Shrine: type 'Building' is not a target here (not a target)",
        "Predators: Chaplain: a character's invulnerable save (it protects the character alone) not modelled "
        "(imported without it)",
        "Predators: Chaplain: a character's reinforced save (it protects the character alone) not modelled "
        "(imported without it)"]


def test_units_and_shots_over_the_rosters_caps_are_counted_at_them(tmp_path):
    horde = selection("Horde", children=selection("Boyz", unit("Boy", Armour="6+", Weapons="3x Shoota",
                                                               Firepower="AP6+"), number=101, kind="model"))
    result = imported(tmp_path, horde)
    # 101 units, 3 Shootas each: 303 shots; a roster holds 100 units and 200 shots a weapon
    assert result.data["unit"] == [{
        "name": "Horde", "units": 100, "kind": "infantry", "armour": "6+", **FLAGS,
        "weapon": [{"name": "Shoota", "shots": 200, "ap": "6+", "special": []}]}]
    assert result.report() == ["Horde: 101 units: a roster formation has at most 100 (counted as 100)",
                               "Horde, Shoota: 303 shots: a roster weapon fires at most 200 (counted as 200)"]


def test_a_war_engine_whose_capacity_is_not_a_number_counts_one(tmp_path):
    stompa = profile("Stompa", "War Engine", Type="War Engine", Armour="4+", Weapons="Gun", Firepower="AP5+", Notes="",
                     Unit_Notes="Reinforced Armour", DC="lots", Crit="-")
    result = imported(tmp_path, selection("Stompa", stompa))
    assert result.data["unit"] == [{
        "name": "Stompa", "units": 1, "kind": "war-engine", "armour": "4+", **FLAGS, "reinforced": True,
        "damage_capacity": 1, "shields": 0, "critical": "none",
        "weapon": [{"name": "Gun", "shots": 1, "ap": "5+", "special": []}]}]
    assert result.report() == ["Stompa: damage capacity 'lots' not understood (counted as 1)"]


def test_a_sniper_note_marks_only_its_own_units_weapons(tmp_path):
    snipers = selection("Scouts", children=selection("Sniper", unit("Sniper", Weapons="Rifle", Firepower="AP5+",
                                                                    Unit_Notes="Sniper"), kind="model", number=2)
                        + selection("Gunners", unit("Gunner", Weapons="Rifle", Firepower="AP5+"), kind="model",
                                    number=2))
    result = imported(tmp_path, snipers)
    assert result.data["unit"][0]["weapon"] == [{"name": "Rifle", "shots": 2, "ap": "5+", "special": ["sniper"]},
                                                {"name": "Rifle (2)", "shots": 2, "ap": "5+", "special": []}]
    assert result.report() == []


def test_one_unit_in_two_without_that_weapon_is_reported(tmp_path):
    squad = selection("Squad", unit("Trooper", Weapons="Lasgun", Firepower="AP6+",
                                    Unit_Notes="One unit in every two has a Plasma Gun."), number=4, kind="model")
    result = imported(tmp_path, selection("Platoon", children=squad))
    assert result.data["unit"][0]["weapon"] == [{"name": "Lasgun", "shots": 4, "ap": "6+", "special": []}]
    assert result.report() == ["Platoon: Trooper: one unit in two has 'Plasma Gun', but no weapon of that name "
                               "(imported without it)"]


def test_aircraft_alone_are_the_target_and_beside_ground_units_are_not(tmp_path):
    jets = selection("Thunderbolts", unit("Thunderbolt", Type="Aircraft", Armour="6+", Weapons="Cannon",
                                          Firepower="AP4+/AT6+"), number=2, kind="model")
    result = imported(tmp_path, selection("Flight", children=jets))
    assert result.data["unit"] == [{"name": "Flight", "units": 2, "kind": "aircraft", "armour": "6+",
                                    "weapon": [{"name": "Cannon", "shots": 2, "ap": "4+", "at": "6+",
                                                "special": []}]}]
    escort = selection("Guards", unit("Guard", Weapons="Lasgun", Firepower="AP6+"), number=3, kind="model")
    result = imported(tmp_path, selection("Company", children=escort + jets))
    assert (result.data["unit"][0]["kind"], result.data["unit"][0]["units"]) == ("infantry", 3)
    assert result.report() == ["Company: Thunderbolt (aircraft) is not on the table with the formation (not part of "
                               "the target)"]


def test_counts_name_plurals_lines_start_in_any_case_and_a_star_marks_an_upgrade(tmp_path):
    raider = unit("Land Raider", Type="Armoured Vehicle", Armour="4+",
                  Weapons="*Twin Lascannon&lt;BR&gt;&lt;BR&gt;Hurricane",
                  Firepower="AT4+&lt;BR&gt;OR AP5+&lt;BR&gt;2x AP4+&lt;BR&gt;AND AT6+",
                  Notes="&lt;BR&gt;&lt;BR&gt;&lt;BR&gt;")
    tanks = selection("3x Land Raiders, 2x Lascannon", raider,
                      profile("Lascannons", "Weapon", Range="45cm", Firepower="AT5+", Notes=""), kind="model")
    result = imported(tmp_path, selection("Raiders", children=tanks))
    # "3x Land Raiders" names the Land Raider, "2x Lascannon" the Weapon profile "Lascannons"; "OR" and
    # "AND" lines continue the weapon above them, whatever their case
    assert result.data["unit"][0]["units"] == 3
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Twin Lascannon", "shots": 3, "at": "4+", "special": []},
        {"name": "Twin Lascannon (or AP5+)", "shots": 3, "ap": "5+", "special": [], "alternative": "Twin Lascannon"},
        {"name": "Hurricane", "shots": 6, "ap": "4+", "special": []},
        {"name": "Hurricane (AT6+)", "shots": 3, "at": "6+", "special": []},
        {"name": "Lascannons", "shots": 2, "at": "5+", "special": []}]
    assert result.report() == []


def test_a_war_engines_notes_and_a_capacity_below_one(tmp_path):
    knight = profile("Knight", "War Engine", Type="War Engine", Armour="5+", Weapons="Gun", Firepower="AP5+", Notes="",
                     Unit_Notes="Invulnerable Save (6+), 2 Power Fields, Halve units for the purpose of", DC="0",
                     Crit="Damaged")
    result = imported(tmp_path, selection("Knights", knight))
    # 2 power fields work as shields within an attack; "Damaged" with no text: one more point of damage
    assert result.data["unit"] == [{
        "name": "Knights", "units": 1, "kind": "war-engine", "armour": "5+", **FLAGS, "invulnerable": True,
        "damage_capacity": 1, "shields": 2, "critical": "damage",
        "weapon": [{"name": "Gun", "shots": 1, "ap": "5+", "special": []}]}]
    assert result.report() == ["Knights: Knight: damage capacity '0' not understood (counted as 1)"]


def test_an_other_mode_points_at_its_own_units_weapon_when_names_repeat(tmp_path):
    scouts = selection("Scouts", unit("Scout", Weapons="Gun", Firepower="AP6+"), kind="model")
    tanks = selection("Tanks", unit("Tank", Type="Armoured Vehicle", Armour="4+", Weapons="Gun&lt;BR&gt;",
                                    Firepower="AP4+&lt;BR&gt;or AT5+", Notes="&lt;BR&gt;"), kind="model")
    result = imported(tmp_path, selection("Mixed", children=scouts + tanks))
    # two weapons named Gun: the tank's is Gun (2), and its AT mode is that Gun's, not the scout's
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Gun", "shots": 1, "ap": "6+", "special": []},
        {"name": "Gun (2)", "shots": 1, "ap": "4+", "special": []},
        {"name": "Gun (or AT5+)", "shots": 1, "at": "5+", "special": [], "alternative": "Gun (2)"}]


def test_what_is_not_a_formation_is_a_list_option_or_left_out_with_its_points(tmp_path):
    community = selection("-Community-", kind="upgrade", children=selection("NetEA", kind="upgrade"))
    trenches = selection("Trenches", profile("Trench", "Structure", Armour="-"), points=25)
    spare = selection("Spare Parts", kind="unit", points=10)
    result = imported(tmp_path, community + trenches + spare + selection("Guard", unit(
        "Guard", Weapons="Lasgun", Firepower="AP6+"), points=100))
    assert [(unit["name"], unit["points"]) for unit in result.data["unit"]] == [("Guard", 100)]
    assert result.left_out == ("Trenches", "Spare Parts")
    assert result.report() == ["Trenches: structures (fortifications, trenches) only: not units (left out)",
                               "Spare Parts: the list gives no unit profile (left out)"]


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
    assert (gargant_unit["other_armour"], gargant_unit["other_kind"], gargant_unit["other_reinforced"]) == \
        ("6+", "infantry", False)  # the Boyz: AP fire reaches them, front to back behind the Gargant
    assert (swarm_unit["units"], swarm_unit["weapon"][0]["shots"]) == (100, 150)
    assert imported.report() == [
        "Mob: D6+6 power fields: a random number (counted as 10, its mean rounded)",
        "Mob: 6 units beside the war engines (Boyz) (hits go front to back, the war engines first, each unit taking "
        "what the fire can hurt (§2.8); others_in_front = true puts them first)",
        "Swarm: 150 units: a roster formation has at most 100 (counted as 100)"]


def test_the_units_beside_war_engines_take_the_most_numerous_profiles_defence(tmp_path):
    """The units beside a war engine are one part (docs/rules.md §2.8): the kind and armour of the most numerous
    profile, reinforced armour from its notes; another profile is counted as it, with a line."""
    leviathan = profile("Leviathan", "War Engine", Type="War Engine", Armour="4+", Weapons="Battlecannon",
                        Firepower="AP4+/AT4+", Unit_Notes="Reinforced Armour, 2 Sh", DC="4", Crit="Immobile")
    hydra = profile("Hydra", "Unit", Type="Armoured Vehicle", Armour="5+", Weapons="Twin Hydra Autocannon",
                    Firepower="AP4+/AT5+", Unit_Notes="Reinforced Armour")
    crew = profile("Crew", "Unit", Type="Infantry", Armour="6+", Weapons="Lasguns", Firepower="Small Arms")
    hq = selection("HQ", children=selection("Leviathan", leviathan, kind="model")
                   + selection("Hydra", hydra, number=3, kind="model") + selection("Crew", crew, number=2, kind="model"))
    imported = battlescribe.load(ros(tmp_path, hq))
    (unit,) = imported.data["unit"]
    assert (unit["kind"], unit["armour"], unit["other_units"], unit["other_kind"], unit["other_armour"],
            unit["other_reinforced"]) == ("war-engine", "4+", 5, "armoured-vehicle", "5+", True)
    assert imported.report()[1:] == [
        "HQ: Crew (infantry, armour 6+) counted as Hydra (armoured-vehicle, armour 5+, reinforced): the units beside "
        "a roster formation's war engines have one kind and one defence (counted as stated)",
        "HQ: 5 units beside the war engines (Hydra, Crew) (hits go front to back, the war engines first, each unit "
        "taking what the fire can hurt (§2.8); others_in_front = true puts them first)"]


def test_a_formation_of_structures_or_nothing_is_left_out_with_a_line(tmp_path):
    trench = profile("Trenches", "Structure", Infantry="Yes")
    unit = profile("Guard", "Unit", Type="Infantry", Armour="5+", Weapons="Lasgun", Firepower="AP6+")
    lists = (selection("Fortifications", children=selection("Trenches", trench, kind="upgrade"))
             + selection("Empty") + selection("Company", unit))
    imported = battlescribe.load(ros(tmp_path, lists))
    assert [u["name"] for u in imported.data["unit"]] == ["Company"]
    assert imported.report() == ["Fortifications: structures (fortifications, trenches) only: not units (left out)",
                                 "Empty: the list gives no unit profile (left out)"]


def test_a_formation_s_assault_values_are_its_lead_profile_s_with_its_notes(tmp_path):
    """§2.9: CC and FF of the most numerous profile; another profile that fights otherwise is a kind of its own in
    `assault`, the lead's first; Fearless and First Strike only when every profile has them; '-' is no such
    attack; an empty cell is said; more war engines than an assault takes are counted as the lead, and said."""
    wardens = selection("Wardens", children=selection(
        "4x Warden, 1x Shield-Captain", unit("Warden", Armour="4+", CC="3+", FF="4+",
                                              Unit_Notes="Fearless, First Strike"),
        unit("Shield-Captain", Armour="4+", CC="2+", FF="4+", Unit_Notes="Fearless"), kind="model"))
    result = imported(tmp_path, wardens)
    (table,) = result.data["unit"]
    assert (table["cc"], table["ff"], table.get("fearless"), table.get("first_strike")) == ("3+", "4+", True, None)
    assert table["assault"] == ["4 cc 3+ ff 4+ armour 4+ fearless", "1 cc 2+ ff 4+ armour 4+ fearless"]
    assert result.report() == []
    knights = selection("Knights", children=selection(
        "9x Knight, 1x Baron",
        profile("Knight", "War Engine", Type="War Engine", Armour="5+", CC="4+", FF="4+", DC="2", Weapons="",
                Firepower="", Notes="", Unit_Notes=""),
        profile("Baron", "War Engine", Type="War Engine", Armour="5+", CC="3+", FF="4+", DC="2", Weapons="",
                Firepower="", Notes="", Unit_Notes=""), kind="model"))
    result = imported(tmp_path, knights)
    (table,) = result.data["unit"]
    assert "assault" not in table and (table["cc"], table["ff"]) == ("4+", "4+")
    assert result.report()[-1] == ("Knights: Baron (CC 3+, FF 4+) counted as Knight (CC 4+, FF 4+) in assaults: a "
                                   "roster formation has one CC and one FF (counted as stated)")
    crew = selection("Crew", unit("Gunner", Armour="5+", CC="-", FF="", Unit_Notes="First Strike"))
    result = imported(tmp_path, crew)
    assert "cc" not in result.data["unit"][0] and "first_strike" not in result.data["unit"][0]
    assert result.report() == ["Crew: Gunner: no FF value in its profile (its assaults not modelled)"]


def test_reinforced_armour_without_an_armour_save_is_said_and_left_out(tmp_path, capsys):
    """A profile with Reinforced Armour but no armour save (a Warp Palace's '-'): nothing to re-roll, and the roster
    refuses the pair, so the import leaves the re-roll out and says so; what it writes loads."""
    palace = selection("Warp Palace", profile("Warp Palace", "War Engine", Type="War Engine", Armour="-", DC="6",
                                              CC="4+", FF="4+", Weapons="", Firepower="", Notes="",
                                              Unit_Notes="Reinforced Armour"))
    result = imported(tmp_path, palace)
    (table,) = result.data["unit"]
    assert table["armour"] == "none" and table["reinforced"] is False
    assert result.report() == ["Warp Palace: reinforced armour without an armour save (imported without it)"]
    from oddscalc.lists import games
    from oddscalc.lists.roster import build

    roster = build(result.data, "list", games.game("epic"))  # loads: no field refused
    assert roster.units[0]["reinforced"] is False


def test_close_combat_weapons_give_their_extra_attacks_to_the_assault(tmp_path):
    """§2.9: an Assault Weapons or Small Arms line fights only in assaults: its notes' +NA are extra attacks (at CC
    or FF), with their weapon's macro-weapon or titan killer (D-value); another mode ("or") is not added; a
    random number is its mean, said; weapons whose extra attacks differ in ability are counted as one, said;
    Inspiring and They Shall Know No Fear read from the unit notes."""
    chaplain = unit("Chaplain", Armour="4+", CC="3+", FF="5+", Unit_Notes="Inspiring, They Shall Know No Fear",
                    Weapons="Crozius&lt;BR&gt;Bolt Pistol", Firepower="Assault Weapons&lt;BR&gt;Small Arms",
                    Notes="Macro-Weapon, +1A&lt;BR&gt;+1A")
    marines = unit("Assault Marine", Armour="4+", CC="4+", FF="5+", Unit_Notes="They Shall Know No Fear",
                   Weapons="Chainswords", Firepower="Assault Weapons&lt;BR&gt;or Assault Weapons", Notes="+1A&lt;BR&gt;or +2A")
    result = imported(tmp_path, selection("Assault", children=selection(
        "4x Assault Marine, 1x Chaplain", marines, chaplain, kind="model")))
    (table,) = result.data["unit"]
    assert table["assault"] == ["4 cc 4+ ff 5+ armour 4+ extra-attacks 1 extra-at cc",
                                "1 cc 3+ ff 5+ armour 4+ extra-attacks 2 extra-ability macro inspiring"]
    assert table["know_no_fear"] is True and table.get("weapon", []) == []  # close-combat weapons do not shoot
    assert result.report() == ["Assault: Chaplain: extra attacks of Bolt Pistol counted as Crozius's (macro) in "
                               "assaults (counted as stated)"]
    killer = unit("Knight", Armour="4+", CC="3+", FF="4+", Weapons="Lance", Firepower="Assault Weapons",
                  Notes="Titan Killer (D3), +D3A")
    result = imported(tmp_path, selection("Knights", killer))
    assert result.data["unit"][0]["assault"] == ["1 cc 3+ ff 4+ armour 4+ extra-attacks 2 extra-at cc extra-ability "
                                                 "titan-killer tk-damage d3"]
    assert result.report() == ["Knights: Lance: D3 extra attacks in assaults: a random number (counted as 2, its "
                               "mean rounded)"]
    from oddscalc.lists import games
    from oddscalc.lists.roster import build

    roster = build(result.data, "list", games.game("epic"))
    attack = roster.game.assault(roster.units[0], roster.units[0])
    assert attack.extra_ability.value == "titan-killer" and str(attack.tk_damage) == "1d3" and attack.extra_attacks == 2


def test_a_character_joins_one_unit_in_assaults_with_its_extra_attacks_and_inspiring(tmp_path):
    """docs/rules.md §4.1: a Chaplain (Inspiring, a Crozius: assault weapon, +1A, macro-weapon) joins one of the
    four Assault Marines: that unit is its own assault kind, with the extra attack and Inspiring, the other three as
    they were. A second character joins another one."""
    marines = selection("Assault Marines", unit("Assault Marine", Armour="4+", CC="3+", FF="5+"),
                        kind="model", number=4)
    chaplain = selection("Chaplain", unit("Chaplain", Type="Character", Weapons="Crozius", Range="(contact)",
                                          Firepower="Assault Weapons", Notes="Macro-weapon, +1A",
                                          Unit_Notes="Invulnerable Save, Inspiring"), kind="upgrade")
    result = imported(tmp_path, selection("Assault", children=marines + chaplain))
    assert result.data["unit"][0]["assault"] == [
        "3 cc 3+ ff 5+ armour 4+", "1 cc 3+ ff 5+ armour 4+ extra-attacks 1 extra-at cc extra-ability macro inspiring"]
    leader = selection("Sergeant", unit("Sergeant", Type="Character", Weapons="Power Fist", Range="(contact)",
                                        Firepower="Assault Weapons", Notes="+2A"), kind="upgrade")
    both = imported(tmp_path, selection("Assault", children=marines + chaplain + leader)).data["unit"][0]
    assert both["assault"] == ["2 cc 3+ ff 5+ armour 4+",
                               "1 cc 3+ ff 5+ armour 4+ extra-attacks 1 extra-at cc extra-ability macro inspiring",
                               "1 cc 3+ ff 5+ armour 4+ extra-attacks 2 extra-at cc"]
