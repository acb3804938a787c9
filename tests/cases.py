"""One table of named attacks per game, feeding every agreement test (test_agreement.py)
and the game tests that need a case by name."""

from oddscalc.core.dice import DiceExpression
from oddscalc.dust import (
    ArmourPiercingIncendiary,
    Artillery,
    CoverSave,
    Incendiary,
    Phaser,
    Reactive,
    Salvo,
    Success,
    WeaponLine,
)
from oddscalc.epic import Assault, Barrage, EpicShoot
from oddscalc.epic.saves import Ability
from oddscalc.core.roll import Roll
from oddscalc.t9a import Combat, Melee, T9AHits, T9AShoot
from oddscalc.t9a.rolls import Charge, Direction, DisciplineTest

# A line of melee attacks: 4+ to hit (OS = DS), 3+ to wound (S - R = 1).
KNIGHTS = dict(models=5, width=5, attacks=1, offensive=4, defensive=4, strength=5, resilience=3, agility=3,
               discipline=7, armour=5)
SPEARMEN = dict(enemy_models=20, enemy_width=5, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3,
                enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=7, enemy_armour=1,
                enemy_standard=True)
T9A_BASE = dict(offensive=4, defensive=4, strength=4, resilience=3)

ROLL = {
    "2d6": Roll(DiceExpression.parse("2d6")),
    "2d6 maximised": Roll(DiceExpression.parse("2d6"), maximised=1),
    "2d6 minimised": Roll(DiceExpression.parse("2d6"), minimised=1),
    "2d6 max 2 min 1": Roll(DiceExpression.parse("2d6"), maximised=2, minimised=1),
    "3d6+1 maximised 2": Roll(DiceExpression.parse("3d6+1"), maximised=2),
    "d6-2": Roll(DiceExpression.parse("d6-2")),
    "d3 minimised": Roll(DiceExpression.parse("d3"), minimised=1),
    "10d6 successes 5+": Roll(DiceExpression.parse("10d6"), success=5),
    "3d6 successes 4+ maximised": Roll(DiceExpression.parse("3d6"), maximised=1, success=4),
    "3d6 successes 4+ minimised 2": Roll(DiceExpression.parse("3d6"), minimised=2, success=4),
    "6d6 maximised 2 (face by face)": Roll(DiceExpression.parse("6d6"), maximised=2),
    "d10": Roll(DiceExpression.parse("d10")),
    # too many face multisets to count one by one: exact by order statistics (docs/rules.md §3.1)
    "20d6 maximised 3 (order statistics)": Roll(DiceExpression.parse("20d6"), maximised=3),
    "8d10 minimised 2 (order statistics)": Roll(DiceExpression.parse("8d10"), minimised=2),
    "30d6": Roll(DiceExpression.parse("30d6")),
}


DUST = {
    "4 dice": WeaponLine(4),
    "weapon line against a unit of 5 damage points": WeaponLine(6, 2, health=5, save="hit", sustained=True),
    "4 dice sustained": WeaponLine(4, sustained=True),
    "3 dice berserk": WeaponLine(3, berserk=True),
    "3 dice sustained berserk, damage 2": WeaponLine(3, 2, sustained=True, berserk=True),
    "3 dice burst": WeaponLine(3, burst=True),
    "4 dice damage 2, hit-save": WeaponLine(4, 2, save=CoverSave.HIT),
    "6 dice sustained, miss-save": WeaponLine(6, sustained=True, save=CoverSave.MISS),
    "3 dice damage 3, resilient": WeaponLine(3, 3, resilient=True),
    "5 dice damage 2 sustained, miss-save, resilient": WeaponLine(5, 2, sustained=True, save="miss", resilient=True),
    "artillery direct sustained into hit-save (ignored)": WeaponLine(3, 2, sustained=True, save="hit",
                                                                     artillery="direct"),
    "artillery direct in a structure, miss-save": WeaponLine(3, save="miss", artillery="direct", in_structure=True),
    "artillery indirect": WeaponLine(4, 2, artillery=Artillery.INDIRECT),
    "artillery indirect blank, berserk": WeaponLine(3, 2, berserk=True, artillery="indirect",
                                                     indirect_success=Success.BLANK),
    "artillery indirect blank, burst, resilient": WeaponLine(2, burst=True, artillery="indirect",
                                                              indirect_success="blank", resilient=True),
    "20 dice burst sustained, hit-save": WeaponLine(20, burst=True, sustained=True, save="hit"),
    "phaser 2z3": Phaser(2, 3),
    "phaser 2z3 sustained": Phaser(2, 3, sustained=True),
    "phaser 1z4 sustained berserk": Phaser(1, 4, sustained=True, berserk=True),
    "phaser 3z2 resilient": Phaser(3, 2, resilient=True),
    "phaser 3z2 resilient at a unit of 4": Phaser(3, 2, resilient=True, health=4),
    "phaser 6z5 berserk": Phaser(6, 5, berserk=True),
    "salvo 3/2-5/2-7/2, 2 charges": Salvo.parse("3/2-5/2-7/2", charges=2),
    "salvo 3/2 sustained, hit-save": Salvo.parse("3/2", sustained=True, save=CoverSave.HIT),
    "salvo 3/2-5/2, 2 charges, at a unit of 5": Salvo.parse("3/2-5/2", charges=2, health=5),
    "salvo 2/1-4/3, 2 charges berserk, miss-save, resilient": Salvo.parse("2/1-4/3", charges=2, berserk=True,
                                                                          save="miss", resilient=True),
    "incendiary 1 x 4": Incendiary(1, 4),
    "incendiary 2 x 3, hit-save": Incendiary(2, 3, save=CoverSave.HIT),
    "incendiary 1 x 5, miss-save ignored": Incendiary(1, 5, save="miss", ignore_cover=True),
    "incendiary 1 x 3, resilient": Incendiary(1, 3, resilient=True),
    "ap-incendiary 1 x 3": ArmourPiercingIncendiary(1, 3),
    "ap-incendiary 2 x 5": ArmourPiercingIncendiary(2, 5),
    "reactive": Reactive(),
    # every Dust attack takes re-rolls and burst fire (docs/rules.md §1.3, §1.4)
    "3 dice sustained berserk once": WeaponLine(3, sustained=True, berserk=True, berserk_stacking="once"),
    "phaser 2z3 burst": Phaser(2, 3, burst=True),
    "salvo 3/2-5/2, 2 charges burst sustained berserk once": Salvo.parse("3/2-5/2", charges=2, burst=True,
                                                                         sustained=True, berserk=True,
                                                                         berserk_stacking="once"),
    "incendiary 1 x 3 sustained, hit-save": Incendiary(1, 3, sustained=True, save="hit"),
    "incendiary 2 x 2 berserk burst, resilient": Incendiary(2, 2, berserk=True, burst=True, resilient=True),
    "ap-incendiary 1 x 2 sustained berserk": ArmourPiercingIncendiary(1, 2, sustained=True, berserk=True),
    "ap-incendiary 1 x 2 burst": ArmourPiercingIncendiary(1, 2, burst=True),
    # reactive fire chained into the activation it interrupts (docs/rules.md §1.10)
    "reactive 4 dice, enemy of 2 points": Reactive(dice=4, health=2),
    "reactive 3/2 before the attack 5/1": Reactive(dice=3, damage=2, save="hit", health=3, enemy_dice=5),
    "reactive onslaught, resilient enemy": Reactive(dice=4, resilient=True, health=2, timing="onslaught",
                                                    enemy_dice=3, enemy_damage=2, enemy_save="miss"),
    "reactive after the attack, own 2 points": Reactive(dice=3, health=2, timing="attack-move", enemy_dice=4,
                                                        own_health=2),
    "reactive after the attack, no own health": Reactive(dice=2, timing="attack-move", enemy_dice=3),
    "reactive move-move": Reactive(dice=5, damage=2, timing="move-move", health=4),
}


EPIC = {
    "shoot 12 AP 4+ at 6, armour 4+, crossfire": EpicShoot(shots=12, to_hit=4, units=6, armour=4, crossfire=True),
    "shoot 3 at 5 units, fewer hits than units": EpicShoot(shots=3, to_hit=3, units=5, armour=5),
    "shoot 30 at 4 units (H > U)": EpicShoot(shots=30, to_hit=4, units=4, armour=3),
    "shoot 20 at 1 unit": EpicShoot(shots=20, to_hit=5, units=1, armour=2, formation=3),
    "shoot 150 at 70 units (blocks of 64)": EpicShoot(shots=150, to_hit=3, units=70, armour=5),
    "shoot 90 at 7 units (several pieces)": EpicShoot(shots=90, to_hit=5, units=7, armour=4, reinforced=True),
    "shoot 7+ chain (6+ at -1)": EpicShoot(shots=20, to_hit=6, modifier=-1, units=3, armour=6),
    "shoot 8+ chain in cover": EpicShoot(shots=30, to_hit=6, modifier=-1, in_cover=True, units=2, armour=None),
    "shoot 9+ chain": EpicShoot(shots=40, to_hit=6, modifier=-3, units=2, armour=None),
    "shoot 10+ cannot hit": EpicShoot(shots=5, to_hit=6, modifier=-4, units=2, armour=4, blast_markers=1),
    "shoot needing 1 or less": EpicShoot(shots=6, to_hit=2, modifier=3, units=3, armour=4),
    "shoot cover save better than armour": EpicShoot(shots=8, to_hit=4, units=4, armour=6, cover_save=4, modifier=-1),
    "shoot ignore cover": EpicShoot(shots=8, to_hit=4, units=4, armour=6, cover_save=4, in_cover=True, ignore_cover=True),
    "shoot reinforced re-rolls cover with armour": EpicShoot(shots=8, to_hit=4, units=3, armour=5, cover_save=4,
                                                         reinforced=True),
    "shoot reinforced, invulnerable, crossfire": EpicShoot(shots=10, to_hit=3, units=3, armour=4, reinforced=True,
                                                       invulnerable=True, crossfire=True),
    "shoot macro at reinforced": EpicShoot(shots=6, to_hit=4, units=2, armour=4, reinforced=True, weapon=Ability.MACRO),
    "shoot macro, invulnerable only": EpicShoot(shots=6, to_hit=4, units=2, armour=3, cover_save=3,
                                            invulnerable=True, weapon=Ability.MACRO),
    "shoot titan killer": EpicShoot(shots=4, to_hit=3, units=2, armour=2, reinforced=True, invulnerable=True,
                                weapon=Ability.TITAN_KILLER),
    "shoot lance": EpicShoot(shots=6, to_hit=4, units=2, armour=3, reinforced=True, weapon=Ability.LANCE),
    "shoot disrupt": EpicShoot(shots=10, to_hit=4, units=4, armour=4, disrupt=True, formation=10, blast_markers=2),
    "shoot sniper and crossfire": EpicShoot(shots=8, to_hit=3, units=3, armour=3, sniper=True, crossfire=True),
    "shoot no save": EpicShoot(shots=10, to_hit=4, units=3, armour=None, crossfire=True),
    "shoot crossfire pushes 6+ away": EpicShoot(shots=10, to_hit=4, units=3, armour=6, crossfire=True, formation=6),
    "barrage 6 BP at 3 (worked example)": Barrage(bp=6, units=3, armour=4),
    "barrage 8 BP at 5, armour 4+": Barrage(bp=8, units=5, armour=4),
    "barrage 1 BP": Barrage(bp=1, units=4, armour=5),
    "barrage 18 BP AT, crossfire": Barrage(bp=18, units=6, armour=4, at=True, crossfire=True, formation=9),
    "barrage 3 BP indirect, disrupt": Barrage(bp=3, units=4, armour=5, modifier=1, disrupt=True),
    "barrage in cover, cover save": Barrage(bp=10, units=5, armour=6, cover_save=4, in_cover=True, formation=8),
    "barrage macro, reinforced, invulnerable": Barrage(bp=12, units=3, armour=4, reinforced=True, invulnerable=True,
                                                       weapon=Ability.MACRO, blast_markers=1),
    "barrage 100 units (table path)": Barrage(bp=13, units=100, armour=5),
    "assault": Assault(),
    "assault with bonuses": Assault(bonus=2, enemy_bonus=-1),
    "assault behind": Assault(bonus=-3, enemy_bonus=4),
    "assault, each side's highest die kept": Assault(bonus=1, enemy_bonus=-1, keep_highest=True),
    # engagements (docs/rules.md §2.9): both sides' attacks, saves, the result roll, more rounds, extra hits
    "engagement: 6 Tactical units against 8 Ork Boyz": Assault(units=6, cc=4, ff=3, armour=4, enemy_units=8,
                                                               enemy_cc=4, enemy_ff=6, enemy_armour=6),
    "engagement: firefight, supporting fire, blast markers": Assault(
        units=5, cc=5, ff=4, armour=5, in_contact=2, blast_markers=2, support=4, support_ff=5, enemy_units=6,
        enemy_cc=4, enemy_ff=5, enemy_armour=4, enemy_cover_save=4, enemy_in_contact=3, enemy_support=2,
        enemy_support_ff=6, keep_highest=True),
    "engagement: reinforced and invulnerable, extra attacks, one round": Assault(
        units=3, cc=3, ff=None, armour=4, reinforced=True, invulnerable=True, extra_attacks=1, enemy_units=7,
        enemy_cc=5, enemy_ff=5, enemy_armour=None, enemy_invulnerable=True, rounds=1, bonus=1),
    "engagement: a broken, fearless defender, five rounds": Assault(
        units=4, cc=4, ff=4, armour=5, enemy_units=4, enemy_cc=4, enemy_ff=4, enemy_armour=5, enemy_broken=True,
        enemy_fearless=True, rounds=5),
    "engagement: one unit a side, both may fall at once (the attack stalls)": Assault(
        units=1, cc=4, ff=None, armour=None, enemy_units=1, enemy_cc=4, enemy_ff=None, enemy_armour=None),
    "engagement: first strike, the defender's units killed first do not attack": Assault(
        units=4, cc=3, ff=4, armour=5, first_strike=True, enemy_units=6, enemy_cc=4, enemy_ff=5, enemy_armour=5,
        enemy_in_contact=4),
    "engagement: extra attacks of an assault weapon (cc) and of small arms (ff)": Assault(
        units=5, cc=3, ff=5, armour=5, in_contact=2, extra_attacks=1, extra_at="cc", enemy_units=6, enemy_cc=5,
        enemy_ff=4, enemy_armour=6, enemy_in_contact=3, enemy_extra_attacks=2, enemy_extra_at="ff"),
    "engagement: the defender strikes first": Assault(
        units=5, cc=4, ff=4, armour=4, in_contact=3, enemy_units=4, enemy_cc=3, enemy_ff=6, enemy_armour=4,
        enemy_first_strike=True, keep_highest=True),
    "engagement: a broken defender that loses is destroyed": Assault(
        units=4, cc=4, ff=4, armour=5, fearless=True, enemy_units=5, enemy_cc=5, enemy_ff=5, enemy_armour=6,
        enemy_broken=True),
    "engagement: 6 Tactical and 2 Rhinos against 12 Ork Boyz with 3 blast markers": Assault(
        units=6, cc=4, ff=3, armour=4, other=("2 cc 6+ ff 6+ armour 5+ in-contact 0",), enemy_units=12, enemy_cc=4,
        enemy_ff=6, enemy_armour=6, enemy_blast_markers=3),
    "engagement: mixed kinds on both sides, a fearless kind, cover and first strike": Assault(
        units=3, cc=3, ff=5, armour=4, in_contact=2, other=("2 cc 5+ ff 4+ armour 5+ reinforced in-contact 2",),
        first_strike=True, enemy_units=4, enemy_cc=4, enemy_ff=5, enemy_armour=6, enemy_cover_save=5,
        enemy_other=("2 cc 4+ ff 4+ armour 4+ fearless",), keep_highest=True),
    "engagement: two kinds in contact in part, the units that fail their saves removed": Assault(
        units=3, cc=3, ff=5, armour=4, in_contact=1, other=("2 cc 5+ ff 4+ armour 5+ in-contact 1",),
        enemy_units=4, enemy_cc=4, enemy_ff=5, enemy_armour=5, enemy_in_contact=2),
    "engagement: the same, losses in contact first": Assault(
        units=3, cc=3, ff=5, armour=4, in_contact=1, other=("2 cc 5+ ff 4+ armour 5+ in-contact 1",),
        enemy_units=4, enemy_cc=4, enemy_ff=5, enemy_armour=5, enemy_in_contact=2, casualties="in-contact-first"),
    "engagement: an assault on a war engine (DC3, critical damage)": Assault(
        units=6, cc=4, ff=4, armour=5, enemy_units=1, enemy_damage_capacity=3, enemy_cc=3, enemy_ff=4,
        enemy_armour=4, enemy_reinforced=True, enemy_critical="damage"),
    "engagement: a damaged war engine counts what it has left": Assault(
        units=6, cc=4, ff=4, armour=5, enemy_units=1, enemy_damage_capacity=3, enemy_cc=3, enemy_ff=4,
        enemy_armour=4, engines_count="remaining"),
    "engagement: war engines that assault, dice split, extra attacks, a loser's critical hits": Assault(
        units=2, damage_capacity=2, cc=4, ff=5, armour=5, cc_dice=1, extra_attacks=1, critical="destroyed",
        other=("2 cc 5+ ff 4+ armour 6+ in-contact 2",), enemy_units=5, enemy_cc=4, enemy_ff=5, enemy_armour=5,
        enemy_other=("1 DC2 cc 5+ ff 5+ armour 4+ in-contact 0 critical damage-once",), rounds=2),
    "engagement: macro-weapon extra attacks, Inspiring, They Shall Know No Fear, blast markers both sides": Assault(
        units=4, cc=4, ff=4, armour=4, extra_attacks=1, extra_ability="macro", inspiring=True, know_no_fear=True,
        blast_markers=3, enemy_units=5, enemy_cc=4, enemy_ff=5, enemy_armour=5, enemy_reinforced=True,
        enemy_blast_markers=1, enemy_other=("1 cc 3+ ff 5+ armour 4+ inspiring",), rounds=2),
    "engagement: titan killer extra attacks on a war engine, reinforced and invulnerable": Assault(
        units=3, cc=3, ff=5, armour=4, extra_attacks=1, extra_ability="titan-killer", tk_damage="d3", extra_at="cc",
        enemy_units=1, enemy_damage_capacity=4, enemy_cc=3, enemy_ff=4, enemy_armour=4, enemy_reinforced=True,
        enemy_invulnerable=True, enemy_critical="damage", enemy_know_no_fear=True),
    # suppression, macro-weapon hits after normal ones, AP and AT at a mixed formation (docs/rules.md §2.3, §2.4)
    "shoot 1 of 3 firing units suppressed": EpicShoot(shots=6, to_hit=4, units=3, armour=4, firing_units=3,
                                                      suppressed=1, blast_markers=1),
    "shoot every firing unit suppressed": EpicShoot(shots=3, to_hit=4, units=3, armour=4, firing_units=3,
                                                    suppressed=3, blast_markers=2),
    "shoot normal then MW, reinforced, crossfire": EpicShoot(shots=4, to_hit=3, units=3, armour=4, reinforced=True,
                                                            mw_shots=3, mw_to_hit=3, crossfire=True),
    "shoot MW volleys after few normal hits, invulnerable": EpicShoot(shots=2, to_hit=6, units=2, armour=5,
                                                                      mw_shots=4, mw_to_hit=4, volley=("2@MW5+",),
                                                                      invulnerable=True),
    "shoot AP and AT at a mixed formation, disrupt": EpicShoot(shots=6, to_hit=4, units=4, armour=5, cover_save=4,
                                                               in_cover=True, vehicles=2, vehicle_armour=4,
                                                               vehicle_reinforced=True, at_shots=3, at_to_hit=5,
                                                               disrupt=True),
    "shoot AT volleys only at a mixed formation": EpicShoot(shots=0, to_hit=4, units=3, armour=5, vehicles=1,
                                                            vehicle_armour=None, at_shots=2, at_to_hit=4, volley=("1@AT6+",)),
    "shoot three volleys, formation of 8": EpicShoot(shots=4, to_hit=5, units=5, armour=5, volley=("2@3+", "3@4+"),
                                                     formation=8),
    "shoot suppressed, with MW": EpicShoot(shots=4, to_hit=4, units=2, armour=3, mw_shots=2, mw_to_hit=2,
                                           firing_units=2, suppressed=1),
    "shoot --weapon macro with a normal volley": EpicShoot(shots=3, to_hit=3, weapon=Ability.MACRO, volley=("4@4+",),
                                                           units=2, armour=4, reinforced=True),
    "shoot thick rear armour in a crossfire": EpicShoot(shots=8, to_hit=4, units=3, armour=4, crossfire=True,
                                                        thick_rear_armour=True),
    # war engines (docs/rules.md §2.8)
    "war engine: Warhound, 4 Plasma Blastgun shots": EpicShoot(shots=4, to_hit=2, weapon=Ability.MACRO, war_engines=1,
                                                              damage_capacity=3, shields=2, armour=5,
                                                              reinforced=True),
    "war engine: Warlord under turbolasers": EpicShoot(shots=24, to_hit=3, war_engines=1, damage_capacity=8,
                                                       shields=6, armour=4, reinforced=True, critical="damage"),
    "war engines: 3 Baneblades, critical destroyed": EpicShoot(shots=12, to_hit=4, war_engines=3, damage_capacity=3,
                                                               armour=4, reinforced=True, critical="destroyed",
                                                               crossfire=True),
    "war engines: titan killer D3, invulnerable": EpicShoot(shots=3, to_hit=3, weapon=Ability.TITAN_KILLER,
                                                            tk_damage="d3", war_engines=2, damage_capacity=2,
                                                            shields=1, armour=4, invulnerable=True),
    "war engines: titan killer D6, one invulnerable save per hit": EpicShoot(
        shots=3, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d6", war_engines=2, damage_capacity=4, shields=2,
        armour=4, invulnerable=True, critical="wounded", tk_save="hit"),
    "war engines of two profiles: a Squat Land Train": EpicShoot(
        shots=8, to_hit=3, war_engines=1, damage_capacity=2, armour=4, reinforced=True, thick_rear_armour=True,
        crossfire=True, engine=("3 DC1 armour none shields 1",)),
    "war engines of two profiles: a Hierophant and two Hierodules, titan killer D3": EpicShoot(
        shots=4, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d3", war_engines=1, damage_capacity=4, armour=5,
        reinforced=True, invulnerable=True, critical="wounded",
        engine=("2 DC3 armour 5+ reinforced critical destroyed",)),
    "war engines: titan killer D3, points allocated as hits (NetEA)": EpicShoot(
        shots=4, to_hit=3, weapon=Ability.TITAN_KILLER, tk_damage="d3", tk_allocation="damage", war_engines=3,
        damage_capacity=2, shields=1, armour=4, critical="damage"),
    "war engines: normal then MW after, other units": EpicShoot(shots=6, to_hit=4, mw_shots=3, mw_to_hit=3,
                                                                war_engines=2, damage_capacity=2, shields=1,
                                                                armour=5, units=3, critical="damage"),
    "war engines and other units, front to back (engines in front)": EpicShoot(
        shots=9, to_hit=4, war_engines=2, damage_capacity=2, shields=1, armour=4, units=3, other_armour=5,
        other_reinforced=True, crossfire=True, critical="damage"),
    "war engine and other units, others in front, macro": EpicShoot(
        shots=7, to_hit=3, weapon=Ability.MACRO, war_engines=1, damage_capacity=3, shields=2, armour=4, units=2,
        other_armour=4, front="others", disrupt=True),
    "war engine's infantry under AP fire (reach others)": EpicShoot(
        shots=8, to_hit=4, war_engines=1, damage_capacity=4, armour=4, units=4, other_armour=None, reach="others",
        blast_markers=2),
    "war engines: Warhounds, a critical's extra point rolls no critical": EpicShoot(
        shots=10, to_hit=3, war_engines=2, damage_capacity=3, shields=2, armour=5, reinforced=True,
        critical="damage-once"),
    "war engines: bio-titans, a critical rolls the Wounded table": EpicShoot(
        shots=10, to_hit=3, weapon="titan-killer", tk_damage="d3", war_engines=2, damage_capacity=4, armour=4,
        critical="wounded"),
    "war engine: disrupt, blast markers already": EpicShoot(shots=8, to_hit=4, war_engines=1, damage_capacity=4,
                                                            shields=2, armour=4, disrupt=True, blast_markers=2),
    "war engines of two profiles under a barrage, and other units": Barrage(
        bp=9, war_engines=1, damage_capacity=2, armour=4, reinforced=True, engine=("2 DC1 armour 6+ shields 1",),
        engines_under=2, units=3, other_armour=5),
    "war engines: barrage 8 BP, two centred": Barrage(bp=8, war_engines=3, damage_capacity=4, shields=1, armour=4,
                                                      reinforced=True),
    "war engines: barrage 3 BP, both under the template": Barrage(bp=3, war_engines=2, damage_capacity=3, shields=1,
                                                                  armour=5, engines_under=2, critical="damage"),
    "war engine and other units under a barrage (AP column)": Barrage(
        bp=10, war_engines=1, damage_capacity=3, shields=1, armour=4, units=5, other_armour=5, other_reinforced=True,
        disrupt=True),
    "war engines and vehicles under a barrage (AT column), two of them": Barrage(
        bp=4, war_engines=2, damage_capacity=2, armour=5, units=3, other_armour=4, others_under=2, at=True,
        crossfire=True, disrupt=True),
    "war engine: macro barrage, titan": Barrage(bp=13, weapon=Ability.MACRO, war_engines=1, damage_capacity=6,
                                                shields=4, armour=4, reinforced=True, critical="destroyed", units=2),
}


T9A = {
    # a round of close combat (docs/rules.md §3.11): steps, combat score, Break Test, Flee and Pursuit
    "combat: 5 knights charge 20 spearmen (front, one round)": Combat(**KNIGHTS, **SPEARMEN),
    "combat: knights charge Stubborn spearmen, fought to the end (--rounds end)": Combat(
        **KNIGHTS, **SPEARMEN, enemy_stubborn=True, rounds="end"),
    "combat: knights with Swiftstride in the flank, two rounds": Combat(**KNIGHTS, **SPEARMEN, swiftstride=True,
                                                                       flank=True, rounds=2),
    "combat: Great Weapons against Lightning Reflexes, two rounds": Combat(
        **{**KNIGHTS, "great_weapon": True, "strength": 6}, **SPEARMEN, enemy_lightning_reflexes=True, rounds=2),
    "combat: chariots with Impact Hits (D3) charge, Agility above 10 first": Combat(
        models=3, width=3, attacks=1, offensive=4, defensive=4, strength=5, resilience=4, agility=10, discipline=7,
        armour=2, impact_hits="d3", enemy_models=10, enemy_width=5, enemy_attacks=1, enemy_offensive=3,
        enemy_defensive=3, enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=7,
        high_agility="first", rounds=2),
    "combat: knights charge spearmen with Spears in their front, an extra rank, two rounds": Combat(
        **{**KNIGHTS, "discipline": 9}, **SPEARMEN, enemy_spear=True, enemy_extra_ranks=1, rounds=2,
        pursuit="restrain"),
    "combat: ten knights in two ranks in the flank, the other readings": Combat(
        **{**KNIGHTS, "models": 10}, **SPEARMEN, flank=True, facing_bonus="flat", last_rank="ignored",
        high_agility="first", rounds=2),
    "combat: ogres (3 Health, Aegis) charge the rear, the same Agility after the charge, Charge +1 while one stands": Combat(
        models=3, width=3, health=3, attacks=3, offensive=3, defensive=3, strength=4, resilience=4, agility=2,
        discipline=7, armour=1, aegis=6, rear=True, enemy_models=12, enemy_width=4, enemy_attacks=1,
        enemy_offensive=4, enemy_defensive=3, enemy_strength=3, enemy_resilience=3, enemy_agility=3,
        enemy_discipline=8, enemy_armour=2, enemy_ap=1, enemy_standard=True, enemy_swiftstride=True, rounds=2,
        charge_bonus="models"),
    "combat: knights with lances on horses (a mount part) charge spearmen in the flank, edge models": Combat(
        **KNIGHTS, mount="A1 O3 S3 I3", cannot_be_stomped=True, charge_strength=2, charge_ap=2, **SPEARMEN, flank=True,
        flank_models="edge", mount_momentum="rider",
        rounds=2),
    "combat: a Gigantic monster stomps (D6), Unbreakable, on Stubborn spearmen": Combat(
        models=1, width=1, health=5, attacks=4, offensive=5, defensive=4, strength=6, resilience=6, agility=3,
        discipline=7, armour=2, ap=3, height="gigantic", stomp="d6", unbreakable=True, **SPEARMEN,
        enemy_stubborn=True, rounds=2),
    "combat: chariots (harnessed mount, Large) charge a line of 16, a third rank in support": Combat(
        models=2, width=2, health=3, attacks=2, offensive=3, defensive=3, strength=4, resilience=4, agility=3,
        discipline=7, armour=3, height="large", mount="A2 O3 S4 I3 AP1 harnessed", impact_hits="d3", stomp=1,
        enemy_models=16, enemy_width=8, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, line_bonus="kept"),
    "combat: Hatred, Poison and Multiple Wounds against Parry and Fortitude, two rounds": Combat(
        **KNIGHTS, hatred=True, poison=True, multiple_wounds="d3", reroll_wounds="ones", **{**SPEARMEN,
        "enemy_health": 2, "enemy_models": 10}, enemy_parry=True, enemy_fortitude=5, enemy_reroll_armour="ones",
        enemy_battle_focus=True, enemy_distracting=True, flammable=True, enemy_flaming=True, rounds=2),
    "combat: a Steadfast charger loses to elite with Swiftstride who restrain, two rounds": Combat(
        models=15, width=5, attacks=1, offensive=2, defensive=3, strength=2, resilience=3, agility=3, discipline=6,
        enemy_models=6, enemy_width=3, enemy_attacks=2, enemy_offensive=5, enemy_defensive=5,
        enemy_strength=5, enemy_resilience=4, enemy_agility=5, enemy_discipline=9, enemy_swiftstride=True,
        enemy_height="large", pursuit="restrain", rounds=2),
    "combat: a Stubborn charger in one rank loses to Large elite": Combat(
        models=10, width=10, attacks=1, offensive=2, defensive=3, strength=2, resilience=3, agility=3, discipline=6,
        stubborn=True, enemy_models=6, enemy_width=3, enemy_attacks=2, enemy_offensive=5, enemy_defensive=5,
        enemy_strength=5, enemy_resilience=4, enemy_agility=5, enemy_discipline=9, enemy_height="large"),
    "combat: one model against two with Standards, both wiped out often, two rounds": Combat(
        models=1, width=1, health=2, attacks=2, offensive=4, defensive=4, strength=4, resilience=4, agility=2,
        discipline=7, standard=True, enemy_models=2, enemy_width=2, enemy_attacks=1, enemy_offensive=4,
        enemy_defensive=4, enemy_strength=4, enemy_resilience=4, enemy_agility=3, enemy_discipline=7,
        enemy_standard=True, rounds=2),
    # characters joined to units and Duels (docs/rules.md §3.11, Characters and Duels)
    "combat: a character each, a Duel with Overkill (Multiple Wounds), three rounds": Combat(
        models=4, width=4, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=5, enemy_width=5, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=6,
        character="attacks 3 offensive 5 defensive 5 strength 4 resilience 4 agility 5 health 2 discipline 9 "
                  "multiple-wounds 2",
        enemy_character="A2 O4 D4 S4 R4 I4 H2 V8 armour 4+", challenge=True, rounds=3),
    "combat: a Duel refused by a Stubborn Battle Standard Bearer, three rounds": Combat(
        models=6, width=3, attacks=1, offensive=4, defensive=4, strength=4, resilience=4, agility=4, discipline=7,
        standard=True, enemy_models=8, enemy_width=4, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3,
        enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=6,
        character="A3 O5 D5 S4 R4 I5 H2 V9",
        enemy_character="attacks 2 offensive 4 defensive 4 strength 4 resilience 4 agility 4 health 2 discipline 9 "
                        "stubborn battle-standard", challenge_refused=True, rounds=3),
    "combat: a Battle Standard Bearer with a Great Weapon lends its Discipline, fought on to four rounds": Combat(
        models=5, width=5, attacks=1, offensive=4, defensive=4, strength=4, resilience=4, agility=4, discipline=6,
        enemy_models=3, enemy_width=3, enemy_health=2, enemy_attacks=2, enemy_offensive=4, enemy_defensive=4,
        enemy_strength=4, enemy_resilience=4, enemy_agility=4, enemy_discipline=7,
        character="A2 O5 D5 S5 R4 I5 H3 V8 battle-standard great-weapon", rounds=4, pursuit="restrain"),
    "combat: the per-round view of a fight of three rounds, a second unit in the rear": Combat(
        models=4, width=4, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=6, enemy_width=3, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=8, enemy_stubborn=True, rounds=3, by_round=True,
        with_unit=("models 2 width 2 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 "
                   "discipline 6 facing rear",)),
    # several units of the charger's (docs/rules.md §3.11, Several units)
    "combat: a second unit charges the flank, each losing unit tests, any pursuer catches": Combat(
        models=6, width=3, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=8, enemy_width=4, enemy_attacks=1, enemy_offensive=4, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7,
        with_unit=("models 4 width 4 attacks 1 offensive 4 defensive 3 strength 3 resilience 3 agility 4 "
                   "discipline 6 facing flank",)),
    "combat: flank and rear, a character, restrained pursuits, two rounds": Combat(
        models=3, width=3, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        flank=True, enemy_models=6, enemy_width=3, enemy_attacks=1, enemy_offensive=4, enemy_defensive=3,
        enemy_strength=4, enemy_resilience=3, enemy_agility=4, enemy_discipline=8,
        enemy_character="A2 O4 D4 S4 R4 I5 H2 V9", pursuit="restrain", rounds=2,
        with_unit=("models 3 width 3 attacks 1 offensive 3 defensive 3 strength 4 resilience 3 agility 2 "
                   "discipline 6 swiftstride facing rear",)),
    "combat: a second unit with its own Battle Standard Bearer in the flank, two rounds": Combat(
        models=2, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=6,
        enemy_models=4, enemy_width=2, enemy_attacks=1, enemy_offensive=4, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, rounds=2,
        with_unit=("models 2 width 2 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 4 "
                   "discipline 5 facing flank character A2 O4 D4 S4 R4 I4 H2 V8 battle-standard",)),
    "combat: a Duel while a second unit's character fights the rank and file": Combat(
        models=2, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=2, enemy_width=2, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, character="A2 O4 D4 S4 R4 I4 H2 V8",
        enemy_character="A2 O4 D4 S4 R4 I3 H2 V8", challenge=True,
        with_unit=("models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 "
                   "discipline 6 facing rear character A3 O5 D4 S4 R4 I5 H1",)),
    # the charged side's other units (docs/rules.md §3.11, Several units)
    "combat: the charged side's second unit in the charger's flank, two rounds": Combat(
        models=4, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=4, enemy_width=4, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, rounds=2,
        enemy_with_unit=("models 2 width 2 attacks 1 offensive 4 defensive 3 strength 3 resilience 3 agility 4 "
                         "discipline 6 facing flank",)),
    # Combat Reforms between rounds (docs/rules.md §3.11)
    "combat: the charged unit gone, the charger turns to face the unit in its flank (Combat Reform), four rounds":
        Combat(models=4, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3,
               discipline=7, enemy_models=1, enemy_width=1, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3,
               enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=5, rounds=4,
               enemy_with_unit=("models 2 width 2 attacks 1 offensive 4 defensive 3 strength 3 resilience 3 agility 3 "
                                "discipline 7 facing flank",)),
    "combat: an Unbreakable unit with a character charged in the flank tests to turn (Combat Reform), three rounds":
        Combat(**KNIGHTS, flank=True, rounds=3, enemy_models=8, enemy_width=4, enemy_attacks=1, enemy_offensive=3,
               enemy_defensive=3, enemy_strength=3, enemy_resilience=3, enemy_agility=3, enemy_discipline=5,
               enemy_unbreakable=True, enemy_character="A1 O3 D3 S3 R3 I3 H1 V8"),
    "combat: knights in the flank fought to the end, the spearmen keep their formation (--combat-reform keep)":
        Combat(**KNIGHTS, **SPEARMEN, flank=True, rounds="end", combat_reform="keep"),
    "combat: a second unit each side, the charged side's with a character, restrained pursuits": Combat(
        models=2, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=3, enemy_width=3, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, pursuit="restrain", chase="ally",
        with_unit=("models 1 width 1 attacks 1 offensive 3 defensive 3 strength 4 resilience 3 agility 2 "
                   "discipline 6 swiftstride facing rear",),
        enemy_with_unit=("models 1 width 1 attacks 1 offensive 3 defensive 3 strength 3 resilience 3 agility 3 "
                         "discipline 5 facing flank character A2 O4 D4 S4 R4 I4 H1 V9",)),
    "combat: two units on one front share its front rank, two rounds": Combat(
        models=2, width=2, attacks=1, offensive=3, defensive=3, strength=3, resilience=3, agility=3, discipline=7,
        enemy_models=6, enemy_width=3, enemy_attacks=1, enemy_offensive=3, enemy_defensive=3, enemy_strength=3,
        enemy_resilience=3, enemy_agility=3, enemy_discipline=7, enemy_character="A1 O4 D4 S3 R3 I4 H1", rounds=2,
        with_unit=("models 2 width 2 attacks 1 offensive 4 defensive 3 strength 3 resilience 3 agility 2 "
                   "discipline 6 facing front",)),
    "melee worked example (4+/3+/5+/Aegis 5+)": Melee(attacks=10, **T9A_BASE, armour=2, aegis=5),
    "melee 2+ to hit, 6+ to wound, no armour": Melee(attacks=8, offensive=9, defensive=3, strength=2,
                                                     resilience=5),
    "melee 6+ to hit, 2+ to wound, armour 6 (2+)": Melee(attacks=12, offensive=1, defensive=10, strength=8,
                                                         resilience=3, armour=6),
    "melee hit modifier +3 (natural 1 still fails)": Melee(attacks=10, **T9A_BASE, hit_modifier=3, armour=3),
    "melee hit modifier -4 (natural 6 still hits)": Melee(attacks=10, **T9A_BASE, hit_modifier=-4, armour=1),
    "melee AP against armour": Melee(attacks=10, **T9A_BASE, armour=5, ap=2),
    "melee Battle Focus": Melee(attacks=10, **T9A_BASE, battle_focus=True, armour=2),
    "melee Poison": Melee(attacks=10, **T9A_BASE, poison=True, armour=3),
    "melee Battle Focus and Poison": Melee(attacks=10, **T9A_BASE, battle_focus=True, poison=True, armour=3, aegis=6),
    "melee Lethal Strike": Melee(attacks=10, offensive=4, defensive=4, strength=3, resilience=4, armour=4,
                                 lethal_strike=True),
    "melee Lethal Strike, Fortitude and Aegis": Melee(attacks=10, **T9A_BASE, armour=3, lethal_strike=True,
                                                      fortitude=4, aegis=6),
    "melee Lethal Strike, re-rolled wounds": Melee(attacks=10, **T9A_BASE, armour=4, lethal_strike=True,
                                                   reroll_wounds="failed"),
    "melee Poison and Lethal Strike": Melee(attacks=10, **T9A_BASE, armour=4, poison=True, lethal_strike=True),
    "melee Hatred (re-roll failed hits)": Melee(attacks=10, **T9A_BASE, reroll_hits="failed", battle_focus=True,
                                                poison=True),
    "melee Fortitude": Melee(attacks=10, **T9A_BASE, armour=1, fortitude=5),
    "melee Aegis and Fortitude: the better": Melee(attacks=10, **T9A_BASE, armour=2, aegis=4, fortitude=5),
    "melee Divine against Aegis": Melee(attacks=10, **T9A_BASE, armour=2, aegis=3, divine=True),
    "melee Divine: Fortitude becomes better": Melee(attacks=10, **T9A_BASE, armour=2, aegis=4, fortitude=4,
                                                    divine=True),
    "melee Flaming: no Fortitude": Melee(attacks=10, **T9A_BASE, armour=2, aegis=6, fortitude=3, flaming=True),
    "melee Flaming against Flammable": Melee(attacks=10, offensive=4, defensive=4, strength=3, resilience=4,
                                             flaming=True, flammable=True),
    "melee Toxic": Melee(attacks=10, offensive=4, defensive=4, resilience=3, toxic=True, armour=4, aegis=5),
    "melee Multiple Wounds (D3) vs 2 Health": Melee(attacks=10, **T9A_BASE, armour=2, aegis=5, multiple_wounds="d3",
                                                    health=2),
    "melee Multiple Wounds (2) vs 3 Health": Melee(attacks=10, **T9A_BASE, multiple_wounds=2, health=3),
    "melee Multiple Wounds (2D6) vs 5 Health": Melee(attacks=6, **T9A_BASE, armour=1, multiple_wounds="2d6", health=5),
    "melee Multiple Wounds (D3+1), 4 models of 3": Melee(attacks=10, **T9A_BASE, armour=2, multiple_wounds="d3+1",
                                                         health=3, models=4),
    "melee 5 models of 1 Health": Melee(attacks=12, **T9A_BASE, models=5, health=1),
    "melee 2D6 attacks": Melee(attacks="2d6", **T9A_BASE, armour=2, battle_focus=True),
    "melee D6+1 attacks, everything": Melee(attacks="d6+1", **T9A_BASE, armour=3, aegis=5, fortitude=4, divine=True,
                                            battle_focus=True, poison=True, lethal_strike=True,
                                            reroll_hits="failed", reroll_wounds="failed", multiple_wounds="d3",
                                            health=3, models=3),
    "melee 60 attacks": Melee(attacks=60, **T9A_BASE, armour=2, aegis=5, multiple_wounds="d6", health=4, models=10),
    "shoot 4+": T9AShoot(shots=10, aim=4, strength=3, resilience=3, armour=1),
    "shoot 4+ at -2": T9AShoot(shots=10, aim=4, modifier=-2, strength=4, resilience=3, armour=2),
    "melee, re-roll 1s to hit and to wound, Lethal Strike": Melee(attacks=8, **T9A_BASE, reroll_hits="ones",
                                                                  reroll_wounds="ones", lethal_strike=True, armour=3),
    "automatic hits 2d6, Flaming against Flammable": T9AHits(hits="2d6", strength=4, ap=1, resilience=4, armour=2,
                                                             flaming=True, flammable=True, fortitude=5),
    "melee, forced re-roll of successful wounds, target re-rolls failed armour": Melee(
        attacks=8, **T9A_BASE, reroll_wounds="successes", armour=3, reroll_armour="failed", aegis=5,
        reroll_special="ones"),
    "melee that wounds automatically": Melee(attacks="2d6", **T9A_BASE, auto_wound=True, armour=2, aegis=5),
    "Impact Hits (D6+1) on 10 models": T9AHits(hits="d6+1", strength=5, ap=2, resilience=3, health=1, models=10),
    "shoot 3+, long range, soft cover, Hard Target (1)": T9AShoot(shots=8, aim=3, long_range=True, cover="soft",
                                                                  hard_target=1, strength=4, resilience=4),
    "shoot 2+ at +2 (natural 1 misses)": T9AShoot(shots=10, aim=2, modifier=2, strength=4, resilience=3),
    "shoot hopeless 7+": T9AShoot(shots=24, aim=4, modifier=-3, strength=4, resilience=3),
    "shoot hopeless, re-rolled": T9AShoot(shots=24, aim=5, modifier=-2, strength=4, resilience=3,
                                       reroll_hits="failed"),
    "shoot hopeless, Battle Focus and Poison": T9AShoot(shots=24, aim=6, modifier=-1, strength=4, resilience=3,
                                                     battle_focus=True, poison=True),
    "shoot 8+ cannot hit": T9AShoot(shots=10, aim=4, modifier=-4, strength=4, resilience=3, poison=True),
    # 2D6 shots each roll to hit (a Breath Attack's 2D6 hits do not: "automatic hits 2d6" above)
    "shoot 2D6 shots, Flaming, Flammable": T9AShoot(shots="2d6", aim=2, strength=4, resilience=4, flaming=True,
                                                 flammable=True, fortitude=5),
    "shoot Poison and Battle Focus at -1": T9AShoot(shots=12, aim=3, modifier=-1, strength=3, resilience=4,
                                                 battle_focus=True, poison=True, armour=2),
    # each re-roll policy of docs/rules.md §3.1 on the roll it is not yet sampled on above
    "melee, forced re-roll of successful hits, Battle Focus and Poison": Melee(
        attacks=10, **T9A_BASE, reroll_hits="successes", battle_focus=True, poison=True, armour=2),
    "melee, target re-rolls armour saves of 1": Melee(attacks=10, **T9A_BASE, armour=3, ap=1, reroll_armour="ones",
                                                      aegis=6),
    "melee, target must re-roll successful armour saves, Lethal Strike": Melee(
        attacks=10, **T9A_BASE, armour=4, reroll_armour="successes", lethal_strike=True),
    "melee, target re-rolls failed Aegis saves, Multiple Wounds (D3)": Melee(
        attacks=10, **T9A_BASE, armour=1, aegis=5, reroll_special="failed", multiple_wounds="d3", health=2),
    "melee, target must re-roll successful Fortitude saves, Lethal Strike": Melee(
        attacks=10, **T9A_BASE, armour=2, fortitude=4, reroll_special="successes", lethal_strike=True),
    "shoot, re-roll 1s to hit and to wound": T9AShoot(shots=12, aim=4, modifier=-1, strength=4, resilience=4,
                                                      reroll_hits="ones", reroll_wounds="ones", armour=2),
    "shoot hopeless, re-roll 1s, Poison": T9AShoot(shots=24, aim=4, modifier=-3, strength=4, resilience=3,
                                                   reroll_hits="ones", poison=True),
    "charge 9, plain": Charge(distance=9),
    "charge 9, maximised": Charge(distance=9, maximised=1),
    "charge 7, minimised twice": Charge(distance=7, minimised=2),
    "charge 10, maximised 2 minimised 1": Charge(distance=10, maximised=2, minimised=1),
    "discipline test 7": DisciplineTest(discipline=7),
    "discipline test 8, minimised": DisciplineTest(discipline=8, minimised=1),
    "discipline test 9, maximised": DisciplineTest(discipline=9, maximised=1),
    "direction die": Direction(),
    # Combat Reform (docs/rules.md §3.9) and the direction die's scatter (§3.1)
    "discipline test 8 at a penalty of 3": DisciplineTest(discipline=8, penalty=3),
    "combat reform 8, penalty 2, minimised": DisciplineTest(discipline=8, penalty=2, combat_reform=True, minimised=1),
    "combat reform 7, penalty 4 ignored (Steadfast)": DisciplineTest(discipline=7, penalty=4, steadfast=True,
                                                                    combat_reform=True),
    "combat reform engaged on two facings": DisciplineTest(discipline=9, combat_reform=True, facings=2),
    "direction die, scatter 2d6": Direction(scatter="2d6"),
    "direction die, scatter d6+1 within 3": Direction(scatter="d6+1", radius=3),
    "direction die, scatter 3d6 within 0": Direction(scatter="3d6", radius=0),
    "direction die, a fixed scatter of 4 within 4": Direction(scatter="4", radius=4),
}


ALL = {f"{game} {name}": attack for game, table in (("roll", ROLL), ("dust", DUST), ("epic", EPIC), ("t9a", T9A)) for name, attack in table.items()}
