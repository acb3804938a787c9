"""The 9th Age import, rule by rule (docs/rules.md §4.2), on lists written by hand: each unit's
roster fields and its whole report, with the arithmetic in the comments. The real catalogues'
lists are in tests/battlescribe/test_corpus.py, and those of the rules and artefacts that give
re-rolls and automatic wounds at the end of this file (tests/data/battlescribe/t9a_rules)."""

from __future__ import annotations

import itertools
import os
import shlex
from fractions import Fraction as F
from pathlib import Path

import pytest
from bslists import T9A_SYSTEM, model, profile, ros, rules, selection
from clirun import exact_json, run

from oddscalc.lists import battlescribe, games
from oddscalc.lists.battlescribe import builder

NUMBER = itertools.count()
PLAIN = {"HP": "1", "Def": "3", "Res": "3", "Arm": "0"}



COMBAT_FIELDS = ("attack_value", "agility", "discipline", "standard", "swiftstride", "great_weapon", "spear",
                 "extra_ranks", "lightning_reflexes", "impact_hits", "stomp", "height", "mount", "cannot_be_stomped",
                 "stubborn", "unbreakable", "charge_attacks", "charge_strength", "charge_ap")


def without_combat(units: list[dict]) -> list[dict]:
    """The units as their shooting and melee cells read them: without what a round of combat reads (those are
    checked on their own, test_the_fields_of_a_round_of_combat_are_read)."""
    return [{key: value for key, value in unit.items() if key not in COMBAT_FIELDS} for unit in units]


def attack(**fields) -> dict:
    return {"Att": "1", "Off": "3", "Str": "3", "AP": "0", "Rules": "", **fields}


def imported(tmp_path, unit: str, strict: bool = False):
    path = ros(tmp_path, unit, **T9A_SYSTEM, name=f"list{next(NUMBER)}.ros")
    return battlescribe.read_xml(path.read_bytes(), path.name, strict)


def defence(**fields) -> dict:
    """A unit's fields as the import writes them, the flags it always writes defaulting to false."""
    return {"flammable": False, "parry": False, "distracting": False, "hard_target": 0, **fields}


def test_a_rider_on_a_mount_takes_the_mounts_c_values_and_its_rules(tmp_path):
    horse = selection("Warhorse", profile("Warhorse Defensive", "2 Defensive", HP="C", Def="C", Res="C+1", Arm="C+2",
                                          Rules="Fortitude (5+)"),
                      profile("Warhorse Offensive", "3 Offensive", Att="2", Off="3", Str="4", AP="1",
                              Rules="Harnessed"), kind="upgrade")
    knight = selection("Knight", profile("Knight Defensive", "2 Defensive", HP="3", Def="5", Res="4", Arm="1",
                                         Rules="Heavy Armour"),
                       profile("Knight Offensive", "3 Offensive", Att="3", Off="5", Str="4", AP="1",
                               Rules="Lightning Reflexes"),
                       kind="model", children=horse + selection("Shield", kind="upgrade")
                       + selection("Great Weapon", kind="upgrade"))
    result = imported(tmp_path, selection("Knight Commander", children=knight))
    # HP C = 3, Def C = 5, Res C+1 = 5; Arm C+2 = 1 + 2, Heavy Armour 2, Shield 1 = 6; Fortitude from the mount.
    # The Great Weapon: Str 4 + 2, AP 1 + 2, and no Lightning Reflexes with it; the horse (Harnessed) fights
    # with its own profile, in the front rank only
    assert without_combat(result.data["unit"]) == [{
        "name": "Knight Commander", "models": 1, "health": 3, "defensive": 5, "resilience": 5, "armour": 6,
        "fortitude": "5+", **defence(), "offensive": 5, "strength": 4,
        "weapon": [{"name": "Knight: Great Weapon", "kind": "melee", "attacks": 3, "strength": 6, "ap": 3,
                    "attributes": []},
                   {"name": "Warhorse", "kind": "melee", "attacks": 2, "ap": 1, "offensive": 3, "attributes": []}]}]
    assert result.report() == ["Knight Commander: Shield: a model fighting with Great Weapon (Two-Handed) cannot use "
                               "it against melee attacks (counted: armour is one value for shooting and melee)"]


def test_a_massive_bulk_mount_takes_no_armour_from_equipment_and_its_own_values_stand(tmp_path):
    dragon = selection("Dragon", profile("Dragon Size", "0 Size", Height="Gigantic"),
                       profile("Dragon Defensive", "2 Defensive", HP="C+5", Def="C", Res="6", Arm="C+3"),
                       profile("Dragon Offensive", "3 Offensive", Att="5", Off="5", Str="6", AP="3",
                               Rules="Multiple Wounds (D3)"), kind="upgrade", rules=rules("Massive Bulk"))
    lord = selection("Lord", profile("Lord Defensive", "2 Defensive", HP="3", Def="6", Res="4", Arm="0",
                                     Rules="Plate Armour"),
                     profile("Lord Offensive", "3 Offensive", Att="4", Off="6", Str="4", AP="1"), kind="model",
                     children=dragon)
    result = imported(tmp_path, selection("Lord on Dragon", children=lord))
    # HP 3 + 5; Res 6 as written; Arm 0 + 3, the Plate Armour not counted (Massive Bulk)
    assert without_combat(result.data["unit"]) == [{
        "name": "Lord on Dragon", "models": 1, "health": 8, "defensive": 6, "resilience": 6, "armour": 3, **defence(),
        "offensive": 6, "strength": 4,
        "weapon": [{"name": "Lord: Hand Weapon", "kind": "melee", "attacks": 4, "ap": 1, "attributes": []},
                   {"name": "Dragon: Hand Weapon", "kind": "melee", "attacks": 5, "strength": 6, "ap": 3,
                    "offensive": 5, "multiple_wounds": "d3", "attributes": []}]}]
    assert result.report() == []


def test_saves_and_flags_from_every_place_the_catalogues_put_them(tmp_path):
    wraiths = selection("Wraiths", rules=rules("Flammable", "Hard Target (1)", "Distracting", "Aegis (5+)"),
                        children=model("Wraith", 6, defensive={**PLAIN, "HP": "2", "Aeg": "4+",
                                                               "Rules": "Ethereal, Aegis (6+)"},
                                       offensive=[attack(Rules="Fortitude (4+)")]))
    result = imported(tmp_path, wraiths)
    # Aegis: the best of the Aeg column 4+, the profile's 6+ and the entry's 5+; Fortitude from the Offensive rules
    assert without_combat(result.data["unit"]) == [{
        "name": "Wraiths", "models": 6, "health": 2, "defensive": 3, "resilience": 3, "armour": 0, "aegis": "4+",
        "fortitude": "4+", **defence(flammable=True, distracting=True, hard_target=1), "offensive": 3, "strength": 3,
        "weapon": [{"name": "Hand Weapon", "kind": "melee", "attacks": 6, "attributes": []}]}]
    assert result.report() == ["Wraiths: defensive rule 'Ethereal' not modelled (imported without it)"]


def test_shooting_weapons_their_aim_their_shots_and_what_is_reported(tmp_path):
    bows = (selection("Crossbow (4+)", profile("Crossbow", "6 Ranged Weapon", Shots="1", Str="4", AP="1",
                                               Attributes="Unwieldy"), kind="upgrade")
            + selection("Fire Breath", profile("Fire Breath", "6 Ranged Weapon", Shots="D3", Str="3[7]", AP="0[4]",
                                               Attributes="Flaming Attacks, Breath Attack, A very long rule text "
                                                          "that goes on and on and on beyond seventy characters"),
                        kind="upgrade")
            + selection("Sling", profile("Sling", "6 Ranged Weapon", Shots="X", Str="3", AP="0", Attributes=""),
                        kind="upgrade")
            + selection("Javelins", profile("Javelins", "6 Ranged Weapon", Shots="2", Str="+1", AP="As User",
                                            Attributes="Quick to Fire"), kind="upgrade"))
    skirmishers = selection("Skirmishers", children=model(
        "Skirmisher", 8, defensive=PLAIN,
        offensive=[attack(AP="1", Rules="Fire Breath (3+), Sling (5+), Javelins (4+), Magic Bolt (3+)")],
        children=bows))
    result = imported(tmp_path, skirmishers)
    # 8 models: Crossbow 8 shots, Aim from the upgrade's name; Fire Breath 8 × D3 at the value outside the
    # brackets; Javelins 8 × 2, Str 3 + 1, AP as the user's (1)
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Hand Weapon", "kind": "melee", "attacks": 8, "ap": 1, "attributes": []},
        {"name": "Crossbow", "kind": "shooting", "attacks": 8, "aim": "4+", "strength": 4, "ap": 1, "attributes": []},
        {"name": "Fire Breath", "kind": "shooting", "attacks": "8d3", "aim": "3+", "attributes": ["flaming"]},
        {"name": "Javelins", "kind": "shooting", "attacks": 16, "aim": "4+", "strength": 4, "ap": 1,
         "attributes": []}]
    assert result.report() == [
        "Skirmishers, Fire Breath: Str 3[7] / AP 0[4]: a bracketed value for one hit (counted with the value outside "
        "the brackets)",
        "Skirmishers, Fire Breath: weapon rules 'Breath Attack, A very long rule text that goes on and on and on "
        "beyond…' not modelled (imported without it)",
        "Skirmishers, Sling: Shots 'X' not understood (left out)",
        "Skirmishers, Magic Bolt: shooting weapon 'Magic Bolt': no Ranged Weapon profile in the list or the game "
        "system (left out)"]


def test_a_ranged_profile_with_no_aim_anywhere_is_left_out(tmp_path):
    gun = selection("Handgun", profile("Handgun", "6 Ranged Weapon", Shots="1", Str="4", AP="2",
                                       Attributes="Unwieldy"), kind="upgrade")
    result = imported(tmp_path, selection("Gunners", children=model("Gunner", 5, defensive=PLAIN,
                                                                     offensive=[attack()], children=gun)))
    assert [weapon["name"] for weapon in result.data["unit"][0]["weapon"]] == ["Hand Weapon"]
    assert result.report() == ["Gunners, Handgun: shooting weapon 'Handgun': the list gives no Aim (left out)"]


def test_supporting_attacks_ranks_and_dice(tmp_path):
    gear = selection("Spear", kind="upgrade") + selection("Paired Weapons", kind="upgrade") + selection(
        "Lance", kind="upgrade")
    spearmen = selection("Spearmen", children=model("Spearman", 20, defensive=PLAIN,
                                                    offensive=[attack(Att="D3+1", Rules="Fight in Extra Rank")],
                                                    children=gear))
    result = imported(tmp_path, spearmen)
    # 20 models, Attack Value D3+1: the front rank 5 × (D3+1); supporting attacks of 1 (the value's mean 3,
    # capped at 1). Spear: ranks 1 + Fight in Extra Rank + the Spear's = 3 → 15 supporting; Paired Weapons
    # (D3+2) and Lance: 2 ranks → 10
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Spear", "kind": "melee", "attacks": "5d3+20", "ap": 1, "attributes": []},
        {"name": "Paired Weapons", "kind": "melee", "attacks": "5d3+20", "offensive": 4,
         "attributes": ["ignores-parry"]},
        {"name": "Lance", "kind": "melee", "attacks": "5d3+15", "attributes": []}]
    assert result.report() == [
        "Spearmen, Spearman: Att D3+1: a random value (counted as 3, its mean rounded, in a round of combat)",
        "Spearmen: Spear: +1 Armour Penetration more in the first round of combat when not charging (counted "
        "without it)",
        "Spearmen: Lance: +2 Strength, +2 Armour Penetration on the charge only (fights as a hand weapon)"]


@pytest.mark.parametrize("height, supporting", [("Standard", 5), ("Large", 15), ("Gigantic", 20)])
def test_a_models_height_caps_its_supporting_attacks(tmp_path, height, supporting):
    """Supporting attacks: up to 1 each (Standard), 3 (Large), 5 (Gigantic): 10 models of Attack Value 4."""
    beasts = selection("Beasts", children=model("Beast", 10, height=height, defensive=PLAIN,
                                                 offensive=[attack(Att="4")]))
    assert imported(tmp_path, beasts).data["unit"][0]["weapon"][0]["attacks"] == 5 * 4 + min(5 * 4, supporting)


def test_a_mounts_height_counts_before_its_riders(tmp_path):
    beast = selection("Beast", profile("Beast Size", "0 Size", Height="Large"),
                      profile("Beast Defensive", "2 Defensive", HP="C+2", Def="C", Res="C", Arm="C"),
                      profile("Beast Offensive", "3 Offensive", Att="3", Off="3", Str="4", AP="1", Rules="Harnessed"),
                      kind="upgrade")
    riders = selection("Riders", children=model("Rider", 10, defensive=PLAIN, offensive=[attack(Att="2")],
                                                 children=beast))
    weapons = imported(tmp_path, riders).data["unit"][0]["weapon"]
    # riders: 5 × 2 in front, 5 supporting of 2 (Large: up to 3); the beasts (Harnessed): front rank only
    assert [(weapon["name"], weapon["attacks"]) for weapon in weapons] == [("Rider: Hand Weapon", 20),
                                                                           ("Beast", 15)]


def test_model_parts_counted_harnessed_and_inanimate(tmp_path):
    chariot = model("Chariot", 2, height="Large", defensive={"HP": "4", "Def": "2", "Res": "5", "Arm": "2"}, offensive=[
        {"name": "Charioteer (2) Offensive", "Att": "1", "Off": "3", "Str": "3", "AP": "0", "Rules": "Bow (4+)"},
        {"name": "Horse (2)", "Att": "1", "Off": "3", "Str": "3", "AP": "0", "Rules": "Harnessed"},
        {"name": "Chassis", "Att": "D6", "Off": "", "Str": "5", "AP": "2", "Rules": "Inanimate, Impact Hits (D6)"}])
    result = imported(tmp_path, selection("Chariots", children=chariot))
    # 2 chariots, 2 charioteers each: 4 attacks and 4 Bow shots; 2 horses each (Harnessed): 4; the chassis
    # (Inanimate) makes no close combat attack, and its Impact Hits (D6) hit automatically at its Str 5, AP 2
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Charioteer: Hand Weapon", "kind": "melee", "attacks": 4, "attributes": []},
        {"name": "Charioteer: Bow", "kind": "shooting", "attacks": 4, "aim": "4+", "attributes": []},
        {"name": "Horse", "kind": "melee", "attacks": 4, "attributes": []},
        {"name": "Chassis: Impact Hits (D6)", "kind": "automatic", "attacks": "2d6", "strength": 5, "ap": 2,
         "attributes": []}]
    assert result.report() == []


def test_equipment_from_profiles_rules_and_bare_upgrades(tmp_path):
    gear = (selection("Scale Armour", profile("Scale Armour", "4 Armour", Type="Suit of Armour", Save="+2"),
                      kind="upgrade")
            + selection("Odd Shield", profile("Odd Shield", "4 Armour", Type="Shield", Save="special"), kind="upgrade")
            + selection("Blades of Darag", profile("Blades of Darag", "5 Melee Weapon", Str="+1", AP="+1",
                                                   Attributes="Paired Weapons. Attacks made with Blades of Darag "
                                                              "gain Lethal Strike. Strange Power"), kind="upgrade")
            + selection("Poison Attacks", kind="upgrade") + selection("Champion", kind="upgrade")
            + selection("Spear and Shield", kind="upgrade")
            + selection("Banner of Doom", profile("Banner of Doom", "9 Artefact", Effect="x"), kind="upgrade")
            + selection("Mystery Box", kind="upgrade") + selection("Throwing Weapons (4+)", kind="upgrade"))
    guards = selection("Guards", children=model("Guard", 10, defensive={**PLAIN, "Rules": "Light Armour"},
                                                offensive=[attack(AP="1")], children=gear))
    result = imported(tmp_path, guards)
    unit = result.data["unit"][0]
    # suits: Light Armour 1 or Scale Armour 2, the best: 2; the Shield of "Spear and Shield" 1 → 3
    assert unit["armour"] == 3 and unit["parry"] is False
    # Blades of Darag: Paired Weapons (+1 Att, +1 Off, ignore Parry), Str 3 + 1, AP 1 + 1: 5 × 2 + 5;
    # Spear AP 1 + 1, two ranks of support: 5 + 5; Throwing Weapons 10 × 2 shots, AP as the user's
    assert unit["weapon"] == [
        {"name": "Blades of Darag", "kind": "melee", "attacks": 15, "strength": 4, "ap": 2, "offensive": 4,
         "attributes": ["ignores-parry", "poison"]},
        {"name": "Spear", "kind": "melee", "attacks": 10, "ap": 2, "attributes": ["poison"]},
        {"name": "Throwing Weapons", "kind": "shooting", "attacks": 20, "aim": "4+", "ap": 1,
         "attributes": ["poison"]}]
    assert result.report() == [
        "Guards: artefact 'Banner of Doom' not modelled (imported without it)",
        "Guards: upgrade 'Mystery Box' not read (imported without it)",
        "Guards: armour 'odd shield': its Save is not +N (imported without it)",
        "Guards, Blades of Darag: weapon rules 'Attacks made with Blades of Darag gain Lethal Strike, Strange Power' "
        "not modelled (imported without it)",
        "Guards: Spear: +1 Armour Penetration more in the first round of combat when not charging (counted without "
        "it)"]


def test_another_models_profile_is_counted_with_the_most_numerous_and_the_cap_on_models(tmp_path):
    goblins = model("Goblin", 499, defensive=PLAIN, offensive=[attack()], children=selection("Shield", kind="upgrade"))
    boss = selection("Boss", profile("Boss Defensive", "2 Defensive", HP="2", Def="4", Res="3", Arm="0"),
                     profile("Boss Offensive", "3 Offensive", Att="2", Off="4", Str="4", AP="0"), number=2,
                     kind="model")
    result = imported(tmp_path, selection("Horde", children=goblins + boss))
    # 499 goblins and 2 bosses: 501 models, 500 at most; a Hand Weapon and a Shield, on foot: Parry
    assert without_combat(result.data["unit"]) == [{
        "name": "Horde", "models": 500, "health": 1, "defensive": 3, "resilience": 3, "armour": 1,
        **defence(parry=True), "offensive": 3, "strength": 3,
        "weapon": [{"name": "Hand Weapon", "kind": "melee", "attacks": 10, "attributes": []}]}]
    assert result.report() == [
        "Horde: Boss Defensive: another model's characteristics (counted as Goblin Defensive)",
        "Horde: 501 models: a roster unit has at most 500 (counted as 500)"]


def test_a_unit_without_an_offensive_or_defensive_profile_is_left_out(tmp_path):
    statues = selection("Statues", children=selection("Statue", profile("Statue Defensive", "2 Defensive", **PLAIN),
                                                      number=3, kind="model"))
    banner = selection("Army Banner", children=selection("Cloth", number=1, kind="model"))
    result = imported(tmp_path, statues + banner)
    assert result.data["unit"] == [] and result.left_out == ("Statues", "Army Banner")
    assert result.report() == [
        "Statues: the list gives no Offensive profile for its models (left out)",
        "Army Banner: the list gives no Defensive profile for its models (left out)"]


def test_missing_characteristics_take_the_lowest_and_out_of_bounds_ones_are_reported(tmp_path):
    bare = selection("Ghosts", children=model("Ghost", 3, defensive={"HP": "1", "Res": "3", "Def": "0"},
                                              offensive=[{"Att": "1", "Off": "12"}]))
    result = imported(tmp_path, bare)
    # no Arm: 0; Def 0 and Off 12: the nearest a roster holds; no Str: 1
    assert {key: result.data["unit"][0][key] for key in ("defensive", "armour", "offensive", "strength")} == {
        "defensive": 1, "armour": 0, "offensive": 10, "strength": 1}
    assert result.report() == ["Ghosts: Def 0: a roster holds 1 to 10 (counted as 1)",
                               "Ghosts, Ghost: no Str in the list (counted as 1)",  # never a silent default
                               "Ghosts: Off 12: a roster holds 1 to 10 (counted as 10)"]


def test_hard_target_adds_up_to_its_cap_and_armour_other_than_a_suit_adds_up(tmp_path):
    scales = selection("Dragon Scales", profile("Dragon Scales", "4 Armour", Type="Other", Save="+1"), kind="upgrade")
    drakes = selection("Drakes", rules=rules("Hard Target (2)"), children=model(
        "Drake", 3, defensive={**PLAIN, "Arm": "1", "Rules": "Hard Target (3)"}, offensive=[attack()],
        children=scales + selection("Shield", kind="upgrade") + selection("Halberd", kind="upgrade")))
    result = imported(tmp_path, drakes)
    unit = result.data["unit"][0]
    # Hard Target 2 + 3, at most 3; Arm 1, a Shield 1, Dragon Scales 1 (not suits: they add up)
    assert (unit["hard_target"], unit["armour"], unit["parry"]) == (3, 3, False)
    assert result.report() == ["Drakes: Shield: a model fighting with Halberd (Two-Handed) cannot use it against "
                               "melee attacks (counted: armour is one value for shooting and melee)"]


def test_a_unit_of_harnessed_parts_only_fights_with_its_first_and_500_models_are_no_note(tmp_path):
    pack = selection("Pack", children=model("Hound", 500, defensive=PLAIN, offensive=[
        attack(Off="4", Str="4", Rules="Harnessed")]))
    result = imported(tmp_path, pack)
    unit = result.data["unit"][0]
    # the first part gives the unit's Offensive Skill and Strength though it uses no weapon; front rank only
    assert (unit["models"], unit["offensive"], unit["strength"]) == (500, 4, 4)
    assert unit["weapon"] == [{"name": "Hound", "kind": "melee", "attacks": 5, "attributes": []}]
    assert result.report() == []


def test_weapon_values_relative_to_the_user_or_absolute(tmp_path):
    gear = selection("Club", profile("Club", "5 Melee Weapon", Str="-1", AP="5", Attributes=""), kind="upgrade")
    brutes = selection("Brutes", children=model("Brute", 5, defensive=PLAIN,
                                                offensive=[attack(Str="5", AP="1")], children=gear))
    weapons = imported(tmp_path, brutes).data["unit"][0]["weapon"]
    # Str -1 of the user's 5; AP 5 as written
    assert weapons == [{"name": "Club", "kind": "melee", "attacks": 5, "strength": 4, "ap": 5, "attributes": []}]


def test_a_breath_attack_and_stomps_hit_automatically(tmp_path):
    drake = model("Drake", 1, height="Gigantic", defensive={"HP": "6", "Def": "5", "Res": "6", "Arm": "4"}, offensive=[
        attack(Att="5", Off="5", Str="6", AP="3", Rules="Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks), "
                                                        "Stomp Attacks (D6), Battle Focus")])
    result = imported(tmp_path, selection("Drake", children=drake))
    # the Breath Attack: 2D6 hits at its brackets' Str 4, AP 1, Flaming; Stomp Attacks (D6) at the model's Str 6,
    # AP 3; Battle Focus only on the rolled attacks (no die to hit otherwise)
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Hand Weapon", "kind": "melee", "attacks": 5, "ap": 3, "attributes": ["battle-focus"]},
        {"name": "Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks)", "kind": "automatic", "attacks": "2d6",
         "strength": 4, "ap": 1, "attributes": ["flaming"]},
        {"name": "Stomp Attacks (D6)", "kind": "automatic", "attacks": "1d6", "ap": 3, "attributes": []}]
    assert result.report() == ["Drake, Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks): breath attack rules "
                               "'Dying Embers' not modelled (imported without it)"]
    games.imported_roster(ros(tmp_path, selection("Drake", children=drake), **T9A_SYSTEM, name="drake.ros"))  # loads



def test_a_top_level_selection_is_a_unit_when_it_has_models(tmp_path):
    options = selection("General's Options", kind="upgrade", children=selection("Army General", kind="upgrade"))
    hero = selection("Hero", profile("Hero Defensive", "2 Defensive", **PLAIN),
                     profile("Hero Offensive", "3 Offensive", Att="2", Off="5", Str="4", AP="1"), kind="upgrade")
    result = imported(tmp_path, options + selection("Lonely", kind="model") + hero)
    # an army option (an upgrade with no Defensive profile) is no unit; a character bought as an upgrade is one
    assert [unit["name"] for unit in result.data["unit"]] == ["Hero"] and result.left_out == ("Lonely",)
    assert result.report() == ["Lonely: the list gives no Defensive profile for its models (left out)"]


def test_automatic_hits_keep_the_parts_attributes_and_a_breath_only_its_own(tmp_path):
    club = selection("Huge Club", profile("Huge Club", "5 Melee Weapon", Str="+9", AP="+1", Attributes=""),
                     kind="upgrade")
    beasts = selection("Beasts", children=model("Beast", 2, defensive=PLAIN, offensive=[attack(
        Att="2", Str="5", AP="2", Rules="Multiple Wounds (D3 + 1), Impact Hits (2), Breath Attack (Flaming Attacks)")],
        children=club))
    result = imported(tmp_path, beasts)
    # Impact Hits at the part's Str 5, AP 2, with its Multiple Wounds; the Breath Attack names no Str or AP: the
    # part's, with its own attributes only (2 models: 2 × 2D6)
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Huge Club", "kind": "melee", "attacks": 4, "strength": 10, "ap": 3, "multiple_wounds": "d3+1",
         "attributes": []},
        {"name": "Impact Hits (2)", "kind": "automatic", "attacks": 4, "ap": 2, "multiple_wounds": "d3+1",
         "attributes": []},
        {"name": "Breath Attack (Flaming Attacks)", "kind": "automatic", "attacks": "4d6", "ap": 2,
         "attributes": ["flaming"]}]
    assert result.report() == ["Beasts, Huge Club: Str 14: a roster holds 1 to 10 (counted as 10)"]


def test_toxic_attacks_carry_no_strength_or_ap(tmp_path):
    toxins = selection("Toxins", children=model("Toxin", 3, defensive=PLAIN,
                                                offensive=[attack(Str="5", AP="2", Rules="Toxic Attacks")]))
    assert imported(tmp_path, toxins).data["unit"][0]["weapon"] == [
        {"name": "Hand Weapon", "kind": "melee", "attacks": 3, "attributes": ["toxic"]}]


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


def test_t9a_weapon_str_and_ap_in_the_catalogues_forms_and_nothing_else(tmp_path):
    gear = (selection("Javelins", profile("Javelins", "6 Ranged Weapon", Shots="1", Str="+1", AP="=",
                                          Attributes=""), kind="upgrade")
            + selection("Sling", profile("Sling", "6 Ranged Weapon", Shots="1", Str="-", AP="", Attributes=""),
                        kind="upgrade")
            + selection("Fire Pot", profile("Fire Pot", "6 Ranged Weapon", Shots="1", Str="3 [7]", AP="0[4]",
                                            Attributes=""), kind="upgrade")
            + selection("Odd Gun", profile("Odd Gun", "6 Ranged Weapon", Shots="1", Str="5abc", AP="1",
                                           Attributes=""), kind="upgrade")
            + selection("Odd Bow", profile("Odd Bow", "6 Ranged Weapon", Shots="1", Str="4", AP="2x",
                                           Attributes=""), kind="upgrade")
            + selection("Blank Gun", profile("Blank Gun", "6 Ranged Weapon", Shots="1", Str="abc", AP="",
                                             Attributes=""), kind="upgrade")
            + selection("Giant Club", profile("Giant Club", "5 Melee Weapon", Str="C+1", AP="C+1", Attributes=""),
                        kind="upgrade")
            + selection("Odd Axe", profile("Odd Axe", "5 Melee Weapon", Str="+x", AP="1", Attributes=""),
                        kind="upgrade"))
    shooters = selection("Shooters", children=model("Shooter", 1, defensive=PLAIN, offensive=[attack(
        Str="4", AP="1", Rules="Javelins (4+), Sling (4+), Fire Pot (4+), Odd Gun (4+), Odd Bow (4+), Blank Gun (4+)")],
        children=gear))
    result = imported(tmp_path, shooters)
    # the wielder's Str 4, AP 1: Javelins +1 and "=": 5, 1; the Sling "-" and blank: 4, 1; the Fire Pot 3 and 0
    # outside its brackets; the Giant Club C+1: 5, 2. "5abc", "2x", "abc" and "+x" are no Str or AP
    assert result.data["unit"][0]["weapon"] == [
        {"name": "Giant Club", "kind": "melee", "attacks": 1, "strength": 5, "ap": 2, "attributes": []},
        {"name": "Javelins", "kind": "shooting", "attacks": 1, "aim": "4+", "strength": 5, "ap": 1, "attributes": []},
        {"name": "Sling", "kind": "shooting", "attacks": 1, "aim": "4+", "ap": 1, "attributes": []},
        {"name": "Fire Pot", "kind": "shooting", "attacks": 1, "aim": "4+", "strength": 3, "attributes": []}]
    assert result.report() == [
        "Shooters, Odd Axe: Str '+x' not understood (left out)",
        "Shooters, Fire Pot: Str 3 [7] / AP 0[4]: a bracketed value for one hit (counted with the value outside the "
        "brackets)",
        "Shooters, Odd Gun: Str '5abc' not understood (left out)",
        "Shooters, Odd Bow: AP '2x' not understood (left out)",
        "Shooters, Blank Gun: Str 'abc' not understood (left out)"]


# --- re-rolls and automatic wounds from the catalogues' rules and artefacts ---------------------------------------

RULES_LISTS = Path(__file__).parent.parent / "data" / "battlescribe" / "t9a_rules"
# The catalogues' texts (BSData/The-9th-Age, game system revision 56), for the lists written by hand
RUNE_OF_STEEL = "The wearer of an armour engraved with this Rune must reroll failed Armour Saves."  # dwarvenHolds
WAR_CROW = ("The bearer’s unit gains Fear. In addition, the bearer and any friendly unit that contains one or more "
            "models with Fear within 6′′ of the bearer’s unit must reroll natural to-wound rolls of ‘1’ with its "
            "Close Combat Attacks.")  # dreadElves
INSCRIPTIONS = ("Attacks made with this enchanted weapon gain Divine Attacks and failed to-wound rolls must be "
                "rerolled.")  # warriorsOfTheDarkGods
LIGHT = ("Attacks made with this weapon wound automatically, always have Armour Penetration 10, and Magical "
         "Attacks.")  # empireOfSonnstahl


def unit_table(name, points, models, health, defensive, resilience, armour, offensive, strength, weapons, **fields):
    return {"name": name, "points": points, "models": models, "health": health, "defensive": defensive,
            "resilience": resilience, "armour": armour, **defence(**fields), "offensive": offensive,
            "strength": strength, "weapon": weapons}


def weapon(name, kind, attacks, attributes=(), **fields):
    return {"name": name, "kind": kind, "attacks": attacks, **fields, "attributes": list(attributes)}


RULES_EXPECTED = {
    "dread_elves.rosz": [
        # Att 5, Off 8, Str 4, AP 1, Lightning Reflexes (+1 to hit); Arm 0 + Heavy Armour 2. The Mask of the
        # War Crow: "the bearer … must reroll natural to-wound rolls of '1' with its Close Combat Attacks"
        unit_table("Dread Prince", 275, 1, 3, 6, 3, 2, 8, 4,
                   [weapon("Hand Weapon", "melee", 5, ["reroll-wound-ones"], ap=1, modifier=1)])],
    "sonnstahl.rosz": [
        # Silver Shots: the Brace of Pistols (2 shots, Str 4, AP 2, Aim 3+ from the upgrade's name) gains
        # Multiple Wounds (D3), Lethal Strike and re-rolls failed wounds; the hand weapon has them from the profile
        unit_table("Inquisitor", 170, 1, 3, 5, 4, 3, 5, 4,
                   [weapon("Hand Weapon", "melee", 2, ["lethal-strike"], ap=1, multiple_wounds="d3"),
                    weapon("Brace of Pistols", "shooting", 2, ["lethal-strike", "reroll-wounds"], aim="3+", ap=2,
                           multiple_wounds="d3")]),
        # Blessings: "All models in the bearer's unit gain Hatred. Model parts with Harnessed are not affected":
        # not the Horse; Arm C+2 = 0 + 2, Heavy Armour 2
        unit_table("Prelate", 190, 1, 3, 5, 4, 4, 5, 4,
                   [weapon("Prelate: Hand Weapon", "melee", 2, ["divine", "hatred"], ap=1),
                    weapon("Horse", "melee", 1, strength=3, offensive=3)]),
        # the Imperial Prince: Att 3 + 1, and The Light of Sonnstahl on its Hand Weapon: wounds automatically, AP 10
        unit_table("Marshal", 255, 1, 3, 5, 4, 3, 5, 4, [weapon("Hand Weapon", "melee", 4, ["auto-wound"], ap=10)]),
        # 20 models five wide: Paired Weapons 5 × 2 + 5; a Bow and a Pistol each
        unit_table("State Militia", 200, 20, 1, 3, 3, 0, 3, 3,
                   [weapon("Paired Weapons", "melee", 15, ["ignores-parry"], offensive=4),
                    weapon("Bow", "shooting", 20, aim="4+"),
                    weapon("Pistol", "shooting", 20, aim="4+", strength=4, ap=2)]),
        unit_table("Arcane Engine", 265, 1, 5, 3, 5, 2, 3, 3,
                   [weapon("Horse", "melee", 2), weapon("Crew: Hand Weapon", "melee", 2),
                    weapon("Chassis: Impact Hits (D6)", "automatic", "1d6", strength=5, ap=2)])],
    "dark_gods.rosz": [
        # Blessed Inscriptions on its one weapon: Divine Attacks, failed wounds re-rolled; a Breath Attack
        unit_table("Feldrak Ancestor", 770, 1, 8, 6, 6, 4, 6, 7,
                   [weapon("Hand Weapon", "melee", 6, ["divine", "reroll-wounds"], ap=4),
                    weapon("Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks)", "automatic", "2d6",
                           ["flaming"], strength=4, ap=1)])],
}
RULES_REPORTS = {
    "dread_elves.rosz": ["Dread Prince, Dread Prince: offensive rule 'Artistry of Death' not modelled (imported "
                         "without it)"],
    "sonnstahl.rosz": ["Inquisitor, Brace of Pistols: weapon rules 'Counts as Paired Weapons in Close Combat' not "
                       "modelled (imported without it)",
                       "Arcane Engine: upgrade 'Arcane Shield' not read (imported without it)"],
    "dark_gods.rosz": [
        "Feldrak Ancestor: defensive rule 'Unburnt' not modelled (imported without it)",
        "Feldrak Ancestor, Feldrak Ancestor: offensive rule 'Hatred (against Fly)' not modelled (imported without it)",
        "Feldrak Ancestor, Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks): breath attack rules 'Dying "
        "Embers' not modelled (imported without it)"],
}


@pytest.mark.parametrize("name", RULES_EXPECTED)
def test_t9a_rerolls_and_automatic_wounds_of_real_rules_and_artefacts(name):
    imported = battlescribe.load(RULES_LISTS / name)
    assert without_combat(imported.data["unit"]) == RULES_EXPECTED[name]
    assert imported.report() == RULES_REPORTS[name]


# (list, attacker, weapon): the mean Health Points lost by State Militia (20 models, Def 3, Res 3, Arm 0, 1 HP),
# worked out by hand from the rules (docs/rules.md §3.1, §3.3–§3.10), and words its query must have
AT_THE_MILITIA = {
    # 5 attacks, Off 8 - Def 3 = 5: 2+, at +1 still a natural 1 fails: 5/6; Str 4 - Res 3 = 1: 3+, 1s re-rolled:
    # 2/3 + 1/6 × 2/3 = 7/9; no armour
    ("dread_elves.rosz", "Dread Prince", "Hand Weapon"): (5 * F(5, 6) * F(7, 9), "--reroll-wounds ones"),
    # 2D6 hits (mean 7), Str 4 - 3 = 1: 3+
    ("dark_gods.rosz", "Feldrak Ancestor", "Breath Attack (Str 4, AP 1, Dying Embers, Flaming Attacks)"): (
        7 * F(2, 3), "t9a hits --hits 2d6"),
    # 6 attacks, Off 6 - 3 = 3: 3+; Str 7 - 3 = 4: 2+, failures re-rolled: 5/6 + 1/6 × 5/6 = 35/36
    ("dark_gods.rosz", "Feldrak Ancestor", "Hand Weapon"): (6 * F(2, 3) * F(35, 36), "--reroll-wounds failed"),
    # 2 shots at Aim 3+; 3+ to wound, failures re-rolled: 2/3 + 1/3 × 2/3 = 8/9; Multiple Wounds capped at 1 HP
    ("sonnstahl.rosz", "Inquisitor", "Brace of Pistols"): (2 * F(2, 3) * F(8, 9), "--reroll-wounds failed"),
    # 2 attacks, Off 5 - 3 = 2: 3+, Hatred re-rolls the failures: 8/9; 3+ to wound
    ("sonnstahl.rosz", "Prelate", "Prelate: Hand Weapon"): (2 * F(8, 9) * F(2, 3), "--reroll-hits failed"),
    # 4 attacks at 3+, every hit wounds
    ("sonnstahl.rosz", "Marshal", "Hand Weapon"): (4 * F(2, 3), "--auto-wound"),
    # Impact Hits (D6), mean 7/2, Str 5 - 3 = 2: 2+
    ("sonnstahl.rosz", "Arcane Engine", "Chassis: Impact Hits (D6)"): (F(7, 2) * F(5, 6), "t9a hits --hits 1d6"),
}


@pytest.mark.parametrize("name", sorted({key[0] for key in AT_THE_MILITIA}))
def test_t9a_a_grid_cell_of_each_is_its_printed_query(capsys, name):
    """Each cell of these units against the militia: the figure worked out by hand, and the query the grid
    prints (`--show-query`) computes the same cell."""
    args = ("grid", RULES_LISTS / name, "--against", RULES_LISTS / "sonnstahl.rosz", "--targets", "State Militia")
    rows = {(row["attacker"], row["weapon"]): row for row in exact_json(capsys, *args)["rows"]}
    shown = " ".join(run(capsys, *args, "--exact", "--show-query", "--wide").out.split())
    cells = {key[1:]: value for key, value in AT_THE_MILITIA.items() if key[0] == name}
    for (attacker, weapon_name), (mean, words) in cells.items():
        row = rows[(attacker, weapon_name)]
        assert row["mean"] == pytest.approx(float(mean), abs=1e-12), (attacker, weapon_name)
        assert row["query"] in shown and words in row["query"]
        answer = exact_json(capsys, *shlex.split(row["query"])[1:])["outcomes"]["health_lost"]
        assert answer["mean"] == pytest.approx(float(mean), abs=1e-12)
        assert (answer["sd"], answer["at_least"][1]) == pytest.approx((row["sd"], row["at_least_1"]), abs=1e-12)


def test_t9a_a_rule_read_only_with_the_text_the_table_reads_and_a_defenders_reroll(tmp_path):
    dwarf = selection("Thane", children=model("Thane", 1, defensive={**PLAIN, "Arm": "1"}, offensive=[attack()],
                                              children=selection("Rune of Steel", profile(
                                                  "Rune of Steel", "7 Artefact", Type="Armour Rune",
                                                  Effect=RUNE_OF_STEEL), kind="upgrade")))
    mask = selection("Odd Mask", profile("Mask of the War Crow", "7 Artefact", Type="Artefact",
                                         Effect=WAR_CROW.replace("‘1’", "‘1’ or ‘2’")), kind="upgrade")
    prince = selection("Prince", children=model("Prince", 1, defensive=PLAIN, offensive=[attack()], children=mask))
    result = imported(tmp_path, dwarf + prince)
    thane, prince_unit = result.data["unit"]
    # "must reroll failed Armour Saves": the unit's field; a mask whose text says more is not read as the table's
    assert thane["reroll_armour"] == "failed" and "reroll_armour" not in prince_unit
    assert prince_unit["weapon"] == [{"name": "Hand Weapon", "kind": "melee", "attacks": 1, "attributes": []}]
    assert result.report() == ["Prince: artefact 'Odd Mask' not modelled (imported without it)"]
    games.imported_roster(ros(tmp_path, dwarf, **T9A_SYSTEM, name="thane.ros"))  # loads


def test_t9a_an_enchantment_the_list_does_not_put_on_one_weapon_is_reported(tmp_path):
    inscriptions = selection("Blessed Inscriptions (F)", profile("Blessed Inscriptions", "7 Artefact",
                                                                 Type="Melee Weapon Enchantment",
                                                                 Effect=INSCRIPTIONS), kind="upgrade")
    light = selection("Imperial Prince", profile("The Light of Sonnstahl", "7 Artefact",
                                                 Type="Hand Weapon enchantment.", Effect=LIGHT), kind="upgrade")
    beast = selection("Beast", children=model("Beast", 1, defensive=PLAIN, offensive=[attack(Rules="Hatred, Bow (4+)")],
                                              children=inscriptions + selection("Great Weapon", kind="upgrade")
                                              + selection("Halberd", kind="upgrade")))
    lord = selection("Lord", children=model("Lord", 1, defensive=PLAIN, offensive=[attack(Rules="Lethal Strike")],
                                            children=light + selection("Great Weapon", kind="upgrade")))
    prince = selection("Prince", children=model("Prince", 1, defensive=PLAIN,
                                                offensive=[attack(AP="1", Rules="Lethal Strike")], children=light))
    result = imported(tmp_path, beast + lord + prince)
    beast_unit, lord_unit, prince_unit = result.data["unit"]
    # two weapons to choose: which one is enchanted the list does not say; Hatred is for a Round of Combat, not
    # for the Bow's shots
    assert [(row["name"], row["attributes"]) for row in beast_unit["weapon"]] == [
        ("Great Weapon", ["hatred"]), ("Halberd", ["hatred"]), ("Bow", [])]
    # a Great Weapon: the enchanted Hand Weapon is not chosen; with it alone: AP 10 and every hit wounds, so
    # Lethal Strike (a natural 6 to wound) has nothing to act on
    assert lord_unit["weapon"] == [{"name": "Great Weapon", "kind": "melee", "attacks": 1, "strength": 5, "ap": 2,
                                    "attributes": ["lethal-strike"]}]
    assert prince_unit["weapon"] == [{"name": "Hand Weapon", "kind": "melee", "attacks": 1, "ap": 10,
                                      "attributes": ["auto-wound"]}]
    assert result.report() == [
        "Beast: Blessed Inscriptions: the list does not say which of its weapons it enchants (imported without it)",
        "Lord: The Light of Sonnstahl: it enchants a Hand Weapon, which a model with another close combat weapon "
        "cannot choose (imported without it)"]
    games.imported_roster(ros(tmp_path, prince, **T9A_SYSTEM, name="prince.ros"))  # loads: no Lethal Strike left


@pytest.mark.skipif(not os.environ.get("ODDSCALC_BSDATA"), reason="set ODDSCALC_BSDATA to a folder holding a "
                    "checkout of BSData/The-9th-Age to rebuild these lists")
def test_t9a_the_rules_lists_are_what_the_builder_makes_of_the_catalogues():
    folder = Path(os.environ["ODDSCALC_BSDATA"]) / "The-9th-Age"
    assert builder.main([str(RULES_LISTS / "lists.toml"), f"--data={folder}", f"--out={RULES_LISTS}",
                         "--check"]) == 0


def test_automatic_hits_of_a_part_with_unread_values_say_so_and_take_the_defaults(tmp_path):
    brutes = selection("Brutes", children=model("Brute", 7, defensive=PLAIN, offensive=[
        attack(name="Brute Offensive", Att="1", Str="x", AP="", Rules="Impact Hits (D3), Grind Attacks (many)"),
        attack(name="Brute Beast", Att="2", Str="D6+1", AP="y", Rules="Breath Attack (Str 5, Odd Fumes, Cold)")]))
    result = imported(tmp_path, brutes)
    unit = result.data["unit"][0]
    # the main part's Str 'x' is not read: Strength 1 (the unit's, so no weapon repeats it), AP blank: 0. Impact
    # Hits (D3) from each of the 5 models in the front rank; "Grind Attacks (many)" gives no value. The beast: Str
    # D6+1 at its mean 4.5 → 5, AP 'y' not read: 0; 2 attacks from each of 5 in front, 1 supporting from each of
    # the 2 behind: 12; its Breath Attack 2D6 from each of the 7 models at the brackets' Str 5 and the part's AP
    assert unit["strength"] == 1 and unit["weapon"] == [
        {"name": "Brute: Hand Weapon", "kind": "melee", "attacks": 7, "attributes": []},
        {"name": "Brute: Impact Hits (D3)", "kind": "automatic", "attacks": "5d3", "attributes": []},
        {"name": "Brute Beast: Hand Weapon", "kind": "melee", "attacks": 12, "strength": 5, "attributes": []},
        {"name": "Brute Beast: Breath Attack (Str 5, Odd Fumes, Cold)", "kind": "automatic", "attacks": "14d6",
         "strength": 5, "attributes": []}]
    assert result.report() == [
        "Brutes, Brute: Str 'x' not understood (counted as 1)",
        "Brutes, Brute: offensive rule 'Grind Attacks (many)' not modelled (imported without it)",
        "Brutes, Brute Beast: Str D6+1: a random value (counted as 5, its mean rounded)",
        "Brutes, Brute Beast: AP 'y' not understood (counted as 0)",
        "Brutes, Brute Beast: Breath Attack (Str 5, Odd Fumes, Cold): breath attack rules 'Odd Fumes, Cold' not "
        "modelled (imported without it)"]


def test_a_weapon_of_the_lists_own_that_is_two_handed_takes_the_shield_in_melee_and_long_rules_are_cut(tmp_path):
    seventy = "Strikes " + "x" * 62  # 70 characters: written whole
    gear = (selection("Big Axe", profile("Big Axe", "5 Melee Weapon", Str="+2", AP="+1",
                                         Attributes=f"Two-Handed. {seventy}"), kind="upgrade")
            + selection("Long Pick", profile("Long Pick", "5 Melee Weapon", Str="+1", AP="+1",
                                             Attributes=seventy + "y"), kind="upgrade")
            + selection("Shield", kind="upgrade"))
    axes = selection("Axes", children=model("Axeman", 5, defensive=PLAIN, offensive=[attack()], children=gear))
    result = imported(tmp_path, axes)
    assert [weapon["name"] for weapon in result.data["unit"][0]["weapon"]] == ["Big Axe", "Long Pick"]
    # a profile the list gives, not the game's table: its Two-Handed still takes the Shield in melee; the rules
    # text not read is written whole up to 70 characters, and cut there with "…" past them
    assert result.report() == [
        "Axes: Shield: a model fighting with Big Axe (Two-Handed) cannot use it against melee attacks (counted: "
        "armour is one value for shooting and melee)",
        f"Axes, Big Axe: weapon rules {seventy!r} not modelled (imported without it)",
        f"Axes, Long Pick: weapon rules {seventy + '…'!r} not modelled (imported without it)"]


def test_a_shooting_part_with_unread_values_says_so_once_and_a_profile_without_shots_is_left_out(tmp_path):
    seventy = "Strikes " + "x" * 62  # 70 characters
    gear = (selection("Sling", profile("Sling", "6 Ranged Weapon", Shots="1", Str="", AP="",
                                       Attributes=seventy + "y"), kind="upgrade")
            + selection("Odd Sling", profile("Odd Sling", "6 Ranged Weapon", Str="", AP="", Attributes=""),
                        kind="upgrade"))
    slingers = selection("Slingers", children=model("Slinger", 5, defensive=PLAIN, offensive=[
        attack(Att="", Off="", Str="x", AP="y", Rules="Sling (4+), Odd Sling (4+)")], children=gear))
    result = imported(tmp_path, slingers)
    unit = result.data["unit"][0]
    # no close combat attack; Str 'x' and AP 'y' are not read: Strength 1 and AP 0, the unit's (so the Sling, "as
    # the user", repeats neither); 5 models × 1 shot at the Aim its rule gives; the Odd Sling gives no Shots
    assert (unit["strength"], unit["offensive"]) == (1, 1)
    assert unit["weapon"] == [{"name": "Sling", "kind": "shooting", "attacks": 5, "aim": "4+", "attributes": []}]
    assert result.report() == [  # each line once, whichever reader met the value first
        "Slingers, Slinger: no Off in the list (counted as 1)",
        "Slingers, Slinger: Str 'x' not understood (counted as 1)",
        "Slingers, Slinger: Att '': the list gives no value (no melee attacks)",  # issue 47: once said nothing
        "Slingers, Slinger: AP 'y' not understood (counted as 0)",
        f"Slingers, Sling: weapon rules {seventy + '…'!r} not modelled (imported without it)",
        "Slingers, Odd Sling: Shots '' not understood (left out)"]


def test_a_save_named_again_without_its_value_is_the_same_save(tmp_path):
    """A Cyclops' entry lists 'Aegis' among its rules, its profile 'Aegis (5+)': one save, read and used, and no
    line saying it is not modelled."""
    cyclops = selection("Cyclops", rules=rules("Aegis", "Fortitude"), children=model(
        "Cyclops", 1, defensive={**PLAIN, "HP": "6", "Rules": "Aegis (5+)"}, offensive=[attack()]))
    result = imported(tmp_path, cyclops)
    assert result.data["unit"][0]["aegis"] == "5+" and "fortitude" not in result.data["unit"][0]
    assert result.report() == ["Cyclops: defensive rule 'Fortitude' without its value (imported without it)"]


def test_the_fields_of_a_round_of_combat_are_read():
    """docs/rules.md §3.11: the fighting part's Attack Value and Agility, the Global profile's Discipline, and
    Swiftstride from the rules or from the type (Cavalry, Beast), as the catalogues give them."""
    units = {unit["name"]: unit for name in RULES_EXPECTED for unit in battlescribe.load(RULES_LISTS / name).data["unit"]}
    read = {name: tuple(unit.get(field) for field in COMBAT_FIELDS) for name, unit in units.items()}
    rest = (None,) * 9  # stomp, height, mount, cannot_be_stomped, stubborn, unbreakable, the charge's bonus
    assert read["Dread Prince"] == (5, 8, 9, None, None, None, None, None, True, None) + rest
    assert read["Inquisitor"] == (2, 4, 8, None, None, None, None, None, None, None) + rest
    # a Gigantic model: Stomp Attacks (D6) from its Height (Classification of Models)
    assert read["Feldrak Ancestor"] == (6, 3, 9, None, True, None, None, None, None, None, "d6", "gigantic") + rest[2:]
    # Impact Hits (D6) when it charges; Large but a Construct: no Stomp Attacks; its crew of two (A1 each), its
    # harnessed horses the mount
    assert read["Arcane Engine"][:1] + read["Arcane Engine"][9:13] == (2, "d6", None, "large",
                                                                      "A2 O3 S3 I3 harnessed")
    # a rider on a warhorse: the horse's attacks at its Agility, Cavalry cannot be stomped
    assert read["Prelate"][12:14] == ("A1 O3 S3 I3 harnessed", True)


def test_a_round_of_combat_reads_parts_height_stomps_and_break_test_rules(tmp_path):
    """A Large chariot of two crew (Attack Value 1 each: 2), harnessed horses (the mount, A1 × 2), a chassis
    (Inanimate: no attacks) and a third part that attacks (reported, left out of a round of combat); Stomp
    Attacks (D3) from its rules over its Height's (1); Stubborn and Unbreakable from its rules."""
    chariot = model("Chariot", 2, height="Large", defensive={"HP": "4", "Def": "2", "Res": "5", "Arm": "2"}, offensive=[
        {"name": "Crew (2) Offensive", "Att": "1", "Off": "3", "Str": "3", "AP": "0", "Agi": "4", "Rules": ""},
        {"name": "Horse (2)", "Att": "1", "Off": "3", "Str": "3", "AP": "1", "Agi": "3", "Rules": "Harnessed"},
        {"name": "Chassis", "Att": "D6", "Off": "", "Str": "5", "AP": "2", "Rules": "Inanimate"},
        {"name": "Hound", "Att": "2", "Off": "3", "Str": "3", "AP": "0", "Agi": "5", "Rules": ""}],
        extra=profile("Chariot Global", "1 Global", Dis="7"))
    unit = selection("Chariots", children=chariot, rules=rules("Stubborn", "Unbreakable", "Stomp Attacks (D3)"))
    result = imported(tmp_path, unit)
    fields = result.data["unit"][0]
    assert (fields["attack_value"], fields["agility"], fields["discipline"]) == (2, 4, 7)
    assert (fields["height"], fields["stomp"], fields["mount"]) == ("large", "d3", "A2 O3 S3 I3 AP1 harnessed")
    assert fields["stubborn"] and fields["unbreakable"] and "cannot_be_stomped" not in fields
    assert [line for line in result.report() if "round of combat" in line] == [
        "Chariots: Hound: a third model part that attacks (left out of a round of combat (two parts a model))"]
    plain = selection("Chariots", children=chariot.replace("Large", "Gigantic"))
    assert imported(tmp_path, plain).data["unit"][0]["stomp"] == "d6"  # from its Height alone


@pytest.mark.parametrize("weapon, rule, bonus", [
    ("Lance", "", (None, 2, 2)), ("Light Lance", "", (None, 1, 1)),
    ("", "Devastating Charge (+1 Att, +1 Str)", (1, 1, None)), ("", "Devastating Charge (+2 Agi)", (None,) * 3),
    ("Lance", "Devastating Charge (+1 AP)", (None, 2, 3)),
])
def test_what_a_charge_adds_is_read_from_lances_and_devastating_charge(tmp_path, weapon, rule, bonus):
    rider = model("Rider", 5, defensive=PLAIN, offensive=[attack(Agi="3", Rules=rule)],
                  extra=profile("Rider Global", "1 Global", Dis="7"))
    gear = selection(weapon, kind="upgrade") if weapon else ""
    fields = imported(tmp_path, selection("Riders", children=rider + gear)).data["unit"][0]
    assert tuple(fields.get(name) for name in ("charge_attacks", "charge_strength", "charge_ap")) == bonus


@pytest.mark.parametrize("rule, read", [
    ("Impact Hits (D6+1)", "d6+1"), ("Impact Hits (D3+1, Chariot Host)", "d3+1"), ("Impact Hits (2)", "2"),
    ("Impact Hits (1D3)", "d3"), ("Impact Hits (X)", None), ("Impact Hits (D8)", None),
])
def test_impact_hits_take_any_dice_of_the_game(tmp_path, rule, read):
    """Impact Hits (X): any D6 or D3 expression the catalogues give (the Skeleton Chariots' D3+1 and a Chosen
    Chariot's D6+1 in the real books); anything else is reported and left out of a round of combat."""
    rider = model("Rider", 3, defensive=PLAIN, offensive=[attack(Agi="3")],
                  extra=profile("Rider Global", "1 Global", Dis="7"))
    result = imported(tmp_path, selection("Chariots", children=rider, rules=rules(rule)))
    assert result.data["unit"][0].get("impact_hits") == read
    left = [line for line in result.report() if "impact hits" in line]
    assert left == ([] if read else [f"Chariots: impact hits ({rule[13:-1].lower()}) (left out of a round of combat "
                                      "(not dice of the game))"])


@pytest.mark.parametrize(("text", "mean"), [("D6+1", 5), ("d3+1", 3), ("2D3", 4), ("D 6", 4), ("3d6", 11),
                                             ("D3", 2), ("0d6", None), ("D6-1", None), ("6", None), ("x", None),
                                             ("D10", None), ("2d4+1", None)])
def test_a_random_characteristic_is_read_at_its_mean_rounded_half_up(text, mean):
    """One reader for Att, Str, Def... given as dice: (sides + 1) / 2 per die plus the bonus, halves rounded up;
    the game's dice only (D6, D3), as the importer read a random Attack Value before."""
    from oddscalc.lists.battlescribe.t9a_common import dice_mean
    assert dice_mean(text) == mean
