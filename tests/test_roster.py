"""Every roster field changes a grid cell as the rules say (or is refused), and every cell
is the query it shows: the single command line, run, gives exactly the same answer.

Each case is one attacker weapon against one target, written as roster fields; the
expected value is worked out by hand from docs/rules.md in Fractions. Last, what one field
(`oddscalc.lists.roster.Field`) allows and reads.
"""

import shlex
from dataclasses import replace
from fractions import Fraction as F
from math import comb

import pytest
from clirun import exact_json, run

from oddscalc.lists import games
from oddscalc.core import pmf
from oddscalc.query.words import parse_query
from oddscalc.errors import InputError
from oddscalc.studies.grid import grid_rows, matchups, run_grid
from oddscalc.lists.roster import Field
from oddscalc.output.style import clean

P = F(1, 3)  # the Dust die


def roster(game: str, attacker: str, weapon: str, target: str) -> str:
    """A roster of an attacker "A" with one weapon "W", and a target unit "T"."""
    return (f'game = "{game}"\n\n[[unit]]\nname = "A"\n{attacker}\n\n[[unit.weapon]]\nname = "W"\n{weapon}\n\n'
            f'[[unit]]\nname = "T"\n{target}\n')


DUST_A = 'points = 10\nkind = "soldier"\narmour = 1'
DUST_T = 'kind = "soldier"\narmour = 1\nmodels = 4'
LINE = 'soldier = ["2/1", "2/1", "2/1", "2/1"]'
EPIC_A = 'points = 100\nkind = "infantry"\nunits = 1\narmour = "4+"'
EPIC_T = 'kind = "infantry"\nunits = 1\narmour = "4+"'
SHOT = 'ap = "4+"'
MIXED = 'kind = "infantry"\nunits = 1\narmour = "4+"\nvehicles = 1\nvehicle_armour = "5+"'
ENGINE = 'kind = "war-engine"\nunits = 1\narmour = "4+"\ndamage_capacity = 1'
T9A_A = "points = 100\nmodels = 1\noffensive = 4\ndefensive = 4\nstrength = 4\nresilience = 4"
T9A_T = "models = 1\noffensive = 4\ndefensive = 4\nstrength = 4\nresilience = 4"
T9A_FIVE = T9A_T.replace("models = 1", "models = 5")  # health lost is capped at models × health


def kills_at_most(n: int, p: F, cap: int) -> F:
    """E[min(Binomial(n, p), cap)]."""
    return sum(min(k, cap) * comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def ASSAULT(**enemy) -> dict:  # noqa: N802 (a table's shorthand)
    """The means, exactly, of one unit (CC 4+, no FF, armour 4+, `extra_attacks`) assaulting one unit of armour
    4+ with `enemy` options: what a roster's assault cell must compute."""
    from oddscalc.epic.assault import Assault

    mine = {"extra_attacks": enemy.pop("extra_attacks", 0), "first_strike": enemy.pop("first_strike", False)}
    enemy.setdefault("enemy_units", 1)
    attack = Assault(units=1, cc=4, ff=None, armour=4, enemy_armour=4, **mine, **enemy)
    return {name: pmf.mean(values) for name, values in attack.exact(fractions=True).items()}


def COMBAT(**more) -> dict:  # noqa: N802 (a table's shorthand)
    """The means, exactly, of one T9A model (O4 D4 S4 R4, Attack Value 2, Agility 4, Discipline 7) charging one of
    O4 D4 S4 R4 (Attack Value 1, Agility 3, Discipline 6) with `more` options: what a combat cell must compute."""
    from oddscalc.t9a.combat import Combat

    values = dict(models=1, width=5, attacks=2, offensive=4, defensive=4, strength=4, resilience=4, agility=4,
                  discipline=7, enemy_models=1, enemy_width=5, enemy_attacks=1, enemy_offensive=4,
                  enemy_defensive=4, enemy_strength=4, enemy_resilience=4, enemy_agility=3, enemy_discipline=6)
    values.update(more)
    for prefix in ("", "enemy_"):  # a roster's 5 wide, in a unit of fewer models: as wide as the unit
        values[prefix + "width"] = min(values[prefix + "width"], values[prefix + "models"])
    attack = Combat(**values)
    return {name: pmf.mean(values) for name, values in attack.exact(fractions=True).items()}


T9A_FIGHTS = "\nattack_value = 2\nagility = 4\ndiscipline = 7"
T9A_HOLDS = "\nattack_value = 1\nagility = 3\ndiscipline = 6"

# (id, game, fields exercised, attacker, weapon, target, statistic, expected)
CASES = [
    # --- Dust Tactics (docs/rules.md §1): E[damage] = dice × count × P(hit) × P(past the save) × D ...
    ("dust line 2/1", "dust", {"soldier", "kind", "armour", "points"}, DUST_A, LINE, DUST_T, "mean", 2 * P),
    ("dust count 3", "dust", {"count"}, DUST_A, LINE + "\ncount = 3", DUST_T, "mean", 2 * P * 3),
    ("dust damage 3 per hit", "dust", {"soldier"}, DUST_A, 'soldier = ["2/3", "-", "-", "-"]', DUST_T, "mean",
     2 * P * 3),
    ("dust armour class picks the entry", "dust", {"armour"}, DUST_A, 'soldier = ["3/1", "3/1", "1/1", "1/1"]',
     'kind = "soldier"\narmour = 3', "mean", P),
    ("dust vehicle line", "dust", {"vehicle", "kind"}, DUST_A,
     'vehicle = ["1/1", "2/2", "-", "-", "-", "-", "-"]', 'kind = "vehicle"\narmour = 2', "mean", 2 * P * 2),
    ("dust aircraft line", "dust", {"aircraft"}, DUST_A, 'aircraft = ["1/2", "-", "-"]',
     'kind = "aircraft"\narmour = 1', "mean", 2 * P),
    ("dust no line for the target", "dust", {"kind"}, DUST_A, LINE, 'kind = "vehicle"\narmour = 1', "none", None),
    ("dust hit-save", "dust", {"save"}, DUST_A, LINE, DUST_T + '\nsave = "hit"', "mean", 2 * P * F(2, 3)),
    ("dust miss-save", "dust", {"save"}, DUST_A, LINE, DUST_T + '\nsave = "miss"', "mean", 2 * P * F(1, 3)),
    ("dust Damage Resilient", "dust", {"resilient"}, DUST_A, 'soldier = ["3/2", "-", "-", "-"]',
     DUST_T + "\nresilient = true", "mean", 3 * P * 2 * F(2, 3)),
    ("dust two 1z2 phasers", "dust", {"phaser", "count"}, DUST_A, 'phaser = "1z2"\ncount = 2', DUST_T, "mean",
     F(4, 9)),
    ("dust range A is artillery: it ignores cover", "dust", {"range"}, DUST_A, LINE + '\nrange = "A"',
     DUST_T + '\nsave = "hit"', "mean", 2 * P),
    ("dust a phaser ignores cover", "dust", {"phaser"}, DUST_A, 'phaser = "1z2"', DUST_T + '\nsave = "hit"',
     "mean", F(2, 9)),
    ("dust salvo, one charge", "dust", {"salvo"}, DUST_A, 'salvo = "3/2-5/2"', DUST_T, "mean", 3 * P * 2),
    ("dust salvo, two charges", "dust", {"salvo", "charges"}, DUST_A, 'salvo = "3/2-5/2"\ncharges = 2', DUST_T,
     "mean", 5 * P * 2),
    ("dust two salvo launchers", "dust", {"salvo", "count"}, DUST_A, 'salvo = "3/2-5/2"\ncharges = 2\ncount = 2',
     DUST_T, "mean", 2 * 5 * P * 2),
    ("dust two flamethrowers on 4 models", "dust", {"incendiary", "count", "models"}, DUST_A,
     "incendiary = 1\ncount = 2", DUST_T, "mean", F(8, 3)),
    ("dust incendiary per model", "dust", {"incendiary", "models"}, DUST_A, "incendiary = 1",
     'kind = "soldier"\narmour = 1\nmodels = 6', "mean", 6 * P),
    ("dust AP incendiary", "dust", {"ap_incendiary"}, DUST_A, "ap_incendiary = 1",
     'kind = "soldier"\narmour = 1\nmodels = 3', "mean", 1 - F(2, 3) ** 3),
    ("dust two AP incendiaries", "dust", {"ap_incendiary", "count"}, DUST_A, "ap_incendiary = 1\ncount = 2",
     'kind = "soldier"\narmour = 1\nmodels = 3', "mean", 1 - F(2, 3) ** 6),
    ("dust damage points: p_kill", "dust", {"damage_points", "models"}, DUST_A, 'soldier = ["6/1", "-", "-", "-"]',
     'kind = "soldier"\narmour = 1\nmodels = 2\ndamage_points = 3', "p_kill", P**6),
    ("dust points: per 100 points", "dust", {"points"}, DUST_A, LINE, DUST_T, "per_100_points", 2 * P * 100 / 10),
    # a range decides which weapons grid --distance keeps (docs/rules.md §1.13): reaches N squares?
    ("dust range 6 reaches 6", "dust", {"range"}, DUST_A, LINE + '\nrange = "6"', DUST_T, "reaches 6", True),
    ("dust range 6 not 7", "dust", {"range"}, DUST_A, LINE + '\nrange = "6"', DUST_T, "reaches 7", False),
    ("dust range 3-6 not 2", "dust", {"range"}, DUST_A, LINE + '\nrange = "3-6"', DUST_T, "reaches 2", False),
    ("dust range C: adjacent", "dust", {"range"}, DUST_A, LINE + '\nrange = "C"', DUST_T, "reaches 1", True),
    ("dust range C not 2", "dust", {"range"}, DUST_A, LINE + '\nrange = "C"', DUST_T, "reaches 2", False),
    ("dust range A not 3", "dust", {"range"}, DUST_A, LINE + '\nrange = "A"', DUST_T, "reaches 3", False),
    ("dust range U reaches 40", "dust", {"range"}, DUST_A, LINE + '\nrange = "U"', DUST_T, "reaches 40", True),
    ("dust arcing mortar 2-8", "dust", {"range", "arcing"}, DUST_A, LINE + '\nrange = "2-8"\narcing = true', DUST_T,
     "reaches 8", True),
    ("dust no range: unknown", "dust", {"range"}, DUST_A, LINE, DUST_T, "reaches 3", None),
    # --- Epic Armageddon (docs/rules.md §2): one shot at one unit, E[kills] = P(hit) × P(every save fails)
    ("epic AP shot", "epic", {"ap", "kind", "units", "armour"}, EPIC_A, SHOT, EPIC_T, "mean", F(1, 2) * F(1, 2)),
    ("epic in cover with a cover save", "epic", {"cover_save"}, EPIC_A, SHOT, EPIC_T + '\ncover_save = "3+"',
     "mean", F(1, 3) * F(1, 3)),
    ("epic cover save, not in cover", "epic", {"in_cover", "cover_save"}, EPIC_A, SHOT,
     EPIC_T + '\ncover_save = "3+"\nin_cover = false', "mean", F(1, 2) * F(1, 3)),
    ("epic in cover, no cover save", "epic", {"in_cover"}, EPIC_A, SHOT, EPIC_T + "\nin_cover = true", "mean",
     F(1, 3) * F(1, 2)),
    ("epic reinforced armour", "epic", {"reinforced"}, EPIC_A, SHOT, EPIC_T + "\nreinforced = true", "mean",
     F(1, 2) * F(1, 4)),
    ("epic invulnerable save", "epic", {"invulnerable"}, EPIC_A, SHOT, EPIC_T + "\ninvulnerable = true", "mean",
     F(1, 2) * F(1, 2) * F(5, 6)),
    ("epic no armour", "epic", {"armour"}, EPIC_A, SHOT, 'kind = "infantry"\nunits = 1\narmour = "none"', "mean",
     F(1, 2)),
    ("epic three shots at one unit", "epic", {"shots"}, EPIC_A, SHOT + "\nshots = 3", EPIC_T, "mean",
     1 - F(3, 4) ** 3),
    ("epic two shots at two units", "epic", {"shots", "units"}, EPIC_A, SHOT + "\nshots = 2",
     'kind = "infantry"\nunits = 2\narmour = "4+"', "mean", F(1, 2) * F(1, 2) + F(1, 4)),
    ("epic AP cannot hurt armour", "epic", {"kind"}, EPIC_A, SHOT,
     'kind = "armoured-vehicle"\nunits = 1\narmour = "4+"', "none", None),
    ("epic AT shot", "epic", {"at"}, EPIC_A, 'at = "5+"', 'kind = "armoured-vehicle"\nunits = 1\narmour = "4+"',
     "mean", F(1, 3) * F(1, 2)),
    ("epic light vehicle takes the better", "epic", {"ap", "at"}, EPIC_A, 'ap = "5+"\nat = "4+"',
     'kind = "light-vehicle"\nunits = 1\narmour = "4+"', "mean", F(1, 2) * F(1, 2)),
    ("epic macro-weapon", "epic", {"mw"}, EPIC_A, 'mw = "3+"', EPIC_T, "mean", F(2, 3)),
    ("epic macro-weapon at reinforced armour", "epic", {"mw", "reinforced"}, EPIC_A, 'mw = "3+"',
     EPIC_T + "\nreinforced = true", "mean", F(2, 3) * F(1, 2)),
    ("epic barrage 3 BP", "epic", {"bp"}, EPIC_A, "bp = 3", 'kind = "infantry"\nunits = 2\narmour = "4+"', "mean",
     2 * F(1, 2) * F(1, 2)),
    ("epic barrage 3 BP, AT", "epic", {"bp"}, EPIC_A, "bp = 3", 'kind = "armoured-vehicle"\nunits = 2\narmour = "4+"',
     "mean", 2 * F(1, 3) * F(1, 2)),
    ("epic barrage 6 BP: two templates of 3", "epic", {"bp", "units"}, EPIC_A, "bp = 6",
     'kind = "infantry"\nunits = 10\narmour = "4+"', "mean", 6 * F(1, 4)),
    ("epic barrage into cover", "epic", {"bp", "cover_save"}, EPIC_A, "bp = 3",
     'kind = "infantry"\nunits = 2\narmour = "6+"\ncover_save = "4+"', "mean", 2 * F(1, 3) * F(1, 2)),
    ("epic disrupt: a blast marker per hit", "epic", {"special"}, EPIC_A, SHOT + '\nspecial = ["disrupt"]',
     'kind = "infantry"\nunits = 3\narmour = "4+"', "blast_markers", 1 + F(1, 2)),
    ("epic no disrupt: a blast marker per kill", "epic", {"special"}, EPIC_A, SHOT,
     'kind = "infantry"\nunits = 3\narmour = "4+"', "blast_markers", 1 + F(1, 4)),
    ("epic lance stops the re-roll", "epic", {"special"}, EPIC_A, SHOT + '\nspecial = ["lance"]',
     EPIC_T + "\nreinforced = true", "mean", F(1, 4)),
    ("epic titan killer: no save", "epic", {"special"}, EPIC_A, SHOT + '\nspecial = ["titan-killer"]',
     EPIC_T + "\nreinforced = true", "mean", F(1, 2)),
    ("epic sniper: save at -1", "epic", {"special"}, EPIC_A, SHOT + '\nspecial = ["sniper"]', EPIC_T, "mean",
     F(1, 2) * F(2, 3)),
    ("epic ignore cover", "epic", {"special"}, EPIC_A, SHOT + '\nspecial = ["ignore-cover"]',
     EPIC_T + '\ncover_save = "3+"', "mean", F(1, 2) * F(1, 2)),
    ("epic macro-weapon barrage", "epic", {"special", "bp"}, EPIC_A, 'bp = 3\nspecial = ["macro"]',
     'kind = "infantry"\nunits = 2\narmour = "4+"', "mean", 2 * F(1, 2)),
    ("epic points: per 100 points", "epic", {"points"}, EPIC_A, SHOT, EPIC_T, "per_100_points", F(1, 4) * 100 / 100),
    # crossfire makes saves -1 (docs/rules.md §2.2) unless the target has thick rear armour
    ("epic crossfire: save at -1", "epic", {"thick_rear_armour"}, EPIC_A, SHOT, EPIC_T, "mean in crossfire",
     F(1, 2) * F(2, 3)),
    ("epic thick rear armour: crossfire's -1 ignored", "epic", {"thick_rear_armour"}, EPIC_A, SHOT,
     EPIC_T + "\nthick_rear_armour = true", "mean in crossfire", F(1, 2) * F(1, 2)),
    # a mixed formation (§2.3): AP fire at its infantry, AT fire at its vehicles, either at the part in front
    ("epic mixed: AP at the infantry", "epic", {"vehicles", "vehicle_armour"}, EPIC_A, SHOT, MIXED, "mean",
     F(1, 2) * F(1, 2)),
    ("epic mixed: AT at the vehicles", "epic", {"vehicles", "vehicle_armour"}, EPIC_A, 'at = "5+"', MIXED, "mean",
     F(1, 3) * F(2, 3)),
    ("epic mixed: reinforced vehicles", "epic", {"vehicle_reinforced"}, EPIC_A, 'at = "5+"',
     MIXED + "\nvehicle_reinforced = true", "mean", F(1, 3) * F(2, 3) * F(2, 3)),
    ("epic mixed: AP and AT, infantry in front", "epic", {"front"}, EPIC_A, 'ap = "4+"\nat = "6+"', MIXED, "mean",
     F(1, 2) * F(1, 2)),
    ("epic mixed: AP and AT, vehicles in front", "epic", {"front"}, EPIC_A, 'ap = "4+"\nat = "6+"',
     MIXED + '\nfront = "vehicles"', "mean", F(1, 6) * F(2, 3)),
    ("epic mixed: a macro-weapon at the vehicles in front", "epic", {"front", "mw"}, EPIC_A, 'mw = "3+"',
     MIXED + '\nfront = "vehicles"', "mean", F(2, 3)),
    ("epic mixed: a barrage at the infantry in front", "epic", {"front", "bp"}, EPIC_A, "bp = 3", MIXED, "mean",
     F(1, 2) * F(1, 2)),
    # assaults (grid --assault, §2.9): the roster's cc, ff, extra attacks and fearless are the assault's own
    ("epic assault: cc and ff of both sides", "epic", {"cc", "ff"}, EPIC_A + '\ncc = "4+"\nff = "none"', SHOT,
     EPIC_T + '\ncc = "5+"\nff = "3+"\ncover_save = "5+"', "assault win",
     ASSAULT(enemy_cc=5, enemy_ff=3, enemy_cover_save=5)["win"]),
    ("epic assault: extra attacks", "epic", {"extra_attacks"}, EPIC_A + '\ncc = "4+"\nff = "none"\nextra_attacks = 2',
     SHOT, EPIC_T + '\ncc = "5+"\nff = "3+"', "assault win", ASSAULT(extra_attacks=2, enemy_cc=5, enemy_ff=3)["win"]),
    ("epic assault: a fearless loser", "epic", {"fearless"}, EPIC_A + '\ncc = "4+"\nff = "none"', SHOT,
     EPIC_T + '\ncc = "none"\nff = "none"\nfearless = true', "assault kills",
     ASSAULT(enemy_cc=None, enemy_ff=None, enemy_fearless=True)["kills"]),
    ("epic assault: first strike", "epic", {"first_strike"}, EPIC_A + '\ncc = "4+"\nff = "none"\nfirst_strike = true',
     SHOT, EPIC_T + '\ncc = "5+"\nff = "3+"', "assault win", ASSAULT(first_strike=True, enemy_cc=5, enemy_ff=3)["win"]),
    ("epic assault: the target's kinds, each with its own values", "epic", {"assault"},
     EPIC_A + '\ncc = "4+"\nff = "none"', SHOT,
     EPIC_T + '\nassault = ["1 cc 5+ ff 3+ armour 4+", "1 cc none ff none armour none in-contact 0"]', "assault win",
     ASSAULT(enemy_cc=5, enemy_ff=3, enemy_other=("1 cc none ff none armour none in-contact 0",))["win"]),
    ("epic assault: a war engine's damage capacity and critical hit", "epic", {"damage_capacity", "critical"},
     EPIC_A + '\ncc = "4+"\nff = "none"', SHOT,
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 3") + '\ncc = "5+"\nff = "3+"\ncritical = "damage"',
     "assault kills", ASSAULT(enemy_damage_capacity=3, enemy_critical="damage", enemy_cc=5, enemy_ff=3)["kills"]),
    ("epic assault: war engines of two profiles, each its damage capacity and critical hit (issue 48)", "epic",
     {"assault"}, EPIC_A + '\ncc = "4+"\nff = "none"', SHOT,
     ENGINE + '\nassault = ["1 DC3 cc 5+ ff 4+ armour 4+ critical destroyed", "1 DC2 cc 6+ ff 5+ armour 5+"]',
     "assault kills", ASSAULT(enemy_damage_capacity=3, enemy_critical="destroyed", enemy_cc=5, enemy_ff=4,
                              enemy_other=("1 DC2 cc 6+ ff 5+ armour 5+",))["kills"]),
    ("epic assault: They Shall Know No Fear halves the loser's extra hits", "epic", {"know_no_fear"},
     EPIC_A + '\ncc = "4+"\nff = "none"', SHOT, EPIC_T.replace("units = 1", "units = 3") + '\ncc = "none"\nff = "none"\nknow_no_fear = true',
     "assault kills", ASSAULT(enemy_cc=None, enemy_ff=None, enemy_units=3, enemy_know_no_fear=True)["kills"]),
    ("epic assault: no ff given, no assault", "epic", {"cc"}, EPIC_A + '\ncc = "4+"', SHOT,
     EPIC_T + '\ncc = "4+"\nff = "4+"', "assault win", None),
    # war engines (§2.8): AT or MW hits, shields first, damage capacity, critical hits, titan killers
    ("epic war engine: AP cannot hurt it", "epic", {"kind"}, EPIC_A, SHOT, ENGINE, "none", None),
    ("epic war engine of DC 1", "epic", {"damage_capacity"}, EPIC_A, 'at = "4+"', ENGINE, "mean",
     F(1, 2) * F(1, 2)),
    ("epic a void shield stops the one hit", "epic", {"shields"}, EPIC_A, 'at = "4+"', ENGINE + "\nshields = 1",
     "mean", F(0)),
    ("epic a void shield, then a saved hit", "epic", {"shields"}, EPIC_A, 'at = "4+"\nshots = 2',
     ENGINE + "\nshields = 1", "mean", F(1, 4) * F(1, 2)),
    ("epic DC 2 takes two failed saves", "epic", {"damage_capacity"}, EPIC_A, 'at = "4+"\nshots = 2',
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 2"), "mean", F(1, 4) ** 2),
    ("epic critical hit: destroyed", "epic", {"critical"}, EPIC_A, 'at = "4+"',
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 3") + '\ncritical = "destroyed"', "mean",
     F(1, 4) * F(1, 6)),
    ("epic critical hit: one more point, twice", "epic", {"critical"}, EPIC_A, 'at = "4+"',
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 3") + '\ncritical = "damage"', "mean",
     F(1, 4) * F(1, 6) ** 2),
    ("epic titan killer D3 against DC 2", "epic", {"tk_damage", "special"}, EPIC_A,
     'mw = "2+"\nspecial = ["titan-killer"]\ntk_damage = "d3"',
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 2"), "mean", F(5, 6) * F(2, 3)),
    ("epic titan killer of 1 against DC 2", "epic", {"special"}, EPIC_A, 'mw = "2+"\nspecial = ["titan-killer"]',
     ENGINE.replace("damage_capacity = 1", "damage_capacity = 2"), "mean", F(0)),
    # war engines of two profiles (§2.8): the first DC 1 takes hit 1, the second (DC 2, no save) hits 2 and 3;
    # two hits at 4+: a kill only when the first hit fails its 4+ save (one war engine alone would take both)
    ("epic war engines of two profiles, each its block of hits", "epic", {"other_engines"}, EPIC_A,
     'at = "4+"\nshots = 2', ENGINE + '\nother_engines = ["1 DC2 armour none"]', "mean", F(3, 4) * F(1, 2)),
    ("epic a war engine alone breaks at its DC", "epic", {"kind"}, EPIC_A, 'at = "4+"', ENGINE, "broken", F(1)),
    ("epic other units count toward breaking", "epic", {"other_units"}, EPIC_A, 'at = "4+"',
     ENGINE + "\nother_units = 2", "broken", F(1, 4)),
    # a formation mixing war engines and other units (§2.8): hits front to back over what the fire can hurt
    ("epic AP fire reaches a war engine's infantry", "epic", {"other_armour"}, EPIC_A, SHOT,
     ENGINE + '\nother_units = 2\nother_armour = "5+"', "other_kills", F(1, 2) * F(2, 3)),
    ("epic AT fire beside infantry: the war engines only", "epic", {"other_armour", "other_kind"}, EPIC_A,
     'at = "4+"', ENGINE + '\nother_units = 2\nother_armour = "5+"', "mean", F(1, 2) * F(1, 2)),
    ("epic AT fire beside vehicles: the war engine in front", "epic", {"other_kind"}, EPIC_A, 'at = "4+"\nshots = 2',
     ENGINE + '\nother_units = 1\nother_armour = "5+"\nother_kind = "armoured-vehicle"', "other_kills",
     F(1, 4) * F(2, 3)),
    ("epic AT fire beside vehicles: the vehicles in front", "epic", {"others_in_front"}, EPIC_A,
     'at = "4+"\nshots = 2', ENGINE + '\nother_units = 1\nother_armour = "5+"\nother_kind = "light-vehicle"'
     '\nothers_in_front = true', "other_kills", F(3, 4) * F(2, 3)),
    ("epic AP fire at a war engine's infantry: kills count them", "epic", {"other_armour"}, EPIC_A, SHOT,
     ENGINE + '\nother_units = 2\nother_armour = "5+"', "mean", F(1, 2) * F(2, 3)),
    ("epic the whole formation: the war engine and its infantry", "epic", {"other_kind"}, EPIC_A, 'mw = "2+"',
     ENGINE + '\nother_units = 1\nother_armour = "none"', "p_kill", F(0)),  # one shot: two units to destroy
    ("epic the whole formation, two macro shots", "epic", {"other_kind"}, EPIC_A, 'mw = "2+"\nshots = 2',
     ENGINE + '\nother_units = 1\nother_armour = "none"', "p_kill", F(5, 6) ** 2),  # no save against MW
    ("epic a barrage's templates past the war engine fall on its infantry", "epic", {"other_armour", "bp"}, EPIC_A,
     "bp = 8", ENGINE + '\nother_units = 2\nother_armour = "5+"', "other_kills", 2 * F(1, 2) * F(2, 3)),
    ("epic a barrage at a war engine's vehicles rolls on AT", "epic", {"other_kind", "bp"}, EPIC_A, "bp = 8",
     ENGINE + '\nother_units = 2\nother_armour = "5+"\nother_kind = "armoured-vehicle"', "other_kills",
     2 * F(1, 3) * F(2, 3)),
    ("epic AP fire cannot hurt a war engine's vehicles", "epic", {"other_kind"}, EPIC_A, SHOT,
     ENGINE + '\nother_units = 1\nother_armour = "5+"\nother_kind = "armoured-vehicle"', "none", None),
    ("epic a lance at a war engine's reinforced infantry: no re-roll", "epic", {"other_reinforced", "special"},
     EPIC_A, 'ap = "4+"\nspecial = ["lance"]', ENGINE + '\nother_units = 1\nother_armour = "5+"'
     '\nother_reinforced = true', "other_kills", F(1, 2) * F(2, 3)),
    ("epic reinforced units beside a war engine", "epic", {"other_reinforced"}, EPIC_A, 'at = "4+"',
     ENGINE + '\nother_units = 1\nother_armour = "5+"\nother_kind = "armoured-vehicle"\nother_reinforced = true'
     '\nothers_in_front = true', "other_kills", F(1, 2) * F(2, 3) ** 2),
    # a weapon's other mode is never fired with it (docs/rules.md §4.1): grid --together fires the rest
    ("epic two weapons fired together", "epic", {"shots"}, EPIC_A, SHOT + '\n\n[[unit.weapon]]\nname = "V"\n' + SHOT,
     EPIC_T, "together", 1 - F(3, 4) ** 2),
    # grid --together (docs/rules.md §2.3): macro-weapons only; AT fire at a mixed formation; normal then macro
    ("epic two macro-weapons fired together", "epic", {"mw"}, EPIC_A,
     'mw = "3+"\n\n[[unit.weapon]]\nname = "V"\nmw = "4+"\nshots = 2', EPIC_T, "together",
     1 - F(1, 3) * F(1, 2) ** 2),  # no save against a macro-weapon: any hit (3+, then 4+ twice) kills
    ("epic two AT weapons at a mixed formation's vehicle", "epic", {"at"}, EPIC_A,
     'at = "4+"\n\n[[unit.weapon]]\nname = "V"\nat = "5+"', MIXED, "together",
     1 - (1 - F(1, 2) * F(2, 3)) * (1 - F(1, 3) * F(2, 3))),  # the vehicle, 5+ save; the infantry out of reach
    ("epic normal hits first, then the macro-weapon's on what is left", "epic", {"mw"}, EPIC_A,
     'ap = "4+"\n\n[[unit.weapon]]\nname = "V"\nmw = "3+"', EPIC_T, "together",
     F(1, 2) * F(1, 2) + (1 - F(1, 2) * F(1, 2)) * F(2, 3)),
    ("epic a weapon's other mode is not fired with it", "epic", {"alternative"}, EPIC_A,
     SHOT + '\n\n[[unit.weapon]]\nname = "V"\n' + SHOT + '\nalternative = "W"', EPIC_T, "together", None),
    ("epic an aircraft is no target", "epic", {"kind"}, EPIC_A, 'at = "4+"',
     'kind = "aircraft"\nunits = 1\narmour = "6+"', "none", None),
    # --- The 9th Age (docs/rules.md §3): one attack at one model, E[health lost] = hit × wound × unsaved ...
    # a round of combat (grid --combat, §3.11): the roster's Attack Value, Agility, Discipline, width, standard
    ("t9a combat: Attack Value, Agility, Discipline", "t9a", {"attack_value", "agility", "discipline"},
     T9A_A + T9A_FIGHTS, "attacks = 1", T9A_T + T9A_HOLDS, "assault win", COMBAT()["win"]),
    ("t9a combat: the target's width and standard, the charger's Swiftstride", "t9a",
     {"width", "standard", "swiftstride"}, T9A_A + T9A_FIGHTS + "\nswiftstride = true", "attacks = 1",
     T9A_FIVE + T9A_HOLDS + "\nwidth = 2\nstandard = true", "assault caught",
     COMBAT(swiftstride=True, enemy_models=5, enemy_width=2, enemy_standard=True)["caught"]),
    ("t9a combat: the melee attack's Strength and AP", "t9a", {"ap"}, T9A_A + T9A_FIGHTS,
     "attacks = 1\nstrength = 6\nap = 2", T9A_T + T9A_HOLDS + "\narmour = 3", "assault enemy_health_lost",
     COMBAT(strength=6, ap=2, enemy_armour=3)["enemy_health_lost"]),
    ("t9a combat: Great Weapons against Lightning Reflexes", "t9a", {"great_weapon", "lightning_reflexes"},
     T9A_A + T9A_FIGHTS + "\ngreat_weapon = true", "attacks = 1", T9A_T + T9A_HOLDS + "\nlightning_reflexes = true",
     "assault win", COMBAT(great_weapon=True, enemy_lightning_reflexes=True)["win"]),
    ("t9a combat: Spears charged in front, Fight in Extra Rank", "t9a", {"spear", "extra_ranks"},
     T9A_A + T9A_FIGHTS + "\nextra_ranks = 1", "attacks = 1", T9A_T + T9A_HOLDS + "\nspear = true",
     "assault win", COMBAT(extra_ranks=1, enemy_spear=True)["win"]),
    ("t9a combat: the charger's Impact Hits", "t9a", {"impact_hits"}, T9A_A + T9A_FIGHTS + '\nimpact_hits = "d3"',
     "attacks = 1", T9A_T + T9A_HOLDS, "assault enemy_health_lost", COMBAT(impact_hits="d3")["enemy_health_lost"]),
    ("t9a combat: a Large charger with a mount that stomps", "t9a", {"mount", "stomp", "height"},
     T9A_A + T9A_FIGHTS + '\nheight = "large"\nmount = "A2 O3 S5 I2 AP1"\nstomp = 1', "attacks = 1", T9A_T + T9A_HOLDS,
     "assault enemy_health_lost", COMBAT(height="large", mount="A2 O3 S5 I2 AP1", stomp=1)["enemy_health_lost"]),
    ("t9a combat: a character joined to each unit, one mounted", "t9a", {"character", "character_mount"},
     T9A_A + T9A_FIGHTS + '\ncharacter = "A3 O5 D5 S4 R4 I5 H2"\ncharacter_mount = "A1 O3 S3 I3"', "attacks = 1",
     T9A_T + T9A_HOLDS + '\ncharacter = "attacks 2 offensive 4 defensive 4 strength 4 resilience 4 agility 4 health 2"',
     "assault enemy_health_lost", COMBAT(character="A3 O5 D5 S4 R4 I5 H2", character_mount="A1 O3 S3 I3",
                                         enemy_character="A2 O4 D4 S4 R4 I4 H2")["enemy_health_lost"]),
    ("t9a combat: Cannot be Stomped, Stubborn, Unbreakable", "t9a", {"cannot_be_stomped", "stubborn", "unbreakable"},
     T9A_A + T9A_FIGHTS + '\nstomp = "d3"\nunbreakable = true', "attacks = 1",
     T9A_T + T9A_HOLDS + "\ncannot_be_stomped = true\nstubborn = true", "assault break",
     COMBAT(stomp="d3", unbreakable=True, enemy_cannot_be_stomped=True, enemy_stubborn=True)["break"]),
    ("t9a combat: the melee attack's attributes, the target's defence", "t9a",
     {"attributes", "multiple_wounds", "fortitude", "parry", "flammable"}, T9A_A + T9A_FIGHTS,
     'attacks = 1\nattributes = ["hatred", "flaming", "reroll-wound-ones"]\nmultiple_wounds = "d3"',
     T9A_T + T9A_HOLDS + '\nhealth = 3\nfortitude = "5+"\nparry = true\nflammable = true', "assault enemy_health_lost",
     COMBAT(hatred=True, flaming=True, reroll_wounds="ones", multiple_wounds="d3", enemy_health=3, enemy_fortitude=5,
            enemy_parry=True, enemy_flammable=True)["enemy_health_lost"]),
    ("t9a combat: the charger's Lance or Devastating Charge", "t9a", {"charge_attacks", "charge_strength", "charge_ap"},
     T9A_A + T9A_FIGHTS + "\ncharge_attacks = 1\ncharge_strength = 2\ncharge_ap = 2", "attacks = 1", T9A_T + T9A_HOLDS,
     "assault enemy_health_lost", COMBAT(charge_attacks=1, charge_strength=2, charge_ap=2)["enemy_health_lost"]),
    ("t9a combat: no Discipline, no combat", "t9a", {"discipline"}, T9A_A + T9A_FIGHTS, "attacks = 1", T9A_T,
     "assault win", None),
    ("t9a one attack", "t9a", {"attacks", "offensive", "defensive", "strength", "resilience", "models"}, T9A_A,
     "attacks = 1", T9A_T, "mean", F(1, 4)),
    ("t9a Offensive Skill", "t9a", {"offensive"}, T9A_A.replace("offensive = 4", "offensive = 8"), "attacks = 1",
     T9A_T, "mean", F(5, 6) * F(1, 2)),
    ("t9a Defensive Skill", "t9a", {"defensive"}, T9A_A, "attacks = 1", T9A_T.replace("defensive = 4", "defensive = 8"),
     "mean", F(1, 3) * F(1, 2)),
    ("t9a the unit's Strength", "t9a", {"strength"}, T9A_A.replace("strength = 4", "strength = 5"), "attacks = 1",
     T9A_T, "mean", F(1, 2) * F(2, 3)),
    ("t9a Resilience", "t9a", {"resilience"}, T9A_A, "attacks = 1", T9A_T.replace("resilience = 4", "resilience = 6"),
     "mean", F(1, 2) * F(1, 6)),
    ("t9a Armour 2 saves on 5+", "t9a", {"armour"}, T9A_A, "attacks = 1", T9A_T + "\narmour = 2", "mean",
     F(1, 4) * F(2, 3)),
    ("t9a Armour Penetration", "t9a", {"ap", "armour"}, T9A_A, "attacks = 1\nap = 1", T9A_T + "\narmour = 2", "mean",
     F(1, 4) * F(5, 6)),
    ("t9a Aegis", "t9a", {"aegis"}, T9A_A, "attacks = 1", T9A_T + '\naegis = "5+"', "mean", F(1, 4) * F(2, 3)),
    ("t9a Fortitude", "t9a", {"fortitude"}, T9A_A, "attacks = 1", T9A_T + '\nfortitude = "4+"', "mean",
     F(1, 4) * F(1, 2)),
    ("t9a Flaming at Flammable", "t9a", {"flammable", "attributes"}, T9A_A, 'attacks = 1\nattributes = ["flaming"]',
     T9A_T + "\nflammable = true", "mean", F(1, 2) * F(3, 4)),
    ("t9a three attacks", "t9a", {"attacks"}, T9A_A, "attacks = 3", T9A_FIVE, "mean", 3 * F(1, 4)),
    ("t9a three attacks at one model", "t9a", {"attacks", "models"}, T9A_A, "attacks = 3", T9A_T, "mean",
     1 - F(3, 4) ** 3),
    ("t9a D3 attacks", "t9a", {"attacks"}, T9A_A, 'attacks = "d3"', T9A_FIVE, "mean", 2 * F(1, 4)),
    ("t9a the attack's own Strength", "t9a", {"strength"}, T9A_A, "attacks = 1\nstrength = 6", T9A_T, "mean",
     F(1, 2) * F(5, 6)),
    ("t9a shooting at Aim 4+", "t9a", {"kind", "aim"}, T9A_A, 'kind = "shooting"\nattacks = 1\naim = "4+"', T9A_T,
     "mean", F(1, 4)),
    ("t9a shooting at -1", "t9a", {"kind", "aim", "modifier"}, T9A_A,
     'kind = "shooting"\nattacks = 1\naim = "4+"\nmodifier = -1', T9A_T, "mean", F(1, 3) * F(1, 2)),
    ("t9a melee hit modifier", "t9a", {"modifier"}, T9A_A, "attacks = 1\nmodifier = 1", T9A_T, "mean",
     F(2, 3) * F(1, 2)),
    ("t9a Multiple Wounds (2) at 2 Health Points", "t9a", {"multiple_wounds", "health"}, T9A_A,
     "attacks = 1\nmultiple_wounds = 2", T9A_T + "\nhealth = 2", "mean", F(1, 4) * 2),
    ("t9a Multiple Wounds capped at Health", "t9a", {"multiple_wounds", "health"}, T9A_A,
     "attacks = 1\nmultiple_wounds = 3", T9A_T + "\nhealth = 2", "mean", F(1, 4) * 2),
    ("t9a kills of three models", "t9a", {"models"}, T9A_A, "attacks = 6", T9A_T.replace("models = 1", "models = 3"),
     "kills", kills_at_most(6, F(1, 4), 3)),
    ("t9a Battle Focus", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["battle-focus"]', T9A_FIVE, "mean",
     (F(1, 2) + F(1, 6)) * F(1, 2)),
    ("t9a Poison", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["poison"]', T9A_T, "mean",
     F(1, 6) + F(1, 3) * F(1, 2)),
    ("t9a Lethal Strike", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["lethal-strike"]',
     T9A_T + "\narmour = 6", "mean", F(1, 2) * (F(1, 6) + F(1, 3) * F(1, 6))),
    ("t9a Divine against Aegis", "t9a", {"attributes", "aegis"}, T9A_A, 'attacks = 1\nattributes = ["divine"]',
     T9A_T + '\naegis = "4+"', "mean", F(1, 4) * (1 - F(1, 4))),
    ("t9a Flaming denies Fortitude", "t9a", {"attributes", "fortitude"}, T9A_A, 'attacks = 1\nattributes = ["flaming"]',
     T9A_T + '\nfortitude = "4+"', "mean", F(1, 4)),
    ("t9a Toxic", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["toxic"]', T9A_T + "\narmour = 3",
     "mean", F(1, 2) * F(1, 3)),
    ("t9a Hatred", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["hatred"]', T9A_T, "mean",
     F(3, 4) * F(1, 2)),
    ("t9a re-rolled wounds", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["reroll-wounds"]', T9A_T,
     "mean", F(1, 2) * F(3, 4)),
    ("t9a points: per 100 points", "t9a", {"points"}, T9A_A, "attacks = 1", T9A_T, "per_100_points", F(1, 4)),
    ("t9a a mount's own Offensive Skill", "t9a", {"offensive"}, T9A_A, "attacks = 1\noffensive = 8", T9A_T, "mean",
     F(5, 6) * F(1, 2)),
    ("t9a Parry: Defensive Skill +1", "t9a", {"parry"}, T9A_A.replace("offensive = 4", "offensive = 5"),
     "attacks = 1", T9A_T + "\nparry = true", "mean", F(1, 2) * F(1, 2)),
    ("t9a automatic hits: no to-hit roll", "t9a", {"kind"}, T9A_A, 'kind = "automatic"\nattacks = 2', T9A_FIVE,
     "mean", 2 * F(1, 2)),
    ("t9a re-roll 1s to wound", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["reroll-wound-ones"]', T9A_T,
     "mean", F(1, 2) * (F(1, 2) + F(1, 6) * F(1, 2))),
    ("t9a re-roll 1s to hit", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["reroll-hit-ones"]', T9A_T,
     "mean", (F(1, 2) + F(1, 6) * F(1, 2)) * F(1, 2)),
    ("t9a the target re-rolls failed armour saves", "t9a", {"reroll_armour", "armour"}, T9A_A, "attacks = 1",
     T9A_T + '\narmour = 3\nreroll_armour = "failed"', "mean", F(1, 2) * F(1, 2) * F(1, 4)),
    ("t9a the target re-rolls 1s on its special save", "t9a", {"reroll_special"}, T9A_A, "attacks = 1",
     T9A_T + '\naegis = "4+"\nreroll_special = "ones"', "mean", F(1, 2) * F(1, 2) * (1 - F(1, 2) * F(7, 6))),
    ("t9a wounds automatically", "t9a", {"attributes"}, T9A_A, 'attacks = 1\nattributes = ["auto-wound"]', T9A_T,
     "mean", F(1, 2)),
    ("t9a wounds automatically, a Flammable target", "t9a", {"attributes", "flammable"}, T9A_A,
     'attacks = 1\nattributes = ["auto-wound", "flaming"]', T9A_T + "\nflammable = true", "mean", F(1, 2)),
    ("t9a Paired Weapons ignore Parry", "t9a", {"parry", "attributes"}, T9A_A.replace("offensive = 4", "offensive = 5"),
     'attacks = 1\nattributes = ["ignores-parry"]', T9A_T + "\nparry = true", "mean", F(2, 3) * F(1, 2)),
    ("t9a no Parry", "t9a", {"parry"}, T9A_A.replace("offensive = 4", "offensive = 5"), "attacks = 1", T9A_T, "mean",
     F(2, 3) * F(1, 2)),
    ("t9a Distracting: -1 to hit in melee", "t9a", {"distracting"}, T9A_A, "attacks = 1",
     T9A_T + "\ndistracting = true", "mean", F(1, 3) * F(1, 2)),
    ("t9a Distracting does not add to another -1", "t9a", {"distracting", "modifier"}, T9A_A,
     "attacks = 1\nmodifier = -1", T9A_T + "\ndistracting = true", "mean", F(1, 3) * F(1, 2)),
    ("t9a Hard Target: -1 to hit when shot at", "t9a", {"hard_target"}, T9A_A,
     'kind = "shooting"\nattacks = 1\naim = "4+"', T9A_T + "\nhard_target = 1", "mean", F(1, 3) * F(1, 2)),
]

REFUSED = [
    ("dust", DUST_A, LINE + "\ncharges = 2", DUST_T, "charges"),
    ("dust", DUST_A, LINE + '\nrange = "6"\narcing = true', DUST_T, "range"),
    ("dust", DUST_A, LINE + '\nrange = "far"', DUST_T, "range"),
    ("epic", EPIC_A, "bp = 3\nshots = 2", EPIC_T, "shots"),
    ("epic", EPIC_A, SHOT + '\nspecial = ["macro"]', EPIC_T, "special"),
    ("epic", EPIC_A, 'at = "4+"\ntk_damage = "d3"', EPIC_T, "tk_damage"),
    ("epic", EPIC_A, SHOT + '\nalternative = "Gun"', EPIC_T, "alternative"),
    ("epic", EPIC_A, SHOT, 'kind = "war-engine"\nunits = 1\narmour = "4+"', "damage_capacity"),
    ("epic", EPIC_A, SHOT, EPIC_T + "\nshields = 2", "shields"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\ncritical = "destroyed"', "critical"),
    ("epic", EPIC_A, SHOT, EPIC_T + "\nother_units = 2", "other_units"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\nother_engines = ["1 DC2"]', "other_engines"),
    ("epic", EPIC_A, SHOT, ENGINE + '\nother_engines = ["1 DC2 wings"]', "other_engines"),
    ("epic", EPIC_A, SHOT, ENGINE + '\nother_engines = ["10 DC2", "10 DC1"]', "other_engines"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\nother_armour = "4+"', "other_armour"),
    ("epic", EPIC_A, SHOT, ENGINE + '\nother_armour = "4+"', "other_armour"),
    ("epic", EPIC_A, SHOT, ENGINE + '\nother_units = 1\nothers_in_front = true', "others_in_front"),
    ("epic", EPIC_A, SHOT, ENGINE + '\nother_units = 1\nother_armour = "none"\nother_reinforced = true',
     "other_reinforced"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\nother_kind = "light-vehicle"', "other_kind"),
    ("epic", EPIC_A, SHOT, 'kind = "armoured-vehicle"\nunits = 1\narmour = "4+"\nvehicles = 1', "vehicles"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\nvehicle_armour = "4+"', "vehicle_armour"),
    ("epic", EPIC_A, SHOT, EPIC_T + '\nvehicle_armour = "none"', "vehicle_armour"),
    ("epic", EPIC_A, SHOT, EPIC_T + "\nvehicles = 1", "vehicle_armour"),  # needed: "none" is a value, not a default
    ("epic", EPIC_A, SHOT, EPIC_T + '\nfront = "vehicles"', "front"),
    ("epic", EPIC_A, SHOT, MIXED.replace('vehicle_armour = "5+"', 'vehicle_armour = "none"')
     + "\nvehicle_reinforced = true", "vehicle_reinforced"),
    ("t9a", T9A_A, 'kind = "shooting"\nattacks = 1\naim = "4+"\noffensive = 5', T9A_T, "offensive"),
    ("t9a", T9A_A, 'attacks = 1\nstrength = 3\nattributes = ["toxic"]', T9A_T, "strength"),
    ("t9a", T9A_A, 'attacks = 1\nap = 2\nattributes = ["toxic"]', T9A_T, "ap"),
    ("t9a", T9A_A, 'attacks = 1\naim = "4+"', T9A_T, "aim"),
    ("t9a", T9A_A, 'kind = "automatic"\nattacks = 2\naim = "4+"', T9A_T, "aim"),
    ("t9a", T9A_A, 'attacks = 2\nattributes = ["auto-wound", "lethal-strike"]', T9A_T, "attributes"),
    ("t9a", T9A_A, "attacks = 1", T9A_T + '\nreroll_special = "failed"', "reroll_special"),
    ("t9a", T9A_A, 'kind = "automatic"\nattacks = 2\nmodifier = -1', T9A_T, "modifier"),
    ("t9a", T9A_A, 'kind = "automatic"\nattacks = 2\nattributes = ["poison"]', T9A_T, "attributes"),
]


def together(game: str, attacker: str, weapon: str, target: str) -> F | None:
    """The mean of every weapon of "A" fired together at "T" (None when there is nothing to combine)."""
    loaded = games.parse_roster(roster(game, attacker, weapon, target), "case.toml")
    attack = loaded.game.together(loaded.unit("A"), loaded.unit("T"))
    return None if attack is None else pmf.mean(attack.exact(fractions=True)[attack.outcomes[0]])


def cell(game: str, attacker: str, weapon: str, target: str, assault: bool = False):
    loaded = games.parse_roster(roster(game, attacker, weapon, target), "case.toml")
    (pair,) = matchups(loaded.game, [loaded.unit("A")], [loaded.unit("T")], assault=assault)
    return loaded, pair


def measure(statistic: str, loaded, pair) -> F | None:
    """The cell's statistic, exactly (Fractions)."""
    if statistic.startswith("reaches "):
        return loaded.game.reaches(pair.weapon, int(statistic.split()[1]))
    if pair.attack is None:
        return None
    exact = pair.attack.exact(fractions=True)
    main = exact[pair.attack.outcomes[0]]
    if statistic == "mean":
        return pmf.mean(main)
    if statistic == "p_kill":
        return sum(main[loaded.game.kill_threshold(pair.target, pair.attack):], F(0))
    if statistic == "per_100_points":
        return pmf.mean(main) * 100 / pair.attacker.points
    if statistic.startswith("assault "):  # the assault cell's outcome (its pmf's mean: a chance for win)
        return pmf.mean(exact[statistic.split()[1]])
    if statistic == "mean in crossfire":
        return pmf.mean(replace(pair.attack, crossfire=True).exact(fractions=True)[pair.attack.outcomes[0]])
    return pmf.mean(exact[statistic])


@pytest.mark.parametrize("name, game, fields, attacker, weapon, target, statistic, expected", CASES,
                         ids=[case[0] for case in CASES])
def test_a_field_changes_the_cell_as_the_rules_say(name, game, fields, attacker, weapon, target, statistic,
                                                   expected):
    if statistic == "together":
        assert together(game, attacker, weapon, target) == expected
        return
    loaded, pair = cell(game, attacker, weapon, target, assault=statistic.startswith("assault "))
    assert measure(statistic, loaded, pair) == expected


@pytest.mark.parametrize("game, attacker, weapon, target, field", REFUSED, ids=[r[-1] for r in REFUSED])
def test_a_field_that_would_be_ignored_is_refused(game, attacker, weapon, target, field):
    with pytest.raises(InputError) as error:
        cell(game, attacker, weapon, target)
    assert f"field '{field}'" in error.value.allowed


@pytest.mark.parametrize("game", list(games.GAMES))
def test_every_schema_field_has_a_case(game):
    schema = games.GAMES[game].schema
    fields = (set(schema.unit) | set(schema.weapon)) - {"name"}
    covered = set().union(*(case[2] for case in CASES if case[1] == game))
    assert fields <= covered, f"fields without a case: {sorted(fields - covered)}"


def test_the_table_shows_what_the_cell_computes():
    """The grid row of a case reads the same numbers: mean, p_kill and per 100 points."""
    loaded = games.parse_roster(roster("dust", DUST_A, "incendiary = 1\ncount = 2", DUST_T), "case.toml")
    grid = run_grid(loaded, attackers=["A"], target_names=["T"], method="exact")
    (row,) = grid_rows(loaded.game, grid.pairs, grid.results, [1, 3])
    damage = [comb(8, k) * P**k * (1 - P) ** (8 - k) for k in range(9)]
    assert row["mean"] == pytest.approx(8 / 3, abs=1e-12)
    assert row["p_kill"] == pytest.approx(float(sum(damage[4:])), abs=1e-12)
    assert row["at_least_3"] == pytest.approx(float(sum(damage[3:])), abs=1e-12)
    assert row["per_100_points"] == pytest.approx(8 / 3 * 100 / 10, abs=1e-12)
    assert row["query"] == "oddscalc dust incendiary 1 --models 4 --count 2 --exact"


# --- every cell is its query -----------------------------------------------------------


def every_cell():
    """Every cell of the bundled rosters and of the field cases, as (label, query, exact pmfs)."""
    rosters = [games.load_roster(None, game) for game in games.GAMES]
    rosters += [games.parse_roster(roster(case[1], *case[3:6]), case[0]) for case in CASES if case[6] != "together"]
    cells = []
    for loaded in rosters:
        for pair in matchups(loaded.game, loaded.units, loaded.units):
            if pair.attack is not None:
                label = f"{loaded.source}: {pair.attacker.name}/{pair.weapon.name} → {pair.target.name}"
                cells.append((label, pair.attack))
    epic = games.load_roster(None, "epic")  # the bundled formations' assaults (grid --assault), a few of them
    for pair in matchups(epic.game, epic.units[:3], epic.units[4:6], assault=True):
        cells.append((f"{epic.source}: {pair.attacker.name} assaults {pair.target.name}", pair.attack))
    return cells


CELLS = every_cell()


def test_the_cells_cover_every_kind_of_attack():
    kinds = {type(attack).__name__ for _, attack in CELLS}
    assert kinds >= {"WeaponLine", "Phaser", "Salvo", "Incendiary", "ArmourPiercingIncendiary", "EpicShoot",
                     "Barrage", "Melee", "T9AShoot", "Assault"}


@pytest.mark.parametrize("label, attack", CELLS, ids=[label.replace("→", "->") for label, _ in CELLS])  # ASCII ids
def test_a_cell_equals_its_query_exactly(capsys, label, attack):
    """Run the cell's query as a user would; its exact answer equals the cell's, every outcome:
    the same rationals, and the same figures in the JSON a user reads."""
    query = attack.query()
    assert query.startswith("oddscalc ")
    parsed = parse_query(query).attack
    rationals = parsed.exact(fractions=True)
    assert all(list(rationals[name]) == list(pmf_) for name, pmf_ in attack.exact(fractions=True).items())
    data = exact_json(capsys, *shlex.split(query)[1:])
    assert list(data["outcomes"]) == list(attack.outcomes)
    for name, pmf_ in attack.exact().items():
        shown = data["outcomes"][name]["pmf"]
        assert shown == [clean(p) for p in pmf.trim(pmf_)], name


def test_a_query_that_differs_gives_a_different_answer(capsys):
    """The check above can fail: a cell with count 2 is not the query without it."""
    _, pair = cell("dust", DUST_A, "incendiary = 1\ncount = 2", DUST_T)
    data = exact_json(capsys, "dust", "incendiary", "1", "--models", "4")
    assert data["outcomes"]["damage"]["pmf"] != [clean(p) for p in pmf.trim(pair.attack.exact()["damage"])]


def test_show_query_prints_the_column(capsys):
    text = run(capsys, "grid", "--game", "dust", "--exact", "--show-query").out
    assert "oddscalc dust incendiary 1 --models 5 --count 2" in text
    assert "oddscalc dust" not in run(capsys, "grid", "--game", "dust", "--exact").out.split("\n", 1)[1]


# --- a field: what it allows, and what it reads ---------------------------------------


@pytest.mark.parametrize("field, allowed", [
    (Field("bool", ""), "expected true or false"),
    (Field("list", "", choices=("a", "b")), "expected a list of a, b"),
    (Field("list", ""), "expected a list of text"),
    (Field("dice", ""), 'expected a number or dice like 10, "2d6" or "d3+1"'),
    (Field("text", "", choices=("x", "y")), "expected one of x, y"),
    (Field("text", ""), "expected text"),
    (Field("roll", "", low=2, high=6), 'expected a roll from 2+ to 6+ (4 or "4+")'),
    (Field("save", "", low=3, high=5), 'expected a roll from 3+ to 5+ (4 or "4+"), or "none"'),
    (Field("int", "", low=1, high=10), "expected a whole number from 1 to 10"),
    (Field("int", "", low=0), "expected a whole number from 0"),
    (Field("int", ""), "expected a whole number"),
])
def test_a_field_says_what_it_allows(field, allowed):
    assert field.allowed() == allowed


@pytest.mark.parametrize("field, good, bad", [
    (Field("bool", ""), [(True, True), (False, False)], [1, "true"]),
    (Field("int", "", low=1, high=10), [(1, 1), (10, 10)], [0, 11, True, 2.0, "3"]),
    (Field("roll", "", low=2, high=6), [(2, 2), ("6+", 6), (" 4+ ", 4), ("5", 5)], [1, 7, "7+", "none", True, 4.0]),
    (Field("save", "", low=2, high=6), [("none", None), ("NONE", None), ("3+", 3)], ["never", 0]),
    (Field("dice", ""), [(3, "3"), ("d3+1", "1d3+1"), ("2D6", "2d6")], ["d6-6", True, 1.5, "x"]),
    (Field("list", "", choices=("a",)), [(["a"], ("a",)), ([], ())], [["b"], "a", [1]]),
    (Field("text", "", choices=("x",)), [("x", "x")], ["y", "", 3]),
])
def test_a_field_reads_what_it_allows_and_refuses_the_rest(field, good, bad):
    for value, read in good:
        assert field.read(value) == read
    for value in bad:
        with pytest.raises(ValueError):
            field.read(value)


@pytest.mark.parametrize("target, shown", [
    (EPIC_T, "infantry, 1 unit, armour 4+"),
    ('kind = "infantry"\nunits = 3\narmour = "none"\ncover_save = "4+"', "infantry, 3 units, armour none (cover save "
                                                                        "4+, in cover)"),
    ('kind = "infantry"\nunits = 2\narmour = "5+"\ncover_save = "5+"\nin_cover = false\ninvulnerable = true',
     "infantry, 2 units, armour 5+ (invulnerable, cover save 5+)"),
    ('kind = "armoured-vehicle"\nunits = 4\narmour = "4+"\nreinforced = true\nthick_rear_armour = true',
     "armoured-vehicle, 4 units, armour 4+ (reinforced, thick rear armour)"),
    (MIXED, "infantry, 1 unit, armour 4+, 1 vehicle, armour 5+, infantry in front"),
    (MIXED.replace('"5+"', '"none"') + '\nfront = "vehicles"',
     "infantry, 1 unit, armour 4+, 1 vehicle, armour none, vehicles in front"),
    (MIXED + "\nvehicle_reinforced = true", "infantry, 1 unit, armour 4+, 1 vehicle, armour 5+ reinforced, infantry "
                                            "in front"),
    (ENGINE + '\nshields = 2\ncritical = "damage"', "war-engine, 1 unit, armour 4+ (DC 1, 2 shields, critical damage)"),
    (ENGINE.replace("units = 1", "units = 2") + "\nshields = 1\nother_units = 3",
     "war-engine, 2 units, armour 4+ (DC 1, 1 shield, critical none, 3 other units)"),
    (ENGINE + '\nother_units = 8\nother_armour = "5+"',
     "war-engine, 1 unit, armour 4+ (DC 1, 0 shields, critical none, 8 other units (infantry, armour 5+, behind the "
     "war engines))"),
    (ENGINE + '\nother_units = 1\nother_armour = "4+"\nother_reinforced = true\nother_kind = "armoured-vehicle"'
              '\nothers_in_front = true',
     "war-engine, 1 unit, armour 4+ (DC 1, 0 shields, critical none, 1 other unit (armoured-vehicle, armour 4+ "
     "reinforced, in front of the war engines))"),
    (ENGINE + '\nother_units = 2\nother_armour = "none"',
     "war-engine, 1 unit, armour 4+ (DC 1, 0 shields, critical none, 2 other units (infantry, armour none, behind the "
     "war engines))"),
    (ENGINE + '\nother_engines = ["2 DC1 armour 5+ shields 1", "1 DC3 critical destroyed"]',
     "war-engine, 1 unit, armour 4+ (DC 1, 0 shields, critical none, behind them 2 DC1 armour 5+ shields 1, behind "
     "them 1 DC3 armour none critical destroyed)"),
])
def test_an_epic_profile_reads_as_its_fields(capsys, tmp_path, target, shown):
    """What `oddscalc profiles` shows of a unit: its kind, units and armour, then what else defends it."""
    path = tmp_path / "units.toml"
    path.write_text(roster("epic", EPIC_A, SHOT, target), encoding="utf-8")
    rows = run(capsys, "profiles", "--file", path, "--format", "json").json()["units"]
    assert [row["name"] for row in rows] == ["A", "T"]
    loaded = games.parse_roster(roster("epic", EPIC_A, SHOT, target), "units.toml")
    assert loaded.game.describe_unit(loaded.unit("T")) == shown
    table = run(capsys, "profiles", "--file", path, "--format", "csv").out
    assert f'"{shown}"' in table or f",{shown}," in table


def test_the_whole_formation_is_what_a_cells_p_kill_counts():
    """P(kill) counts every unit of a mixed formation, and a war-engine formation's other units only when the
    fire reaches them (docs/rules.md §2.8)."""
    loaded = games.parse_roster(roster("epic", EPIC_A, SHOT, MIXED.replace("units = 1", "units = 3")), "t.toml")
    assert loaded.game.kill_threshold(loaded.unit("T")) == 4  # 3 infantry and 1 vehicle
    target = ENGINE + '\nother_units = 2\nother_armour = "5+"'
    for weapon, threshold in ((SHOT, 3), ('at = "4+"', 1)):  # AP: its infantry too; AT: the war engine alone
        loaded, pair = cell("epic", EPIC_A, weapon, target)
        assert loaded.game.kill_threshold(pair.target, pair.attack) == threshold
    assert loaded.game.kill_threshold(pair.target) == 1  # no attack: the war engines


def test_a_formation_of_more_than_twenty_units_is_no_war_engine_count():
    """The cap on war engines in all (other_engines) counts war engines only: a horde of 30 loads."""
    loaded = games.parse_roster(roster("epic", EPIC_A, SHOT, EPIC_T.replace("units = 1", "units = 30")), "horde.toml")
    assert loaded.unit("T")["units"] == 30


@pytest.mark.parametrize("more, name", [('mount = "A1 O3"', "mount"), ('stomp = "2d10"', "stomp"),
                                        ('character = "A1 O3 lance"', "character")])
def test_a_combat_field_that_cannot_be_read_is_refused_on_load(more, name):
    with pytest.raises(InputError) as error:
        games.parse_roster(roster("t9a", T9A_A + T9A_FIGHTS + "\n" + more, "attacks = 1", T9A_T), "case.toml")
    assert f"field '{name}'" in error.value.allowed and "\n" not in str(error.value)


def test_a_titan_killer_without_a_to_hit_value_against_the_part_in_front_makes_no_attack():
    """A mixed formation with its infantry in front, shot at by an AT-only titan killer: no attack on that
    part (it raised a TypeError, found when the roster module's types were checked)."""
    roster = games.parse_roster('game = "epic"\n[[unit]]\nname = "Mixed"\npoints = 200\nkind = "infantry"\nunits = 4\n'
                                'armour = "5+"\nvehicles = 2\nvehicle_armour = "4+"\nfront = "infantry"\n\n[[unit]]\n'
                                'name = "Hunters"\npoints = 200\nkind = "infantry"\nunits = 2\narmour = "4+"\n\n'
                                '[[unit.weapon]]\nname = "TK"\nshots = 1\nat = "4+"\nspecial = ["titan-killer"]\n',
                                "mixed.toml")
    mixed, hunters = roster.units
    assert roster.game.matchup(hunters, hunters.weapons[0], mixed) is None
